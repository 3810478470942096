import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// The JSON API and its OpenAPI description, area by area in the order they are matched.
    /// Every body is rendered once per cache key (`CacheKey`) and served from `serving.cached`
    /// until the guide or, for bodies that depend on the clock, the second changes.
    static func addAPIRoutes(to routes: RouteTable, _ serving: ServingContext) {
        let areas: [any APIRouteCollection] = [
            ChannelAPIRoutes(serving: serving), ScheduleAPIRoutes(serving: serving),
            ProgrammeAPIRoutes(serving: serving), AudienceAPIRoutes(serving: serving),
        ]
        for area in areas {
            area.addRoutes(to: routes)
        }
        let openAPI = RenderedResponse(contentType: "application/yaml", bytes: OpenAPIDocument.yaml, maxAge: APICaching.document)
        routes.get("/openapi.yaml") { request, _ in openAPI.response(for: request, gzip: serving.source.gzip) }
    }
}

/// The routes of one area of the API, added in order: Hummingbird's `RouteCollection` shape,
/// over `RouteTable`, which also records each path for the OpenAPI check and the web error rule.
protocol APIRouteCollection {
    func addRoutes(to routes: RouteTable)
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
