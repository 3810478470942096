import Foundation
import GuideCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A binary companion of a snapshot's JSON (`latest.packed` beside `latest.json`) that
/// `tvguide serve` reads in one pass instead of parsing the JSON: at 3,000 channels × 7 days the
/// JSON decode was three of the five seconds before the first answer.
///
/// The JSON stays the snapshot: users read and diff it, and every store keeps it. The companion
/// is derived from it, names the file it was made for (`Identity`), and is only read while that
/// file is unchanged; anything unexpected in it makes the reader fall back to the JSON.
///
/// What a week repeats is held once: every text is in one table, numbered, and made a `String`
/// once however many airings share it (synopses, which hardly repeat, are a table of their own,
/// read as one `TextBlock`); what varies least per airing (categories, episode
/// numbering, images, ratings…) is one of a few "templates", compact JSON read by
/// `ProgrammeJSONReader` once each. An airing is then a few numbers: its channel, times, title,
/// sub-title, synopsis, source, work, place in a clump, credits, and template.
///
/// Layout (integers little-endian; `varint` is LEB128, `signed` its zigzag form):
/// - 16 bytes `magic`, u32 `formatVersion`, u32 0, the `Identity` as four u64;
/// - u64 length + the snapshot without programmes, as `SnapshotCodec` writes it;
/// - the texts: u64 count, count + 1 u64 offsets, u64 length + their UTF-8 bytes one after another;
/// - the synopses, as the texts;
/// - u64 count of template chunks, each u64 length + a compact JSON array of programmes;
/// - u64 programme count, u64 slice count, then each slice: u64 programmes, u64 length, records.
///
/// A record: a varint of which optional fields follow (stop, sub-title, synopsis, work, place in
/// a clump, credits), then the channel, the start (signed seconds), the title and the source,
/// then those present (the stop as seconds after the start; credits as a count and, for each,
/// flags, role and name, and character), then the template's number. Texts are their numbers (a synopsis, in the synopses).
package enum PackedSnapshot {
    static let magic = Array("tvguide packed\n\u{0}".utf8)
    /// 2: synopses in a table of their own.
    static let formatVersion: UInt32 = 2
    /// Where a companion holds its `Identity`: after the magic, the version and a zero.
    static let identityOffset = magic.count + 8
    /// Programmes per slice of records, and templates per chunk: the units read in parallel.
    static let programmesPerSlice = 8_192
    static let templatesPerChunk = 4_096

    /// The JSON file a companion was made for, as `stat` sees it: a new build writes a new file
    /// (a new inode), and an edit changes its modification time or size.
    package struct Identity: Equatable, Sendable {
        var size: UInt64
        var seconds: UInt64
        var nanoseconds: UInt64
        var inode: UInt64

        package init?(of url: URL) {
            var info = stat()
            guard stat(url.path, &info) == 0 else { return nil }
            size = UInt64(info.st_size)
            inode = UInt64(info.st_ino)
            #if canImport(Darwin)
            seconds = UInt64(bitPattern: Int64(info.st_mtimespec.tv_sec))
            nanoseconds = UInt64(info.st_mtimespec.tv_nsec)
            #else
            seconds = UInt64(bitPattern: Int64(info.st_mtim.tv_sec))
            nanoseconds = UInt64(info.st_mtim.tv_nsec)
            #endif
        }

        init(size: UInt64, seconds: UInt64, nanoseconds: UInt64, inode: UInt64) {
            (self.size, self.seconds, self.nanoseconds, self.inode) = (size, seconds, nanoseconds, inode)
        }

        /// What a companion written before its JSON holds until the JSON's identity is written
        /// over it (at `identityOffset`): no file has it.
        static let unknown = Identity(size: 0, seconds: 0, nanoseconds: 0, inode: 0)

        /// As a companion holds it: four u64, little-endian.
        var bytes: [UInt8] {
            [size, seconds, nanoseconds, inode].flatMap { field in (0..<8).map { UInt8(truncatingIfNeeded: field >> (8 * $0)) } }
        }

        /// A companion kept in the same database row as its JSON, written in the same statement:
        /// the row ties them, and the JSON's length is checked as well.
        package init(storedWithJSONOf length: Int) {
            self.init(size: UInt64(length), seconds: 0, nanoseconds: 0, inode: 0)
        }
    }

    /// The companion of `snapshot` as `SnapshotCodec` writes it (so as the JSON reads back:
    /// canonical order, times in whole seconds).
    package static func encode(_ snapshot: Snapshot, for identity: Identity) throws -> [UInt8] {
        try Contents(canonical: SnapshotCodec.canonical(snapshot)).bytes(for: identity)
    }

    /// `encode(snapshot, for: identity)`'s bytes, handed to `write` a megabyte at a time:
    /// a build writes the companion straight to its file, without holding it whole (126 MB at
    /// 3,000 channels × 7 days, on top of the guide).
    package static func encode(_ snapshot: Snapshot, for identity: Identity,
                               to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        try Contents(canonical: SnapshotCodec.canonical(snapshot)).write(for: identity, to: write)
    }

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
        /// only complete once every record is made, and held until then they were 17 MB at
        /// 3,000 channels × 7 days, beside the JSON being written.
        private let recordsFile: SpillFile?

        /// A slice's records, in memory or at `bytes` of `recordsFile`.
        private enum Records {
            case held([UInt8])
            case written(bytes: Range<Int>)
        }

        /// `canonical`: as `SnapshotCodec.canonical` gives it (so as the JSON reads back).
        /// `recordsHeldUpTo`: how many bytes of records are held before they go to a temporary file.
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
            // Room for half as many texts as airings (3,000 channels × 7 days have 254,000 texts
            // for 532,000 airings): tables the size of the guide held about 12 MB more each, beside
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

    /// The snapshot, or nil when `data` is not a companion of the file `identity` names, or is
    /// damaged in any way the reader can tell: the caller then reads the JSON.
    package static func decode(_ data: Data, expecting identity: Identity) -> Snapshot? {
        do {
            // The reader's offsets count from 0, as a slice's indices do not.
            return try read(data.startIndex == 0 ? data : Data(data), expecting: identity)
        } catch {
            return nil
        }
    }

    /// Why a companion was not read; never shown, the JSON is read instead.
    struct Unreadable: Error {}

    private static func read(_ data: Data, expecting identity: Identity) throws(Unreadable) -> Snapshot {
        var cursor = PackedCursor(count: data.count)
        let magicRange = try cursor.take(magic.count)
        // The version's u32 and the zero after it, read as one little-endian word.
        let version = try cursor.word(data)
        let written = Identity(size: try cursor.word(data), seconds: try cursor.word(data), nanoseconds: try cursor.word(data),
                               inode: try cursor.word(data))
        guard data[magicRange].elementsEqual(magic), version == UInt64(formatVersion), written == identity else { throw Unreadable() }

        let restRange = try cursor.take(Int(cursor.u64(data)))
        let (textCount, offsetsRange, textBytes) = try cursor.textTable(data)
        let synopsisTable = try cursor.textTable(data)
        var chunks: [Range<Int>] = []
        for _ in 0..<(try cursor.count(data, atMost: data.count / 8)) {
            chunks.append(try cursor.take(Int(cursor.u64(data))))
        }
        let programmeCount = try cursor.count(data, atMost: data.count)
        var slices: [(programmes: Int, range: Range<Int>)] = []
        for _ in 0..<(try cursor.count(data, atMost: data.count / 16)) {
            let programmes = try cursor.count(data, atMost: data.count)
            slices.append((programmes, try cursor.take(Int(cursor.u64(data)))))
        }
        let (chunkRanges, sliceRanges) = (chunks, slices)
        guard cursor.offset == data.count, sliceRanges.reduce(0, { $0 + $1.programmes }) == programmeCount else { throw Unreadable() }

        // Every text and template is made once, on every core, and shared by the airings naming it.
        let textSlices = stride(from: 0, to: textCount, by: 16_384).map { $0..<min($0 + 16_384, textCount) }
        let madeTexts = concurrentMap(textSlices.count) { slice in
            data.withUnsafeBytes { bytes -> [String]? in
                var strings: [String] = []
                strings.reserveCapacity(textSlices[slice].count)
                for number in textSlices[slice] {
                    let offset = { (n: Int) in Int(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offsetsRange.lowerBound + 8 * n, as: UInt64.self))) }
                    let (start, end) = (offset(number), offset(number + 1))
                    guard start <= end, end <= textBytes.count,
                          let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[(textBytes.lowerBound + start)..<(textBytes.lowerBound + end)]), as: UTF8.self)
                    else { return nil }
                    strings.append(text)
                }
                return strings
            }
        }
        let madeTemplates = concurrentMap(chunkRanges.count) { chunk in
            let json = data.subdata(in: chunkRanges[chunk])
            return ProgrammeJSONReader.programmes(in: json)
                ?? (try? SnapshotCodec.decoder().decode([Programme].self, from: json)).map(SnapshotCodec.interned)
        }
        let rest = try? SnapshotCodec.decode(data.subdata(in: restRange), programmesPerChunk: .max)
        guard var snapshot = rest, snapshot.programmes.isEmpty, madeTexts.allSatisfy({ $0 != nil }), madeTemplates.allSatisfy({ $0 != nil }),
              let synopses = textBlock(data, synopsisTable)
        else { throw Unreadable() }
        let texts = madeTexts.flatMap { $0! }
        let templates = madeTemplates.flatMap { $0! }

        // Each slice is read straight into its place in the array: appending slices made apart
        // would copy every programme, retaining and releasing each of its texts once more.
        let sliceStarts = sliceRanges.reduce(into: [0]) { $0.append($0.last! + $1.programmes) }
        var failed = false
        let programmes = [Programme](unsafeUninitializedCapacity: programmeCount) { buffer, initializedCount in
            let destination = ProgrammeSlots(base: buffer.baseAddress)
            let read = concurrentMap(sliceRanges.count) { slice -> (count: Int, complete: Bool) in
                data.withUnsafeBytes { bytes in
                    var records = PackedRecords(bytes: UnsafeRawBufferPointer(rebasing: bytes[sliceRanges[slice].range]), texts: texts,
                                                synopses: synopses, templates: templates)
                    var count = 0
                    while count < sliceRanges[slice].programmes, let programme = try? records.programme() {
                        destination.initialize(sliceStarts[slice] + count, to: programme)
                        count += 1
                    }
                    return (count, count == sliceRanges[slice].programmes && records.isAtEnd)
                }
            }
            if read.allSatisfy(\.complete) {
                initializedCount = programmeCount
            } else {
                for (slice, result) in read.enumerated() { destination.deinitialize(sliceStarts[slice]..<(sliceStarts[slice] + result.count)) }
                initializedCount = 0
                failed = true
            }
        }
        guard !failed else { throw Unreadable() }
        snapshot.programmes = programmes
        return snapshot
    }

    /// A table of texts copied out of the companion as a block; nil when its offsets do not rise
    /// from 0 to its length or a text is not UTF-8. A block past 32-bit offsets (a guide with
    /// gigabytes of synopses) is not read either, and the JSON is.
    private static func textBlock(_ data: Data, _ table: (count: Int, offsets: Range<Int>, bytes: Range<Int>)) -> TextBlock? {
        data.withUnsafeBytes { bytes -> TextBlock? in
            let offset = { (n: Int) in UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: table.offsets.lowerBound + 8 * n, as: UInt64.self)) }
            guard offset(0) == 0, table.bytes.count <= Int(UInt32.max) else { return nil }
            var ends: [UInt32] = []
            ends.reserveCapacity(table.count)
            for number in 0..<table.count {
                guard let end = UInt32(exactly: offset(number + 1)) else { return nil }
                ends.append(end)
            }
            return TextBlock(bytes: Array(UnsafeRawBufferPointer(rebasing: bytes[table.bytes])), ends: ends)
        }
    }

    /// The seconds `JSONWriter` writes a time with.
    static func wholeSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// Credits a record holds (a film's cast differs from film to film, and as templates they
    /// were most of the companion's reading): those without pictures or links.
    static func isPlain(_ credit: Credit) -> Bool {
        credit.images == nil && credit.urls == nil
    }

    /// What decides an airing's template: its details box and kind, the fields it keeps.
    private struct TemplateKey: Hashable {
        var details: ObjectIdentifier?
        var kind: ProgrammeKind?
    }

    /// What a record does not hold: the programme with the fields a record holds emptied, so
    /// that airings differing only in those share one template. Every field `Programme` stores
    /// but its details and kind is emptied (`TemplateKey` relies on it).
    static func template(of programme: Programme) -> Programme {
        var template = programme
        template.channel = ""
        template.start = Date(timeIntervalSince1970: 0)
        template.title = ""
        template.source = ""
        template.stop = nil
        template.subtitle = nil
        template.synopsis = nil
        template.work = nil
        template.sameStartIndex = nil
        if programme.credits?.allSatisfy(isPlain) == true { template.credits = nil }
        return template
    }
}

