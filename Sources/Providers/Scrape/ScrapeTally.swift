import Foundation
import GuideCore

/// What a scrape provider did across a run, for the run report.
actor ScrapeTally {
    private var pages = 0
    private var rows = 0
    private var adverts = 0
    private var spacers = 0
    private var optionalFailures: [String: Int] = [:]
    private var unresolvedChannels: [String: Int] = [:]
    private var listingEnds: [String] = []

    func record(_ result: ScrapeResult) {
        pages += 1
        rows += result.rows.count
        adverts += result.skippedAdverts
        spacers += result.skippedSpacers
        optionalFailures.merge(result.optionalFailures, uniquingKeysWith: +)
    }

    func listingEnded(channel: String, on day: Day, error: ProviderError) {
        listingEnds.append("channel \(channel): no page from \(day) on (\(error)), the listing ends there")
    }

    func unresolved(_ channels: [String: Int]) {
        unresolvedChannels.merge(channels, uniquingKeysWith: +)
    }

    /// `scraped 14 page(s): 560 row(s); 2 advert row(s) skipped`, then one line per optional field
    /// that failed and one for channels outside the channel map. Nothing when nothing was scraped.
    func notes() -> [String] {
        guard pages > 0 else { return [] }
        var summary = "scraped \(pages) page(s): \(rows) row(s)"
        var skipped: [String] = []
        if adverts > 0 { skipped.append("\(adverts) advert row(s)") }
        if spacers > 0 { skipped.append("\(spacers) empty row(s)") }
        if !skipped.isEmpty { summary += "; \(skipped.joined(separator: " and ")) skipped" }
        var notes = [summary]
        for (field, count) in optionalFailures.sorted(by: { $0.key < $1.key }) {
            notes.append("field '\(field)' missing or unparsable in \(count) row(s), kept without it")
        }
        if !unresolvedChannels.isEmpty {
            let total = unresolvedChannels.values.reduce(0, +)
            let names = unresolvedChannels.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                .map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            notes.append("\(total) row(s) dropped, channel not in the channel map: \(names)")
        }
        // Channels are scheduled concurrently, so their notes arrive in any order.
        return notes + listingEnds.sorted()
    }
}

extension HTTPTransport {
    /// GETs a page for a scrape recipe; any error becomes a `ProviderError`.
    func page(_ url: URL) async throws -> TransportResponse {
        do {
            return try await get(url)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw ProviderError(error)
        }
    }
}

extension ProviderError {
    /// A page the server does not have (HTTP 404), or a recording that does not exist.
    var isMissingPage: Bool {
        switch self {
        case .http(404, _), .notFound: true
        default: false
        }
    }

    /// The same error with a `malformed` detail prefixed by the page it is about.
    func about(_ url: URL) -> ProviderError {
        if case .malformed(let detail) = self { return .malformed("\(url.absoluteString): \(detail)") }
        return self
    }
}
