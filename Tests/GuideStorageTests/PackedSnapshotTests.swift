import Foundation
@testable import GuideCore
@testable import GuideStorage
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `latest.packed` must read back exactly what its `latest.json` reads back, and never be read
/// for another file or when damaged.
@Suite struct PackedSnapshotTests {
    static let identity = PackedSnapshot.Identity(size: 331_000_000, seconds: 1_793_000_000, nanoseconds: 123_456_789, inode: 42)

    /// What reading the snapshot's JSON gives.
    static func readBack(_ snapshot: Snapshot) throws -> Snapshot {
        try SnapshotCodec.decode(SnapshotCodec.encode(snapshot))
    }

    static func golden() throws -> Snapshot {
        try SnapshotCodec.decode(Data(contentsOf: Fixtures.url("golden/offline-default.json")))
    }

    /// Every field set, texts JSON escapes, times between seconds, a clump, a programme out of
    /// order, one without any optional field, and credits a record holds (plain) or a template
    /// holds (with pictures).
    static func full() -> Snapshot {
        var snapshot = SnapshotSamples.full()
        var tricky = SnapshotSamples.fullProgramme()
        tricky.title = "Quote \" backslash \\ tab \t nl \n nul \u{0} del \u{7F} ñ € 😀 e\u{301}"
        tricky.start = tricky.start.addingTimeInterval(3_600.75)
        tricky.stop = tricky.start.addingTimeInterval(-0.25)
        tricky.sameStartIndex = 1
        var bare = Programme(channel: "Zz.es", start: Date(timeIntervalSince1970: -86_400.5), title: "", source: "s")
        bare.stop = nil
        var film = Programme(channel: "Film.es", start: Date(timeIntervalSince1970: 1_793_000_000), title: "Film", source: "s")
        film.credits = [Credit(role: .director, name: "Directora"), Credit(role: .actor, name: "Actor", character: "Papel", guest: false),
                        Credit(role: .guest, name: "Invitada", guest: true)]
        film.date = "2006"
        var noCredits = film
        noCredits.start = noCredits.start.addingTimeInterval(7_200)
        noCredits.credits = []
        // Channels equal as Swift compares strings but not in their bytes, one after the other.
        let composed = Programme(channel: "Caf\u{E9}.es", start: Date(timeIntervalSince1970: 1_793_000_000), title: "Composed", source: "s")
        let decomposed = Programme(channel: "Cafe\u{301}.es", start: Date(timeIntervalSince1970: 1_793_000_000), title: "Decomposed", source: "s")
        snapshot.programmes = [bare, tricky, film, noCredits, composed, decomposed] + snapshot.programmes
        return snapshot
    }

    /// Over several slices of records and chunks of templates: each airing its own length.
    static func large() throws -> Snapshot {
        var snapshot = try golden()
        let week = snapshot.programmes
        snapshot.programmes = (0..<(2 * PackedSnapshot.programmesPerSlice + 5)).map { number in
            var programme = week[number % week.count]
            programme.start = programme.start.addingTimeInterval(TimeInterval(7 * 86_400 * (number / week.count)))
            programme.stop = programme.stop?.addingTimeInterval(TimeInterval(7 * 86_400 * (number / week.count)))
            programme.length = number % (PackedSnapshot.templatesPerChunk + 10)
            return programme
        }
        return snapshot
    }

    @Test func aCompanionReadsBackWhatItsJSONReadsBack() throws {
        let empty = Snapshot(generatedAt: Date(timeIntervalSince1970: 0), window: SnapshotSamples.full().window, channels: [], programmes: [],
                             report: RunReport())
        for snapshot in [try Self.golden(), Self.full(), try Self.large(), empty] {
            let packed = try PackedSnapshot.encode(snapshot, for: Self.identity)
            let read = try #require(PackedSnapshot.decode(Data(packed), expecting: Self.identity))
            let expected = try Self.readBack(snapshot)
            #expect(read.programmes.count == expected.programmes.count)
            #expect(read.programmes == expected.programmes)
            #expect(read == expected)
            // The same snapshot gives the same bytes.
            #expect(try PackedSnapshot.encode(snapshot, for: Self.identity) == packed)
        }
    }

