import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// `GET /recommendations`: the day's best few for the taste profile the query gives.
    static func addRecommendationRoutes(to routes: RouteTable, _ serving: ServingContext) {
        routes.get("/recommendations") { request, _ in
            let now = CacheKey.second(serving.now)
            let query = QueryReader(request)
            let timeZone = try query.timeZone()
            // The default day is today's, which changes at midnight: the key holds it.
            let today = Day(now, in: timeZone)
            return try serving.cached(request, key: CacheKey.guide(request) + "@\(today)") { index in
                let profile = try TasteProfile(query: query)
                let language = try query.string("lang").map { try WebLanguage.named($0, parameter: "lang") } ?? .en
                let date = try query.day("date") ?? today
                let span = date.interval(in: timeZone)
                // Within the day: a `from` past its end lists nothing rather than a span that ends before it starts.
                let from = try query.time("from", in: timeZone).map { min(max($0, span.start), span.end) } ?? span.start
                let limit = try query.int("limit", default: 5, in: 1...Recommender.maximumLimit)
                let channels = Set(try query.channels(serving.settings, index).map(\.id))
                let picks = Recommender.recommend(index, profile: profile, channels: channels, from: from, to: span.end, zone: timeZone, limit: limit)
                let list = RecommendationList(picks, date: date, from: from, to: span.end, in: index, WebCatalogue.of(language))
                return try .json(list, timeZone: timeZone, maxAge: APICaching.guide)
            }
        }
    }
}

struct RecommendationList: Encodable, Sendable {
    var date: Day
    var from: Date
    var to: Date
    var items: [RecommendationItem]

    init(_ picks: [Recommendation], date: Day, from: Date, to: Date, in index: GuideIndex, _ t: WebCatalogue) {
        self.date = date
        self.from = from
        self.to = to
        items = picks.map { pick in
            RecommendationItem(programme: Airing(pick.programme, in: index), score: pick.score,
                               reasons: pick.reasons.map { RecommendationItem.Reason(code: $0.code, text: $0.text(t)) })
        }
    }
}

struct RecommendationItem: Encodable, Sendable {
    struct Reason: Encodable, Sendable {
        var code: String
        var text: String
    }
    var programme: Airing
    var score: Double
    var reasons: [Reason]
}

/// Recommendations for the command line (`tvguide recommend`): the same engine as the route,
/// over a snapshot read from disk.
package enum CommandLineRecommendations {
    /// The picks as the route's JSON body and as text lines: `22:50  Antena 3  Gladiator  (1.14)` and their reasons.
    package static func render(snapshot: Snapshot, channelOrder: [String], channels: [String]?, date: Day, from: Date?, zone: TimeZone,
                               saved: [String], likes: [String], dislikes: [String], kinds: [String], genres: [String],
                               limit: Int, language: String) throws -> (json: Data, text: String) {
        let index = GuideIndex(snapshot, channelOrder: channelOrder)
        let language = try WebLanguage.named(language, parameter: "language")
        let profile = TasteProfile(saved: saved, likes: likes, dislikes: dislikes, kinds: Set(try TasteProfile.kinds(kinds)),
                                   genres: try TasteProfile.genreIDs(genres))
        let span = date.interval(in: zone)
        let start = from.map { min(max($0, span.start), span.end) } ?? span.start
        let shown = Set(channels ?? index.channels.map(\.id))
        let picks = Recommender.recommend(index, profile: profile, channels: shown, from: start, to: span.end, zone: zone,
                                          limit: min(max(limit, 1), Recommender.maximumLimit))
        let t = WebCatalogue.of(language)
        let list = RecommendationList(picks, date: date, from: start, to: span.end, in: index, t)
        var lines: [String] = []
        for pick in picks {
            let channel = index.channel(pick.programme.channel)?.name ?? pick.programme.channel
            lines.append("\(WebTime.clock(pick.programme.start, zone))  \(channel)  \(pick.programme.title)  (\(pick.score))")
            lines += pick.reasons.map { "       · " + $0.text(t) }
        }
        return (try JSONRendering.encode(list, timeZone: zone), lines.joined(separator: "\n"))
    }
}
