import Foundation
import GuideCore

/// A guide read from a JSON API described by a `JSONFeedRecipe` (`type: json-feed`), so that
/// tvguide can use a user's own scraping server or a new site without new code. The recipe is
/// compiled to a site recipe, whose jq filter, programme reader and times read each page; what
/// stays here is json-feed's own promise, that an optional field it cannot read is left out
/// rather than failing the item, and its report of fields found in no item.
///
/// A schedule fetches the recipe's URL once per day of the window (days in the recipe's time
/// zone) when the URL has a `{date:…}`, once otherwise, with `{channel}` set to the channel's
/// own id. The pages are fetched concurrently; the transport limits how many at a time.
///
/// A response whose layout changed is `ProviderError.malformed`, naming the page's day, the path
/// and the item: no array at the items path, or an item whose start or title is missing or not
/// readable. An empty array is an empty day. An optional field that is missing or unreadable is
/// left out of that programme, and `reportNotes()` says when a mapped optional field was in none
/// of the items read, the likely sign of a renamed key.
package struct JSONFeedGuideProvider: GuideProvider {
    /// The most days one schedule fetches page by page; a longer window (an unbounded one asked by
    /// `shift_weeks: auto`, say) is refused rather than fetched for years.
    package static let maximumDays = 62

    package let id: String
    package let recipe: JSONFeedRecipe
    private let channelList: [Channel]
    private let transport: any HTTPTransport
    private let compiled: Result<SiteRecipe, JSONFeedRecipeError>
    private let tally = FeedTally()

    /// - Parameter channels: the channels the feed serves, under the ids `{channel}` takes.
    package init(id: String, recipe: JSONFeedRecipe, channels: [Channel], transport: any HTTPTransport) {
        self.id = id
        self.recipe = recipe
        self.channelList = channels
        self.transport = transport
        compiled = Result { () throws(JSONFeedRecipeError) in try recipe.compile() }
    }

    package func channels() async throws -> [Channel] {
        channelList
    }

    /// The programmes of `channel.providerID` that overlap `window`, under `channel.id`, sorted by
    /// start; an airing listed on two pages (one that crosses midnight) is kept once.
    package func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        let site: SiteRecipe
        switch compiled {
        case .success(let value): site = value
        case .failure(let error): throw ProviderError.notConfigured("json-feed \(id): \(error)")
        }
        guard site.request.usesChannel || channelList.count <= 1 else {
            throw ProviderError.notConfigured("json-feed \(id): the url has no {channel} placeholder, so it cannot tell \(channelList.count) channels apart")
        }
        let pages = try pages(in: window, site: site, channel: channel.providerID)
        let bodies = await fetch(pages.map(\.url))

        var programmes: [Programme] = []
        var starts: Set<Date> = []
        var stats = FeedTally.Counts(fields: JSONFeedRecipe.Field.allCases.filter { recipe.fields[$0] != nil })
        var failures: [(Page, ProviderError)] = []
        for (page, body) in zip(pages, bodies) {
            // A day that fails (a 404, a page whose layout changed) leaves its gap to the next
            // provider; the other days are kept. A changed layout fails the channel all the same
            // when it is every day's.
            do {
                let read = try read(try body.get(), page: page, site: site, channel: channel.id, stats: &stats)
                stats.pages += 1
                for programme in read where starts.insert(programme.start).inserted { programmes.append(programme) }
            } catch let error as CancellationError {
                throw error
            } catch {
                failures.append((page, (error as? ProviderError) ?? ProviderError(error)))
            }
        }
        // A malformed page's error names its day already; a transport's names the URL.
        stats.failedDays = failures.map { page, error in
            let text = "\(error)"
            return "\(channel.providerID) " + (text.contains(page.label) || page.label.isEmpty ? text : "\(page.label)\(text)")
        }
        await tally.add(stats)
        if let (_, error) = failures.first, failures.count == pages.count {
            throw error
        }
        return programmes.filter { Self.overlaps($0, window) }.sorted { $0.start < $1.start }
    }

    /// Pages fetched, items read, and the hints of a changed layout that did not fail a page.
    package func reportNotes() async -> [String] {
        let counts = await tally.counts
        guard counts.pages > 0 || !counts.failedDays.isEmpty else { return [] }
        var summary = "fetched \(counts.pages) page(s), read \(counts.rows) item(s)"
        if counts.emptyPages > 0 { summary += "; \(counts.emptyPages) page(s) had no items" }
        var notes = [summary]
        if counts.rows > 0 {
            for field in counts.fields where counts.present[field, default: 0] == 0 {
                let path = recipe.fields[field] ?? ""
                if let kind = counts.unreadable[field] {
                    notes.append("field '\(field)' (path '\(path)') holds \(kind) in \(counts.found[field, default: 0]) item(s), never a value it can read: point the path at a text inside it")
                } else {
                    notes.append("field '\(field)' (path '\(path)') was in none of the \(counts.rows) item(s): renamed in the feed?")
                }
            }
        }
        if !counts.failedDays.isEmpty {
            notes.append("\(counts.failedDays.count) day(s) failed, their gaps left to the next provider: " + counts.failedDays.prefix(3).joined(separator: "; ")
                + (counts.failedDays.count > 3 ? "; … and \(counts.failedDays.count - 3) more" : ""))
        }
        return notes
    }

    struct Page {
        /// The URL's day, or the window's first when the URL has no date.
        var day: Day
        /// True when the URL has the day in it, so messages name the page by its day.
        var dated: Bool
        var url: URL
        /// How messages name the page: its day, or nothing when there is one page.
        var label: String { dated ? "\(day): " : "" }
    }

    private func pages(in window: DateInterval, site: SiteRecipe, channel: String) throws -> [Page] {
        let zone = site.timezone
        let first = Day(window.start, in: zone)
        guard site.request.usesDate else {
            return try [Page(day: first, dated: false, url: url(site, day: first, channel: channel))]
        }
        // The window's end is exclusive: a window ending at midnight does not reach the next day.
        let last = Day(max(window.start, window.end.addingTimeInterval(-1)), in: zone)
        let count = last.days(since: first) + 1
        guard count <= Self.maximumDays else {
            throw ProviderError.notConfigured("json-feed \(id): a window of \(count) days is more than the \(Self.maximumDays) fetched day by day")
        }
        return try (0..<count).map { offset in
            let day = first.adding(days: offset)
            return Page(day: day, dated: true, url: try url(site, day: day, channel: channel))
        }
    }

    private func url(_ site: SiteRecipe, day: Day, channel: String) throws -> URL {
        let values = SiteTemplate.Values(channel: channel, day: day, zone: site.timezone)
        guard let url = URL(string: site.request.url.render(values, escaping: true)) else {
            throw ProviderError.notConfigured("json-feed \(id): no URL from '\(recipe.url)' for channel '\(channel)'")
        }
        return url
    }

    /// The bodies in the order of `urls`, each fetched or failed on its own.
    private func fetch(_ urls: [URL]) async -> [Result<Data, any Error>] {
        await withTaskGroup(of: (Int, Result<Data, any Error>).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await transport.get(url).body))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results: [(Int, Result<Data, any Error>)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    private func read(_ body: Data, page: Page, site: SiteRecipe, channel: String, stats: inout FeedTally.Counts) throws -> [Programme] {
        guard case .jq(let filter) = site.items else { preconditionFailure("a json-feed compiles to a jq items filter") }
        let objects: [JSONValue]
        do {
            objects = try filter.run(.json(body))
        } catch {
            switch error {
            case .input(let message):
                throw ProviderError.htmlPage(in: body, contentType: nil, expected: "JSON", source: page.dated ? page.day.description : URLRedaction.redacted(page.url))
                    ?? ProviderError.malformed("\(page.label)the response is not JSON: \(message)")
            case .runtime(let message):
                // The filter's own messages, which name the path and the item.
                throw ProviderError.malformed("\(page.label)\(message)")
            default:
                throw ProviderError.malformed("\(page.label)\(error)")
            }
        }
        stats.rows += objects.count
        if objects.isEmpty { stats.emptyPages += 1 }

        let reader = SiteProgrammeReader(channel: channel, source: id, base: nil)
        var times = SiteDayTimes(format: site.times, zone: site.timezone, day: page.day)
        var programmes: [Programme] = []
        programmes.reserveCapacity(objects.count)
        for object in objects {
            guard case .object(let given) = object else { preconditionFailure("the json-feed filter gives objects") }
            var fields = given
            var item = FeedItem(fields)
            // A stop that cannot be read leaves the programme without one, where the site engine
            // would fail the item: the field map promises that of every optional field.
            let stopValue = fields.removeValue(forKey: "stop")
            var probe = times
            guard let startValue = fields["start"], probe.start(startValue) != nil else {
                throw ProviderError.malformed("\(page.label)\(item.place): field 'start' (path '\(recipe.fields[.start] ?? "")', time_format \(recipe.timeFormat)): \(item.startExcerpt) is not a time")
            }
            var programme: Programme
            do {
                programme = try reader.programme(.object(fields), times: &times)
            } catch {
                throw ProviderError.malformed("\(page.label)\(item.place): \(error.reason)")
            }
            if let stopValue {
                if let stop = times.stop(stopValue, after: programme.start), stop > programme.start {
                    programme.stop = stop
                } else {
                    item.unreadable[.stop] = stopValue.kindName
                }
            }
            if let onscreen = fields["_onscreen"]?.string {
                programme.episode = Episode(season: programme.episode?.season, number: programme.episode?.number, onscreen: onscreen)
            }
            stats.record(item)
            programmes.append(programme)
        }
        return programmes
    }

    /// An airing without a stop is kept when it starts inside the window, as `TimeWindow` does.
    private static func overlaps(_ programme: Programme, _ window: DateInterval) -> Bool {
        guard let stop = programme.stop else { return programme.start >= window.start && programme.start < window.end }
        return programme.start < window.end && stop > window.start
    }
}