    @Test func aCompanionIsHandedOverAMegabyteAtATime() throws {
        var snapshot = try Self.large()
        // Synopses of their own, 10 MB of them: more than two pieces' worth.
        for index in snapshot.programmes.indices {
            snapshot.programmes[index].synopsis = "\(index) " + String(repeating: "sinopsis ", count: 70)
        }
        var pieces: [[UInt8]] = []
        try PackedSnapshot.encode(snapshot, for: Self.identity) { pieces.append(Array($0)) }
        #expect(pieces.count >= 3)
        #expect(pieces.dropLast().allSatisfy { $0.count >= ByteDrain.batch })
        let read = try #require(PackedSnapshot.decode(Data(pieces.joined()), expecting: Self.identity))
        #expect(read.programmes.count == snapshot.programmes.count)
        #expect(Set(read.programmes.compactMap(\.synopsis)) == Set(snapshot.programmes.compactMap(\.synopsis)))

        struct DiskFull: Error, Equatable {}
        var calls = 0
        #expect(throws: DiskFull()) {
            try PackedSnapshot.encode(Self.full(), for: Self.identity) { _ in
                calls += 1
                throw DiskFull()
            }
        }
        #expect(calls == 1)
    }

    @Test func repeatedTextsAndTemplatesAreWrittenOnce() throws {
        let golden = try Self.golden()
        let packed = try PackedSnapshot.encode(golden, for: Self.identity)
        let json = try SnapshotCodec.encode(golden)
        // 4,010 airings of 1,421 templates (their episode numbers differ most): 1.1 MB against 3.2 MB.
        #expect(packed.count * 5 < json.count * 2, "\(packed.count) bytes packed, \(json.count) in JSON")
        var doubled = golden
        doubled.programmes += golden.programmes.map { programme in
            var copy = programme
            copy.channel += ".copy"
            return copy
        }
        let packedTwice = try PackedSnapshot.encode(doubled, for: Self.identity)
        // The same airings on a second set of channels add their records, not their texts.
        #expect(packedTwice.count - packed.count < packed.count / 5, "\(packedTwice.count - packed.count) more bytes")
    }

    @Test func aCompanionOfAnotherFileIsNotRead() throws {
        let packed = Data(try PackedSnapshot.encode(try Self.golden(), for: Self.identity))
        for other in [PackedSnapshot.Identity(size: 331_000_001, seconds: 1_793_000_000, nanoseconds: 123_456_789, inode: 42),
                      PackedSnapshot.Identity(size: 331_000_000, seconds: 1_793_000_000, nanoseconds: 123_456_780, inode: 42),
                      PackedSnapshot.Identity(size: 331_000_000, seconds: 1_793_000_000, nanoseconds: 123_456_789, inode: 43)] {
            #expect(PackedSnapshot.decode(packed, expecting: other) == nil)
        }
    }

    @Test func aDamagedCompanionIsNotRead() throws {
        let packed = try PackedSnapshot.encode(Self.full(), for: Self.identity)
        // Cut anywhere.
        for length in stride(from: 0, to: packed.count, by: max(1, packed.count / 500)) {
            #expect(PackedSnapshot.decode(Data(packed[..<length]), expecting: Self.identity) == nil, "cut at \(length)")
        }
        #expect(PackedSnapshot.decode(Data(packed + [0]), expecting: Self.identity) == nil)
        // Another format's magic, or a later version of this one.
        var magic = packed
        magic[0] ^= 0x20
        #expect(PackedSnapshot.decode(Data(magic), expecting: Self.identity) == nil)
        var version = packed
        version[PackedSnapshot.magic.count] += 1
        #expect(PackedSnapshot.decode(Data(version), expecting: Self.identity) == nil)
        // Any byte of the records changed: read as something or refused, never a crash.
        let records = packed.count - 64
        for offset in records..<packed.count {
            var damaged = packed
            damaged[offset] ^= 0xFF
            _ = PackedSnapshot.decode(Data(damaged), expecting: Self.identity)
        }
    }

    // MARK: the folder store

    @Test func theStoreReadsTheCompanionOfItsLatest() throws {
        let scratch = SnapshotStoreTests.Scratch()
        defer { scratch.remove() }
        let store = scratch.store()
        let snapshot = Self.full()
        try store.write(snapshot)
        #expect(FileManager.default.fileExists(atPath: store.packedURL.path))
        #expect(try store.loadLatest() == Self.readBack(snapshot))

        // latest.json overwritten in place with bytes that are not JSON, its size and time kept:
        // only the companion can give the snapshot back.
        var before = stat()
        #expect(stat(store.latestURL.path, &before) == 0)
        let handle = try FileHandle(forWritingTo: store.latestURL)
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: "x"), count: Int(before.st_size)))
        try handle.close()
        #if canImport(Darwin)
        var times = [before.st_atimespec, before.st_mtimespec]
        #else
        var times = [before.st_atim, before.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, store.latestURL.path, &times, 0) == 0)
        #expect(throws: SnapshotError.self) { try SnapshotStore.load(store.latestURL) }
        #expect(try store.loadLatest() == Self.readBack(snapshot))
    }

    @Test func aCompanionLeftBehindByAnotherLatestIsIgnored() throws {
        let scratch = SnapshotStoreTests.Scratch()
        defer { scratch.remove() }
        let store = scratch.store()
        try store.write(Self.full())
        // Another program (or a user) replaces latest.json; the companion stays.
        let replacement = SnapshotSamples.minimal(generatedAt: "2026-10-30T06:00:00Z")
        try AtomicFile.write(SnapshotCodec.encodedBytes(replacement), to: store.latestURL)
        #expect(try store.loadLatest() == Self.readBack(replacement))
    }

    @Test func aDamagedCompanionFallsBackToTheJSON() throws {
        let scratch = SnapshotStoreTests.Scratch()
        defer { scratch.remove() }
        let store = scratch.store()
        let snapshot = Self.full()
        try store.write(snapshot)
        let packed = try Data(contentsOf: store.packedURL)
        try packed.prefix(packed.count / 2).write(to: store.packedURL)
        #expect(try store.loadLatest() == Self.readBack(snapshot))
        try FileManager.default.removeItem(at: store.packedURL)
        #expect(try store.loadLatest() == Self.readBack(snapshot))
        // The next write makes a companion again.
        try store.write(SnapshotSamples.minimal(generatedAt: "2026-10-30T06:00:00Z"))
        #expect(FileManager.default.fileExists(atPath: store.packedURL.path))
    }
}

