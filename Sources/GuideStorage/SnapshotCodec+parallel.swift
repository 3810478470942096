import Foundation
import GuideCore

// Decoding a snapshot's programmes in parallel: the array is cut between elements and each
// part is read by its own task.

extension SnapshotCodec {
    /// Below twice this many programmes one decoder reads the whole file: splitting would cost
    /// more than it saves.
    static let defaultProgrammesPerChunk = 2_000

    /// The snapshot with its programmes decoded in chunks on every core at once, each by
    /// `ProgrammeJSONReader` (`JSONDecoder` where it gives up): decoding is most of
    /// `tvguide serve`'s start-up (`JSONDecoder` alone takes 1.2 s of CPU for a 50,000-programme
    /// week). The programmes array is cut between elements; the rest of the file decodes with
    /// an empty array in its place, alongside the chunks. Nil when the file is small, not laid out as a
    /// snapshot, or any part fails: the caller then decodes the whole file in one go, whose
    /// errors name the failing field from the top (`programmes[4012].start`) as they always did.
    static func decodeInParallel(_ data: Data, programmesPerChunk: Int) -> Snapshot? {
        let perChunk = max(1, programmesPerChunk)
        guard let layout = ProgrammesLayout(data), layout.elementCount / perChunk >= 2 else { return nil }
        let chunkCount = min(layout.elementCount / perChunk, 4 * ProcessInfo.processInfo.activeProcessorCount)
        let bounds = (0...chunkCount).map { $0 * layout.elementCount / chunkCount }
        // The last task reads everything but the programmes.
        let pieces = concurrentMap(chunkCount + 1) { task -> DecodedPiece in
            if task == chunkCount {
                let rest = data.bytes(0..<layout.open + 1, then: layout.close..<data.count)
                return .rest(try? decoder().decode(Snapshot.self, from: rest))
            }
            let elements = layout.bytes(ofElements: bounds[task]..<bounds[task + 1])
            let chunk = data.bytes(elements, bracketed: true)
            return .programmes(ProgrammeJSONReader.programmes(in: chunk, expectedCount: bounds[task + 1] - bounds[task])
                                   ?? (try? decoder().decode([Programme].self, from: chunk)).map(interned))
        }
        return DecodedPiece.snapshot(pieces, expecting: layout.elementCount)
    }
}

/// What one task of a parallel decode produced.
private enum DecodedPiece: Sendable {
    case programmes([Programme]?)
    case rest(Snapshot?)

    /// The whole snapshot, or nil when a piece failed or the pieces do not add up.
    static func snapshot(_ pieces: [DecodedPiece], expecting count: Int) -> Snapshot? {
        guard case .rest(var snapshot?) = pieces.last, snapshot.programmes.isEmpty else { return nil }
        var programmes: [Programme] = []
        programmes.reserveCapacity(count)
        for piece in pieces.dropLast() {
            guard case .programmes(let chunk?) = piece else { return nil }
            programmes.append(contentsOf: chunk)
        }
        guard programmes.count == count else { return nil }
        snapshot.programmes = programmes
        return snapshot
    }
}

/// Where the top-level `programmes` array of a snapshot's JSON and the commas between its
/// elements are: a scan that only follows strings and nesting, so it is a small part of the
/// decoding it splits.
struct ProgrammesLayout {
    /// Offsets of the array's `[` and `]`.
    private(set) var open = -1
    private(set) var close = -1
    /// Offsets of the commas between the array's elements.
    private(set) var commas: [Int] = []
    private(set) var elementCount = 0

    /// Nil unless the bytes are an object with one `"programmes"` member that is an array.
    init?(_ data: Data) {
        guard let layout = data.withUnsafeBytes({ Self.scan($0) }) else { return nil }
        self = layout
    }

    private init() {}

    /// The byte range of elements `elements` without the commas around them.
    func bytes(ofElements elements: Range<Int>) -> Range<Int> {
        let start = elements.lowerBound == 0 ? open + 1 : commas[elements.lowerBound - 1] + 1
        let end = elements.upperBound == elementCount ? close : commas[elements.upperBound - 1]
        return start..<end
    }

    private static func scan(_ bytes: UnsafeRawBufferPointer) -> ProgrammesLayout? {
        let quote = UInt8(ascii: "\"")
        var layout = ProgrammesLayout()
        var depth = 0
        var inProgrammes = false
        // The last string that ended at the top level: the key of the member whose value follows.
        var key = 0..<0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case quote:
                let start = index + 1
                guard let end = closingQuote(bytes, from: start) else { return nil }
                index = end
                if depth == 1 { key = start..<index }
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "["):
                guard depth > 0 else { return nil }
                if depth == 1 && isProgrammes(bytes, key) {
                    guard layout.open < 0 else { return nil }
                    layout.open = index
                    inProgrammes = true
                }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if inProgrammes && depth == 1 {
                    layout.close = index
                    inProgrammes = false
                }
            case UInt8(ascii: ","):
                if inProgrammes && depth == 2 { layout.commas.append(index) }
            default:
                break
            }
            index += 1
        }
        guard layout.close > layout.open, layout.open >= 0 else { return nil }
        let isEmpty = layout.commas.isEmpty && bytes[(layout.open + 1)..<layout.close].allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        layout.elementCount = isEmpty ? 0 : layout.commas.count + 1
        return layout
    }

    /// The offset of the quote that ends the string starting at `start`. Texts are most of a
    /// snapshot's bytes, so the scan jumps between quotes with `memchr` rather than stepping
    /// through each byte: a quote after an odd number of backslashes is escaped, and skipped.
    private static func closingQuote(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var from = start
        while from < bytes.count, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), bytes.count - from) {
            let at = base.distance(to: UnsafeRawPointer(found))
            var backslashes = 0
            while at - backslashes - 1 >= start && bytes[at - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 { return at }
            from = at + 1
        }
        return nil
    }

    private static func isProgrammes(_ bytes: UnsafeRawBufferPointer, _ key: Range<Int>) -> Bool {
        let name = "programmes".utf8
        return key.count == name.count && zip(bytes[key], name).allSatisfy { $0 == $1 }
    }
}

private extension Data {
    /// A copy of the bytes at `range` (offsets from the first byte), in `[` `]` when `bracketed`.
    func bytes(_ range: Range<Int>, bracketed: Bool) -> Data {
        var out = Data(capacity: range.count + 2)
        if bracketed { out.append(UInt8(ascii: "[")) }
        out.append(self[(startIndex + range.lowerBound)..<(startIndex + range.upperBound)])
        if bracketed { out.append(UInt8(ascii: "]")) }
        return out
    }

    /// A copy of the bytes at `first` followed by those at `second`.
    func bytes(_ first: Range<Int>, then second: Range<Int>) -> Data {
        var out = Data(capacity: first.count + second.count)
        out.append(self[(startIndex + first.lowerBound)..<(startIndex + first.upperBound)])
        out.append(self[(startIndex + second.lowerBound)..<(startIndex + second.upperBound)])
        return out
    }
}
