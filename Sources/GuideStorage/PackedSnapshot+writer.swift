import Foundation
import GuideCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing a companion: its tables of texts and templates, then the records, a slice at a time.
extension PackedSnapshot {
    /// All a companion holds but the identity of its JSON, which exists only once the JSON has
    /// been written: a store makes this on another core meanwhile.
    package struct Contents: Sendable {
        private let restJSON: [UInt8]
        private let texts: TextTable
        private let synopses: TextTable
        private let templates: TextTable
        private let programmes: Int
        private let slices: [(programmes: Int, records: Records)]
        /// Where the records went as they were made: they are written last, after the tables
        /// only complete once every record is made, and held until then they sat beside the JSON
        /// being written.
        private let recordsFile: SpillFile?

        /// A slice's records, in memory or at `bytes` of `recordsFile`.
        private enum Records {
            case held([UInt8])
            case written(bytes: Range<Int>)
        }

        /// `canonical`: as `SnapshotCodec.canonical` gives it (so as the JSON reads back).
        /// `recordsHeldUpTo`: how many bytes of records are held before they go to a temporary file.
        /// Kept whole: its stages share the tables and the spill file they fill.
        package init(canonical: Snapshot, recordsHeldUpTo heldBytes: Int = SpillFile.keptInMemory) throws {
            var rest = canonical
            rest.programmes = []
            restJSON = try SnapshotCodec.encodedBytes(rest)

            // Writing each airing's template and finding the distinct ones is most of the work and
            // needs nothing shared: on every core, a slice at a time. Only each slice's distinct
            // templates are then numbered for the whole snapshot.
            let programmes = canonical.programmes
            let sliceStarts = Array(stride(from: 0, to: programmes.count, by: programmesPerSlice))
            // A template is the airing's kind and details (`template(of:)` empties every other field),
            // so airings holding the same interned details box and kind share it: it is written once
            // per box, not once per airing.
            let sliceTemplates = concurrentMap(sliceStarts.count) { slice -> (distinct: [String], numbers: [Int]) in
                var local = TextTable(capacity: 256)
                var byDetails: [TemplateKey: Int] = [:]
                let numbers = (sliceStarts[slice]..<min(sliceStarts[slice] + programmesPerSlice, programmes.count)).map { index in
                    let key = TemplateKey(details: programmes[index].detailsIdentity, kind: programmes[index].kind)
                    if let number = byDetails[key] { return number }
                    let number = Int(local.number(JSONWriter.compact(template(of: programmes[index]))))
                    byDetails[key] = number
                    return number
                }
                return (local.strings, numbers)
            }
            // Room for half as many texts as airings, about what a week of a large line-up has
            // (docs/internals.md): tables the size of the guide held that much more each, beside
            // the JSON being written.
            var texts = TextTable(capacity: programmes.count / 2)
            var synopses = TextTable(capacity: programmes.count)
            var templates = TextTable(capacity: 1_024)
            var slices: [(programmes: Int, records: Records)] = []
            var spill = SpillFile.Writer()
            var recordsHeld = 0
            // A channel's and a source's airings come together: each is numbered once per run (their
            // bytes compared, as the table compares texts, not their canonical equivalence).
            var channel = (text: "", number: UInt64(0)), source = (text: "", number: UInt64(0))
            for (slice, start) in sliceStarts.enumerated() {
                var records = PackedBytes(capacity: programmesPerSlice * 16)
                let sliceRange = start..<min(start + programmesPerSlice, programmes.count)
                let templateNumbers = sliceTemplates[slice].distinct.map { templates.number($0) }
                // Each programme is handed over in place from the array's buffer: iterating the array
                // copied every one (all its fields retained, then released).
                func record(_ programme: Programme, template: Int) {
                    let credits = programme.credits.flatMap { $0.allSatisfy(isPlain) ? $0 : nil }
                    records.varint((programme.stop != nil ? 1 : 0) | (programme.subtitle != nil ? 2 : 0) | (programme.synopsisText != nil ? 4 : 0)
                                       | (programme.work != nil ? 8 : 0) | (programme.sameStartIndex != nil ? 16 : 0) | (credits != nil ? 32 : 0))
                    if !programme.channel.utf8.elementsEqual(channel.text.utf8) || channel.text.isEmpty { channel = (programme.channel, texts.number(programme.channel)) }
                    records.varint(channel.number)
                    records.signed(wholeSeconds(programme.start))
                    records.varint(texts.number(programme.title))
                    if !programme.source.utf8.elementsEqual(source.text.utf8) || source.text.isEmpty { source = (programme.source, texts.number(programme.source)) }
                    records.varint(source.number)
                    if let stop = programme.stop { records.signed(wholeSeconds(stop) - wholeSeconds(programme.start)) }
                    if let subtitle = programme.subtitle { records.varint(texts.number(subtitle)) }
                    if let synopsis = programme.synopsisText { records.varint(synopses.number(synopsis)) }
                    if let work = programme.work { records.varint(texts.number(work)) }
                    if let place = programme.sameStartIndex { records.signed(Int64(place)) }
                    if let credits {
                        records.varint(UInt64(credits.count))
                        for credit in credits {
                            records.varint((credit.character != nil ? 1 : 0) | (credit.guest != nil ? 2 : 0) | (credit.guest == true ? 4 : 0))
                            records.varint(UInt64(Credit.Role.allCases.firstIndex(of: credit.role)!))
                            records.varint(texts.number(credit.name))
                            if let character = credit.character { records.varint(texts.number(character)) }
                        }
                    }
                    records.varint(templateNumbers[template])
                }
                programmes.withUnsafeBufferPointer { buffer in
                    for index in sliceRange { record(buffer[index], template: sliceTemplates[slice].numbers[index - start]) }
                }
                if spill.file != nil || recordsHeld + records.bytes.count > heldBytes, let range = spill.write(records.bytes) {
                    slices.append((sliceRange.count, .written(bytes: range)))
                } else {
                    // A small guide's, or no temporary file could be made, or a full disk: held.
                    slices.append((sliceRange.count, .held(records.bytes)))
                    recordsHeld += records.bytes.count
                }
            }
            // Their numbers are given: what remains is written, and the lookups would only take room.
            (self.texts, self.synopses, self.templates) = (texts.numbered, synopses.numbered, templates.numbered)
            (self.programmes, self.slices, self.recordsFile) = (programmes.count, slices, spill.file)
        }

        /// The companion of the JSON `identity` names, whole.
        package func bytes(for identity: Identity) throws -> [UInt8] {
            var bytes: [UInt8] = []
            try write(for: identity) { bytes.append(contentsOf: $0) }
            return bytes
        }

        /// The companion of the JSON `identity` names, handed to `write` a megabyte at a time.
        package func write(for identity: Identity, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
            try withoutActuallyEscaping(write) { write in
                var out = PackedBytes(drain: ByteDrain(write))
                out.append(magic)
                out.u32(formatVersion)
                out.u32(0)
                out.append(identity.bytes)
                out.u64(UInt64(restJSON.count))
                out.append(restJSON)
                texts.write(to: &out)
                synopses.write(to: &out)
                let templateTexts = templates.strings
                let chunks = stride(from: 0, to: templateTexts.count, by: templatesPerChunk).map {
                    templateTexts[$0..<min($0 + templatesPerChunk, templateTexts.count)]
                }
                out.u64(UInt64(chunks.count))
                for chunk in chunks {
                    let array = Array("[\(chunk.joined(separator: ","))]".utf8)
                    out.u64(UInt64(array.count))
                    out.append(array)
                }
                out.u64(UInt64(programmes))
                out.u64(UInt64(slices.count))
                for slice in slices {
                    out.u64(UInt64(slice.programmes))
                    switch slice.records {
                    case .held(let bytes):
                        out.u64(UInt64(bytes.count))
                        out.append(bytes)
                    case .written(let range):
                        out.u64(UInt64(range.count))
                        try recordsFile!.withBytes(range) { bytes in
                            guard bytes.count == range.count else {
                                throw SnapshotError.io(file: "their temporary file", operation: "read the companion's records back from",
                                                       detail: "\(bytes.count) of \(range.count) bytes read")
                            }
                            out.append(bytes)
                        }
                    }
                }
                try out.finish()
            }
        }
    }
}

