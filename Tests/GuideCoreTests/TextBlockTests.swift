import Foundation
@testable import GuideCore
import Testing

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
        var texts: [String] = []
        func number(_ text: String, hash: Int) -> Int {
            if let found = index.number(hash: hash, isText: { texts[$0] == text }) { return found }
            texts.append(text)
            return index.add(hash: hash)
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

    /// A programme's synopsis left in a block reads, compares, encodes and packs as the `String` it is.
    @Test func synopsesInABlockAreWrittenAsTheirStrings() throws {
        let golden = try PackedSnapshotTests.golden()
        // The same synopses in two blocks, the second half's block holding the first half's texts
        // too: the companion must still number each text once.
        let half = golden.programmes.count / 2
        var first = TextBlock.Gathering(bytes: 0), second = TextBlock.Gathering(bytes: 0)
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
        var stored = golden
        for index in stored.programmes.indices {
            if let (block, number) = numbers[index] { stored.programmes[index].setSynopsis(number, in: blocks[block]) }
        }
        #expect(stored.programmes.contains { if case .stored = $0.synopsisText { true } else { false } })
        #expect(stored == golden)
        #expect(try SnapshotCodec.encode(stored) == SnapshotCodec.encode(golden))
        #expect(try PackedSnapshot.encode(stored, for: PackedSnapshotTests.identity) == PackedSnapshot.encode(golden, for: PackedSnapshotTests.identity))
    }
}
