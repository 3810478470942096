import Foundation
import FuzzSupport
import GuideCore
import Scrape

/// An HTML page through the XPath scraper (libxml2's HTML parser, encoding detection, value
/// parsers): once as formulatv's audience ranking (`ScrapeAudienceProvider`, with providers.yaml's
/// formulatv recipe, the page sent without a charset so its `<meta>` decides) and once as a guide
/// page (`ScrapeGuideProvider`, the recipe of Tests/ScrapeTests, sent as ISO-8859-1).
/// Seeds: Fixtures/scrape-cases and Fixtures/formulatv (cut to a few rows).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScrapeHTML(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let page = fuzzData(bytes, count)
    let day = Day(year: 2026, month: 10, day: 19)
    blocking {
        do {
            let audience = try ScrapeAudienceProvider(
                id: "formulatv", recipe: Recipes.audience, transport: FuzzTransport(contentType: "text/html") { _ in page },
                resolveChannel: { Recipes.channels[$0] })
            _ = try await audience.audiences(on: day)
        } catch {
            requireTyped(error, "ScrapeAudienceProvider")
        }
        do {
            let guide = try ScrapeGuideProvider(
                id: "guide", recipe: Recipes.guide, channels: [],
                transport: FuzzTransport(contentType: "text/html; charset=iso-8859-1") { _ in page })
            let start = day.interval(in: Recipes.guide.timeZone).start
            _ = try await guide.schedule(for: ChannelRef(id: "La1.es", providerID: "la1"),
                                         in: DateInterval(start: start, duration: 86_400))
        } catch {
            requireTyped(error, "ScrapeGuideProvider")
        }
    }
    return 0
}

/// The recipes are configuration, not code: these are providers.yaml's `formulatv` and the guide
/// recipe of Tests/ScrapeTests/ScrapeTestSupport.swift.
private enum Recipes {
    static let audience = ScrapeRecipe(
        url: "https://www.formulatv.com/audiencias/{date:dd-MM-yyyy}/",
        rows: "//table[@class='audiencias']//tr[td]",
        fields: [
            "rank": .init(xpath: "td[1]", parse: .integer),
            "title": .init(xpath: "td[2]", parse: .text),
            "channel": .init(xpath: "td[3]", parse: .text),
            "viewers": .init(xpath: "td[4]", parse: .number),
            "share": .init(xpath: "td[5]", parse: .percent),
            "start": .init(xpath: "td[6]", regex: "(\\d{1,2}:\\d{2})", parse: .time),
        ],
        required: ["title", "channel", "viewers"],
        produces: .audience)

    static let guide = ScrapeRecipe(
        url: "https://guia.example/guia/{channel}/{date:yyyy-MM-dd}",
        rows: "//ul[@class='parrilla']/li",
        fields: [
            "start": .init(xpath: "span[@class='hora']", parse: .time),
            "stop": .init(xpath: "span[@class='fin']", parse: .time),
            "title": .init(xpath: "h3", parse: .text),
            "subtitle": .init(xpath: "h4", parse: .text),
            "description": .init(xpath: "p[@class='sinopsis']", parse: .text),
            "category": .init(xpath: "em", parse: .text),
        ],
        produces: .guide)

    static let channels = ["La 1": "La1.es", "TVE1": "La1.es", "Antena 3": "Antena3.es", "Telecinco": "Telecinco.es",
                           "laSexta": "LaSexta.es", "Cuatro": "Cuatro.es", "La 2": "La2.es"]
}

@_cdecl("fuzz_scrape_html_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzScrapeHTML)
}
