import Foundation
import GuideCore

/// A programme's detail as `WebPages.programme` shows it.
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
    /// Drawn over a placeholder that shows the title. A poster that does not load (offline) is
    /// hidden by guide.js; without JavaScript the stylesheet draws the placeholder again over the
    /// broken image (`img::after`, which browsers draw only for an image that failed), from `alt`.
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
