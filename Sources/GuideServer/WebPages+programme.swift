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
    struct Image { let url: String; let alt: String }
    struct Audience { let day: String; let figure: String; let share: String?; let rank: Int?; let href: String }

    let chrome: PageChrome
    let t: [String: String]
    let id: String
    let title: String
    let subtitle: String?
    let episode: String?
    let kind: String?
    let channelName: String
    let channelHref: String
    let when: String
    let startISO: String
    let endISO: String
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
    /// Once the airing has ended: the page its source gave for it, and the site it is on.
    let watchAgainHref: String?
    let watchAgainLabel: String?
    /// Once the airing has ended, while the playlist's provider keeps it: its catch-up stream.
    let catchupHref: String?
    let catchupUntil: String?
    /// Nil once the programme has ended: a reminder of the past reminds of nothing.
    let reminderHref: String?
    let onAirNote: String?
    let saved: Bool
    let removeHref: String
    let seriesHref: String?
    let seriesSaved: Bool
    /// 👍 and 👎: links while the person has said neither, the verdict and its undo after.
    let offerTaste: Bool
    let likeHref: String
    let dislikeHref: String
    let forgetHref: String
    let liked: Bool
    let disliked: Bool
    let images: [Image]
    let hasImages: Bool
    let audiences: [Audience]
    let hasAudiences: Bool
    let otherAirings: [Airing]
    let hasOtherAirings: Bool
    /// Set when there are more airings than shown: the page that lists them all.
    let moreAiringsHref: String?
    let moreAiringsLabel: String
}

extension WebPages {
    static let castShown = 8
    static let airingsShown = 20
    static let imagesShown = 12

    /// `GET /programme/{id}`: the airing with its work's metadata where enrichment found one.
    static func programme(_ index: GuideIndex, id: String, query: WebQuery, now: Date, catchup: PlaylistCatchup? = nil) throws -> ProgrammePage {
        guard let programme = index.programme(id) else { throw APIError.notFound(query.t.text("noProgramme", ["id": "\(Quoted(id))"])) }
        let zone = query.zone, t = query.t
        // The same derivation as `GET /programmes/{id}`, so the page and the API agree.
        let detail = ProgrammeDetail(programme, channel: index.channel(programme.channel) ?? Channel(id: programme.channel, name: programme.channel), in: index)
        let day = Day(programme.start, in: zone)

        let onAir = programme.start <= now && now < programme.end
        let ended = programme.end <= now && programme.end > programme.start
        let status: String
        if onAir {
            status = t.text("onAirLeft", ["left": WebTime.duration(programme.end.timeIntervalSince(now), t)])
        } else if programme.start > now {
            status = t.text("startsIn", ["duration": WebTime.duration(programme.start.timeIntervalSince(now), t)])
        } else {
            status = t["alreadyAired"]
        }

        let directors = detail.crew.filter { $0.job.caseInsensitiveCompare("Director") == .orderedSame }.map(\.name)
        let rating = detail.ratings.voteAverage.map { average in
            decimal(average, query.language) + "/10" + (detail.ratings.voteCount.map { " (" + t.text("votes", ["count": grouped($0, query.language)]) + ")" } ?? "")
        } ?? detail.ratings.stars?.first?.value

        let later = index.otherAirings(of: programme, from: now)
        let airings = later.prefix(airingsShown).map { airingItem($0, index: index, query: query, now: now) }
        let saved = query.preferences.reminders.contains(programme.id)
        let seriesSaved = query.preferences.series.contains(programme.title)
        let back = WebLinks.programme(programme.id)
        // What a 👍 or 👎 is kept as: the work, so that it outlives this airing, else the title.
        let tasteKey = programme.work ?? programme.title
        let watchAgain = ended ? detail.watchAgain : nil
        let catchupLink = catchup.flatMap { CatchupLink($0, programme: programme, now: now, timeZone: zone) }
        return ProgrammePage(
            chrome: PageChrome(query, page: "programme", view: nil, index: index, now: now), t: t.strings,
            id: programme.id,
            title: programme.title, subtitle: programme.subtitle, episode: episodeLabel(programme.episode, t),
            kind: index.kind(of: programme)?.webLabel(t),
            channelName: detail.channel.name, channelHref: query.link(WebLinks.channel(programme.channel), [("date", day.description)]),
            when: WebTime.longDay(day, t) + " · " + WebTime.clock(programme.start, zone) + "–" + WebTime.clock(programme.end, zone),
            startISO: ZonedTime.format(programme.start, in: zone), endISO: ZonedTime.format(programme.end, in: zone),
            duration: WebTime.duration(programme.end.timeIntervalSince(programme.start), t),
            status: status,
            poster: webImage(detail.poster), backdrop: webImage(detail.backdrop),
            tagline: detail.tagline, synopsis: detail.synopsis, year: detail.year,
            genres: nonEmpty(GenreVocabulary.names(detail.genres, language: query.language.rawValue).joined(separator: " · ")),
            director: nonEmpty(directors.joined(separator: ", ")),
            rating: rating, contentRating: detail.ratings.contentRating ?? detail.ratings.programme?.first?.value,
            cast: detail.cast.prefix(castShown).map { ProgrammePage.CastLine(name: $0.name, character: $0.character.map { t.text("asCharacter", ["character": $0]) }) },
            hasCast: !detail.cast.isEmpty,
            trailerHref: detail.trailer.flatMap { webImage($0.url) },
            watchAgainHref: watchAgain?.url, watchAgainLabel: watchAgain.map { t.text("watchAgainOn", ["site": $0.site]) },
            catchupHref: catchupLink?.url,
            catchupUntil: catchupLink.map { t.text("catchupUntil", ["day": WebTime.longDay(Day($0.until, in: zone), t)]) },
            reminderHref: ended || saved ? nil : WebLinks.withQuery("/my-calendar/add", [("programme", programme.id), ("back", back)]),
            onAirNote: onAir && !saved ? t["onAirNote"] : nil,
            saved: saved,
            removeHref: WebLinks.withQuery("/my-calendar/remove", [("programme", programme.id), ("back", back)]),
            seriesHref: seriesSaved ? nil : WebLinks.withQuery("/my-calendar/add", [("series", programme.title), ("back", back)]),
            seriesSaved: seriesSaved,
            offerTaste: !query.preferences.likes.contains(tasteKey) && !query.preferences.dislikes.contains(tasteKey),
            likeHref: WebLinks.withQuery("/my-tastes/like", [("programme", programme.id), ("back", back)]),
            dislikeHref: WebLinks.withQuery("/my-tastes/dislike", [("programme", programme.id), ("back", back)]),
            forgetHref: WebLinks.withQuery("/my-tastes/forget", [("programme", programme.id), ("back", back)]),
            liked: query.preferences.likes.contains(tasteKey), disliked: query.preferences.dislikes.contains(tasteKey),
            images: galleryImages(detail, title: programme.title), hasImages: !galleryImages(detail, title: programme.title).isEmpty,
            audiences: detail.audiences.map { record in
                ProgrammePage.Audience(day: WebTime.longDay(record.day, t),
                                       figure: t.text("audienceFigure", ["viewers": grouped(record.viewers, query.language)]),
                                       share: record.share.map { t.text("audienceShare", ["share": decimal($0, query.language)]) },
                                       rank: record.rank, href: query.link(PageChrome.View.audiences.path, [("date", record.day.description)]))
            },
            hasAudiences: !detail.audiences.isEmpty,
            otherAirings: Array(airings), hasOtherAirings: !airings.isEmpty,
            moreAiringsHref: later.count > airingsShown ? query.link(WebLinks.programme(programme.id) + "/airings") : nil,
            moreAiringsLabel: t.text("moreAirings", ["count": String(later.count)]))
    }

