import Foundation
import GuideCore
import Hummingbird
import Mustache

/// The web guide's pages: a view model per page, built from the index, rendered once through the
/// Mustache templates in `WebTemplates`. The models hold only stored properties, as Mustache reads
/// them by reflection; every string from the guide is escaped by the templates.
enum WebPages {
    /// Parsed once for the process: the templates are constants, so one that does not parse is a
    /// defect, which the first render in the tests finds.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in WebTemplates.all {
            do {
                try library.register(text, named: name)
            } catch {
                preconditionFailure("web template '\(name)' does not parse: \(error)")
            }
        }
        return library
    }()

    static let contentType = "text/html; charset=utf-8"

    /// Defence in depth behind the escaping: scripts only from this server, so markup that got
    /// through could not run. Inline `style` is allowed for the grid's computed positions; images
    /// may come from anywhere over HTTP(S), as posters do.
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: http: data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
    ]

    /// Pages show "now" (the grid's line, what is on air, time left in minutes): they are rendered
    /// as of the minute and cached under it, so each is rendered at most once a minute, not once a
    /// second as the JSON API's bodies are. Within a minute the line moves a few pixels at most and
    /// no "time left" changes; guide.js moves the line in the browser between renders.
    static let maxAge = 30

    /// The templates pages render through; each is registered in `library` under its name.
    enum Template: String {
        case grid, channel, programme, error
    }

    static func render(_ model: Any, _ template: Template, status: HTTPResponse.Status = .ok, maxAge: Int = maxAge) -> RenderedResponse {
        guard let html = library.render(model, withTemplate: template.rawValue) else {
            preconditionFailure("web template '\(template.rawValue)' is not registered")
        }
        var response = RenderedResponse(contentType: contentType, bytes: Array(html.utf8), maxAge: maxAge, extraHeaders: securityHeaders)
        response.status = status
        return response
    }

    /// The HTML answer to a client's mistake on a page (unknown id, bad parameter): a readable
    /// message and a way home, never cached.
    static func errorPage(_ error: APIError, zone: TimeZone, now: Date) -> RenderedResponse {
        let heading = switch error.status {
        case .notFound: "Not found"
        case .badRequest: "Bad request"
        default: error.status.reasonPhrase
        }
        let model = ErrorPage(nowEpoch: WebTime.epoch(now), zoneName: zone.identifier, heading: heading, message: error.message)
        return render(model, .error, status: error.status, maxAge: 0)
    }
}

struct ErrorPage {
    let nowEpoch: Int
    let zoneName: String
    let heading: String
    let message: String
}

/// What every page reads from its query: the zone times are shown in and the links that keep it.
struct WebQuery {
    /// The web guide's default: the guide is Spanish, and so are most of its readers.
    static let defaultZone = TimeZone(identifier: "Europe/Madrid") ?? .gmt

    let reader: QueryReader
    let zone: TimeZone
    /// `tz` as the client gave it: links carry it on, and leave it out when it was not given.
    let zoneParameter: String?

    init(_ request: Request) throws {
        reader = QueryReader(request)
        zoneParameter = reader.string("tz")
        if let name = zoneParameter {
            zone = try QueryReader.zone(named: name)
        } else {
            zone = Self.defaultZone
        }
    }

    /// A link to another page of the guide, keeping `tz`; parameters without a value are left out.
    func link(_ path: String, _ parameters: [(String, String?)] = []) -> String {
        WebLinks.withQuery(path, parameters + [("tz", zoneParameter)])
    }
}

enum WebLinks {
    /// Unreserved characters plus `@` and `:`, which programme ids hold and URLs allow unencoded.
    private static let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@:")

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    static func withQuery(_ path: String, _ parameters: [(String, String?)]) -> String {
        let pairs = parameters.compactMap { name, value in value.map { "\(name)=\(encode($0))" } }
        return pairs.isEmpty ? path : path + "?" + pairs.joined(separator: "&")
    }

