import Foundation

/// Many texts as one block of UTF-8 and where each ends. A snapshot companion's synopses are
/// kept so: nearly every airing has a synopsis of its own, and as a `String` each was an
/// allocation with about 45 bytes of header and rounding besides its text (bench/scale.sh counts
/// a served guide's bytes per programme). A text is made a `String` only when read.
package final class TextBlock: Sendable {
    private let bytes: [UInt8]
    /// Where each text ends in `bytes`; the first starts at 0 and each next where the last ended.
    private let ends: [UInt32]

    /// Nil when the bytes do not fit 32-bit offsets, or a text is not whole UTF-8.
    package init?(bytes: [UInt8], ends: [UInt32]) {
        guard bytes.count <= Int(UInt32.max), ends.last.map(Int.init) ?? 0 == bytes.count,
              Self.isWholeUTF8(bytes, ends: ends) else { return nil }
        self.bytes = bytes
        self.ends = ends
    }

    package var count: Int { ends.count }

    package func text(_ number: Int) -> String {
        let start = number == 0 ? 0 : Int(ends[number - 1])
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<Int(ends[number])]), as: UTF8.self) }
    }

    /// Every text valid UTF-8 on its own: the texts rise, each slice of them is valid, and none
    /// starts on a continuation byte (so no character is split between two texts). Checked in
    /// slices of texts on every core, in place (`UTF8Span`).
    private static func isWholeUTF8(_ bytes: [UInt8], ends: [UInt32]) -> Bool {
        let slices = stride(from: 0, to: ends.count, by: 16_384).map { $0..<min($0 + 16_384, ends.count) }
        return concurrentMap(slices.count) { slice -> Bool in
            var start = slices[slice].lowerBound == 0 ? 0 : Int(ends[slices[slice].lowerBound - 1])
            let sliceStart = start
            for number in slices[slice] {
                let end = Int(ends[number])
                guard start <= end, end <= bytes.count else { return false }
                if start < end, UTF8.isContinuation(bytes[start]) { return false }
                start = end
            }
            return (try? UTF8Span(validating: bytes.span.extracting(sliceStart..<start))) != nil
        }.allSatisfy { $0 }
    }
}

/// A text of a programme: its own `String`, or one left in a `TextBlock`. Compared and hashed
/// as the `String` it reads as, wherever it is kept.
enum StoredText: Sendable, Hashable {
    case string(String)
    case stored(TextBlock, UInt32)

    var string: String {
        switch self {
        case .string(let text): text
        case .stored(let block, let number): block.text(Int(number))
        }
    }

    static func == (lhs: StoredText, rhs: StoredText) -> Bool {
        if case .stored(let left, let a) = lhs, case .stored(let right, let b) = rhs, left === right, a == b { return true }
        return lhs.string == rhs.string
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(string)
    }
}
