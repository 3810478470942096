import Foundation
import GuideCore

/// A channel's day as `WebPages.channel` shows it.
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

    let chrome: PageChrome
    let t: [String: String]
    let channelName: String
    let dayLabel: String
    /// Nil at the guide's first or last day.
    let previousHref: String?
    let previousLabel: String
    let todayHref: String
    let nextHref: String?
    let nextLabel: String
    /// Nil when the day's prime time is outside the guide.
    let primeTimeHref: String?
    let days: [WebDays.Link]
    let rows: [Row]
    let hasRows: Bool
    let emptyText: String
}

extension WebPages {
    /// `GET /channel/{id}?date=`: the channel's local day, the programme on air marked with its time left.
    static func channel(_ index: GuideIndex, id: String, query: WebQuery, now: Date) throws -> ChannelPage {
        guard let channel = index.channel(id) else { throw APIError.notFound(query.t.text("noChannel", ["id": "\(Quoted(id))"])) }
        let zone = query.zone, t = query.t
        let today = Day(now, in: zone)
        let day = try query.reader.day("date") ?? today
        let span = day.interval(in: zone)
        let (from, to) = (span.start, span.end)
        let rows = index.schedule(of: id, from: from, to: to).map { programme in
            let onAir = programme.start <= now && now < programme.end
            return ChannelPage.Row(
                time: WebTime.clock(programme.start, zone),
                otherDay: programme.start < from ? WebTime.weekday(Day(programme.start, in: zone), t) : nil,
                startISO: ZonedTime.format(programme.start, in: zone),
                title: programme.title, subtitle: programme.subtitle, kind: programme.kind?.webLabel(t),
                href: query.link(WebLinks.programme(programme.id)),
                classes: onAir ? "on-air" : programme.end <= now ? "past" : "later",
                timeLeft: onAir ? t.text("onAirLeft", ["left": WebTime.duration(programme.end.timeIntervalSince(now), t)]) : nil)
        }
        let days = WebDays.guideDays(index, in: zone)
        let window = index.snapshot.window.from..<index.snapshot.window.to
        let prime = WebDays.moment(day, minutes: WebDays.primeTime.start, in: zone)
        let previous = day.adding(days: -1), next = day.adding(days: 1)
        let path = WebLinks.channel(id)
        func dayLink(_ other: Day) -> String {
            other == today ? query.link(path) + WebLinks.onAirAnchor : query.link(path, [("date", other.description)])
        }
        return ChannelPage(
            chrome: PageChrome(query, page: "channel", view: .grid, index: index, now: now), t: t.strings,
            channelName: channel.name, dayLabel: WebTime.longDay(day, t),
            previousHref: days.first.map { previous >= $0 } == true ? dayLink(previous) : nil,
            previousLabel: WebTime.shortDay(previous, t),
            todayHref: query.link(path) + WebLinks.onAirAnchor,
            nextHref: days.last.map { next <= $0 } == true ? dayLink(next) : nil,
            nextLabel: WebTime.shortDay(next, t),
            primeTimeHref: window.contains(prime) ? query.link("/", [("at", ISOTime.format(prime))]) : nil,
            days: WebDays.picker(days, current: day, today: today, t, link: dayLink),
            rows: rows, hasRows: !rows.isEmpty,
            emptyText: t.text("channelEmpty", ["channel": channel.name]))
    }
}
