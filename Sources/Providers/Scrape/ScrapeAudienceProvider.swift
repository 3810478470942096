import Foundation
import GuideCore

/// Daily audience rankings scraped from one HTML page per day, as a `produces: audience` recipe
/// describes (formulatv is one such recipe).
///
/// Fields: `title`, `channel`, `viewers` (essential), and `rank`, `share`, `start`. The site's
/// channel name (`La 1`, `TVE1`) is mapped to a canonical id by `resolveChannel`; rows whose
/// channel does not resolve are dropped and counted in `reportNotes()`. A page whose layout no
/// longer fits the recipe is `ProviderError.malformed` (see `ScrapeExtractor.extract`), so the
/// chain asks the next provider rather than keep a half-empty ranking.
package struct ScrapeAudienceProvider: AudienceProvider {
    package let id: String
    package let recipe: ScrapeRecipe
    private let template: SiteTemplate
    private let transport: any HTTPTransport
    private let resolveChannel: @Sendable (String) -> String?
    private let extractors: ExtractorPool
    /// The zone of the site's days and clock times.
    private let timeZone: TimeZone
    private let tally = ScrapeTally()

    /// Compiles the recipe, so an invalid one fails here, before anything is fetched.
    /// - Parameter resolveChannel: the site's channel name → canonical channel id, nil when unknown.
    /// - Precondition: `recipe.produces == .audience`.
    package init(id: String, recipe: ScrapeRecipe, transport: any HTTPTransport,
                resolveChannel: @escaping @Sendable (String) -> String?) throws(ScrapeRecipeError) {
        precondition(recipe.produces == .audience, "ScrapeAudienceProvider needs a produces: audience recipe")
        self.id = id
        self.recipe = recipe
        extractors = try ExtractorPool(recipe)
        template = try recipe.urlTemplate()
        self.transport = transport
        self.resolveChannel = resolveChannel
        timeZone = recipe.timeZone
    }

    /// The day's ranking in page order. `start` is the row's time on `day` in the recipe's time
    /// zone (a time past 24:00 on the next day).
    package func audiences(on day: Day) async throws -> [AudienceRecord] {
        guard let url = template.url(day: day, channel: nil) else {
            throw ProviderError.notConfigured("\(id): the url template needs a {channel}, which an audience page has not")
        }
        let response = try await transport.page(url)
        let result = try await extractors.extract(response, from: url, countingIn: tally)

        var records: [AudienceRecord] = []
        records.reserveCapacity(result.rows.count)
        var unresolved: [String: Int] = [:]
        for row in result.rows {
            // Essential fields: the extractor has thrown for any row without them.
            guard let title = row.text("title"), let name = row.text("channel"), let viewers = row.integer("viewers") else { continue }
            guard let channel = resolveChannel(name) else {
                unresolved[name, default: 0] += 1
                continue
            }
            records.append(AudienceRecord(
                day: day, rank: row.integer("rank"), title: title, channel: channel, viewers: viewers,
                share: row.number("share"), start: row.minutes("start").map { day.instant(atMinute: $0, in: timeZone) }, source: id))
        }
        await tally.unresolved(unresolved)
        guard !records.isEmpty else {
            let names = unresolved.keys.sorted()
            let listed = names.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 5 ? ", …" : "")
            throw ProviderError.malformed("\(url.absoluteString): none of the \(result.rows.count) row(s) names a channel of the channel map (\(listed))")
        }
        return records
    }

    package func reportNotes() async -> [String] {
        await tally.notes()
    }
}
