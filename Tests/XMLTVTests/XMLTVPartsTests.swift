import Foundation
import GuideCore
import Testing
import TestSupport
@testable import XMLTV

/// A large guide is parsed in parts at once (`XMLTVParts`); the document must be the one a single
/// pass reads, skipped programmes' lines and errors included.
@Suite("XMLTV parsed in parts")
struct XMLTVPartsTests {
    /// Every XMLTV input the other suites read, plain and gzip.
    static let inputs: [URL] = {
        let folders = [Fixtures.url("xmltv"), Fixtures.url("xmltv-conformance"), Fixtures.url("fuzz/xmltv")]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .filter { ["xml", "gz"].contains($0.pathExtension) && !$0.lastPathComponent.contains(".tv_") }
        }.sorted { $0.path < $1.path }
    }()

    @Test("every fixture reads the same in 2, 3, 5 or 9 parts as in one pass, errors included")
    func sameAsOnePass() throws {
        #expect(Self.inputs.count > 30)
        let parser = XMLTVParser(source: testSource)
        for url in Self.inputs {
            let data = try Data(contentsOf: url)
            let whole = Result { try parser.parse(data, name: url.lastPathComponent, parts: 1) }
            for parts in [2, 3, 5, 9] {
                let split = Result { try parser.parse(data, name: url.lastPathComponent, parts: parts, minimumPartBytes: 1) }
                switch (whole, split) {
                case (.success(let a), .success(let b)):
                    #expect(a == b, "\(url.lastPathComponent) in \(parts) parts")
                case (.failure(let a), .failure(let b)):
                    #expect(malformedMessage(a) == malformedMessage(b), "\(url.lastPathComponent) in \(parts) parts")
                default:
                    Issue.record("\(url.lastPathComponent) in \(parts) parts: \(whole) vs \(split)")
                }
            }
        }
    }

    /// What the provider keeps (each part's programmes grouped by channel on the core that read
    /// it, then joined) is the one-pass document's programmes grouped and put in start order:
    /// a channel split between parts, undeclared channels and airings out of order included.
    @Test("every fixture's programmes by channel are the same whether its parts group them or one pass does")
    func groupedByChannelAsOnePass() throws {
        let parser = XMLTVParser(source: testSource)
        var split = 0
        for url in Self.inputs {
            let data = try Data(contentsOf: url)
            guard var whole = try? parser.parse(data, name: url.lastPathComponent, parts: 1) else { continue }
            let expected = Dictionary(grouping: whole.programmes, by: \.channel).mapValues { $0.stableSorted { $0.start < $1.start } }
            let count = whole.programmes.count
            whole.programmes = []
            for parts in [1, 2, 3, 5, 9] {
                let pieces = try parser.parsedParts(data, name: url.lastPathComponent, parts: parts, minimumPartBytes: 1, byChannel: true)
                split += pieces.count > 1 && expected.keys.contains { channel in pieces.filter { $0.byChannel[channel] != nil }.count > 1 } ? 1 : 0
                let loaded = LoadedDocument(parts: pieces, name: url.lastPathComponent)
                #expect(loaded.document == whole, "\(url.lastPathComponent) in \(parts) parts")
                #expect(loaded.byChannel == expected, "\(url.lastPathComponent) in \(parts) parts")
                #expect(loaded.programmeCount == count, "\(url.lastPathComponent) in \(parts) parts")
            }
        }
        // Some channel was read by more than one part somewhere: its lists were joined.
        #expect(split > 10)
    }

    /// Skipped in every part (7), or in the first and the last only (36): the lines of a part
    /// after parts without any still count the newlines of those.
    @Test("a guide is cut before programmes and its parts are read at once, with lines of the whole file",
          arguments: [(7, 6), (36, 2)])
    func cutsAndLines(skipEvery: Int, skippedCount: Int) throws {
        let text = guide(programmes: 40, skipEvery: skipEvery)
        let bytes = Array(text.utf8)
        let parser = XMLTVParser(source: testSource)
        try bytes.withUnsafeBytes { raw in
            let split = try #require(XMLTVParts(raw, count: 4, minimumBytes: 1))
            #expect(split.pieces.count == 4)
            let inParts = try #require(parser.parse(parts: split, name: "g.xml", expandEntities: false))
            let whole = try parser.parse(Data(bytes), name: "g.xml", parts: 1)
            #expect(inParts == whole)
            #expect(whole.skipped.count == skippedCount)
            // A skipped programme's line is where its tag is in the file.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for skip in whole.skipped {
                #expect(lines[skip.line - 1].contains("<programme start=\"bad\""))
            }
        }
    }

    @Test("a cut inside a comment or a CDATA section is noticed, and the document is read in one pass", arguments: [
        ("<!--", "<programme start=\"20261025000000 +0000\" channel=\"a\"> -->"),
        ("<programme start=\"20261025230000 +0000\" channel=\"a\"><title>T</title><desc><![CDATA[",
         "<programme x ]]></desc></programme>"),
    ])
    func cutInsideMarkup(open: String, close: String) throws {
        let head = "<?xml version=\"1.0\"?>\n<tv><channel id=\"a\"><display-name>A</display-name></channel>\n"
        let first = "<programme start=\"20261025100000 +0000\" channel=\"a\"><title>One</title></programme>\n"
        // The middle of the file falls in the padding, so the first cut is the <programme in `close`.
        let text = head + first + open + String(repeating: " ", count: 800) + close + "\n</tv>\n"
        let bytes = Array(text.utf8)
        let parser = XMLTVParser(source: testSource)
        try bytes.withUnsafeBytes { raw in
            let split = try #require(XMLTVParts(raw, count: 2, minimumBytes: 1))
            #expect(parser.parse(parts: split, name: "t.xml", expandEntities: false) == nil)
        }
        #expect(try parser.parse(Data(bytes), name: "t.xml", parts: 2, minimumPartBytes: 1)
                == parser.parse(Data(bytes), name: "t.xml", parts: 1))
    }

    /// Parts of about 6 MB read from a mapped file hand back the pages they have read (pieces past
    /// a megabyte, every 4 MiB). In the second document the cut falls inside a CDATA section, so
    /// after the parts have read (and handed back) their pages the whole file is read again in
    /// one pass: what it reads must still be the file.
    @Test("a mapped file read in parts, then again in one pass, reads as the same bytes in memory")
    func aMappedFileHandsBackWhatItRead() throws {
        let head = "<?xml version=\"1.0\"?>\n<tv><channel id=\"a\"><display-name>A</display-name></channel>\n"
        let padding = String(repeating: "texto ", count: 170)
        func programmes(_ range: Range<Int>) -> String {
            range.map { index in
                "<programme start=\"202611\(10 + index / 1_440)\(String(format: "%02d%02d", index / 60 % 24, index % 60))00 +0000\" "
                    + "channel=\"a\"><title>P\(index)</title><desc>\(padding)\(index)</desc></programme>\n"
            }.joined()
        }
        let whole = head + programmes(0..<12_000) + "</tv>\n"
        let cdata = "<programme start=\"20261101000000 +0000\" channel=\"a\"><title>C</title><desc><![CDATA["
            + String(repeating: padding, count: 6_000) + "<programme x ]]></desc></programme>\n"
        let broken = head + programmes(0..<4_000) + cdata + programmes(4_000..<5_000) + "</tv>\n"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xmltv-mapped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let parser = XMLTVParser(source: testSource)
        for (name, text) in [("whole.xml", whole), ("broken.xml", broken)] {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            let inMemory = try parser.parse(Data(text.utf8), name: name, parts: 1)
            #expect(inMemory.programmes.count == (name == "whole.xml" ? 12_000 : 5_001))
            #expect(try parser.parse(contentsOf: url, parts: 2) == inMemory, "\(name)")
        }
    }

    @Test("small documents, an empty <tv/> and documents without programmes are not cut")
    func notCut() {
        for text in ["<tv/>", "<tv></tv>", "<tv><channel id=\"a\"/></tv>"] {
            Array(text.utf8).withUnsafeBytes { raw in
                #expect(XMLTVParts(raw, count: 4, minimumBytes: 1) == nil, "\(text)")
            }
        }
        Array(guide(programmes: 40, skipEvery: 0).utf8).withUnsafeBytes { raw in
            #expect(XMLTVParts(raw, count: 4) == nil, "below minimumPartBytes")
        }
    }

    /// `programmes` programmes on two channels, one in `skipEvery` with an unparsable start.
    private func guide(programmes: Int, skipEvery: Int) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE tv SYSTEM \"xmltv.dtd\">\n"
            + "<tv generator-info-name=\"test\">\n"
            + "  <channel id=\"a\"><display-name>A</display-name></channel>\n"
        for index in 0..<programmes {
            let channel = index % 2 == 0 ? "a" : "b"
            let start = skipEvery > 0 && index % skipEvery == 3 ? "bad" : String(format: "202610250%03d00 +0000", index)
            text += "  <programme start=\"\(start)\" channel=\"\(channel)\">\n    <title>P\(index)</title>\n  </programme>\n"
        }
        return text + "  <channel id=\"b\"><display-name>B</display-name></channel>\n</tv>\n"
    }
}
