import Foundation
@testable import GuideCore
@testable import GuideStorage
import Testing
import TestSupport

/// `SnapshotCodec.decode` reads large files with the programmes cut into chunks decoded at once;
/// what it returns and the errors it throws must be those of one `JSONDecoder` over the file.
@Suite struct SnapshotParallelDecodeTests {
    static let golden: Data = {
        // A fixture the suite cannot run without.
        try! Data(contentsOf: Fixtures.url("golden/offline-default.json"))
    }()

    /// What one decoder over the whole file reads.
    static func decodedWhole(_ data: Data) throws -> Snapshot {
        try SnapshotCodec.decode(data, programmesPerChunk: .max)
    }

    @Test func theGoldenGuideDecodesInChunksAsItDoesWhole() throws {
        let whole = try Self.decodedWhole(Self.golden)
        #expect(whole.programmes.count == 4_010)
        let chunked = try #require(SnapshotCodec.decodeInParallel(Self.golden, programmesPerChunk: 100))
        #expect(chunked.programmes.count == 4_010)
        // decodeInParallel leaves the schema as the file says; decode relabels it.
        #expect(try SnapshotCodec.decode(Self.golden, programmesPerChunk: 100) == whole)
        #expect(chunked.programmes == whole.programmes)
        #expect(chunked.works == whole.works && chunked.audiences == whole.audiences && chunked.report == whole.report)
    }