    /// One airing in a list of airings, marked when it is on air.
    static func airingItem(_ airing: Programme, index: GuideIndex, query: WebQuery, now: Date) -> ProgrammePage.Airing {
        let zone = query.zone
        return ProgrammePage.Airing(
            when: WebTime.shortDay(Day(airing.start, in: zone), query.t) + " " + WebTime.clock(airing.start, zone),
            startISO: ZonedTime.format(airing.start, in: zone),
            channelName: index.channel(airing.channel)?.name ?? airing.channel,
            href: query.link(WebLinks.programme(airing.id)),
            classes: airing.start <= now ? "on-air" : "later")
    }

    /// `Season 2, episode 5`, `Temporada 2`, or the source's own words (`S02E05`).
    static func episodeLabel(_ episode: Episode?, _ t: WebCatalogue) -> String? {
        guard let episode else { return nil }
        switch (episode.season, episode.number) {
        case let (season?, number?): return t.text("seasonEpisode", ["season": String(season), "episode": String(number)])
        case let (season?, nil): return t.text("season", ["season": String(season)])
        case let (nil, number?): return t.text("episode", ["episode": String(number)])
        case (nil, nil): return nonEmpty(episode.onscreen ?? "")
        }
    }

    /// The work's images and the airing's own, web URLs only, each once, beyond the poster and backdrop shown above.
    private static func galleryImages(_ detail: ProgrammeDetail, title: String) -> [ProgrammePage.Image] {
        var seen = Set([detail.poster, detail.backdrop].compactMap { $0 })
        return detail.images.compactMap { image in
            guard let url = webImage(image.url), seen.insert(url).inserted else { return nil }
            return ProgrammePage.Image(url: url, alt: title)
        }.prefix(imagesShown).map { $0 }
    }

    /// Only web URLs become `src`: anything else in a snapshot (a `javascript:` or file path) is dropped.
    static func webImage(_ url: String?) -> String? {
        guard let url, url.hasPrefix("https://") || url.hasPrefix("http://") else { return nil }
        return url
    }

    /// `19,400` in English, `19.400` in Spanish: thousands grouped the same way whatever the server's locale.
    static func grouped(_ value: Int, _ language: WebLanguage = .en) -> String {
        let digits = String(value.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: language == .es ? "." : ",")
    }

    /// `12.5` in English, `12,5` in Spanish, one decimal.
    static func decimal(_ value: Double, _ language: WebLanguage) -> String {
        let text = String(format: "%.1f", value)
        return language == .es ? text.replacingOccurrences(of: ".", with: ",") : text
    }

    static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
}