/// What the filter said of one item beside its programme: where it is, and which optional
/// fields it had and could not read.
struct FeedItem {
    let place: String
    let startExcerpt: String
    let found: Set<JSONFeedRecipe.Field>
    var unreadable: [JSONFeedRecipe.Field: String]

    init(_ fields: [String: JSONValue]) {
        place = fields["_place"]?.string ?? ""
        startExcerpt = fields["_start"]?.string ?? ""
        var found: Set<JSONFeedRecipe.Field> = [.start, .title]
        if case .array(let names)? = fields["_found"] {
            for case .string(let name) in names { if let field = JSONFeedRecipe.Field(rawValue: name) { found.insert(field) } }
        }
        self.found = found
        var unreadable: [JSONFeedRecipe.Field: String] = [:]
        if case .object(let kinds)? = fields["_unreadable"] {
            for (name, kind) in kinds { if let field = JSONFeedRecipe.Field(rawValue: name), let kind = kind.string { unreadable[field] = kind } }
        }
        self.unreadable = unreadable
    }

    /// The fields that gave the programme a value.
    var present: Set<JSONFeedRecipe.Field> { found.subtracting(unreadable.keys) }
}

/// What a provider's schedules read, for the run report.
private actor FeedTally {
    struct Counts {
        var pages = 0
        var rows = 0
        var emptyPages = 0
        /// The mapped fields, in recipe order.
        var fields: [JSONFeedRecipe.Field]
        /// Field → items that gave it a value.
        var present: [JSONFeedRecipe.Field: Int] = [:]
        /// Field → items where its path found something (read or not).
        var found: [JSONFeedRecipe.Field: Int] = [:]
        /// Field → the kind found where it could not be read ("an object").
        var unreadable: [JSONFeedRecipe.Field: String] = [:]
        /// The days that failed, one line each.
        var failedDays: [String] = []

        init(fields: [JSONFeedRecipe.Field]) {
            self.fields = fields
        }

        mutating func record(_ item: FeedItem) {
            for field in item.present { present[field, default: 0] += 1 }
            for field in item.found { found[field, default: 0] += 1 }
            unreadable.merge(item.unreadable) { first, _ in first }
        }
    }
    private(set) var counts = Counts(fields: [])

    func add(_ more: Counts) {
        counts.pages += more.pages
        counts.rows += more.rows
        counts.emptyPages += more.emptyPages
        if counts.fields.isEmpty { counts.fields = more.fields }
        counts.present.merge(more.present, uniquingKeysWith: +)
        counts.found.merge(more.found, uniquingKeysWith: +)
        counts.unreadable.merge(more.unreadable) { first, _ in first }
        counts.failedDays += more.failedDays
    }
}
