import Foundation
import GuideCore

/// `/my-channels`'s view model: the line-ups to choose from and every channel to tick.
struct ChannelsPage {
    struct Check { let id: String; let name: String; let checked: Bool }

    let chrome: PageChrome
    let t: [String: String]
    let lineups: [LineupChoice]
    let hasLineups: Bool
    let checks: [Check]
    let chosen: String?
    let showAllHref: String
    /// My tastes: the kinds and genres to prefer, ticked as saved.
    let tasteKinds: [Check]
    let tasteGenres: [Check]
}

/// `/programme/{id}/airings`'s view model: every airing of a work from now on.
struct AiringsPage {
    let chrome: PageChrome
    let t: [String: String]
    let title: String
    let backHref: String
    let days: [ListedDay]
    let hasDays: Bool
}

extension WebPages {
    /// `GET /my-channels`: the choice of channels that filters every view.
    static func channels(_ index: GuideIndex, query: WebQuery, settings: ServerSettings, now: Date) throws -> ChannelsPage {
        let t = query.t
        let shown = try query.channels(settings, index)
        let shownIDs = Set(shown.map(\.id))
        let chosen = query.preferences.channels.map { _ in
            t.text("channelsChosen", ["count": String(shown.count), "names": shown.map(\.name).joined(separator: ", ")])
        }
        let lineups = LineupChoice.all(settings, index: index, query: query, back: "/")
        return ChannelsPage(
            chrome: PageChrome(query, page: "channels", view: .channels, index: index, now: now), t: t.strings,
            lineups: lineups, hasLineups: !lineups.isEmpty,
            checks: index.channels.map { ChannelsPage.Check(id: $0.id, name: $0.name, checked: shownIDs.contains($0.id)) },
            chosen: chosen,
            showAllHref: WebLinks.withQuery("/my-channels/save", [("all", "1"), ("back", "/")]),
            tasteKinds: listedKinds.map { kind in
                ChannelsPage.Check(id: kind.rawValue, name: t["kinds." + kind.rawValue], checked: query.preferences.kinds.contains(kind))
            },
            tasteGenres: GenreVocabulary.genres.map { genre in
                ChannelsPage.Check(id: genre.id, name: GenreVocabulary.name(ofID: genre.id, language: query.language.rawValue) ?? genre.id,
                                   checked: query.preferences.genres.contains(genre.id))
            }.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending })
    }

    /// `GET /programme/{id}/airings`: the work's (or title's) airings from now on, by day.
    static func airings(_ index: GuideIndex, id: String, query: WebQuery, now: Date) throws -> AiringsPage {
        guard let programme = index.programme(id) else { throw APIError.notFound(query.t.text("noProgramme", ["id": "\(Quoted(id))"])) }
        let later = index.otherAirings(of: programme, from: now)
        let days = groupedByDay(later, index: index, query: query, now: now)
        return AiringsPage(
            chrome: PageChrome(query, page: "airings", view: nil, index: index, now: now), t: query.t.strings,
            title: programme.title, backHref: query.link(WebLinks.programme(programme.id)),
            days: days, hasDays: !days.isEmpty)
    }
}