/// Synopses kept in one block of UTF-8 (`TextBlock.Gathering`) instead of a `String` each, and the
/// table that numbers distinct texts by hash (`TextIndex`).
@Suite struct TextBlockTests {
    /// The text's number; a gathering refuses a text only past 4 GiB.
    static func number(_ text: String, in gathering: inout TextBlock.Gathering) throws -> Int {
        let number = gathering.number(text)
        return try #require(number)
    }

    @Test func gatheringNumbersEachDistinctTextOnceAndReadsItBack() throws {
        var gathering = TextBlock.Gathering(bytes: 64)
        #expect(gathering.isEmpty)
        let texts = ["Una serie", "", "ñandú € 😀 e\u{301}", "Una serie", "una serie", "", "Quote \" nl \n nul \u{0}"]
        let numbers = try texts.map { try Self.number($0, in: &gathering) }
        #expect(numbers == [0, 1, 2, 0, 3, 1, 4])
        let block = gathering.block()
        #expect(block.count == 5)
        for (text, number) in zip(texts, numbers) {
            #expect(block.text(number) == text)
            var copy = text
            #expect(block.hash(number) == copy.withUTF8(TextBlock.hash))
        }
    }

    @Test func canonicallyEqualTextsAreKeptApart() throws {
        // `String` would call these equal; the companion writes exact bytes, so the block must too.
        var gathering = TextBlock.Gathering(bytes: 0)
        let composed = try Self.number("caf\u{E9}", in: &gathering)
        let decomposed = try Self.number("cafe\u{301}", in: &gathering)
        #expect(composed != decomposed)
        #expect(gathering.block().text(decomposed).utf8.elementsEqual("cafe\u{301}".utf8))
    }

