import Foundation
import GuideCore

/// The grid's view model, made by `WebPages.grid`.
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
        let channels = try query.reader.lineup(settings)?.compactMap(index.channel) ?? index.channels

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
                         // A row shows one airing at a time: of overlapping ones (kept as XMLTV has
                         // them) the block ends where the next shown begins; the label keeps its times.
                         blocks: OneAtATime.resolve(index.schedule(of: channel.id, from: start, to: end)).compactMap { shown in
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
                    style: "left:\(percent(fraction(from)));width:\(percent(fraction(to) - fraction(from)))",
                    startEpoch: WebTime.epoch(programme.start), endEpoch: WebTime.epoch(shown.end))
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
