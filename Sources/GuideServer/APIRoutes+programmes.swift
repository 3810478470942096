import Foundation
import GuideCore
import Hummingbird

/// A programme, its other airings, and the airings to come or found by a search.
struct ProgrammeAPIRoutes: APIRouteCollection {
    let serving: ServingContext

    func addRoutes(to routes: RouteTable) {
        routes.get("/programmes/{id}") { request, context in
            let catchups = await serving.catchups()
            let now = CacheKey.second(serving.now)
            // An airing on a channel with catch-up changes with the clock (its link comes once it
            // has ended, goes after catchup-days, and may carry the time); the others only with
            // the guide and the playlist.
            let current = serving.state.index
            let live = current.programme(context.pathID).map { catchups.table(current)[$0.channel] != nil } ?? false
            let key = (live ? CacheKey.live(request, now) : CacheKey.guide(request)) + catchups.key
            return try serving.cached(request, key: key) { index in
                let id = context.pathID
                guard let programme = index.programme(id), let channel = index.channel(programme.channel) else {
                    throw APIError.notFound("unknown programme \(Quoted(id))")
                }
                let timeZone = try QueryReader(request).timeZone()
                var detail = ProgrammeDetail(programme, channel: channel, in: index)
                detail.catchup = catchups.table(index)[programme.channel].flatMap { CatchupLink($0, programme: programme, now: now, timeZone: timeZone) }
                return try .json(detail, timeZone: timeZone, maxAge: live ? APICaching.live : APICaching.guide)
            }
        }
        routes.get("/programmes/{id}/airings") { request, context in
            let now = CacheKey.second(serving.now)
            return try serving.cached(request, key: CacheKey.live(request, now)) { index in
                let id = context.pathID
                guard let programme = index.programme(id) else { throw APIError.notFound("unknown programme \(Quoted(id))") }
                let query = QueryReader(request)
                let (timeZone, page) = (try query.timeZone(), try query.page())
                let airings = Page(index.otherAirings(of: programme, from: now), page).map { Airing($0, in: index) }
                return try .json(airings, timeZone: timeZone, maxAge: APICaching.upcoming)
            }
        }
        routes.get("/upcoming") { request, _ in
            let now = CacheKey.second(serving.now)
            return try serving.cached(request, key: CacheKey.live(request, now)) { index in
                let query = QueryReader(request)
                let (timeZone, page) = (try query.timeZone(), try query.page())
                let filter = try UpcomingFilter(query, settings: serving.settings, index: index)
                let from = try query.time("from", in: timeZone) ?? now
                let matches = Array(index.startingFrom(from).filter { filter.accepts(index.snapshot.programmes[$0], in: index) })
                let airings = Page(matches, page).map { Airing(index.snapshot.programmes[$0], in: index) }
                return try .json(airings, timeZone: timeZone, maxAge: APICaching.upcoming)
            }
        }
        routes.get("/search") { request, _ in
            let now = CacheKey.second(serving.now)
            return try serving.cached(request, key: CacheKey.live(request, now)) { index in
                let query = QueryReader(request)
                guard let text = try query.trimmedText("q", atMost: APILimits.queryText) else {
                    throw APIError.badParameter("q", "the text to search for is required")
                }
                let (timeZone, page) = (try query.timeZone(), try query.page())
                let found = index.search(SearchText.fold(text))
                // Upcoming first (on air included), soonest first; then the past, latest first.
                let upcoming = found.filter { $0.end > now }.sorted { $0.start != $1.start ? $0.start < $1.start : $0.channel < $1.channel }
                let past = found.filter { $0.end <= now }.sorted { $0.start != $1.start ? $0.start > $1.start : $0.channel < $1.channel }
                return try .json(Page(upcoming + past, page).map { Airing($0, in: index) }, timeZone: timeZone, maxAge: APICaching.upcoming)
            }
        }
    }
}
