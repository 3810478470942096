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
