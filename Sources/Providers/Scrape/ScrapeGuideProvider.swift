import Foundation
import GuideCore

/// Channel schedules scraped from HTML pages, one page per channel and day, as a
/// `produces: guide` recipe describes: `{channel}` in the URL is the provider's own channel id.
///
/// Fields: `start` and `title` (essential), and `stop`, `subtitle`, `description`, `category`.
/// Rows are read with the scrape recipe language audiences share (`ScrapeExtractor`), then made
/// programmes by the site engine's reader and times: in page order, a start earlier than the
/// previous row's is past midnight (a page covering 06:00 to 06:00), so it and the rows after it
/// move to the next day. A missing `stop` is left to the normaliser, which takes the next
/// programme's start.
package struct ScrapeGuideProvider: GuideProvider {
    package let id: String
    package let recipe: ScrapeRecipe
    private let channelList: [Channel]
    private let template: SiteTemplate
    private let transport: any HTTPTransport
    private let extractors: ExtractorPool
    /// The zone of the site's days and clock times.
    private let timeZone: TimeZone
    private let tally = ScrapeTally()

    /// The most days one `schedule` call fetches; a longer window (`shift_weeks: auto` asks for
    /// all of time) is refused rather than turned into thousands of requests.
    package static let maximumDays = 62

    /// Compiles the recipe, so an invalid one fails here, before anything is fetched.
    /// - Parameter channels: what `channels()` answers, under the provider's own ids.
    /// - Precondition: `recipe.produces == .guide`.
    package init(id: String, recipe: ScrapeRecipe, channels: [Channel], transport: any HTTPTransport) throws(ScrapeRecipeError) {
        precondition(recipe.produces == .guide, "ScrapeGuideProvider needs a produces: guide recipe")
        self.id = id
        self.recipe = recipe
        channelList = channels
        extractors = try ExtractorPool(recipe)
        template = try recipe.urlTemplate()
        self.transport = transport
        timeZone = recipe.timeZone
    }

    package func channels() async throws -> [Channel] {
        channelList
    }

    /// Fetches the page of every day (in the recipe's time zone) that `window` touches, in order,
    /// and keeps the programmes that overlap it, once per start time. A page missing (HTTP 404)
    /// after the first day ends the listing there, noted in the report; a missing first page
    /// throws, as does any other error.
    package func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        let first = Day(window.start, in: timeZone)
        let last = Day(window.duration > 0 ? window.end.addingTimeInterval(-1) : window.start, in: timeZone)
        var days = [first]
        // A URL without a date is one page: read once, not once per day of the window.
        while template.usesDate, let day = days.last, day < last {
            guard days.count < Self.maximumDays else {
                throw ProviderError.notConfigured("\(id): a scrape guide fetches one page per day, and the window asked spans more than \(Self.maximumDays) days")
            }
            days.append(day.adding(days: 1))
        }

        let overlap = TimeWindow(from: window.start, to: window.end)
        var programmes: [Programme] = []
        var starts = Set<Date>()
        pages: for day in days {
            guard let url = template.url(day: day, channel: channel.providerID) else {
                throw ProviderError.notConfigured("\(id): no URL for \(day)")
            }
            let response: TransportResponse
            do {
                response = try await transport.page(url)
            } catch let error as ProviderError where day > first && error.isMissingPage {
                // Sites publish a few days ahead; the listing ends where their pages do.
                await tally.listingEnded(channel: channel.providerID, on: day, error: error)
                break pages
            }
            let result = try await extractors.extract(response, from: url, countingIn: tally)
            for programme in makeProgrammes(from: result.rows, on: day, channel: channel.id)
            where overlap.overlaps(start: programme.start, stop: programme.stop) && starts.insert(programme.start).inserted {
                programmes.append(programme)
            }
        }
        return programmes.sorted { $0.start < $1.start }
    }

    package func reportNotes() async -> [String] {
        await tally.notes()
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
    private static let clock: SiteTimePattern = {
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
