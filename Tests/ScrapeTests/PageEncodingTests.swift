import Foundation
import GuideCore
import Scrape
import TestSupport
import Testing

@Suite("Page encodings")
struct PageEncodingTests {
    @Test("the Content-Type charset comes first, then <meta>, then UTF-8", arguments: [
        ("text/html; charset=ISO-8859-1", "<meta charset=\"utf-8\">", PageEncoding.isoLatin1),
        ("text/html;charset=\"windows-1252\"", "<meta charset=utf-8>", .windows1252),
        ("text/html", "<META CHARSET='iso-8859-1'>", .isoLatin1),
        ("text/html; charset=koi8-r", "<meta charset=\"windows-1252\">", .windows1252),
        (nil, "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=latin1\">", .isoLatin1),
        (nil, "<meta name=\"description\" content=\"charset\"><meta charset=\"cp1252\">", .windows1252),
        (nil, "<meta charset=\"shift_jis\">", .utf8),
        (nil, "<title>no declaration</title>", .utf8),
    ] as [(String?, String, PageEncoding)])
    func detection(contentType: String?, head: String, expected: PageEncoding) {
        let page = Data("<html><head>\(head)</head><body></body></html>".utf8)
        #expect(PageEncoding.detect(in: page, contentType: contentType) == expected)
    }

    @Test("a UTF-8 byte-order mark overrules the header")
    func byteOrderMark() {
        let page = Data([0xEF, 0xBB, 0xBF] + Array("<html><body>ñ</body></html>".utf8))
        #expect(PageEncoding.detect(in: page, contentType: "text/html; charset=iso-8859-1") == .utf8)
    }

    @Test("labels as recipes and pages write them", arguments: [
        ("utf-8", PageEncoding.utf8), ("UTF8", .utf8), (" 'ISO-8859-1' ", .isoLatin1), ("latin1", .isoLatin1),
        ("us-ascii", .isoLatin1), ("Windows-1252", .windows1252), ("cp1252", .windows1252),
    ] as [(String, PageEncoding)])
    func labels(label: String, expected: PageEncoding) {
        #expect(PageEncoding(label: label) == expected)
    }

    @Test("labels this scraper does not decode", arguments: ["auto", "utf-16", "iso-8859-15", "shift_jis", ""])
    func unknownLabels(label: String) {
        #expect(PageEncoding(label: label) == nil)
    }

    @Test("an ISO-8859-1 page declared in <meta charset> keeps its accented titles")
    func isoLatin1Page() throws {
        let result = try audienceRecipe().extract(from: try casePage("audiencias/20-10-2026"), contentType: nil)
        #expect(result.encoding == .isoLatin1)
        #expect(result.rows.compactMap { $0.text("title") } == ["La Pasión Turca", "España Directo", "El Niño y la Señal"])
    }

    @Test("a Windows-1252 page declared in <meta http-equiv> keeps its quotes, dash and euro sign")
    func windows1252Page() throws {
        let result = try audienceRecipe().extract(from: try casePage("audiencias/21-10-2026"), contentType: "application/octet-stream")
        #expect(result.encoding == .windows1252)
        #expect(result.rows.compactMap { $0.text("title") } == ["“Quién quiere ser millonario” – 1.000.000 €", "Águila Roja"])
    }

    @Test("the header's charset wins over the page's <meta>")
    func headerOverMeta() throws {
        // The page's bytes are ISO-8859-1 and its <meta> says so; the header names Windows-1252,
        // which is believed, and decodes these accents the same.
        let bytes = try casePage("audiencias/20-10-2026")
        let fromMeta = try audienceRecipe().extract(from: bytes, contentType: nil)
        let fromHeader = try audienceRecipe().extract(from: bytes, contentType: "text/html; charset=windows-1252")
        #expect(fromMeta.encoding == .isoLatin1)
        #expect(fromHeader.encoding == .windows1252)
        #expect(fromHeader.rows.compactMap { $0.text("title") } == fromMeta.rows.compactMap { $0.text("title") })

        // A UTF-8 page that declares Latin-1 in its <meta>, served with a UTF-8 header.
        let utf8 = Data(#"<html><head><meta charset="iso-8859-1"></head><body><table class="audiencias"><tr><td>1</td><td>Señal</td><td>La 1</td><td>1.000</td><td>1%</td><td>20:00</td></tr></table></body></html>"#.utf8)
        let decoded = try audienceRecipe().extract(from: utf8, contentType: "text/html; charset=utf-8")
        #expect(decoded.encoding == .utf8)
        #expect(decoded.rows.first?.text("title") == "Señal")
        let misread = try audienceRecipe().extract(from: utf8, contentType: nil)
        #expect(misread.rows.first?.text("title") == "SeÃ±al")
    }

    @Test("the recipe's encoding overrides header and <meta>")
    func recipeOverride() throws {
        let bytes = try casePage("audiencias/21-10-2026")
        let result = try audienceRecipe(encoding: .utf8).extract(from: bytes, contentType: "text/html; charset=windows-1252")
        #expect(result.encoding == .utf8)
        // Read as UTF-8, the lone Windows-1252 byte of `Á` is not a character: the page's own
        // declaration was not used.
        let title = try #require(result.rows.last?.text("title"))
        #expect(title.hasSuffix("guila Roja"))
        #expect(!title.hasPrefix("Á"))
    }
}
