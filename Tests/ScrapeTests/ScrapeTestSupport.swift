import Foundation
import GuideCore
import Scrape
import TestSupport

/// The recipe of the `scrape-cases` ranking pages, as providers.yaml would give it.
func audienceRecipe(base: URL = URL(string: "https://audiencias.example/")!, encoding: PageEncoding? = nil) -> ScrapeRecipe {
    ScrapeRecipe(
        url: base.absoluteString + "audiencias/{date:dd-MM-yyyy}",
        encoding: encoding,
        rows: "//table[@class='audiencias']//tr[td]",
        fields: [
            "rank": .init(xpath: "td[1]", parse: .integer),
            "title": .init(xpath: "td[2]", parse: .text),
            "channel": .init(xpath: "td[3]", parse: .text),
            "viewers": .init(xpath: "td[4]", parse: .number),
            "share": .init(xpath: "td[5]", parse: .percent),
            "start": .init(xpath: "td[6]", regex: "(\\d{1,2}[:.h]\\d{2})", parse: .time),
        ],
        required: ["title", "channel", "viewers"],
        produces: .audience
    )
}

/// The recipe of the `scrape-cases` guide pages.
func guideRecipe(base: URL) -> ScrapeRecipe {
    ScrapeRecipe(
        url: base.absoluteString + "guia/{channel}/{date:yyyy-MM-dd}",
        rows: "//ul[@class='parrilla']/li",
        fields: [
            "start": .init(xpath: "span[@class='hora']", parse: .time),
            "stop": .init(xpath: "span[@class='fin']", parse: .time),
            "title": .init(xpath: "h3", parse: .text),
            "subtitle": .init(xpath: "h4", parse: .text),
            "description": .init(xpath: "p[@class='sinopsis']", parse: .text),
            "category": .init(xpath: "em", parse: .text),
        ],
        produces: .guide
    )
}

/// A page of the `scrape-cases` fixtures, as bytes.
func casePage(_ relative: String) throws -> Data {
    try Data(contentsOf: Fixtures.url("scrape-cases/" + relative))
}

/// A ranking page whose table body is `rows` (UTF-8).
func rankingPage(_ rows: String) -> Data {
    Data("""
    <html><head><meta charset="utf-8"><title>Audiencias</title></head><body>
    <table class="audiencias">
    <tr><th>#</th><th>Programa</th><th>Cadena</th><th>Espectadores</th><th>Cuota</th><th>Hora</th></tr>
    \(rows)
    </table></body></html>
    """.utf8)
}

/// The channel map of the tests: formulatv-style names and an alias.
let resolveChannel: @Sendable (String) -> String? = { name in
    ["La 1": "La1.es", "TVE1": "La1.es", "Antena 3": "Antena3.es", "Telecinco": "Telecinco.es", "laSexta": "LaSexta.es"][name]
}

/// A Madrid wall-clock time with its UTC offset in hours (+2 summer, +1 winter).
func madrid(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, offset: Int) -> Date {
    let seconds = CivilTime.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute) - offset * 3_600
    return Date(timeIntervalSince1970: TimeInterval(seconds))
}

extension ProviderError {
    /// The detail of a `.malformed`, nil for any other case.
    var malformedDetail: String? {
        if case .malformed(let detail) = self { return detail }
        return nil
    }
}

/// The `ScrapeRecipeError` `body` threw; nil when it threw nothing or another error.
func recipeError(_ body: () throws -> Void) -> ScrapeRecipeError? {
    do {
        try body()
        return nil
    } catch let error as ScrapeRecipeError {
        return error
    } catch {
        return nil
    }
}

/// The `ProviderError` a synchronous `body` threw; nil when it threw nothing or another error.
func extractionError(_ body: () throws -> Void) -> ProviderError? {
    do {
        try body()
        return nil
    } catch let error as ProviderError {
        return error
    } catch {
        return nil
    }
}