/// Distinct texts in the order first met, each with its number, compared as their UTF-8 bytes
/// (as `UTF8Key` compares them). A text stays where it is kept (a `String`, or a parser's
/// `TextBlock` for a synopsis) instead of being copied into the table: a table of synopses as
/// `String`s was 76 bytes an airing besides the text.
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

/// Walks the sections of a companion, refusing any length that runs past its end.
private struct PackedCursor {
    let count: Int
    private(set) var offset = 0

    init(count: Int) {
        self.count = count
    }

    mutating func take(_ length: Int) throws(PackedSnapshot.Unreadable) -> Range<Int> {
        guard length >= 0, length <= count - offset else { throw PackedSnapshot.Unreadable() }
        defer { offset += length }
        return offset..<(offset + length)
    }

    mutating func word(_ data: Data) throws(PackedSnapshot.Unreadable) -> UInt64 {
        let range = try take(8)
        return data.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self)) }
    }

    /// A length or a count: a word that fits an `Int`.
    mutating func u64(_ data: Data) throws(PackedSnapshot.Unreadable) -> UInt64 {
        let value = try word(data)
        guard value <= UInt64(Int.max) else { throw PackedSnapshot.Unreadable() }
        return value
    }

    /// A table of texts' count, offsets and bytes (`TextTable.write`).
    mutating func textTable(_ data: Data) throws(PackedSnapshot.Unreadable) -> (count: Int, offsets: Range<Int>, bytes: Range<Int>) {
        let count = try self.count(data, atMost: data.count / 8)
        let offsets = try take(8 * (count + 1))
        return (count, offsets, try take(Int(u64(data))))
    }

    /// A count no larger than `limit`, which the bytes left could not hold more of.
    mutating func count(_ data: Data, atMost limit: Int) throws(PackedSnapshot.Unreadable) -> Int {
        let value = try u64(data)
        guard value <= UInt64(limit) else { throw PackedSnapshot.Unreadable() }
        return Int(value)
    }
}

