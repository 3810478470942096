import Foundation
import GuideCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a companion, its slices of records at once on every core; anything unexpected is
/// `Unreadable`, and the caller reads the JSON instead.
extension PackedSnapshot {
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

    /// One pass through the layout in the order it is written, each part checked as it is met:
    /// kept whole so that the order of reading stays the order of the format's description.
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
