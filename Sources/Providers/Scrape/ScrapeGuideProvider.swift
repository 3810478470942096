import Foundation
import GuideCore

/// Channel schedules scraped from HTML pages, one page per channel and day, as a
/// `produces: guide` recipe describes: `{channel}` in the URL is the provider's own channel id.
///
/// Fields: `start` and `title` (essential), and `stop`, `subtitle`, `description`, `category`.
/// The recipe runs on the site engine's driver (`SiteGuideProvider`), which asks the days in
/// order, keeps an airing once per start and clips to the window. What stays here is scrape's
/// front-end (`ScrapeFrontEnd`): rows are read with the scrape recipe language audiences share
/// (`ScrapeExtractor`), then made programmes by the site engine's reader and times: in page
/// order, a start earlier than the previous row's is past midnight (a page covering 06:00 to
/// 06:00), so it and the rows after it move to the next day. A missing `stop` is left to the
/// normaliser, which takes the next programme's start.
package struct ScrapeGuideProvider: GuideProvider {
    package let id: String
    package let recipe: ScrapeRecipe
    private let channelList: [Channel]
    private let engine: SiteGuideProvider
    private let tally = ScrapeTally()

    /// The most days one `schedule` call fetches; a longer window (`shift_weeks: auto` asks for
    /// all of time) is refused rather than turned into thousands of requests.
    package static let maximumDays = SiteGuideProvider.maximumDays

    /// Compiles the recipe, so an invalid one fails here, before anything is fetched.
    /// - Parameter channels: what `channels()` answers, under the provider's own ids.
    /// - Precondition: `recipe.produces == .guide`.
    package init(id: String, recipe: ScrapeRecipe, channels: [Channel], transport: any HTTPTransport) throws(ScrapeRecipeError) {
        precondition(recipe.produces == .guide, "ScrapeGuideProvider needs a produces: guide recipe")
        self.id = id
        self.recipe = recipe
        channelList = channels
        let frontEnd = ScrapeFrontEnd(id: id, extractors: try ExtractorPool(recipe), timeZone: recipe.timeZone, tally: tally)
        // The rows are the front-end's to read: the site recipe carries the request and the zone.
        let site = SiteRecipe(site: id, format: .html, request: SiteRequest(url: try recipe.urlTemplate()),
                              items: .page(SiteRecipe.PageItems(xpath: recipe.rows, fields: [])), programme: nil,
                              times: .pattern(ScrapeFrontEnd.clock), timezone: recipe.timeZone, empty: SiteRecipe.EmptyAnswers(noItems: true))
        engine = SiteGuideProvider(id: id, recipe: site, channels: channels, transport: transport, frontEnd: frontEnd.frontEnd)
    }

    package func channels() async throws -> [Channel] {
        channelList
    }

    /// Fetches the page of every day (in the recipe's time zone) that `window` touches, in order,
    /// and keeps the programmes that overlap it, once per start time. A page missing (HTTP 404)
    /// after the first day ends the listing there, noted in the report; a missing first page
    /// throws, as does any other error.
    package func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        try await engine.schedule(for: channel, in: window)
    }

    package func reportNotes() async -> [String] {
        await tally.notes()
    }
}

/// Scrape's side of the site engine: days asked in order until the site's pages end, each page's
/// rows read by the scrape extractor, and scrape's words for a window too long.
struct ScrapeFrontEnd: Sendable {
    let id: String
    let extractors: ExtractorPool
    /// The zone of the site's days and clock times.
    let timeZone: TimeZone
    let tally: ScrapeTally

    var frontEnd: SiteFrontEnd {
        SiteFrontEnd(
            kind: "scrape", readsEachDay: { $0.request.usesDate }, keepsSession: false, readsInOrder: true,
            windowTooLong: { [id] _, maximum in
                ProviderError.notConfigured("\(id): a scrape guide fetches one page per day, and the window asked spans more than \(maximum) days")
            },
            readPage: read, failedDays: listingEnded)
    }

    func read(_ answer: TransportResponse, page: SiteFrontEnd.Page) async throws -> SiteFrontEnd.PageRead {
        let result = try await extractors.extract(answer, from: page.url, countingIn: tally)
        return SiteFrontEnd.PageRead(items: result.rows.count, programmes: makeProgrammes(from: result.rows, on: page.day, channel: page.channel.id))
    }

    /// The day that failed ends the listing when it is a page missing after the first day (sites
    /// publish a few days ahead); any other failure is the channel's.
    func listingEnded(_ failures: [SiteFrontEnd.FailedDay], channel: ChannelRef, asked: [Day]) async throws {
        guard let (day, failure) = failures.first else { return }
        if failure is CancellationError { throw failure }
        let error = (failure as? ProviderError) ?? ProviderError(failure)
        guard day > asked[0], error.isMissingPage else { throw error }
        await tally.listingEnded(channel: channel.providerID, on: day, error: error)
    }

    /// The rows as site programme objects, read by the site engine's reader and page times, so a
    /// scraped guide crosses midnight and the clock change as a site recipe's `H:mm` times do.
    private func makeProgrammes(from rows: [ScrapedRow], on day: Day, channel: String) -> [Programme] {
        let reader = SiteProgrammeReader(channel: channel, source: id, base: nil)
        var times = SiteDayTimes(format: .pattern(Self.clock), zone: timeZone, day: day)
        var programmes: [Programme] = []
        programmes.reserveCapacity(rows.count)
        for row in rows {
            // Essential fields: the extractor has thrown for any row without them.
            guard let start = row.minutes("start"), let title = row.text("title") else { continue }
            var object: [String: JSONValue] = ["start": Self.clockText(start), "title": .string(title)]
            object["stop"] = row.minutes("stop").map(Self.clockText)
            object["subtitle"] = row.text("subtitle").map(JSONValue.string)
            object["description"] = row.text("description").map(JSONValue.string)
            object["categories"] = row.text("category").map { .array([.string($0)]) }
            // A parsed time is under 48:00, which the pattern reads, so no row fails here.
            guard let programme = try? reader.programme(.object(object), times: &times) else { continue }
            programmes.append(programme)
        }
        return programmes
    }

    /// `ValueParser.time`'s minutes after midnight, hours 24–47 being the next day's.
    static let clock: SiteTimePattern = {
        do {
            return try SiteTimePattern("H:mm")
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    private static func clockText(_ minutes: Int) -> JSONValue {
        let minute = minutes % 60
        return .string("\(minutes / 60):\(minute < 10 ? "0" : "")\(minute)")
    }
}