    @Test func textsWithTheSameHashAreToldApartAndFoundAfterTheTableGrows() {
        var index = TextIndex()
        var texts: [(text: String, hash: Int)] = []
        func number(_ text: String, hash: Int) -> Int {
            if let found = index.number(hash: hash, isText: { texts[$0].text == text }) { return found }
            texts.append((text, hash))
            return index.add(hash: hash) { texts[$0].hash }
        }
        // Every text on one hash, then as many again on hashes that share its place in the table.
        for n in 0..<100 { #expect(number("same \(n)", hash: 7) == n) }
        for n in 0..<100 { #expect(number("near \(n)", hash: 7 | (n << 40)) == 100 + n) }
        for n in 0..<100 {
            #expect(number("same \(n)", hash: 7) == n)
            #expect(number("near \(n)", hash: 7 | (n << 40)) == 100 + n)
        }
        #expect(index.count == 200)
        #expect(index.number(hash: 7, isText: { _ in false }) == nil)
        #expect(number("other", hash: 8) == 200)
        #expect(number("same 5", hash: 7) == 5)
    }

    /// A programme's synopsis left in a block reads, compares, encodes and packs as the `String`
    /// it is, whether the block is in memory or was written to a temporary file (past 64 bytes).
    @Test(arguments: [Int.max, 64])
    func synopsesInABlockAreWrittenAsTheirStrings(spillingPast threshold: Int) throws {
        let golden = try PackedSnapshotTests.golden()
        // The same synopses in two blocks, the second half's block holding the first half's texts
        // too: the companion must still number each text once.
        let half = golden.programmes.count / 2
        var first = TextBlock.Gathering(bytes: 0, spillingPast: threshold), second = TextBlock.Gathering(bytes: 0, spillingPast: threshold)
        var numbers: [(block: Int, number: Int)?] = []
        for (index, programme) in golden.programmes.enumerated() {
            guard let synopsis = programme.synopsis else { numbers.append(nil); continue }
            if index < half {
                numbers.append((0, try Self.number(synopsis, in: &first)))
                _ = second.number(synopsis)
            } else {
                numbers.append((1, try Self.number(synopsis, in: &second)))
            }
        }
        let blocks = [first.block(), second.block()]
        #expect(blocks.allSatisfy { ($0.bytesWrittenOut > 0) == (threshold < Int.max) })
        var stored = golden
        for index in stored.programmes.indices {
            if let (block, number) = numbers[index] { stored.programmes[index].setSynopsis(number, in: blocks[block]) }
        }
        #expect(stored.programmes.contains { if case .stored = $0.synopsisText { true } else { false } })
        #expect(stored == golden)
        #expect(try SnapshotCodec.encode(stored) == SnapshotCodec.encode(golden))
        #expect(try PackedSnapshot.encode(stored, for: PackedSnapshotTests.identity) == PackedSnapshot.encode(golden, for: PackedSnapshotTests.identity))
    }

    /// Texts written out as they come read back whatever the order they are asked in: in order (a
    /// writer's pass, read a window at a time), backwards, one inside the reading of another, and
    /// longer than a window.
    @Test func aBlockWrittenOutReadsBackEveryTextInAnyOrder() throws {
        let texts = (0..<3_000).map { "Sinopsis \($0) " + String(repeating: "ñ", count: $0 % 97) } + [String(repeating: "larga ", count: 100_000), "última"]
        var gathering = TextBlock.Gathering(bytes: 0, texts: texts.count, spillingPast: 4_096)
        let numbers = try texts.map { try Self.number($0, in: &gathering) }
        #expect(try Self.number(texts[1_234], in: &gathering) == numbers[1_234])
        let block = gathering.block()
        #expect(block.bytesWrittenOut == Set(texts).reduce(0) { $0 + $1.utf8.count })
        for number in numbers { #expect(block.text(number) == texts[number]) }
        for number in numbers.reversed() { #expect(block.text(number) == texts[number]) }
        for number in stride(from: 0, to: numbers.count, by: 7) {
            let same = block.withUTF8(number) { outer in block.withUTF8(numbers.count - 1 - number) { inner in (Array(outer), Array(inner)) } }
            #expect(same.0.elementsEqual(texts[number].utf8) && same.1.elementsEqual(texts[numbers.count - 1 - number].utf8))
            var copy = texts[number]
            #expect(block.hash(number) == copy.withUTF8(TextBlock.hash))
        }
    }

    static let manyTexts = (0..<600).map { "Sinopsis \($0) " + String(repeating: "x", count: $0 % 50) }

    @Test func textsThatCannotBeWrittenOutStayInMemory() throws {
        // No temporary file could be made; a file that takes no write (/dev/full: no space left).
        let makers: [() -> SpillFile?] = [{ nil }, { SpillFile(descriptor: open("/dev/full", O_WRONLY)) }]
        for makeFile in makers {
            var gathering = TextBlock.Gathering(bytes: 0, spillingPast: 256, to: makeFile)
            let numbers = try Self.manyTexts.map { try Self.number($0, in: &gathering) }
            let block = gathering.block()
            #expect(block.bytesWrittenOut == 0)
            for (text, number) in zip(Self.manyTexts, numbers) { #expect(block.text(number) == text) }
        }
    }

    @Test func aDiskThatFillsUpMidwayKeepsWhatWasWrittenAndTheRestInMemory() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-test-spill-\(UUID().uuidString)").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(descriptor >= 0)
        defer { unlink(path) }
        let file = SpillFile(descriptor: descriptor)
        var gathering = TextBlock.Gathering(bytes: 0, spillingPast: 256, to: { file })
        var numbers = try Self.manyTexts[..<300].map { try Self.number($0, in: &gathering) }
        // The file stops taking writes: its descriptor now reads the same file, read-only.
        let readOnly = open(path, O_RDONLY)
        try #require(readOnly >= 0 && dup2(readOnly, descriptor) == descriptor)
        close(readOnly)
        numbers += try Self.manyTexts[300...].map { try Self.number($0, in: &gathering) }
        #expect(try Self.number(Self.manyTexts[10], in: &gathering) == numbers[10])
        #expect(try Self.number(Self.manyTexts[590], in: &gathering) == numbers[590])
        let block = gathering.block()
        let total = Self.manyTexts.reduce(0) { $0 + $1.utf8.count }
        #expect(block.bytesWrittenOut > 0 && block.bytesWrittenOut < total)
        for (text, number) in zip(Self.manyTexts, numbers) { #expect(block.text(number) == text) }
    }

    #if os(Linux)
    @Test func aSpillFileHasNoNameLeftInItsFolder() throws {
        let file = try #require(SpillFile())
        #expect(file.write(Array("texto".utf8), at: 0))
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(file.descriptor)")
        #expect(target.contains("tvguide-spill.") && target.hasSuffix(" (deleted)"), "\(target)")
        #expect(file.withBytes(1..<4) { String(decoding: $0, as: UTF8.self) } == "ext")
    }
    #endif

    @Test func recordsWrittenToATemporaryFileMakeTheSameCompanion() throws {
        let snapshot = SnapshotCodec.canonical(try PackedSnapshotTests.golden())
        let held = try PackedSnapshot.Contents(canonical: snapshot, recordsHeldUpTo: .max).bytes(for: PackedSnapshotTests.identity)
        let written = try PackedSnapshot.Contents(canonical: snapshot, recordsHeldUpTo: 0).bytes(for: PackedSnapshotTests.identity)
        #expect(written == held)
        #expect(PackedSnapshot.decode(Data(written), expecting: PackedSnapshotTests.identity) == snapshot)
    }
}
