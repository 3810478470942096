import Foundation
import GuideCore
import GzipCodec
import Testing
import TestSupport
import XMLTV

/// Inputs that fuzzing (fuzz/README.md) showed the XMLTV parser must refuse cleanly.
@Suite("XMLTV fuzz regressions")
struct XMLTVFuzzRegressionTests {
    @Test("a gzip body that inflates past 100 times its size is refused before it fills memory")
    func gzipBomb() throws {
        // 32 MB of blank lines inside a valid guide: 32 kB of gzip, a ratio of about 1000.
        let guide = "<tv>" + String(repeating: "\n", count: 32 << 20) + "<channel id=\"La1.es\"><display-name>La 1</display-name></channel></tv>"
        let bomb = try Gzip.compress(Data(guide.utf8))
        #expect(bomb.count < 100 * 1024)

        let error = #expect(throws: ProviderError.self) { try parseData(bomb, name: "bomb.xml.gz") }
        #expect(malformedMessage(error) == "bomb.xml.gz: gzip: inflates to more than 100 times its \(bomb.count) bytes, refused as a decompression bomb")
    }

    @Test("a gzip body under the ratio cap still parses")
    func compressedGuideUnderTheCap() throws {
        // A megabyte of padding in 1 kB of gzip: past the ratio, but within the 64 kB × 100 every input may use.
        let guide = "<tv>" + String(repeating: " ", count: 1 << 20) + "<channel id=\"La1.es\"><display-name>La 1</display-name></channel></tv>"
        let document = try parseData(try Gzip.compress(Data(guide.utf8)), name: "padded.xml.gz")
        #expect(document.channels.map(\.id) == ["La1.es"])
    }

    @Test("entities that would blow up are refused before libxml2 expands them, and say what they are", arguments: [
        ("attribute-amplification.xml", "attribute-amplification.xml: entity expansion: 600 reference(s) to the document's own entities "
            + "would expand to 2457600 bytes, more than its own 65964 bytes plus 1 MiB; refused as an entity-expansion attack ('billion laughs')"),
        ("billion-laughs.xml", "billion-laughs.xml: entity expansion: 1 reference(s) to the document's own entities would expand to "
            + "2000000000 bytes, more than its own 652 bytes plus 1 MiB; refused as an entity-expansion attack ('billion laughs')"),
        ("entity-loop.xml", "entity-loop.xml: entity reference loop: a → b → a refers to itself, which would expand forever"),
        ("external-entity.xml", "external-entity.xml: the document declares an external entity 'x' (SYSTEM or PUBLIC), which tvguide "
            + "does not read: a guide is the document alone"),
    ])
    func hostileEntities(file: String, message: String) throws {
        let data = try Data(contentsOf: Fixtures.url("fuzz/xmltv/\(file)"))
        let error = #expect(throws: ProviderError.self) { try parseData(data, name: file) }
        #expect(malformedMessage(error) == message)
    }

    @Test("the amplification case at scale costs memory in proportion to the file, not to its expansion")
    func amplificationAtScale() throws {
        // 155 kB of references to a 10 kB entity in attributes: 2.7 GB before the check.
        let big = String(repeating: "x", count: 10_000)
        let programmes = String(repeating: "<programme start=\"20261125100000 +0000\" channel=\"&big;\"><title>t</title></programme>\n", count: 1_800)
        let data = Data("<?xml version=\"1.0\"?>\n<!DOCTYPE tv [ <!ENTITY big \"\(big)\"> ]>\n<tv>\n\(programmes)</tv>\n".utf8)
        #expect(data.count > 150_000)
        let error = #expect(throws: ProviderError.self) { try parseData(data, name: "amplified.xml") }
        #expect(malformedMessage(error)?.contains("would expand to 18000000 bytes") == true, "\(String(describing: error))")
    }

    @Test("elements nested past libxml2's depth limit are refused in words, not with libxml2's advice")
    func deepNesting() throws {
        let nested = String(repeating: "<x>", count: 300) + String(repeating: "</x>", count: 300)
        let data = Data("<tv><programme start=\"20261125100000\" channel=\"a.es\"><title>t</title>\(nested)</programme></tv>".utf8)
        let error = #expect(throws: ProviderError.self) { try parseData(data, name: "deep.xml") }
        #expect(malformedMessage(error) == "deep.xml: line 1: elements nested deeper than 256 levels, refused (no XMLTV guide needs that)")
    }

    private func parseData(_ data: Data, name: String) throws -> XMLTVDocument {
        try XMLTVParser(source: testSource).parse(data, name: name)
    }
}
