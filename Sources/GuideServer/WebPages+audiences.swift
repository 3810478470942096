import Foundation
import GuideCore

/// `/ratings`'s view model: one day's ranking, most watched first.
struct AudiencesPage {
    struct Entry {
        let rank: Int
        let title: String
        let href: String?
        let channelName: String
        let viewers: String
        let share: String?
        let time: String?
    }

    let chrome: PageChrome
    let t: [String: String]
    let heading: String
    let days: [WebDays.Link]
    let entries: [Entry]
    let hasEntries: Bool
}

extension WebPages {
    /// `GET /ratings?date=`: the audience ranking of a day held (the latest by default), each
    /// entry linked to the programme it was joined to.
    static func audiences(_ index: GuideIndex, query: WebQuery, now: Date) throws -> AudiencesPage {
        let t = query.t, zone = query.zone
        let held = index.audienceDays
        let asked = try query.reader.day("date")
        if let asked, index.audiencesByDay[asked] == nil {
            throw APIError.notFound(t.text("noRanking", ["day": asked.description, "days": held.map(\.description).joined(separator: ", ")]))
        }
        let day = asked ?? held.last
        let records = day.flatMap { index.audiencesByDay[$0] }?.records ?? []
        let today = Day(now, in: zone)
        let entries = records.enumerated().map { position, record in
            AudiencesPage.Entry(
                rank: record.rank ?? position + 1, title: record.title,
                href: record.programme.flatMap { index.programme($0) }.map { query.link(WebLinks.programme($0.id)) },
                channelName: index.channel(record.channel)?.name ?? record.channel,
                viewers: grouped(record.viewers, query.language),
                share: record.share.map { decimal($0, query.language) + " %" },
                time: record.start.map { WebTime.clock($0, zone) })
        }
        return AudiencesPage(
            chrome: PageChrome(query, page: "audiences", view: .audiences, index: index, now: now), t: t.strings,
            heading: day.map { t["audiencesHeading"] + " · " + WebTime.longDay($0, t) } ?? t["audiencesHeading"],
            // Latest first: yesterday's figures are the ones asked for most.
            days: WebDays.picker(held.reversed(), current: day, today: today, t) { other in
                query.link(PageChrome.View.audiences.path, [("date", other.description)])
            },
            entries: entries, hasEntries: !entries.isEmpty)
    }
}
