import Foundation
import FuzzSupport
import GuideCore
import Scrape

/// A JSON document through `JSONFeedGuideProvider` (the jq filter its paths compile to, and the
/// site engine's programme reader and time parsers), once under each of the three recipes of
/// Tests/ScrapeTests: ISO 8601 times under `data.programmes`, Unix times under
/// `result[0].events`, and `HH:mm` clock times in a top-level array. Seeds: Fixtures/json-feed (cut to a few items).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONFeed(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let body = fuzzData(bytes, count)
    // One Madrid day: one page per recipe.
    let day = DateInterval(start: Date(timeIntervalSince1970: 1_792_792_800), duration: 86_400)
    let channel = ChannelRef(id: "La1.es", providerID: "la1")
    blocking {
        for recipe in Recipes.all {
            let provider = JSONFeedGuideProvider(
                id: "feed", recipe: recipe, channels: [Channel(id: "la1", name: "La 1")],
                transport: FuzzTransport(contentType: "application/json") { _ in body })
            do { _ = try await provider.schedule(for: channel, in: day) } catch { requireTyped(error, "JSONFeedGuideProvider") }
        }
    }
    return 0
}

private enum Recipes {
    static let all: [JSONFeedRecipe] = {
        do {
            return [
                JSONFeedRecipe(
                    url: try SiteTemplate(shorthandURL: "http://feed.test/guide/{channel}/{date:yyyy-MM-dd}.json"), items: "data.programmes",
                    fields: [.start: "begin", .stop: "end", .title: "name", .subtitle: "info.subtitle", .description: "info.text",
                             .category: "genre", .episode: "ep"]),
                JSONFeedRecipe(
                    url: try SiteTemplate(shorthandURL: "http://feed.test/epg/{channel}.json"), items: "result[0].events",
                    fields: [.start: "t0", .stop: "t1", .title: "title", .category: "genres", .episode: "ep"], timeFormat: .unix),
                JSONFeedRecipe(
                    url: try SiteTemplate(shorthandURL: "http://feed.test/programacion/{date:dd-MM-yyyy}/{channel}.json"), items: "$",
                    fields: [.start: "hora", .stop: "fin", .title: "titulo", .category: "tipo"], timeFormat: .clock("HH:mm")),
            ]
        } catch {
            fatalError("json-feed fuzz recipes: \(error)")
        }
    }()
}

@_cdecl("fuzz_json_feed_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzJSONFeed)
}