/// Distinct texts in the order first met, each with its number, compared as their UTF-8 bytes
/// (as `UTF8Key` compares them). A text stays where it is kept (a `String`, or a parser's
/// `TextBlock` for a synopsis) instead of being copied into the table: copied as `String`s, a
/// table of synopses cost an allocation an airing besides the text.
private struct TextTable: Sendable {
    private var index: TextIndex
    private var texts: [StoredText] = []

    init(capacity: Int) {
        index = TextIndex(capacity: capacity)
        texts.reserveCapacity(capacity)
    }

    var strings: [String] { texts.map(\.string) }

    mutating func number(_ text: String) -> UInt64 {
        number(.string(text))
    }

    mutating func number(_ text: StoredText) -> UInt64 {
        let hash = text.hash
        let found = index.number(hash: hash) { texts[$0].sameBytes(as: text) }
        if let found { return UInt64(found) }
        texts.append(text)
        return UInt64(index.add(hash: hash) { texts[$0].hash })
    }

    /// The same texts, without the lookup that numbered them.
    var numbered: TextTable {
        var table = self
        table.index = TextIndex()
        return table
    }

    /// The count, where each text starts and where the last ends, the bytes' length, the bytes.
    func write(to out: inout PackedBytes) {
        out.u64(UInt64(texts.count))
        var end: UInt64 = 0
        out.u64(end)
        for text in texts {
            end += UInt64(text.utf8Count)
            out.u64(end)
        }
        out.u64(end)
        for text in texts { text.withUTF8 { out.append($0) } }
    }
}

private struct PackedBytes {
    private(set) var bytes: [UInt8] = []
    /// Where the bytes go as they are written, when they are not all kept.
    private let drain: ByteDrain?

    init(capacity: Int) {
        drain = nil
        bytes.reserveCapacity(capacity)
    }

    /// Bytes handed to `drain` a megabyte at a time, and what is left at `finish()`.
    init(drain: ByteDrain) {
        self.drain = drain
        bytes.reserveCapacity(ByteDrain.capacity)
    }

    /// Hands what is left to the drain; throws the drain's first failure, if any.
    mutating func finish() throws {
        try drain?.finish(&bytes)
    }

    mutating func append(_ more: some Sequence<UInt8>) {
        bytes.append(contentsOf: more)
        drain?.takeIfFull(&bytes)
    }

    mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        drain?.takeIfFull(&bytes)
    }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }
}
