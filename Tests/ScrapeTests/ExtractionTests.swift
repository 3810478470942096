import Foundation
import GuideCore
import Scrape
import TestSupport
import Testing

@Suite("Extraction and layout-change detection")
struct ExtractionTests {
    @Test("every row of a ranking page, with adverts, spacers and script text left out")
    func recordedRankingPage() throws {
        let result = try audienceRecipe().extract(from: try casePage("audiencias/19-10-2026"), contentType: nil)
        #expect(result.matchedRows == 8)
        #expect(result.skippedAdverts == 1)
        #expect(result.skippedSpacers == 1)
        #expect(result.optionalFailures == ["share": 1])
        #expect(result.encoding == .utf8)
        #expect(result.rows.map { $0.text("title") } == [
            "El Hormiguero", "Telediario 2", "Pasapalabra", "La Revuelta", "Cine de madrugada", "Informativos Telecinco",
        ])
        #expect(result.rows.map { $0.integer("viewers") } == [2_526_000, 2_100_000, 1_900_000, 1_234_000, 850_000, 850_000])
        #expect(result.rows.map { $0.integer("rank") } == [1, 2, 3, 4, 5, 6])
        #expect(result.rows.map { $0.number("share") } == [23.0, 17.5, 20.1, nil, 9.8, 8.5])
        // `de 21:00 a 21:40` through the regex keeps the first time; 25:30 is past midnight.
        #expect(result.rows.map { $0.minutes("start") } == [1_305, 1_260, 1_200, 1_320, 1_530, 1_260])
        #expect(result.rows[0].values.count == 6)
        #expect(result.rows[3].values.keys.sorted() == ["channel", "rank", "start", "title", "viewers"])
    }

    @Test("a page whose table moved is malformed, naming the rows selector")
    func movedTable() throws {
        let error = extractionError {
            _ = try audienceRecipe().extract(from: try casePage("audiencias/22-10-2026"), contentType: nil)
        }
        #expect(error?.malformedDetail == "rows selector '//table[@class='audiencias']//tr[td]' matched no rows (has the page layout changed?)")
    }

    @Test("a data row whose required field does not parse is malformed, naming row, field, selector, parser and text")
    func requiredFieldUnparsable() {
        let page = rankingPage("""
        <tr><td>1</td><td>El Hormiguero</td><td>Antena 3</td><td>2.526.000</td><td>23,0%</td><td>21:45</td></tr>
        <tr><td>2</td><td>Pasapalabra</td><td>Antena 3</td><td>—</td><td>20,1%</td><td>20:00</td></tr>
        """)
        let error = extractionError { _ = try audienceRecipe().extract(from: page, contentType: nil) }
        #expect(error?.malformedDetail
            == "row 2 of '//table[@class='audiencias']//tr[td]': field 'viewers' (xpath td[4], parse number): '—' is not a number")
    }

    @Test("a missing or empty required field, and a regex that does not match, are malformed too")
    func requiredFieldMissing() {
        let recipe = audienceRecipe()
        let emptyTitle = rankingPage("<tr><td>1</td><td> </td><td>Antena 3</td><td>2.526.000</td><td>23,0%</td><td>21:45</td></tr>")
        #expect(extractionError { _ = try recipe.extract(from: emptyTitle, contentType: nil) }?.malformedDetail
            == "row 1 of '//table[@class='audiencias']//tr[td]': field 'title' (xpath td[2], parse text): empty")

        var requiringStart = recipe
        requiringStart.required.append("start")
        let noTime = rankingPage("<tr><td>1</td><td>El Hormiguero</td><td>Antena 3</td><td>2.526.000</td><td>23,0%</td><td>por la noche</td></tr>")
        #expect(extractionError { _ = try requiringStart.extract(from: noTime, contentType: nil) }?.malformedDetail
            == "row 1 of '//table[@class='audiencias']//tr[td]': field 'start' (xpath td[6], regex (\\d{1,2}[:.h]\\d{2}), parse time): 'por la noche' does not match the regex")

        var shareRequired = recipe
        shareRequired.required = ["share"]
        shareRequired.fields["share"]?.xpath = "td[@class='cuota']"
        let page = rankingPage("<tr><td>1</td><td>El Hormiguero</td><td>Antena 3</td><td>2.526.000</td><td>23,0%</td><td>21:45</td></tr>")
        #expect(extractionError { _ = try shareRequired.extract(from: page, contentType: nil) }?.malformedDetail
            == "row 1 of '//table[@class='audiencias']//tr[td]': field 'share' (xpath td[@class='cuota'], parse percent): the XPath matched nothing")
    }

    @Test("a row of the usual cell count that fails is an error even among adverts; an advert alone is not")
    func advertsOnlyByCellCount() throws {
        let advertThenData = rankingPage("""
        <tr><td colspan="6">Publicidad</td></tr>
        <tr><td>1</td><td>El Hormiguero</td><td>Antena 3</td><td>2.526.000</td><td>23,0%</td><td>21:45</td></tr>
        <tr><td>2</td><td>Pasapalabra</td><td>Antena 3</td><td>1.900.000</td><td>20,1%</td><td>20:00</td></tr>
        """)
        let result = try audienceRecipe().extract(from: advertThenData, contentType: nil)
        #expect(result.skippedAdverts == 1)
        #expect(result.rows.count == 2)

        // One cell against two: a tie, which the row with more cells wins (an advert spans cells).
        let onlyAdverts = rankingPage("<tr><td colspan=\"6\">Publicidad</td></tr><tr><td colspan=\"3\">&nbsp;</td><td colspan=\"3\"></td></tr>")
        #expect(extractionError { _ = try audienceRecipe().extract(from: onlyAdverts, contentType: nil) }?.malformedDetail
            == "rows selector '//table[@class='audiencias']//tr[td]' matched 2 row(s) but none holds data (1 empty, 1 with a cell count other than 2)")
    }

    @Test("broken HTML is recovered: unclosed cells and rows, stray end tags, no <html>")
    func brokenHTML() throws {
        let page = Data("""
        <div><table class="audiencias">
        <tr><td>1<td>El Hormiguero<td>Antena 3<td>2.526.000<td>23,0%<td>21:45
        <tr><td>2<td><b>Pasapalabra</i><td>Antena 3<td>1.900.000<td>20,1%<td>20:00</span>
        </table></div></p></body>
        """.utf8)
        let result = try audienceRecipe().extract(from: page, contentType: nil)
        #expect(result.rows.map { $0.text("title") } == ["El Hormiguero", "Pasapalabra"])
        #expect(result.rows.map { $0.minutes("start") } == [1_305, 1_200])
    }

    @Test("an empty page is malformed")
    func emptyPage() {
        #expect(extractionError { _ = try audienceRecipe().extract(from: Data(), contentType: nil) }?.malformedDetail == "the page is empty")
    }

    @Test("field XPaths may select attributes and compute strings")
    func attributesAndFunctions() throws {
        var recipe = audienceRecipe()
        recipe.fields["title"] = .init(xpath: "td[2]/a/@title", parse: .text)
        recipe.fields["channel"] = .init(xpath: "normalize-space(substring-after(td[3], 'Cadena:'))", parse: .text)
        recipe.fields["rank"] = .init(xpath: "count(preceding-sibling::tr) + 1", parse: .integer)
        let page = rankingPage("""
        <tr><td></td><td><a title="El Hormiguero 3.0" href="/x">El Hormi…</a></td><td>Cadena: Antena 3</td><td>2.526.000</td><td></td><td></td></tr>
        """)
        let rows = try recipe.extract(from: page, contentType: nil).rows
        let row = try #require(rows.first)
        #expect(row.text("title") == "El Hormiguero 3.0")
        #expect(row.text("channel") == "Antena 3")
        #expect(row.integer("rank") == 2)   // the header row comes first
    }

    @Test("plain child steps, read without libxml2's evaluator, select what libxml2 selects")
    func childStepsAgreeWithLibXML2() throws {
        // `child::td[2]` is the same step spelt so that libxml2 evaluates it.
        var spelledOut = audienceRecipe()
        for (name, rule) in spelledOut.fields { spelledOut.fields[name]?.xpath = "child::" + rule.xpath }
        for page in ["audiencias/19-10-2026", "audiencias/20-10-2026", "audiencias/21-10-2026"] {
            let data = try casePage(page)
            #expect(try audienceRecipe().extract(from: data, contentType: nil) == spelledOut.extract(from: data, contentType: nil))
        }

        var recipe = audienceRecipe()
        recipe.fields["title"]?.xpath = "td"   // the first cell
        recipe.fields["rank"]?.xpath = "th[1]"   // header cells are not td
        let page = rankingPage("<tr><td>El Hormiguero</td><td>—</td><td>Antena 3</td><td>2.526.000</td><td>23,0%</td><td>21:45</td></tr>")
        let result = try recipe.extract(from: page, contentType: nil)
        #expect(result.rows.first?.text("title") == "El Hormiguero")
        #expect(result.optionalFailures == ["rank": 1])

        // libxml2 lower-cases HTML tag names and compares names exactly: `TD` selects nothing.
        recipe.fields["title"]?.xpath = "TD[2]"
        #expect(extractionError { _ = try recipe.extract(from: page, contentType: nil) }?.malformedDetail?
            .hasSuffix("field 'title' (xpath TD[2], parse text): the XPath matched nothing") == true)
    }

    @Test("an extractor compiles once and extracts page after page")
    func extractorReuse() throws {
        let extractor = try ScrapeExtractor(audienceRecipe())
        let monday = try extractor.extract(from: try casePage("audiencias/19-10-2026"), contentType: nil)
        let tuesday = try extractor.extract(from: try casePage("audiencias/20-10-2026"), contentType: nil)
        let mondayAgain = try extractor.extract(from: try casePage("audiencias/19-10-2026"), contentType: nil)
        #expect(monday.rows.count == 6)
        #expect(tuesday.rows.count == 3)
        #expect(mondayAgain == monday)
    }
}
