import Foundation
import GuideCore

/// A guide read from a JSON API described by a `JSONFeedRecipe` (`type: json-feed`), so that
/// tvguide can use a user's own scraping server or a new site without new code. The recipe is
/// compiled to a site recipe and run by the site engine's driver (`SiteGuideProvider`): the
/// days, the fetches, an airing listed on two pages kept once, a failed day's gap left to the
/// next provider. What stays here is json-feed's front-end (`JSONFeedFrontEnd`): its promise that
/// an optional field it cannot read is left out rather than failing the item, its words, and its
/// report of fields found in no item.
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
    package static let maximumDays = SiteGuideProvider.maximumDays

    package let id: String
    package let recipe: JSONFeedRecipe
    private let channelList: [Channel]
    /// The site engine running the compiled recipe, or why the recipe does not compile.
    private let engine: Result<SiteGuideProvider, JSONFeedRecipeError>
    private let tally: FeedTally

    /// - Parameter channels: the channels the feed serves, under the ids `{channel}` takes.
    package init(id: String, recipe: JSONFeedRecipe, channels: [Channel], transport: any HTTPTransport) {
        self.id = id
        self.recipe = recipe
        self.channelList = channels
        let tally = FeedTally(fields: JSONFeedRecipe.Field.allCases.filter { recipe.fields[$0] != nil })
        self.tally = tally
        engine = Result { () throws(JSONFeedRecipeError) in try recipe.compile() }.map { site in
            let frontEnd = JSONFeedFrontEnd(id: id, recipe: recipe, site: site, tally: tally)
            return SiteGuideProvider(id: id, recipe: site, channels: channels, transport: transport, frontEnd: frontEnd.frontEnd)
        }
    }

    package func channels() async throws -> [Channel] {
        channelList
    }

    /// The programmes of `channel.providerID` that overlap `window`, under `channel.id`, sorted by
    /// start; an airing listed on two pages (one that crosses midnight) is kept once.
    package func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        let engine: SiteGuideProvider
        switch self.engine {
        case .success(let value): engine = value
        case .failure(let error): throw ProviderError.notConfigured("json-feed \(id): \(error)")
        }
        guard engine.recipe.request.usesChannel || channelList.count <= 1 else {
            throw ProviderError.notConfigured("json-feed \(id): the url has no {channel} placeholder, so it cannot tell \(channelList.count) channels apart")
        }
        return try await engine.schedule(for: channel, in: window)
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
        return notes + SiteFrontEnd.failedDaysNote(counts.failedDays)
    }
}

/// json-feed's side of the site engine: each page read through the compiled filter, optional
/// fields left out when unreadable, and the words of its errors and its report.
struct JSONFeedFrontEnd: Sendable {
    let id: String
    let recipe: JSONFeedRecipe
    let site: SiteRecipe
    let tally: FeedTally

    var frontEnd: SiteFrontEnd {
        SiteFrontEnd(kind: "json-feed", readsEachDay: { $0.request.usesDate }, keepsSession: false, readPage: read, failedDays: noteFailedDays)
    }

    /// How messages name a page: its day, or nothing when the URL has no date (one page).
    private func label(_ day: Day) -> String {
        site.request.usesDate ? "\(day): " : ""
    }

    /// The page's programmes; what was read of it is tallied even when an item fails it.
    func read(_ answer: TransportResponse, page: SiteFrontEnd.Page) async throws -> SiteFrontEnd.PageRead {
        var counts = FeedTally.Counts()
        do {
            let objects = try objects(in: answer.body, page: page)
            counts.rows += objects.count
            if objects.isEmpty { counts.emptyPages += 1 }
            let programmes = try programmes(from: objects, page: page, counts: &counts)
            counts.pages += 1
            await tally.add(counts, day: page.day)
            return SiteFrontEnd.PageRead(items: objects.count, programmes: programmes)
        } catch {
            await tally.add(counts, day: page.day)
            throw error
        }
    }

