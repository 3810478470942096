import Foundation
import GuideCore
import HTTPTypes
import Hummingbird

extension GuideServer {
    /// iCalendar reminders and saved-search feeds.
    static func addCalendarRoutes(to routes: RouteTable, _ serving: ServingContext) {
        routes.get("/reminders.ics") { request, _ in
            let query = QueryReader(request)
            let series = try CalendarQuery.seriesTitles(query)
            let ids = try CalendarQuery.programmeIDs(query, required: series.isEmpty)
            let lead = try CalendarQuery.alarmLead(query, default: serving.settings.reminderLead)
            let site = WebSite(request, serving.settings)
            let key = "/reminders.ics?programme=\(ids.joined(separator: ","))&series=\(series.joined(separator: "\u{1F}"))"
                + "&channels=\(query.list("channels")?.joined(separator: ",") ?? "")&lineup=\(query.string("lineup") ?? "")"
                + "&alarm=\(lead.components.seconds)&site=\(site?.base ?? "")"
            return try serving.cached(request, key: key) { index in
                // Airings that have left the guide are left out: a subscribed calendar keeps
                // asking for the same list week after week. Only a list of nothing known is a 404.
                var programmes = ids.compactMap(index.programme)
                if programmes.isEmpty && series.isEmpty, let id = ids.first {
                    throw APIError.notFound("unknown programme \(Quoted(id))")
                }
                if !series.isEmpty {
                    let channels = Set(try query.channels(serving.settings, index).map(\.id))
                    let saved = WebPreferences(reminders: [], series: series)
                    programmes += SavedAirings.programmes(saved, in: index, channels: channels)
                }
                var seen = Set<String>()
                programmes = programmes.filter { seen.insert($0.id).inserted }
                // No calendar name: an app importing a file with one offers to make a new calendar of it.
                let calendar = ICalendar(events: AiringEvents.events(programmes, in: index, lead: lead, site: site))
                return .calendar(calendar, filename: "tvguide-reminders.ics")
            }
        }

        routes.get("/calendar.ics") { request, _ in
            let query = QueryReader(request)
            let search = try CalendarSearch(query)
            let lead = try CalendarQuery.alarmLead(query, default: serving.settings.reminderLead)
            let now = serving.now
            let site = WebSite(request, serving.settings)
            // "From now on": the body changes as airings end, so the key holds the current second.
            let key = "/calendar.ics?\(search.key)&alarm=\(lead.components.seconds)&now=\(Int(now.timeIntervalSince1970))&site=\(site?.base ?? "")"
            return try serving.cached(request, key: key) { index in
                let channels = try query.channels(serving.settings, index)
                let matches = search.airings(in: index, on: Set(channels.map(\.id)), from: now)
                let calendar = ICalendar(name: "tvguide: " + search.description, refreshInterval: .seconds(3600),
                                         events: AiringEvents.events(matches, in: index, lead: lead, site: site))
                return .calendar(calendar, filename: "tvguide-\(search.slug).ics")
            }
        }
    }
}

extension RenderedResponse {
    /// An iCalendar body, shown inline (a browser hands it to the calendar app) under `filename`.
    static func calendar(_ calendar: ICalendar, filename: String, maxAge: Int = 300) -> RenderedResponse {
        var headers = HTTPFields()
        headers[.contentDisposition] = "inline; filename=\"\(filename)\""
        return RenderedResponse(contentType: "text/calendar; charset=utf-8", bytes: calendar.render(), maxAge: maxAge, extraHeaders: headers)
    }
}

/// Parameters both calendar routes read.
enum CalendarQuery {
    static let maximumProgrammes = 100
    static let maximumTextLength = 200

