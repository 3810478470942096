import Foundation
import GuideCore

/// What a recipe format compiled to site recipes keeps of its own (json-feed), at the few points
/// the site engine's driver asks. The driver runs the days, the fetches, the dedupe by start and
/// the failed days' gaps for every format; a front-end names itself in errors, may read each
/// answer its own way and words the days that failed.
package struct SiteFrontEnd: Sendable {
    /// The page an answer came from.
    package struct Page: Sendable {
        package var channel: ChannelRef
        package var day: Day
        /// The URL asked, before any redirect.
        package var url: URL
    }

    /// One page's programmes, in the order the site lists them, and how many items it had.
    package struct PageRead: Sendable {
        package var items: Int
        package var programmes: [Programme]

        package init(items: Int, programmes: [Programme]) {
            self.items = items
            self.programmes = programmes
        }
    }

    /// A day of one schedule that failed, with why.
    package typealias FailedDay = (day: Day, error: any Error)

    /// How configuration errors name the provider: `site`, `json-feed`.
    package var kind: String
    /// True when the recipe asks one answer per day of the window rather than one for all.
    package var readsEachDay: @Sendable (SiteRecipe) -> Bool
    /// Answers shared by the whole run and cookies kept, as a site's session; false asks each
    /// page afresh, as a plain API client does.
    package var keepsSession: Bool
    /// Days asked one after another, up to the first that fails (a site that publishes a few
    /// days ahead ends where its pages do); false asks them all at once, each failing alone.
    package var readsInOrder: Bool
    /// The error for a window of more days than are fetched one by one; nil: the site's words.
    package var windowTooLong: (@Sendable (_ days: Int, _ maximum: Int) -> ProviderError)?
    /// Reads one page's answer; nil: the recipe's items and programme filter, as a site's.
    package var readPage: (@Sendable (_ answer: TransportResponse, _ page: Page) async throws -> PageRead)?
    /// Notes the failed days of one schedule, of the `asked` days, and throws the channel's error
    /// when they fail it; nil: the site's words.
    package var failedDays: (@Sendable (_ failures: [FailedDay], _ channel: ChannelRef, _ asked: [Day]) async throws -> Void)?

    package init(
        kind: String, readsEachDay: @escaping @Sendable (SiteRecipe) -> Bool, keepsSession: Bool, readsInOrder: Bool = false,
        windowTooLong: (@Sendable (Int, Int) -> ProviderError)? = nil,
        readPage: (@Sendable (TransportResponse, Page) async throws -> PageRead)? = nil,
        failedDays: (@Sendable ([FailedDay], ChannelRef, [Day]) async throws -> Void)? = nil
    ) {
        self.kind = kind
        self.readsEachDay = readsEachDay
        self.keepsSession = keepsSession
        self.readsInOrder = readsInOrder
        self.windowTooLong = windowTooLong
        self.readPage = readPage
        self.failedDays = failedDays
    }

    /// A site recipe, read as written.
    package static let site = SiteFrontEnd(kind: "site", readsEachDay: { $0.readsEachDay }, keepsSession: true)

    /// The report's line for the days that failed (one line each, the first three shown), in the
    /// same words whatever the format; none when no day failed.
    static func failedDaysNote(_ lines: [String]) -> [String] {
        guard !lines.isEmpty else { return [] }
        return ["\(lines.count) day(s) failed, their gaps left to the next provider: " + lines.prefix(3).joined(separator: "; ")
            + (lines.count > 3 ? "; … and \(lines.count - 3) more" : "")]
    }
}
