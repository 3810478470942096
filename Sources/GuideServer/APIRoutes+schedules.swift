import Foundation
import GuideCore
import Hummingbird

/// `/now`, `/grid` and a channel's day: what is on, by time.
struct ScheduleAPIRoutes: APIRouteCollection {
    let serving: ServingContext

    func addRoutes(to routes: RouteTable) {
        routes.get("/now") { request, _ in
            let now = CacheKey.second(serving.now)
            return try serving.cached(request, key: CacheKey.live(request, now)) { index in
                let query = QueryReader(request)
                let (timeZone, page) = (try query.timeZone(), try query.page())
                let items = Page(try query.channels(serving.settings, index), page).map { channel in
                    let (current, next) = index.onAir(channel.id, at: now)
                    return NowItem(channel: ChannelBrief(channel), current: current.map { Airing($0, in: index).live(at: now) },
                                   next: next.map { Airing($0, in: index) })
                }
                return try .json(Listing(context: NowContext(now: now), page: items), timeZone: timeZone, maxAge: APICaching.live)
            }
        }
        routes.get("/grid") { request, _ in
            let now = CacheKey.second(serving.now)
            // A grid at a given time does not move with the clock; the default one starts now.
            let fixed = request.uri.queryParameters["at"] != nil
            return try serving.cached(request, key: fixed ? CacheKey.guide(request) : CacheKey.live(request, now)) { index in
                let query = QueryReader(request)
                let (timeZone, page) = (try query.timeZone(), try query.page())
                let from = try query.time("at", in: timeZone) ?? now
                let hours = try query.int("hours", default: 3, in: 1...24)
                let to = from.addingTimeInterval(TimeInterval(hours * 3_600))
                let rows = Page(try query.channels(serving.settings, index), page).map { channel in
                    GridRow(channel: ChannelBrief(channel), programmes: index.schedule(of: channel.id, from: from, to: to).map { Airing($0, in: index) })
                }
                return try .json(Listing(context: SpanContext(from: from, to: to), page: rows), timeZone: timeZone,
                                 maxAge: fixed ? APICaching.guide : APICaching.live)
            }
        }
        routes.get("/channels/{id}/schedule") { request, context in
            let now = CacheKey.second(serving.now)
            return try serving.cached(request, key: CacheKey.live(request, now)) { index in
                let id = context.pathID
                guard let channel = index.channel(id) else { throw APIError.notFound("unknown channel \(Quoted(id))") }
                let query = QueryReader(request)
                let timeZone = try query.timeZone()
                let date = try query.day("date") ?? Day(now, in: timeZone)
                let span = date.interval(in: timeZone)
                let (from, to) = (span.start, span.end)
                let programmes = index.schedule(of: channel.id, from: from, to: to).map { programme in
                    var airing = Airing(programme, in: index).live(at: now)
                    airing.current = programme.start <= now && now < programme.end
                    return airing
                }
                let day = ChannelDay(channel: ChannelBrief(channel), date: date, timeZone: timeZone.identifier, from: from, to: to, programmes: programmes)
                return try .json(day, timeZone: timeZone, maxAge: APICaching.live)
            }
        }
    }
}