    /// `programme`: 1…100 ids, repeated or comma-separated, counted as sent; a repeated id gives
    /// one event. None is allowed when `required` is false (the titles of `series` say what to list).
    static func programmeIDs(_ query: QueryReader, required: Bool = true) throws -> [String] {
        guard let ids = query.list("programme") else {
            if !required { return [] }
            throw APIError.badParameter("programme", "give at least one programme id (programme=La1.es@20261025T203000Z) or a title in 'series'")
        }
        // Counted as sent, as openapi.yaml's maxItems counts.
        guard ids.count <= maximumProgrammes else {
            throw APIError.badParameter("programme", "\(ids.count) ids, at most \(maximumProgrammes) are allowed")
        }
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    /// `series`: titles whose every airing the calendar lists, repeated (a title may hold commas).
    static func seriesTitles(_ query: QueryReader) throws -> [String] {
        var seen = Set<String>()
        let sent = query.all("series")
        guard sent.count <= WebPreferences.maximumSeries else {
            throw APIError.badParameter("series", "\(sent.count) titles, at most \(WebPreferences.maximumSeries) are allowed")
        }
        for title in sent { try QueryReader.checkLength(title, "series", atMost: maximumTextLength) }
        return sent.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// `alarm`: minutes before the start, 0…1440; the configured lead otherwise.
    static func alarmLead(_ query: QueryReader, default fallback: Duration) throws -> Duration {
        guard let minutes = try query.int("alarm", in: 0...1440) else { return fallback }
        return .seconds(minutes * 60)
    }

    /// A text parameter of at most 200 characters.
    static func text(_ query: QueryReader, _ name: String) throws -> String? {
        try query.trimmedText(name, atMost: maximumTextLength)
    }
}

/// A saved search (`/calendar.ics`): every airing whose title contains `title`, which has
/// `genre` among its work's genres or its categories, and is of `kind` — the ones given, all of
/// them. `channels` and `lineup` narrow it as they do the JSON API's lists.
struct CalendarSearch: Sendable {
    var title: String?
    var genre: String?
    var kind: ProgrammeKind?
    var channels: [String]?
    var lineup: String?
    private var foldedTitle: String?
    private var foldedGenre: String?
    /// The canonical genres `genre` names, by id or by any of their words.
    private var genreIDs: Set<String> = []

    init(_ query: QueryReader) throws {
        title = try CalendarQuery.text(query, "title")
        genre = try CalendarQuery.text(query, "genre")
        if let name = query.string("kind") {
            guard let kind = ProgrammeKind(rawValue: name) else {
                let allowed = ProgrammeKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError.badParameter("kind", "\(Quoted(name)) is not one of \(allowed)")
            }
            self.kind = kind
        }
        guard title != nil || genre != nil || kind != nil else {
            throw APIError(status: .badRequest, message: "parameters 'title', 'genre', 'kind': give at least one to search by")
        }
        channels = query.list("channels")
        lineup = query.string("lineup")
        foldedTitle = title.map(SearchText.fold)
        foldedGenre = genre.map(SearchText.fold)
        if let genre { genreIDs = Set(GenreVocabulary.name(ofID: genre, language: "en") != nil ? [genre] : GenreVocabulary.ids([genre])) }
    }

    /// Everything the feed depends on besides the guide and the clock, for the response cache.
    var key: String {
        [("title", title), ("genre", genre), ("kind", kind?.rawValue), ("channels", channels?.joined(separator: ",")), ("lineup", lineup)]
            .compactMap { name, value in value.map { "\(name)=\($0)" } }
            .joined(separator: "&")
    }

    /// What the calendar is called in the app that subscribes to it.
    var description: String {
        var parts: [String] = []
        if let title { parts.append("title contains \"\(title)\"") }
        if let genre { parts.append("genre \(genre)") }
        if let kind { parts.append("kind \(kind.rawValue)") }
        if let channels { parts.append("channels \(channels.joined(separator: ", "))") }
        if let lineup { parts.append("line-up \(lineup)") }
        return parts.joined(separator: ", ")
    }

    /// The search in letters, digits and hyphens only, for a file name a header can carry safely.
    var slug: String {
        let words = [title, genre, kind?.rawValue, lineup].compactMap { $0 }.joined(separator: " ")
        var slug = ""
        for scalar in SearchText.fold(words).unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
            if slug.count >= 60 { break }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "search" : slug
    }

    /// A genre asked matches a programme's genre of the same canonical genre (`comedia`,
    /// `Comedy`), or, for a word the vocabulary does not know, the same word.
    private func matchesGenre(_ names: [String], folded: String) -> Bool {
        if !genreIDs.isEmpty { return !Set(GenreVocabulary.ids(names)).isDisjoint(with: genreIDs) }
        return names.contains { SearchText.fold($0) == folded }
    }

    /// At most this many airings in a feed: the soonest ones.
    static let maximumEvents = 1_000

    /// The matching airings on `channels` that have not ended at `now` (the one on air
    /// included), by start and channel, at most `maximumEvents`.
    func airings(in index: GuideIndex, on channels: Set<String>, from now: Date) -> [Programme] {
        let programmes = index.snapshot.programmes
        var matches: [Programme] = []
        for position in index.byStart.lazy.map(Int.init) {
            let programme = programmes[position]
            guard programme.end > now || programme.start >= now, channels.contains(programme.channel) else { continue }
            if let foldedTitle, !index.foldedTitle(at: position).contains(foldedTitle) { continue }
            if let kind, index.kind(of: programme) != kind { continue }
            if let foldedGenre, !matchesGenre(index.genreNames(of: programme), folded: foldedGenre) { continue }
            matches.append(programme)
            if matches.count == Self.maximumEvents { break }
        }
        return matches
    }
}

/// Airings as calendar events.
enum AiringEvents {
    /// By start, then channel: the order of the events in every calendar.
    static func ordered(_ programmes: [Programme]) -> [Programme] {
        programmes.sorted { ($0.start, $0.channel) < ($1.start, $1.channel) }
    }

    static func events(_ programmes: [Programme], in index: GuideIndex, lead: Duration, site: WebSite? = nil) -> [ICalendar.Event] {
        ordered(programmes).map { event($0, in: index, lead: lead, site: site) }
    }

    /// One airing: the channel as its location, its synopsis (else the work's overview) as its
    /// description, its kind and genres as categories, a display alarm `lead` before it starts,
    /// and its page on `site` (the address the calendar asked by) as its URL.
    static func event(_ programme: Programme, in index: GuideIndex, lead: Duration, site: WebSite? = nil) -> ICalendar.Event {
        let work = index.work(of: programme)
        let channel = index.channel(programme.channel)?.name ?? programme.channel
        let summary = summary(of: programme)
        var categories: [String] = []
        var seen = Set<String>()
        // The kind, then the genres in one language (English, as the feed's other words are), each once.
        let kind = index.kind(of: programme).map { [$0.rawValue] } ?? []
        for category in kind + GenreVocabulary.names(index.genreNames(of: programme), language: WebLanguage.en.rawValue)
        where seen.insert(SearchText.fold(category)).inserted {
            categories.append(category)
        }
        return ICalendar.Event(
            uid: "\(programme.id)@tvguide", stamp: index.snapshot.generatedAt,
            start: programme.start, end: programme.end > programme.start ? programme.end : nil,
            summary: summary, location: channel,
            description: nonEmpty(programme.synopsis) ?? nonEmpty(work?.metadata.overview),
            categories: categories, url: site.map { $0.base + WebLinks.programme(programme.id) }, alarmLead: lead,
            alarmDescription: "\(summary) on \(channel) " + (lead > .zero ? "in \(spoken(lead))" : "now"))
    }

    /// The title, then the sub-title and the episode when they add something: `Aída — T5 E3`.
    static func summary(of programme: Programme) -> String {
        var parts = [programme.title]
        let episode = programme.episode.flatMap { episode -> String? in
            if let onscreen = nonEmpty(episode.onscreen) { return onscreen }
            switch (episode.season, episode.number) {
            case let (season?, number?): return "T\(season) E\(number)"
            case let (nil, number?): return "E\(number)"
            case let (season?, nil): return "T\(season)"
            case (nil, nil): return nil
            }
        }
        for part in [nonEmpty(programme.subtitle), episode].compactMap({ $0 }) where !parts.contains(part) {
            parts.append(part)
        }
        return parts.joined(separator: " — ")
    }

    private static func spoken(_ lead: Duration) -> String {
        let seconds = lead.components.seconds
        return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }
}

/// The address a client reached the server by, from its `Host` (or a proxy's
/// `X-Forwarded-Host` and `X-Forwarded-Proto`): feeds link back to the web guide with it.
struct WebSite: Sendable {
    /// `http://192.168.1.10:8080`, or `server.public_url` (`https://example.org/tv`): what the
    /// server's own paths are appended to.
    let base: String

    /// `server.public_url` when set; else the request's host (`Host`), with the scheme and host
    /// a trusted proxy says the client used (`server.trust_forwarded`: `Forwarded`, else
    /// `X-Forwarded-Proto` and `X-Forwarded-Host`). Nil when the request names no host, or one
    /// that is not a plain host and port.
    init?(_ request: Request, _ settings: ServerSettings) {
        if let publicURL = settings.publicURL {
            base = publicURL
            return
        }
        let forwarded = settings.trustForwarded ? Forwarded(request.headers) : Forwarded()
        guard let host = forwarded.host ?? request.head.authority, Self.isHost(host) else { return nil }
        base = (forwarded.proto == "https" ? "https" : "http") + "://" + host
    }

    private static func isHost(_ host: String) -> Bool {
        !host.isEmpty && host.count <= 255
            && host.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-.:[]".unicodeScalars.contains($0) }
    }

    /// What the proxy nearest the client says it asked for: the first element of `Forwarded`
    /// (RFC 7239), else the first values of `X-Forwarded-Proto` and `X-Forwarded-Host`.
    struct Forwarded {
        var proto: String?
        var host: String?

        init() {}

        init(_ fields: HTTPFields) {
            if let element = fields[.forwarded]?.split(separator: ",").first {
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2 else { continue }
                    let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    switch parts[0].lowercased() {
                    case "proto": proto = value.lowercased()
                    case "host": host = value
                    default: break
                    }
                }
                return
            }
            proto = Self.first(fields[.xForwardedProto])?.lowercased()
            host = Self.first(fields[.xForwardedHost])
        }

        private static func first(_ value: String?) -> String? {
            value?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}

extension HTTPField.Name {
    static let forwarded = HTTPField.Name("Forwarded")!
    static let xForwardedHost = HTTPField.Name("X-Forwarded-Host")!
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