    @Test("programmes written in slices at once are the bytes written in one pass", arguments: [1, 7, 1_000])
    func programmesWrittenInSlices(minimumPerSlice: Int) throws {
        let programmes = try Self.decodedWhole(Self.golden).programmes
        func written(_ writeProgrammes: (inout JSONWriter) -> Void) -> [UInt8] {
            var json = JSONWriter(pretty: true)
            json.object { json in
                json.member("a", 1)
                json.key("programmes")
                writeProgrammes(&json)
                json.member("z", 2)
            }
            return json.bytes
        }
        let whole = written { $0.values(programmes) }
        for cores in [2, 3, 8] {
            #expect(written { $0.values(inParallel: programmes, minimumPerSlice: minimumPerSlice, cores: cores) } == whole, "\(cores) cores")
        }
        #expect(written { $0.values(inParallel: [Programme](), minimumPerSlice: minimumPerSlice, cores: 2) }
                == written { $0.values([Programme]()) })
    }

    /// The golden guide's airings again on every day of `days`, each a day later: more than
    /// one round of slices, and several drains' worth of bytes.
    static func repeatedGolden(days: Int) throws -> Snapshot {
        var snapshot = try decodedWhole(golden)
        let once = snapshot.programmes
        snapshot.programmes = (0..<days).flatMap { day in
            once.map { programme in
                var programme = programme
                programme.start = programme.start.addingTimeInterval(TimeInterval(day * 86_400))
                programme.stop = programme.stop?.addingTimeInterval(TimeInterval(day * 86_400))
                return programme
            }
        }
        return SnapshotCodec.canonical(snapshot)
    }

    @Test func aSnapshotWrittenAPieceAtATimeIsTheBytesEncodedWhole() throws {
        for snapshot in [try Self.repeatedGolden(days: 6), SnapshotCodec.canonical(SnapshotSamples.full())] {
            var pieces: [[UInt8]] = []
            try SnapshotCodec.write(canonical: snapshot) { pieces.append(Array($0)) }
            #expect(pieces.joined().elementsEqual(try SnapshotCodec.encodedBytes(snapshot)))
            if snapshot.programmes.count > 20_000 {
                #expect(pieces.count >= 3)
                // The document's head, then the programmes a slice at a time, each handed over as
                // it was written, then the rest.
                #expect(pieces.dropFirst().dropLast().allSatisfy { $0.count >= ByteDrain.batch }, "\(pieces.map(\.count))")
            }
        }
    }

    @Test func oneCoreStillHandsTheProgrammesOverARoundAtATime() throws {
        let programmes = try Self.repeatedGolden(days: 3).programmes
        var pieces: [[UInt8]] = []
        var streamed = JSONWriter(pretty: true, drain: ByteDrain { pieces.append(Array($0)) })
        streamed.values(inParallel: programmes, cores: 1)
        try streamed.finish()
        var whole = JSONWriter(pretty: true)
        whole.values(programmes)
        #expect(pieces.count >= 2)
        #expect(pieces.joined().elementsEqual(whole.bytes))
    }

    @Test func aPieceThatCannotBeWrittenStopsTheWriteAndIsThrown() throws {
        struct DiskFull: Error, Equatable {}
        var calls = 0
        #expect(throws: DiskFull()) {
            try SnapshotCodec.write(canonical: try Self.repeatedGolden(days: 6)) { _ in
                calls += 1
                if calls == 2 { throw DiskFull() }
            }
        }
        #expect(calls == 2)
    }

    @Test func textThatLooksLikeJSONDoesNotMoveTheCuts() throws {
        var snapshot = SnapshotSamples.full()
        var tricky = SnapshotSamples.fullProgramme()
        tricky.title = "programmes\": [{\"a\": \"],}\\\\"
        tricky.synopsis = "\\\" , ] } { [ \"programmes\""
        snapshot.programmes = (0..<40).map { index in
            var programme = tricky
            programme.start = tricky.start.addingTimeInterval(TimeInterval(index * 3_600))
            programme.stop = programme.start.addingTimeInterval(3_600)
            return programme
        }
        let data = try SnapshotCodec.encode(snapshot)
        let layout = try #require(ProgrammesLayout(data))
        #expect(layout.elementCount == 40)
        let chunked = try #require(SnapshotCodec.decodeInParallel(data, programmesPerChunk: 3))
        #expect(chunked.programmes == snapshot.programmes)
        #expect(try SnapshotCodec.decode(data, programmesPerChunk: 3) == Self.decodedWhole(data))
    }

    @Test func aBrokenProgrammeDeepInTheArrayIsNamedFromTheTop() throws {
        var object = try SnapshotSamples.jsonObject(Self.golden)
        var programmes = try #require(object["programmes"] as? [[String: Any]])
        programmes[3_001]["start"] = "yesterday"
        object["programmes"] = programmes
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(SnapshotCodec.decodeInParallel(data, programmesPerChunk: 100)?.programmes.count == nil)
        #expect(throws: SnapshotError.corrupt(file: nil, detail: "programmes[3001].start: not an ISO 8601 time: 'yesterday'")) {
            try SnapshotCodec.decode(data, programmesPerChunk: 100)
        }
    }

    @Test func aFileNotShapedAsExpectedIsReadWhole() throws {
        let text = String(decoding: Self.golden, as: UTF8.self)
        // A second `programmes` member: which one counts is the decoder's business, not the cut's.
        let twice = Data(text.replacingOccurrences(of: "\"schemaVersion\":", with: "\"programmes\": [],\n  \"schemaVersion\":").utf8)
        #expect(ProgrammesLayout(twice) == nil)
        #expect(ProgrammesLayout(Data("[1, 2]".utf8)) == nil)
        #expect(ProgrammesLayout(Data("{\"programmes\": [1, 2".utf8)) == nil)
        #expect(ProgrammesLayout(Data("{\"programmes\": {\"a\": [1, 2]}}".utf8)) == nil)
        // A string whose last quote is escaped never ends; one ending in an escaped backslash does.
        #expect(ProgrammesLayout(Data(#"{"programmes": ["a\"]}"#.utf8)) == nil)
        #expect(ProgrammesLayout(Data(#"{"programmes": ["\\", "a\\\"b"]}"#.utf8))?.elementCount == 2)
        let empty = try #require(ProgrammesLayout(Data("{\"programmes\": [ \n ]}".utf8)))
        #expect(empty.elementCount == 0)
        // Small guides are not worth cutting.
        #expect(SnapshotCodec.decodeInParallel(Self.golden, programmesPerChunk: 2_006)?.programmes.count == nil)
        #expect(SnapshotCodec.decodeInParallel(Self.golden, programmesPerChunk: 2_005)?.programmes.count == 4_010)
    }

    // MARK: ProgrammeJSONReader

    /// The programmes array of an encoded snapshot, as its own JSON document.
    static func programmesJSON(_ snapshot: Snapshot) throws -> Data {
        let data = try SnapshotCodec.encode(snapshot)
        let layout = try #require(ProgrammesLayout(data))
        return data.subdata(in: layout.open..<(layout.close + 1))
    }

    static func decoded(_ json: String) -> [Programme]? {
        try? SnapshotCodec.decoder().decode([Programme].self, from: Data(json.utf8))
    }

    @Test func theReaderReadsWhatJSONDecoderReads() throws {
        var tricky = SnapshotSamples.fullProgramme()
        tricky.title = "Quote \" backslash \\ slash / tab \t nl \n cr \r nul \u{0} bell \u{7} del \u{7F} ñ € 😀"
        var full = SnapshotSamples.full()
        full.programmes.append(tricky)
        for snapshot in [try Self.decodedWhole(Self.golden), full] {
            let json = try Self.programmesJSON(snapshot)
            let read = try #require(ProgrammeJSONReader.programmes(in: json))
            #expect(read == (try SnapshotCodec.decoder().decode([Programme].self, from: json)))
            #expect(read.count == snapshot.programmes.count)
        }
        // Escapes JSONWriter does not write but JSON allows, pretty or not.
        let escaped = #"[{"channel":"La1.es","source":"s","start":"2026-10-25T20:30:00Z","title":"\u00f1\/\ud83d\ude00\b\f"}]"#
        let read = try #require(ProgrammeJSONReader.programmes(in: Data(escaped.utf8)))
        #expect(read.first?.title == "ñ/😀\u{8}\u{C}")
        #expect(read == Self.decoded(escaped))
        let nulls = #"[ { "channel" : "La1.es" , "source" : "s" , "start" : "2026-10-25T20:30:00Z" , "stop" : null , "title" : "T" , "year" : -0 } ]"#
        #expect(ProgrammeJSONReader.programmes(in: Data(nulls.utf8)) == Self.decoded(nulls))
        #expect(ProgrammeJSONReader.programmes(in: Data("[]".utf8)) == [])
    }

    @Test func theReaderLeavesAnythingUnusualToJSONDecoder() {
        let head = #"[{"channel":"La1.es","source":"s","start":"2026-10-25T20:30:00Z","#
        // JSONDecoder reads these; the reader is not sure it would read them the same.
        for readable in [#""title":"T","year":2006.0}]"#, #""title":"T","zzz":1}]"#, #""title":"T","title":"U"}]"#,
                         #""title":"T","kind":"movie","date":"2006"}]"#, #""t\u0069tle":"T"}]"#] {
            #expect(Self.decoded(head + readable) != nil, "\(readable)")
            #expect(ProgrammeJSONReader.programmes(in: Data((head + readable).utf8)) == nil, "\(readable)")
        }
        // Neither reads these.
        for broken in [#""title":"\ud800"}]"#, "\"title\":\"a\u{1}b\"}]", #""title":null}]"#, #"}]"#, #""title":"T","kind":"opera"}]"#,
                       #""title":"T","stop":"tomorrow"}]"#, #""title":"T","year":"2006"}]"#, #""title":"T"}] x"#, #""title":"T"}"#] {
            #expect(Self.decoded(head + broken) == nil, "\(broken)")
            #expect(ProgrammeJSONReader.programmes(in: Data((head + broken).utf8)) == nil, "\(broken)")
        }
        var invalidUTF8 = Data((head + #""title":"a"#).utf8)
        invalidUTF8.append(contentsOf: [0xC3, 0x28])
        invalidUTF8.append(contentsOf: Array(#""}]"#.utf8))
        #expect(ProgrammeJSONReader.programmes(in: invalidUTF8) == nil)
        #expect((try? SnapshotCodec.decoder().decode([Programme].self, from: invalidUTF8)) == nil)
    }
}
