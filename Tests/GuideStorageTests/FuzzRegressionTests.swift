import Foundation
@testable import GuideCore
@testable import GuideStorage
import Testing
import TestSupport

/// Inputs that fuzzing (fuzz/README.md) showed the snapshot readers must survive.
@Suite struct SnapshotFuzzRegressionTests {
    /// Two programmes, the first with a 31-digit `length`: `ProgrammeJSONReader.int()` multiplied
    /// every digit in before it counted them, and trapped on the overflow.
    static let overflow: Data = {
        // A fixture the suite cannot run without.
        try! Data(contentsOf: Fixtures.url("fuzz/snapshot/programme-length-overflow.json"))
    }()

    @Test func theReaderGivesUpOnANumberTooLongForAnInt() throws {
        #expect(ProgrammeJSONReader.programmes(in: Self.overflow) == nil)
        // JSONDecoder, which the reader leaves such numbers to, names the field.
        #expect(throws: DecodingError.self) { try SnapshotCodec.decoder().decode([Programme].self, from: Self.overflow) }
    }

    @Test func theFuzzersSnapshotIsCorruptWhicheverWayItIsDecoded() throws {
        // A full snapshot with the fuzzer's programmes (cut short further on) in place of its own.
        let sample = try SnapshotCodec.encode(SnapshotSamples.full())
        let layout = try #require(ProgrammesLayout(sample))
        let snapshot = sample[..<layout.open] + Self.overflow + sample[(layout.close + 1)...]
        for perChunk in [1, Int.max] {
            let error = #expect(throws: SnapshotError.self) { try SnapshotCodec.decode(snapshot, programmesPerChunk: perChunk) }
            #expect(error.map { if case .corrupt(nil, _) = $0 { true } else { false } } == true, "\(String(describing: error))")
        }
    }

    @Test func aLengthTooLongForAnIntIsTheSameErrorWhicheverWayTheSnapshotIsDecoded() throws {
        var sample = SnapshotSamples.full()
        sample.programmes = [SnapshotSamples.fullProgramme(), SnapshotSamples.fullProgramme()]
        sample.programmes[1].start = sample.programmes[0].start.addingTimeInterval(3_600)
        sample.programmes[0].length = 42
        let text = try #require(String(data: try SnapshotCodec.encode(sample), encoding: .utf8))
        let snapshot = Data(text.replacingOccurrences(of: #""length": 42,"#, with: #""length": 6266666666666666666666666666640,"#).utf8)
        #expect(snapshot.count > text.utf8.count)
        let chunked = #expect(throws: SnapshotError.self) { try SnapshotCodec.decode(snapshot, programmesPerChunk: 1) }
        let whole = #expect(throws: SnapshotError.self) { try SnapshotCodec.decode(snapshot, programmesPerChunk: .max) }
        // JSONDecoder's own words for a number no Int holds.
        #expect(whole == .corrupt(file: nil, detail: "top level: The given data was not valid JSON."))
        #expect(chunked == whole)
    }

    @Test func eighteenDigitsAreReadAndNineteenAreLeftToJSONDecoder() throws {
        let head = #"[{"channel":"La1.es","length":"#
        let tail = #","source":"s","start":"2026-10-25T20:30:00Z","title":"T"}]"#
        let eighteen = try #require(ProgrammeJSONReader.programmes(in: Data((head + "999999999999999999" + tail).utf8)))
        #expect(eighteen.first?.length == 999_999_999_999_999_999)
        let nineteen = Data((head + "1000000000000000000" + tail).utf8)
        #expect(ProgrammeJSONReader.programmes(in: nineteen) == nil)
        #expect(try SnapshotCodec.decoder().decode([Programme].self, from: nineteen).first?.length == 1_000_000_000_000_000_000)
    }
}
