import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// The JSON API and its OpenAPI description. Every body is rendered once per cache key
    /// (`CacheKey`) and served from `serving.cached` until the guide or, for bodies that depend
    /// on the clock, the second changes.
    static func addAPIRoutes(to routes: RouteTable, _ serving: ServingContext) {
        routes.get("/channels") { request, _ in
            try serving.cached(request, key: CacheKey.guide(request)) { index in
                let query = QueryReader(request)
                let page = try query.page()
                let type = try query.text("type").map(SearchText.fold)
                let lineup = try query.lineup(serving.settings)
                var channels = lineup.map { $0.compactMap(index.channel) } ?? index.channels
                if let type { channels = channels.filter { $0.type.map(SearchText.fold) == type } }
                return try .json(Page(channels, page), maxAge: APICaching.guide)
            }
        }
        routes.get("/lineups") { request, _ in
            try serving.cached(request, key: CacheKey.guide(request)) { _ in
                let page = try QueryReader(request).page()
                let lineups = serving.settings.lineups.sorted { $0.key < $1.key }.map { LineupItem(name: $0.key, channels: $0.value) }
                return try .json(Page(lineups, page), maxAge: APICaching.guide)
            }
        }
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
        addAudienceRoutes(to: routes, serving)
        let openAPI = RenderedResponse(contentType: "application/yaml", bytes: OpenAPIDocument.yaml, maxAge: APICaching.document)
        routes.get("/openapi.yaml") { request, _ in openAPI.response(for: request, gzip: serving.source.gzip) }
    }

    private static func addAudienceRoutes(to routes: RouteTable, _ serving: ServingContext) {
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

extension Page {
    /// The same page with each item transformed: rendering only the page's items, not the list's.
    func map<Other>(_ transform: (Item) throws -> Other) rethrows -> Page<Other> {
        var page = Page<Other>([], PageRequest(limit: limit, offset: offset))
        page.total = total
        page.items = try items.map(transform)
        return page
    }
}

/// How long clients may keep a body (`Cache-Control: max-age`, seconds).
enum APICaching {
    /// Bodies showing time left: they change every second.
    static let live = 1
    /// Lists from now on: they change when a programme starts.
    static let upcoming = 30
    /// Bodies that change only with the guide; the ETag revalidates them after a refresh.
    static let guide = 300
    /// The XMLTV feeds: a player asks again within minutes; the ETag revalidates them.
    static let feed = 300
    /// The OpenAPI document changes only with the server.
    static let document = 3_600
}

enum APILimits {
    static let queryText = 200
    static let channelIDs = 1_000
    /// `/audiences/top`: a year, leap day included.
    static let audienceDays = 366
    /// Longest id or name echoed back in an error message.
    static let echoedText = 100
}

/// Keys for `serving.cached`: the path and query, plus the second for bodies that show the clock.
enum CacheKey {
    static func guide(_ request: Request) -> String {
        request.uri.path + "?" + (request.uri.query ?? "")
    }

    static func live(_ request: Request, _ now: Date) -> String {
        guide(request) + "@" + String(Int(now.timeIntervalSince1970))
    }

    /// `now` to the whole second: what a per-second body is rendered for.
    static func second(_ now: Date) -> Date {
        Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    }
}

extension BasicRequestContext {
    /// The `{id}` of the path, percent-decoded: clients may send a programme id's `@` as `%40`.
    var pathID: String {
        PercentDecoding.decoded(parameters.get("id") ?? "")
    }
}

/// Percent-decoding that keeps every byte. Foundation's `removingPercentEncoding` drops a
/// leading U+FEFF as a byte order mark, which would make `%EF%BB%BFLa1.es` find `La1.es`:
/// ids are exact.
enum PercentDecoding {
    /// `text` with each `%XX` made its byte; `text` itself when that is not UTF-8 or a `%` is
    /// not followed by two hex digits.
    static func decoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return text }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A client's text in an error message: quoted, and cut short so that a huge id does not come
/// back whole.
struct Quoted: CustomStringConvertible {
    var text: String

    init(_ text: String) {
        self.text = text
    }

    var description: String {
        text.count > APILimits.echoedText ? "'\(text.prefix(APILimits.echoedText))…'" : "'\(text)'"
    }
}

extension QueryReader {
    /// `lineup`: a line-up's channel ids from providers.yaml; unknown names are 404s that list
    /// the known ones.
    func lineup(_ settings: ServerSettings) throws -> [String]? {
        guard let name = string("lineup") else { return nil }
        guard let channels = settings.lineups[name] else {
            let known = settings.lineups.keys.sorted()
            throw APIError.notFound("unknown line-up \(Quoted(name)); known: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
        }
        return channels
    }

    /// The channels asked with `channels` (ids, in the order given) and `lineup` (both narrow);
    /// every channel when neither is given. A line-up's ids the guide lacks are skipped; an
    /// unknown id in `channels` is a 404.
    func channels(_ settings: ServerSettings, _ index: GuideIndex) throws -> [Channel] {
        let lineup = try self.lineup(settings)
        guard let ids = list("channels") else {
            return lineup.map { $0.compactMap(index.channel) } ?? index.channels
        }
        guard ids.count <= APILimits.channelIDs else { throw APIError.badParameter("channels", "at most \(APILimits.channelIDs) ids") }
        let allowed = lineup.map(Set.init)
        var seen: Set<String> = []
        var channels: [Channel] = []
        for id in ids where seen.insert(id).inserted {
            guard let channel = index.channel(id) else { throw APIError.notFound("unknown channel \(Quoted(id))") }
            if allowed?.contains(id) ?? true { channels.append(channel) }
        }
        return channels
    }

}

/// `/upcoming`'s filters, read and checked once per rendering.
final class UpcomingFilter {
    var kind: ProgrammeKind?
    /// Folded, compared whole with the work's genres and the programme's categories.
    var genre: String?
    var years: ClosedRange<Int>?
    /// Nil: every channel.
    var channels: Set<String>?
    /// Genre and category names seen, whether they match `genre`: folding each once, not once
    /// per programme, keeps a scan of the whole guide fast.
    private var genreMatches: [String: Bool] = [:]

    init(_ query: QueryReader, settings: ServerSettings, index: GuideIndex) throws {
        if let text = query.string("kind") {
            guard let kind = ProgrammeKind(rawValue: text.lowercased()) else {
                throw APIError.badParameter("kind", "\(Quoted(text)) is not one of \(ProgrammeKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.kind = kind
        }
        genre = try query.text("genre").map(SearchText.fold)
        let yearFrom = try query.int("year_from", in: 0...9_999), yearTo = try query.int("year_to", in: 0...9_999)
        if let yearFrom, let yearTo, yearFrom > yearTo {
            throw APIError.badParameter("year_from", "\(yearFrom) is after year_to (\(yearTo))")
        }
        if yearFrom != nil || yearTo != nil { years = (yearFrom ?? 0)...(yearTo ?? 9_999) }
        if query.string("channels") != nil || query.string("lineup") != nil {
            channels = Set(try query.channels(settings, index).map(\.id))
        }
    }

    func accepts(_ programme: Programme, in index: GuideIndex) -> Bool {
        if let channels, !channels.contains(programme.channel) { return false }
        if let kind, index.kind(of: programme) != kind { return false }
        if let years {
            guard let year = index.work(of: programme)?.metadata.year ?? programme.year, years.contains(year) else { return false }
        }
        if let genre, !index.genreNames(of: programme).contains(where: { matches($0, genre) }) { return false }
        return true
    }

    private func matches(_ name: String, _ genre: String) -> Bool {
        if let known = genreMatches[name] { return known }
        let result = SearchText.fold(name) == genre
        genreMatches[name] = result
        return result
    }
}
