import Foundation
import GuideCore
import Hummingbird

/// The audience rankings: one day's, and the most watched over a span of days.
struct AudienceAPIRoutes: APIRouteCollection {
    let serving: ServingContext

    func addRoutes(to routes: RouteTable) {
        routes.get("/audiences") { request, _ in
            try serving.cached(request, key: CacheKey.guide(request)) { index in
                let query = QueryReader(request)
                let (timeZone, page) = (try query.timeZone(), try query.page())
                let held = index.audienceDays
                guard let day = try query.day("date") ?? held.last else {
                    throw APIError.notFound("no audience rankings are held")
                }
                guard let ranking = index.audiencesByDay[day] else {
                    throw APIError.notFound("no audience ranking for \(day); days held: \(held.map(\.description).joined(separator: ", "))")
                }
                let items = Page(ranking.records, page).map { AudienceItem($0, in: index) }
                return try .json(Listing(context: AudienceDayContext(day: day, days: held), page: items), timeZone: timeZone, maxAge: APICaching.guide)
            }
        }
        routes.get("/audiences/top") { request, _ in
            try serving.cached(request, key: CacheKey.guide(request)) { index in
                let query = QueryReader(request)
                let (timeZone, page) = (try query.timeZone(), try query.page(defaultLimit: 20))
                let latest = index.audienceDays.last ?? Day(serving.now, in: .gmt)
                let askedTo = try query.day("to")
                let to = askedTo ?? latest
                let from = try query.day("from") ?? to.adding(days: -6)
                // The error names a parameter the client sent: `to` when it sent it, else `from`,
                // measured against the default end (the last day with audiences).
                let end = askedTo == nil ? "the last day with audiences, \(to)" : "'to', \(to)"
                guard from <= to else { throw APIError.badParameter("from", "\(from) is after \(end)") }
                guard to.days(since: from) < APILimits.audienceDays else {
                    let span = "\(APILimits.audienceDays) days at most"
                    if askedTo == nil {
                        throw APIError.badParameter("from", "more than \(APILimits.audienceDays - 1) days before \(end) (\(span))")
                    }
                    throw APIError.badParameter("to", "at most \(APILimits.audienceDays - 1) days after 'from' (\(span))")
                }
                let records = index.snapshot.audiences.filter { (from...to).contains($0.day) }.flatMap(\.records)
                    .sorted { $0.viewers != $1.viewers ? $0.viewers > $1.viewers : ($0.day != $1.day ? $0.day < $1.day : AudienceRecord.ranksBefore($0, $1)) }
                let items = Page(records, page).map { AudienceItem($0, in: index) }
                return try .json(Listing(context: DaySpanContext(from: from, to: to), page: items), timeZone: timeZone, maxAge: APICaching.guide)
            }
        }
    }
}