/// The array being filled, shared by the tasks that each fill their own slice of it. Unchecked
/// Sendable: no two tasks touch the same element, and the array is read once they all returned.
private struct ProgrammeSlots: @unchecked Sendable {
    let base: UnsafeMutablePointer<Programme>?

    func initialize(_ index: Int, to programme: Programme) {
        (base! + index).initialize(to: programme)
    }

    func deinitialize(_ indices: Range<Int>) {
        guard let base, !indices.isEmpty else { return }
        (base + indices.lowerBound).deinitialize(count: indices.count)
    }
}

/// Reads one slice's records into programmes.
private struct PackedRecords {
    let bytes: UnsafeRawBufferPointer
    let texts: [String]
    let synopses: TextBlock
    let templates: [Programme]
    private var index = 0

    init(bytes: UnsafeRawBufferPointer, texts: [String], synopses: TextBlock, templates: [Programme]) {
        self.bytes = bytes
        self.texts = texts
        self.synopses = synopses
        self.templates = templates
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func programme() throws(PackedSnapshot.Unreadable) -> Programme {
        let mask = try varint()
        let channel = try text()
        let start = try signed()
        let title = try text()
        let source = try text()
        let stop = mask & 1 != 0 ? try signed() : nil
        let subtitle = mask & 2 != 0 ? try text() : nil
        let synopsis = mask & 4 != 0 ? try varint() : nil
        let work = mask & 8 != 0 ? try text() : nil
        let place = mask & 16 != 0 ? try signed() : nil
        let credits = mask & 32 != 0 ? try self.credits() : nil
        let template = try varint()
        guard mask < 64, template < UInt64(templates.count), synopsis ?? 0 < UInt64(synopses.count) else { throw PackedSnapshot.Unreadable() }
        var programme = templates[Int(template)]
        programme.channel = channel
        programme.start = Date(timeIntervalSince1970: TimeInterval(start))
        programme.title = title
        programme.source = source
        programme.stop = stop.map { Date(timeIntervalSince1970: TimeInterval(start + $0)) }
        programme.subtitle = subtitle
        if let synopsis { programme.setSynopsis(Int(synopsis), in: synopses) }
        programme.work = work
        if let place {
            guard let place = Int(exactly: place) else { throw PackedSnapshot.Unreadable() }
            programme.sameStartIndex = place
        }
        if let credits { programme.credits = credits }
        return programme
    }

    private mutating func credits() throws(PackedSnapshot.Unreadable) -> [Credit] {
        let count = try varint()
        // Each credit takes at least three bytes.
        guard count <= UInt64(bytes.count - index) / 3 else { throw PackedSnapshot.Unreadable() }
        var credits: [Credit] = []
        credits.reserveCapacity(Int(count))
        for _ in 0..<count {
            let flags = try varint()
            let role = try varint()
            guard flags < 8, role < UInt64(Credit.Role.allCases.count) else { throw PackedSnapshot.Unreadable() }
            let name = try text()
            let character = flags & 1 != 0 ? try text() : nil
            credits.append(Credit(role: Credit.Role.allCases[Int(role)], name: name, character: character,
                                  guest: flags & 2 != 0 ? flags & 4 != 0 : nil))
        }
        return credits
    }

    private mutating func text() throws(PackedSnapshot.Unreadable) -> String {
        let number = try varint()
        guard number < UInt64(texts.count) else { throw PackedSnapshot.Unreadable() }
        return texts[Int(number)]
    }

    private mutating func varint() throws(PackedSnapshot.Unreadable) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < bytes.count, shift < 64 else { throw PackedSnapshot.Unreadable() }
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private mutating func signed() throws(PackedSnapshot.Unreadable) -> Int64 {
        let value = try varint()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }
}