    /// The items as the filter maps them, its faults worded as json-feed has always worded them.
    private func objects(in body: Data, page: SiteFrontEnd.Page) throws -> [JSONValue] {
        guard case .jq(let filter) = site.items else { preconditionFailure("a json-feed compiles to a jq items filter") }
        let label = label(page.day)
        do {
            return try filter.run(.json(body))
        } catch {
            switch error {
            case .input(let message):
                throw ProviderError.htmlPage(in: body, contentType: nil, expected: "JSON", source: label.isEmpty ? URLRedaction.redacted(page.url) : page.day.description)
                    ?? ProviderError.malformed("\(label)the response is not JSON: \(message)")
            case .runtime(let message):
                // The filter's own messages, which name the path and the item.
                throw ProviderError.malformed("\(label)\(message)")
            default:
                throw ProviderError.malformed("\(label)\(error)")
            }
        }
    }

    private func programmes(from objects: [JSONValue], page: SiteFrontEnd.Page, counts: inout FeedTally.Counts) throws -> [Programme] {
        let reader = SiteProgrammeReader(channel: page.channel.id, source: id, base: nil)
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
                throw ProviderError.malformed("\(label(page.day))\(item.place): field 'start' (path '\(recipe.fields[.start] ?? "")', time_format \(recipe.timeFormat)): \(item.startExcerpt) is not a time")
            }
            var programme: Programme
            do {
                programme = try reader.programme(.object(fields), times: &times)
            } catch {
                throw ProviderError.malformed("\(label(page.day))\(item.place): \(error.reason)")
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
            counts.record(item)
            programmes.append(programme)
        }
        return programmes
    }

    /// Every failed day is noted, each named by its day unless its error names it already; when
    /// all failed, the first one's error is the channel's.
    func noteFailedDays(_ failures: [SiteFrontEnd.FailedDay], channel: ChannelRef, asked: [Day]) async throws {
        if let cancelled = failures.first(where: { $0.error is CancellationError }) { throw cancelled.error }
        let errors = failures.map { (day: $0.day, error: ($0.error as? ProviderError) ?? ProviderError($0.error)) }
        await tally.failedDays(errors.map { day, error in
            let text = "\(error)", label = label(day)
            return "\(channel.providerID) " + (text.contains(label) || label.isEmpty ? text : "\(label)\(text)")
        })
        if let first = errors.first, errors.count == asked.count { throw first.error }
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
actor FeedTally {
    struct Counts {
        var pages = 0
        var rows = 0
        var emptyPages = 0
        /// The mapped fields, in recipe order.
        var fields: [JSONFeedRecipe.Field] = []
        /// Field → items that gave it a value.
        var present: [JSONFeedRecipe.Field: Int] = [:]
        /// Field → items where its path found something (read or not).
        var found: [JSONFeedRecipe.Field: Int] = [:]
        /// Field → the kind found where it could not be read ("an object"), the first found.
        var unreadable: [JSONFeedRecipe.Field: String] = [:]
        /// The days that failed, one line each.
        var failedDays: [String] = []

        mutating func record(_ item: FeedItem) {
            for field in item.present { present[field, default: 0] += 1 }
            for field in item.found { found[field, default: 0] += 1 }
            unreadable.merge(item.unreadable) { first, _ in first }
        }
    }
    private(set) var counts: Counts
    /// The day of the page each unreadable kind came from: the earliest day's is kept, as when
    /// the days were read in order, whatever order their pages arrive in.
    private var unreadableDays: [JSONFeedRecipe.Field: Day] = [:]

    init(fields: [JSONFeedRecipe.Field]) {
        counts = Counts(fields: fields)
    }

    /// One page's counts, read on `day`.
    func add(_ page: Counts, day: Day) {
        counts.pages += page.pages
        counts.rows += page.rows
        counts.emptyPages += page.emptyPages
        counts.present.merge(page.present, uniquingKeysWith: +)
        counts.found.merge(page.found, uniquingKeysWith: +)
        for (field, kind) in page.unreadable where unreadableDays[field].map({ day < $0 }) ?? true {
            counts.unreadable[field] = kind
            unreadableDays[field] = day
        }
    }

    func failedDays(_ lines: [String]) {
        counts.failedDays += lines
    }
}
