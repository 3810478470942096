import Foundation
import GuideCore

/// The grid's view model, made by `WebPages.grid`.
struct GridPage {
    struct Field { let name: String; let value: String }
    struct Option { let value: String; let label: String; let selected: Bool }
    struct Tick { let label: String; let left: String }
    struct LegendItem { let kind: String; let label: String }
    struct Pick {
        let item: ListedAiring
        let why: String?
    }
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
    /// A channel in the one-column list phones show: what is on at the grid's moment and next.
    struct NowNext {
        struct Item { let title: String; let time: String; let href: String; let kind: String?; let left: String? }
        let id: String
        let name: String
        let href: String
        let current: Item?
        let next: Item?
    }

    let chrome: PageChrome
    let t: [String: String]
    /// `Madrid` for `Europe/Madrid`: what fits above the channel column.
    let zoneCity: String
    let heading: String
    let spanLabel: String
    let hours: Int
    let startEpoch: Int
    let endEpoch: Int
    /// Nil at the guide's first or last moment: the grid does not slide past the guide.
    let earlierHref: String?
    let nowHref: String
    let laterHref: String?
    let primeTimeHref: String?
    let days: [WebDays.Link]
    /// Set when the span asked lies outside the guide's window.
    let outsideGuide: String?
    /// The query the line-up form keeps when it changes the line-up.
    let formFields: [Field]
    let lineups: [Option]
    let legend: [LegendItem]
    let ticks: [Tick]
    let rows: [Row]
    let hasRows: Bool
    let nowNext: [NowNext]
    let nowNextHeading: String
    /// `?view=grid`: phones show the grid instead of the list.
    let prefersGrid: Bool
    let gridHref: String
    let listHref: String
    let nowLeft: String
    let nowVisible: Bool
    /// The day's best few for the person (`Recommender`), on the grid of now only.
    let picks: [Pick]
    let hasPicks: Bool
    let picksIntro: String
    /// The line-ups a first visit offers, before the person has chosen their channels.
    let firstStart: [LineupChoice]
    let isFirstStart: Bool
    let chooseHref: String
}

extension WebPages {
    static let defaultHours = 3
    /// Today's pick on the home page.
    static let picksShown = 4
    static let hoursRange = 1...12

    /// `GET /`: channels down, `hours` across from `at` (default: now), blocks sized by duration.
    static func grid(_ index: GuideIndex, query: WebQuery, settings: ServerSettings, now: Date) throws -> GridPage {
        let grid = try GridSpan(index, query: query, settings: settings, now: now)
        let zone = query.zone, t = query.t, window = grid.window
        let rows = grid.rows()
        let picks = grid.picks()
        return GridPage(
            chrome: PageChrome(query, page: "grid", view: .grid, index: index, now: now), t: t.strings,
            zoneCity: (zone.identifier.split(separator: "/").last.map(String.init) ?? zone.identifier).replacingOccurrences(of: "_", with: " "),
            heading: WebTime.longDay(grid.day, t),
            spanLabel: WebTime.clock(grid.start, zone) + "–" + WebTime.clock(grid.end, zone),
            hours: grid.hours, startEpoch: WebTime.epoch(grid.start), endEpoch: WebTime.epoch(grid.end),
            earlierHref: grid.earlierHref, nowHref: grid.link(at: nil), laterHref: grid.laterHref, primeTimeHref: grid.primeTimeHref,
            days: grid.dayLinks(),
            outsideGuide: grid.start < window.to && grid.end > window.from ? nil : t.text("gridEmptyTime", [
                "from": WebTime.longDay(Day(window.from, in: zone), t) + " " + WebTime.clock(window.from, zone),
                "to": WebTime.longDay(Day(window.to.addingTimeInterval(-1), in: zone), t) + " " + WebTime.clock(window.to, zone),
            ]),
            formFields: [GridPage.Field(name: "back", value: query.target)],
            lineups: grid.lineupOptions(),
            legend: [ProgrammeKind.movie, .series, .documentary, .news, .sports, .kids].map { kind in
                GridPage.LegendItem(kind: kind.rawValue, label: t["kind." + kind.rawValue])
            },
            ticks: grid.ticks(), rows: rows, hasRows: !rows.isEmpty,
            nowNext: grid.nowNext(),
            nowNextHeading: grid.asked == nil ? t["nowAndNextHeading"] : WebTime.longDay(Day(grid.moment, in: zone), t) + " " + WebTime.clock(grid.moment, zone),
            prefersGrid: grid.viewParameter != nil,
            gridHref: grid.link(at: grid.asked, view: "grid"), listHref: grid.link(at: grid.asked, view: nil),
            nowLeft: percent(min(max(grid.fraction(now), 0), 1)), nowVisible: grid.start <= now && now < grid.end,
            picks: picks.map { pick in
                GridPage.Pick(item: ListedAiring(pick.programme, index: index, query: query, now: now),
                              why: pick.reasons.isEmpty ? nil : pick.reasons.map { $0.text(t) }.joined(separator: " · "))
            },
            hasPicks: !picks.isEmpty,
            picksIntro: grid.profile.isEmpty ? t["todaysPickNoProfile"] : t["todaysPickIntro"],
            firstStart: LineupChoice.all(settings, index: index, query: query, back: query.target),
            isFirstStart: query.preferences.channels == nil && query.reader.string("lineup") == nil,
            chooseHref: query.link(PageChrome.View.channels.path))
    }

