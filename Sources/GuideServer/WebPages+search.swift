import Foundation
import GuideCore

/// `/find`'s view model: one result per title (or work), with its next airings.
struct SearchPage {
    struct Result {
        let title: String
        let kind: String?
        let people: String?
        let poster: String?
        let href: String
        let airings: [ProgrammePage.Airing]
        let count: String
        let aired: Bool
    }

    let chrome: PageChrome
    let t: [String: String]
    let heading: String
    let results: [Result]
    let hasResults: Bool
    let emptyText: String
}

extension WebPages {
    static let searchResultsShown = 50
    static let searchAiringsShown = 5

    /// `GET /find?q=`: programmes on the person's channels whose title, work's title or people
    /// (cast, director, credits) contain the text, one result per work or title, soonest first.
    static func search(_ index: GuideIndex, query: WebQuery, settings: ServerSettings, now: Date) throws -> SearchPage {
        let t = query.t
        guard let text = try query.reader.trimmedText("q", atMost: APILimits.queryText) else {
            throw APIError.badParameter("q", "the text to search for is required")
        }
        let folded = SearchText.fold(text)
        let channels = Set(try query.channels(settings, index).map(\.id))
        let byTitle = index.search(folded)
        let byPeople = index.searchPeople(folded)
        var matches: [Programme] = []
        var seen = Set<String>()
        for programme in byTitle + byPeople.programmes where channels.contains(programme.channel) && seen.insert(programme.id).inserted {
            matches.append(programme)
        }

        // One group per work, else per folded title; upcoming airings first, soonest first.
        var groups: [String: [Programme]] = [:]
        var order: [String] = []
        for programme in matches.sorted(by: { ($0.start, $0.channel) < ($1.start, $1.channel) }) {
            let key = programme.work ?? "title:" + SearchText.fold(programme.title)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(programme)
        }
        let ranked = order.map { ($0, groups[$0]!) }.sorted { a, b in
            let nextA = a.1.first { $0.end > now }?.start ?? .distantFuture, nextB = b.1.first { $0.end > now }?.start ?? .distantFuture
            return nextA != nextB ? nextA < nextB : a.0 < b.0
        }
        let results = ranked.prefix(searchResultsShown).map { key, airings -> SearchPage.Result in
            let upcoming = airings.filter { $0.end > now }
            let shown = upcoming.isEmpty ? [airings.last!] : Array(upcoming.prefix(searchAiringsShown))
            let first = shown[0]
            let work = index.work(of: first)
            let people = byPeople.names[key].map { t.text("searchPeople", ["names": $0.sorted().joined(separator: ", ")]) }
            return SearchPage.Result(
                title: first.title, kind: index.kind(of: first)?.webLabel(t), people: people,
                poster: webImage(work?.metadata.poster ?? first.images?.first?.url),
                href: query.link(WebLinks.programme(first.id)),
                airings: shown.map { airingItem($0, index: index, query: query, now: now) },
                count: t.text("airingsCount", ["count": String(upcoming.count)]), aired: upcoming.isEmpty)
        }
        return SearchPage(
            chrome: PageChrome(query, page: "search", view: nil, index: index, now: now), t: t.strings,
            heading: t.text("searchHeading", ["query": text]), results: results, hasResults: !results.isEmpty,
            emptyText: t.text("searchEmpty", ["query": text]))
    }
}

extension GuideIndex {
    /// Programmes whose work's cast or crew, or whose own credits, name someone whose name
    /// contains `folded`; and per group (work id, else `title:` and the folded title) the
    /// names that matched.
    func searchPeople(_ folded: String) -> (programmes: [Programme], names: [String: Set<String>]) {
        var names: [String: Set<String>] = [:]
        for (id, work) in snapshot.works {
            let people = (work.metadata.cast ?? []).map(\.name) + (work.metadata.crew ?? []).map(\.name)
            for name in people where SearchText.fold(name).contains(folded) { names[id, default: []].insert(name) }
        }
        var result: [Programme] = []
        for programme in snapshot.programmes {
            if let work = programme.work, names[work] != nil {
                result.append(programme)
            } else if let credits = programme.credits {
                let matched = credits.map(\.name).filter { SearchText.fold($0).contains(folded) }
                guard !matched.isEmpty else { continue }
                names[programme.work ?? "title:" + SearchText.fold(programme.title), default: []].formUnion(matched)
                result.append(programme)
            }
        }
        return (result, names)
    }
}
