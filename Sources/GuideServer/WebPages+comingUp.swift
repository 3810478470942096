import Foundation
import GuideCore

/// A programme as lists of the web guide show it (Coming up, search, My calendar).
struct ListedAiring {
    let id: String
    let title: String
    let subtitle: String?
    let episode: String?
    let time: String
    let startISO: String
    let channelName: String
    let kind: String?
    let kindClass: String
    let rating: String?
    let poster: String?
    let href: String
    let classes: String

    init(_ programme: Programme, index: GuideIndex, query: WebQuery, now: Date) {
        let t = query.t, zone = query.zone
        let work = index.work(of: programme)
        let kind = index.kind(of: programme)
        id = programme.id
        title = programme.title
        subtitle = programme.subtitle
        episode = WebPages.episodeLabel(programme.episode, t)
        time = WebTime.clock(programme.start, zone)
        startISO = ZonedTime.format(programme.start, in: zone)
        channelName = index.channel(programme.channel)?.name ?? programme.channel
        self.kind = kind?.webLabel(t)
        kindClass = kind?.rawValue ?? ""
        rating = work?.metadata.voteAverage.map { WebPages.decimal($0, query.language) } ?? programme.starRatings?.first?.value
        poster = WebPages.webImage(work?.metadata.poster ?? programme.images?.first?.url)
        href = query.link(WebLinks.programme(programme.id))
        classes = programme.start <= now && now < programme.end ? "item on-air" : programme.end <= now && programme.end > programme.start ? "item past" : "item"
    }
}

/// Airings of one local day, as lists group them.
struct ListedDay {
    let label: String
    let date: String
    let items: [ListedAiring]
}

/// `/coming-up`'s view model.
struct ComingUpPage {
    struct Filter { let key: String; let label: String; let href: String; let current: Bool }
    struct GenreOption { let id: String; let label: String; let selected: Bool }

    let chrome: PageChrome
    let t: [String: String]
    let kinds: [Filter]
    let tonight: Filter
    let genres: [GenreOption]
    let kind: String?
    let tonightValue: String?
    let days: [ListedDay]
    let hasItems: Bool
    let moreHref: String?
}

extension WebPages {
    static let comingUpShown = 60
    /// The kinds Coming up filters by, in the original app's order.
    static let listedKinds: [ProgrammeKind] = [.movie, .series, .programme, .documentary, .sports, .kids, .news]

    /// `GET /coming-up`: what starts from now on, on the person's channels, by time and grouped
    /// by day; filtered by `kind`, `genre` (a canonical genre's id) and `tonight` (prime time).
    static func comingUp(_ index: GuideIndex, query: WebQuery, settings: ServerSettings, now: Date) throws -> ComingUpPage {
        let zone = query.zone, t = query.t
        let kind = try query.reader.string("kind").map { name in
            guard let kind = ProgrammeKind(rawValue: name), listedKinds.contains(kind) else {
                throw APIError.badParameter("kind", "\(Quoted(name)) is not one of \(listedKinds.map(\.rawValue).joined(separator: ", "))")
            }
            return kind
        }
        let genre = try query.reader.string("genre").map { id in
            guard GenreVocabulary.name(ofID: id, language: query.language.rawValue) != nil else {
                throw APIError.badParameter("genre", "\(Quoted(id)) is not a genre of the guide")
            }
            return id
        }
        let tonight = query.reader.string("tonight") == "1"
        let shown = try query.reader.int("shown", default: comingUpShown, in: 1...PageLimits.maximum)
        let today = Day(now, in: zone)
        let day = try query.reader.day("date") ?? today
        let channels = Set(try query.channels(settings, index).map(\.id))

        // From now, or from the start of a later day asked; tonight is that day's prime time.
        var from = max(now, day.interval(in: zone).start)
        var until: Date? = nil
        if tonight {
            from = max(now, WebDays.moment(day, minutes: WebDays.primeTime.start, in: zone))
            until = WebDays.moment(day, minutes: WebDays.primeTime.end, in: zone)
        }
        let programmes = index.snapshot.programmes
        var matches: [Programme] = []
        var more = false
        for position in index.startingFrom(from) {
            let programme = programmes[position]
            if let until, programme.start >= until { break }
            guard channels.contains(programme.channel) else { continue }
            if let kind, index.kind(of: programme) != kind { continue }
            if let genre, !GenreVocabulary.ids(index.genreNames(of: programme)).contains(genre) { continue }
            if matches.count == shown { more = true; break }
            matches.append(programme)
        }

        let base: [(String, String?)] = [("kind", kind?.rawValue), ("genre", genre), ("tonight", tonight ? "1" : nil), ("date", day == today ? nil : day.description)]
        func link(replacing name: String, with value: String?) -> String {
            query.link(PageChrome.View.comingUp.path, base.map { $0.0 == name ? (name, value) : $0 })
        }
        let kinds = [ComingUpPage.Filter(key: "", label: t["allKinds"], href: link(replacing: "kind", with: nil), current: kind == nil)]
            + listedKinds.map { option in
                ComingUpPage.Filter(key: option.rawValue, label: t["kinds." + option.rawValue],
                                    href: link(replacing: "kind", with: option.rawValue), current: option == kind)
            }
        return ComingUpPage(
            chrome: PageChrome(query, page: "coming-up", view: .comingUp, index: index, now: now), t: t.strings,
            kinds: kinds,
            tonight: ComingUpPage.Filter(key: "tonight", label: t["tonight"], href: link(replacing: "tonight", with: tonight ? nil : "1"), current: tonight),
            genres: GenreVocabulary.genres.map { option in
                ComingUpPage.GenreOption(id: option.id, label: GenreVocabulary.name(ofID: option.id, language: query.language.rawValue) ?? option.id,
                                         selected: option.id == genre)
            }.sorted { $0.label.localizedStandardCompare($1.label) == .orderedAscending },
            kind: kind?.rawValue, tonightValue: tonight ? "1" : nil,
            days: groupedByDay(matches, index: index, query: query, now: now),
            hasItems: !matches.isEmpty,
            moreHref: more ? query.link(PageChrome.View.comingUp.path, base + [("shown", String(min(shown + comingUpShown, PageLimits.maximum)))]) : nil)
    }

    /// Airings grouped by their local day, in the order given.
    static func groupedByDay(_ programmes: [Programme], index: GuideIndex, query: WebQuery, now: Date) -> [ListedDay] {
        let today = Day(now, in: query.zone)
        var days: [ListedDay] = []
        var current: (day: Day, items: [ListedAiring])?
        for programme in programmes {
            let day = Day(programme.start, in: query.zone)
            if current?.day != day {
                if let current { days.append(ListedDay(label: dayHeading(current.day, today: today, query.t), date: current.day.description, items: current.items)) }
                current = (day, [])
            }
            current?.items.append(ListedAiring(programme, index: index, query: query, now: now))
        }
        if let current { days.append(ListedDay(label: dayHeading(current.day, today: today, query.t), date: current.day.description, items: current.items)) }
        return days
    }

    /// `Today · Wednesday 21 October`, or the long day alone.
    static func dayHeading(_ day: Day, today: Day, _ t: WebCatalogue) -> String {
        let long = WebTime.longDay(day, t)
        switch day.days(since: today) {
        case 0: return t["today"] + " · " + long
        case 1: return t["tomorrow"] + " · " + long
        default: return long
        }
    }
}