    /// A CSS percentage with three decimals: `33.333%`.
    static func percent(_ fraction: Double) -> String {
        String(format: "%.3f%%", fraction * 100)
    }
}

/// The span a grid shows, read from the query, and the parts of the page drawn from it: the
/// rows, the phone's now-and-next list, the ticks, today's picks and the links that move it.
private struct GridSpan {
    let index: GuideIndex
    let query: WebQuery
    let settings: ServerSettings
    let now: Date
    let zone: TimeZone
    let hours: Int
    /// The moment the query asked for, nil for now.
    let asked: Date?
    let start: Date
    let span: TimeInterval
    let end: Date
    let window: TimeWindow
    let channels: [Channel]
    /// The grid's day, and today, in the person's zone.
    let day: Day
    let today: Day
    let hoursParameter: String?
    /// `grid` when the query asks phones for the grid rather than the list.
    let viewParameter: String?
    let profile: TasteProfile

    init(_ index: GuideIndex, query: WebQuery, settings: ServerSettings, now: Date) throws {
        self.index = index
        self.query = query
        self.settings = settings
        self.now = now
        zone = query.zone
        hours = try query.reader.int("hours", default: WebPages.defaultHours, in: WebPages.hoursRange)
        asked = try query.moment("at", now: now)
        // Whole half hours, so that the ticks fall on the hour and the half.
        start = WebTime.halfHour(before: asked ?? now, in: zone)
        span = TimeInterval(hours * 3_600)
        end = start.addingTimeInterval(span)
        window = index.snapshot.window
        channels = try query.channels(settings, index)
        day = Day(start, in: zone)
        today = Day(now, in: zone)
        hoursParameter = hours == WebPages.defaultHours ? nil : String(hours)
        viewParameter = query.reader.string("view") == "grid" ? "grid" : nil
        profile = TasteProfile(query.preferences)
    }

    /// The list a phone shows: at the grid's moment when one was asked, else now.
    var moment: Date { asked ?? now }

    func fraction(_ date: Date) -> Double { date.timeIntervalSince(start) / span }

    /// A channel's name opens its day as the grid shows it: today at the programme on air.
    func channelLink(_ id: String) -> String {
        day == today
            ? query.link(WebLinks.channel(id)) + WebLinks.onAirAnchor
            : query.link(WebLinks.channel(id), [("date", day.description)])
    }

    func link(at moment: Date?, view: String?) -> String {
        query.link("/", [("at", moment.map(ISOTime.format)), ("hours", hoursParameter), ("lineup", query.reader.string("lineup")), ("view", view)])
    }

    /// The grid at `moment`, in the view the query asked.
    func link(at moment: Date?) -> String {
        link(at: moment, view: viewParameter)
    }

    func rows() -> [GridPage.Row] {
        channels.map { channel in
            // A row shows one airing at a time: of overlapping ones (kept as XMLTV has them) the
            // block ends where the next shown begins; the label keeps its times.
            GridPage.Row(id: channel.id, name: channel.name, href: channelLink(channel.id),
                         blocks: OneAtATime.resolve(index.schedule(of: channel.id, from: start, to: end)).compactMap(block))
        }
    }

