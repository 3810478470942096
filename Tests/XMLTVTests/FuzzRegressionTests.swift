import Foundation
import GuideCore
import Testing
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

    private func parseData(_ data: Data, name: String) throws -> XMLTVDocument {
        try XMLTVParser(source: testSource).parse(data, name: name)
    }
}