    static func channel(_ id: String) -> String { "/channel/" + encode(id) }
    /// A channel's day marks the programme on air with this id: links to today jump to it
    /// without any script.
    static let onAirAnchor = "#on-air"
    static func programme(_ id: String) -> String { "/programme/" + encode(id) }
    static func reminder(_ programme: String) -> String { "/reminders.ics?programme=" + encode(programme) }

    /// A path parameter as the client meant it: routes match the raw path, so an id sent
    /// percent-encoded arrives encoded.
    static func decoded(_ parameter: String?) -> String {
        guard let parameter else { return "" }
        return parameter.removingPercentEncoding ?? parameter
    }
}

/// Times as the pages show them, in English with 24-hour clocks: `21:05`, `Wednesday 21 October`.
enum WebTime {
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["January", "February", "March", "April", "May", "June", "July",
                                 "August", "September", "October", "November", "December"]

    static func epoch(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

    static func date(_ epoch: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(epoch)) }

    /// The start of the minute `date` falls in.
    static func minute(_ date: Date) -> Date {
        let seconds = epoch(date)
        return self.date(seconds - floorMod(seconds, 60))
    }

    /// The last local half hour at or before `date`: the grid starts there.
    static func halfHour(before date: Date, in zone: TimeZone) -> Date {
        let offset = zone.secondsFromGMT(for: date)
        let local = epoch(date) + offset
        return self.date(local - floorMod(local, 1_800) - offset)
    }

    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        let c = CivilTime.components(of: date, in: zone)
        return pad(c.hour) + ":" + pad(c.minute)
    }

    /// `Wednesday 21 October`.
    static func longDay(_ day: Day) -> String {
        "\(weekdays[weekdayIndex(day)]) \(day.day) \(months[day.month - 1])"
    }

    /// `Wed 21 Oct`.
    static func shortDay(_ day: Day) -> String {
        "\(weekday(day)) \(day.day) \(months[day.month - 1].prefix(3))"
    }

    /// `Wed`.
    static func weekday(_ day: Day) -> String {
        String(weekdays[weekdayIndex(day)].prefix(3))
    }

    /// `35 min`, `2 h`, `1 h 20 min`; a part of a minute counts as a whole one.
    static func duration(_ seconds: TimeInterval) -> String {
        let minutes = max(1, Int((seconds / 60).rounded(.up)))
        switch (minutes / 60, minutes % 60) {
        case (0, let rest): return "\(rest) min"
        case (let hours, 0): return "\(hours) h"
        case (let hours, let rest): return "\(hours) h \(rest) min"
        }
    }

    /// 0 is Sunday; 1970-01-01 was a Thursday.
    private static func weekdayIndex(_ day: Day) -> Int {
        floorMod(CivilTime.daysFromCivil(year: day.year, month: day.month, day: day.day) + 4, 7)
    }

    private static func floorMod(_ value: Int, _ divisor: Int) -> Int {
        let rest = value % divisor
        return rest < 0 ? rest + divisor : rest
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

extension ProgrammeKind {
    /// How the pages name a kind; `programme` and `other` say nothing worth a label.
    var webLabel: String? {
        switch self {
        case .movie: "Film"
        case .series: "Series"
        case .documentary: "Documentary"
        case .news: "News"
        case .sports: "Sport"
        case .kids: "Kids"
        case .programme, .other: nil
        }
    }
}

// MARK: - The grid

struct GridPage {
    struct Field { let name: String; let value: String }
    struct Option { let value: String; let label: String; let selected: Bool }
    struct Tick { let label: String; let left: String }
    struct Block {
        let title: String
        let time: String
        let tooltip: String
        let href: String
        let classes: String
        let style: String
        let startEpoch: Int
        let endEpoch: Int
    }
    struct Row {
        let id: String
        let name: String
        let href: String
        let blocks: [Block]
    }

    let nowEpoch: Int
    let zoneName: String
    /// `Madrid` for `Europe/Madrid`: what fits above the channel column.
    let zoneCity: String
    let heading: String
    let spanLabel: String
    let hours: Int
    let startEpoch: Int
    let endEpoch: Int
    let earlierHref: String
    let nowHref: String
    let laterHref: String
    /// The query the line-up form keeps when it changes `lineup`.
    let formFields: [Field]
    let lineups: [Option]
    let ticks: [Tick]
    let rows: [Row]
    let hasRows: Bool
    let nowLeft: String
    let nowVisible: Bool
}

extension WebPages {
    static let defaultHours = 3
    static let hoursRange = 1...12

    /// `GET /`: channels down, `hours` across from `at` (default: now), blocks sized by duration.
    static func grid(_ index: GuideIndex, query: WebQuery, settings: ServerSettings, now: Date) throws -> GridPage {
        let zone = query.zone
        let hours = try query.reader.int("hours", default: defaultHours, in: hoursRange)
        let asked = try query.reader.time("at", in: zone)
        // Whole half hours, so that the ticks fall on the hour and the half.
        let start = WebTime.halfHour(before: asked ?? now, in: zone)
        let span = TimeInterval(hours * 3_600)
        let end = start.addingTimeInterval(span)

        // The same reading as the JSON API's: an unknown line-up is a 404 listing the known ones.
        let lineup = query.reader.string("lineup")
        let channels = try query.reader.lineup(settings)?.compactMap(index.channel) ?? index.snapshot.channels

        func fraction(_ date: Date) -> Double { date.timeIntervalSince(start) / span }
        // A channel's name opens its day as the grid shows it: today at the programme on air.
        let day = Day(start, in: zone)
        func channelLink(_ id: String) -> String {
            day == Day(now, in: zone)
                ? query.link(WebLinks.channel(id)) + WebLinks.onAirAnchor
                : query.link(WebLinks.channel(id), [("date", day.description)])
        }
        let rows = channels.map { channel in
            GridPage.Row(id: channel.id, name: channel.name, href: channelLink(channel.id),
                         blocks: index.schedule(of: channel.id, from: start, to: end).compactMap { programme in
                // A programme without a stop (the last of a feed) has no length to draw.
                guard programme.end > programme.start else { return nil }
                let from = max(programme.start, start), to = min(programme.end, end)
                var classes = ["block"]
                if let kind = programme.kind { classes.append(kind.rawValue) }
                if programme.start <= now && now < programme.end { classes.append("on-air") }
                let times = WebTime.clock(programme.start, zone) + "–" + WebTime.clock(programme.end, zone)
                return GridPage.Block(
                    title: programme.title, time: times, tooltip: programme.title + " · " + times,
                    href: query.link(WebLinks.programme(programme.id)), classes: classes.joined(separator: " "),
                    style: "left:\(percent(fraction(from)));width:\(percent(fraction(to) - fraction(from)))",
                    startEpoch: WebTime.epoch(programme.start), endEpoch: WebTime.epoch(programme.end))
            })
        }

        let ticks = (0..<(hours * 2)).map { step in
            let moment = start.addingTimeInterval(TimeInterval(step * 1_800))
            return GridPage.Tick(label: WebTime.clock(moment, zone), left: percent(fraction(moment)))
        }
        let hoursParameter = hours == defaultHours ? nil : String(hours)
        func gridLink(at moment: Date?) -> String {
            query.link("/", [("at", moment.map(ISOTime.format)), ("hours", hoursParameter), ("lineup", lineup)])
        }
        let options = [GridPage.Option(value: "", label: "All channels", selected: lineup == nil)]
            + settings.lineups.keys.sorted().map { GridPage.Option(value: $0, label: $0, selected: $0 == lineup) }
        let kept: [(String, String?)] = [("at", query.reader.string("at")), ("hours", hoursParameter), ("tz", query.zoneParameter)]
        return GridPage(
            nowEpoch: WebTime.epoch(now), zoneName: zone.identifier,
            zoneCity: (zone.identifier.split(separator: "/").last.map(String.init) ?? zone.identifier).replacingOccurrences(of: "_", with: " "),
            heading: WebTime.longDay(day),
            spanLabel: WebTime.clock(start, zone) + "–" + WebTime.clock(end, zone),
            hours: hours, startEpoch: WebTime.epoch(start), endEpoch: WebTime.epoch(end),
            earlierHref: gridLink(at: start.addingTimeInterval(-span)), nowHref: gridLink(at: nil),
            laterHref: gridLink(at: end),
            formFields: kept.compactMap { name, value in value.map { GridPage.Field(name: name, value: $0) } },
            lineups: options, ticks: ticks, rows: rows, hasRows: !rows.isEmpty,
            nowLeft: percent(min(max(fraction(now), 0), 1)), nowVisible: start <= now && now < end)
    }

    /// A CSS percentage with three decimals: `33.333%`.
    static func percent(_ fraction: Double) -> String {
        String(format: "%.3f%%", fraction * 100)
    }
}

// MARK: - A channel's day

struct ChannelPage {
    struct Row {
        let time: String
        /// The start's day when it is not the day shown: the programme on air at midnight.
        let otherDay: String?
        let startISO: String
        let title: String
        let subtitle: String?
        let kind: String?
        let href: String
        let classes: String
        /// Only on the programme on air.
        let timeLeft: String?
    }

    let nowEpoch: Int
    let zoneName: String
    let channelName: String
    let dayLabel: String
    let previousHref: String
    let previousLabel: String
    let todayHref: String
    let nextHref: String
    let nextLabel: String
    let rows: [Row]
    let hasRows: Bool
}

extension WebPages {
    /// `GET /channel/{id}?date=`: the channel's local day, the programme on air marked with its time left.
    static func channel(_ index: GuideIndex, id: String, query: WebQuery, now: Date) throws -> ChannelPage {
        guard let channel = index.channel(id) else { throw APIError.notFound("There is no channel \(Quoted(id)) in the guide.") }
        let zone = query.zone
        let day = try query.reader.day("date") ?? Day(now, in: zone)
        let span = day.interval(in: zone)
        let (from, to) = (span.start, span.end)
        let rows = index.schedule(of: id, from: from, to: to).map { programme in
            let onAir = programme.start <= now && now < programme.end
            return ChannelPage.Row(
                time: WebTime.clock(programme.start, zone),
                otherDay: programme.start < from ? WebTime.weekday(Day(programme.start, in: zone)) : nil,
                startISO: ZonedTime.format(programme.start, in: zone),
                title: programme.title, subtitle: programme.subtitle, kind: programme.kind?.webLabel,
                href: query.link(WebLinks.programme(programme.id)),
                classes: onAir ? "on-air" : programme.end <= now ? "past" : "later",
                timeLeft: onAir ? WebTime.duration(programme.end.timeIntervalSince(now)) + " left" : nil)
        }
        let previous = day.adding(days: -1), next = day.adding(days: 1)
        let path = WebLinks.channel(id)
        return ChannelPage(
            nowEpoch: WebTime.epoch(now), zoneName: zone.identifier, channelName: channel.name,
            dayLabel: WebTime.longDay(day),
            previousHref: query.link(path, [("date", previous.description)]), previousLabel: WebTime.shortDay(previous),
            todayHref: query.link(path) + WebLinks.onAirAnchor,
            nextHref: query.link(path, [("date", next.description)]), nextLabel: WebTime.shortDay(next),
            rows: rows, hasRows: !rows.isEmpty)
    }
}

// MARK: - A programme's detail

struct ProgrammePage {
    struct CastLine { let name: String; let character: String? }
    struct Airing {
        let when: String
        let startISO: String
        let channelName: String
        let href: String
        let classes: String
    }

    let nowEpoch: Int
    let zoneName: String
    let title: String
    let subtitle: String?
    let kind: String?
    let channelName: String
    let channelHref: String
    let when: String
    let startISO: String
    let duration: String
    let status: String?
    let poster: String?
    let backdrop: String?
    let tagline: String?
    let synopsis: String?
    let year: Int?
    let genres: String?
    let director: String?
    let rating: String?
    let contentRating: String?
    let cast: [CastLine]
    let hasCast: Bool
    let trailerHref: String?
    let reminderHref: String
    let otherAirings: [Airing]
    let hasOtherAirings: Bool
}

extension WebPages {
    static let castShown = 8
    static let airingsShown = 20

    /// `GET /programme/{id}`: the airing with its work's metadata where enrichment found one.
    static func programme(_ index: GuideIndex, id: String, query: WebQuery, now: Date) throws -> ProgrammePage {
        guard let programme = index.programme(id) else { throw APIError.notFound("There is no programme \(Quoted(id)) in the guide.") }
        let zone = query.zone
        // The same derivation as `GET /programmes/{id}`, so the page and the API agree.
        let detail = ProgrammeDetail(programme, channel: index.channel(programme.channel) ?? Channel(id: programme.channel, name: programme.channel), in: index)
        let day = Day(programme.start, in: zone)

        let status: String?
        if programme.start <= now && now < programme.end {
            status = "On air · " + WebTime.duration(programme.end.timeIntervalSince(now)) + " left"
        } else if programme.start > now {
            status = "Starts in " + WebTime.duration(programme.start.timeIntervalSince(now))
        } else {
            status = "Already aired"
        }

        let directors = detail.crew.filter { $0.job.caseInsensitiveCompare("Director") == .orderedSame }.map(\.name)
        let rating = detail.ratings.voteAverage.map { average in
            String(format: "%.1f/10", average) + (detail.ratings.voteCount.map { " (\(grouped($0)) votes)" } ?? "")
        } ?? detail.ratings.stars?.first?.value

        let airings = index.otherAirings(of: programme, from: now).prefix(airingsShown).map { airing in
            ProgrammePage.Airing(
                when: WebTime.shortDay(Day(airing.start, in: zone)) + " " + WebTime.clock(airing.start, zone),
                startISO: ZonedTime.format(airing.start, in: zone),
                channelName: index.channel(airing.channel)?.name ?? airing.channel,
                href: query.link(WebLinks.programme(airing.id)),
                classes: airing.start <= now ? "on-air" : "later")
        }
        return ProgrammePage(
            nowEpoch: WebTime.epoch(now), zoneName: zone.identifier,
            title: programme.title, subtitle: programme.subtitle, kind: programme.kind?.webLabel,
            channelName: detail.channel.name, channelHref: query.link(WebLinks.channel(programme.channel), [("date", day.description)]),
            when: WebTime.longDay(day) + " · " + WebTime.clock(programme.start, zone) + "–" + WebTime.clock(programme.end, zone),
            startISO: ZonedTime.format(programme.start, in: zone),
            duration: WebTime.duration(programme.end.timeIntervalSince(programme.start)),
            status: status,
            poster: webImage(detail.poster), backdrop: webImage(detail.backdrop),
            tagline: detail.tagline, synopsis: detail.synopsis, year: detail.year,
            genres: nonEmpty(detail.genres.joined(separator: " · ")),
            director: nonEmpty(directors.joined(separator: ", ")),
            rating: rating, contentRating: detail.ratings.contentRating ?? detail.ratings.programme?.first?.value,
            cast: detail.cast.prefix(castShown).map { ProgrammePage.CastLine(name: $0.name, character: $0.character) }, hasCast: !detail.cast.isEmpty,
            trailerHref: detail.trailer?.url,
            reminderHref: WebLinks.reminder(programme.id),
            otherAirings: Array(airings), hasOtherAirings: !airings.isEmpty)
    }

    /// Only web URLs become `src`: anything else in a snapshot (a `javascript:` or file path) is dropped.
    private static func webImage(_ url: String?) -> String? {
        guard let url, url.hasPrefix("https://") || url.hasPrefix("http://") else { return nil }
        return url
    }

    /// `19,400`: thousands grouped the same way whatever the server's locale.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
}