    private func block(_ shown: OneAtATime.Shown) -> GridPage.Block? {
        let programme = shown.programme
        // A programme without a stop (the last of a feed) has no length to draw.
        guard shown.end > programme.start else { return nil }
        let from = max(programme.start, start), to = min(shown.end, end)
        var classes = ["block"]
        if let kind = programme.kind { classes.append(kind.rawValue) }
        if programme.start <= now && now < shown.end { classes.append("on-air") }
        let times = WebTime.clock(programme.start, zone) + "–" + WebTime.clock(programme.end, zone)
        return GridPage.Block(
            title: programme.title, time: times, tooltip: programme.title + " · " + times,
            href: query.link(WebLinks.programme(programme.id)), classes: classes.joined(separator: " "),
            style: "left:\(WebPages.percent(fraction(from)));width:\(WebPages.percent(fraction(to) - fraction(from)))",
            startEpoch: WebTime.epoch(programme.start), endEpoch: WebTime.epoch(shown.end))
    }

    func nowNext() -> [GridPage.NowNext] {
        channels.map { channel in
            let (current, next) = index.onAir(channel.id, at: moment)
            return GridPage.NowNext(id: channel.id, name: channel.name, href: channelLink(channel.id), current: nowNextItem(current), next: nowNextItem(next))
        }
    }

    private func nowNextItem(_ programme: Programme?) -> GridPage.NowNext.Item? {
        let t = query.t
        return programme.map { programme in
            let onAir = programme.start <= now && now < programme.end
            return .init(title: programme.title, time: WebTime.clock(programme.start, zone),
                         href: query.link(WebLinks.programme(programme.id)), kind: programme.kind?.rawValue,
                         left: onAir ? t.text("timeLeft", ["left": WebTime.duration(programme.end.timeIntervalSince(now), t)]) : nil)
        }
    }

    func ticks() -> [GridPage.Tick] {
        (0..<(hours * 2)).map { step in
            let moment = start.addingTimeInterval(TimeInterval(step * 1_800))
            return GridPage.Tick(label: WebTime.clock(moment, zone), left: WebPages.percent(fraction(moment)))
        }
    }

    func lineupOptions() -> [GridPage.Option] {
        let lineup = query.lineupName
        return [GridPage.Option(value: "", label: query.t["allChannels"], selected: lineup == nil)]
            + settings.lineups.keys.sorted().map { GridPage.Option(value: $0, label: $0, selected: $0 == lineup) }
    }

    /// Nil at the guide's first moment: the grid does not slide past the guide.
    var earlierHref: String? {
        start > window.from ? link(at: max(start.addingTimeInterval(-span), WebTime.halfHour(before: window.from, in: zone))) : nil
    }

    var laterHref: String? {
        end < window.to ? link(at: min(end, WebTime.halfHour(before: window.to.addingTimeInterval(-1), in: zone))) : nil
    }

    var primeTimeHref: String? {
        let prime = WebDays.moment(day, minutes: WebDays.primeTime.start, in: zone)
        return prime < window.to && prime >= window.from ? link(at: prime) : nil
    }

    func dayLinks() -> [WebDays.Link] {
        WebDays.picker(WebDays.guideDays(index, in: zone), current: day, today: today, query.t) { other in
            // Another day at the same time of day, else the first moment the guide has of it.
            let sameTime = WebDays.moment(other, minutes: WebDays.minutes(of: start, in: zone), in: zone)
            return link(at: min(max(sameTime, window.from), window.to.addingTimeInterval(-1)))
        }
    }

    /// Today's pick, on the grid of now only: from now to the end of the local day, or the next
    /// day's when today is over.
    func picks() -> [Recommendation] {
        guard asked == nil else { return [] }
        let channelIDs = Set(channels.map(\.id))
        let endOfDay = today.interval(in: zone).end
        let until = endOfDay.timeIntervalSince(now) < 3 * 3_600 ? endOfDay.addingTimeInterval(86_400) : endOfDay
        return Recommender.recommend(index, profile: profile, channels: channelIDs, from: now, to: until, zone: zone, limit: WebPages.picksShown)
    }
}

/// A line-up offered to choose, with the link that saves it as the person's channels.
struct LineupChoice {
    let name: String
    let href: String
    let count: Int
    let names: String
    let current: Bool

    static func all(_ settings: ServerSettings, index: GuideIndex, query: WebQuery, back: String) -> [LineupChoice] {
        settings.lineups.keys.sorted().map { name in
            let channels = (settings.lineups[name] ?? []).compactMap(index.channel)
            return LineupChoice(name: name, href: WebLinks.withQuery("/my-channels/save", [("lineup", name), ("back", back)]),
                                count: channels.count, names: channels.map(\.name).joined(separator: ", "),
                                current: query.preferences.channels == .lineup(name))
        }
    }
}
