import Foundation
import GuideCore

/// A guide read from a JSON API described by a `JSONFeedRecipe` (`type: json-feed`), so that
/// tvguide can use a user's own scraping server or a new site without new code.
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
    private let compiled: Result<CompiledJSONFeedRecipe, JSONFeedRecipeError>
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
        let compiled: CompiledJSONFeedRecipe
        switch self.compiled {
        case .success(let value): compiled = value
        case .failure(let error): throw ProviderError.notConfigured("json-feed \(id): \(error)")
        }
        guard recipe.url.usesChannel || channelList.count <= 1 else {
            throw ProviderError.notConfigured("json-feed \(id): the url has no {channel} placeholder, so it cannot tell \(channelList.count) channels apart")
        }
        let pages = try pages(in: window, zone: compiled.times.zone.zone, channel: channel.providerID)
        let bodies = await fetch(pages.map(\.url))

        var programmes: [Programme] = []
        var starts: Set<Date> = []
        var stats = FeedTally.Counts(fields: compiled.fields.map(\.0))
        var failures: [(Page, ProviderError)] = []
        for (page, body) in zip(pages, bodies) {
            // A day that fails (a 404, a page whose layout changed) leaves its gap to the next
            // provider; the other days are kept. A changed layout fails the channel all the same
            // when it is every day's.
            do {
                let read = try read(try body.get(), page: page, compiled: compiled, channel: channel.id, stats: &stats)
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
        /// The URL's day; nil when the URL has no date.
        var day: Day?
        var url: URL
        /// How messages name the page: its day, or nothing when there is one page.
        var label: String { day.map { "\($0): " } ?? "" }
    }

    private func pages(in window: DateInterval, zone: TimeZone, channel: String) throws -> [Page] {
        let first = Day(window.start, in: zone)
        guard recipe.url.usesDate else {
            return try [Page(day: nil, url: url(day: first, channel: channel))]
        }
        // The window's end is exclusive: a window ending at midnight does not reach the next day.
        let last = Day(max(window.start, window.end.addingTimeInterval(-1)), in: zone)
        let count = last.days(since: first) + 1
        guard count <= Self.maximumDays else {
            throw ProviderError.notConfigured("json-feed \(id): a window of \(count) days is more than the \(Self.maximumDays) fetched day by day")
        }
        return try (0..<count).map { offset in
            let day = first.adding(days: offset)
            return Page(day: day, url: try url(day: day, channel: channel))
        }
    }

    private func url(day: Day, channel: String) throws -> URL {
        guard let url = recipe.url.url(day: day, channel: channel) else {
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

    private func read(_ body: Data, page: Page, compiled: CompiledJSONFeedRecipe, channel: String,
                      stats: inout FeedTally.Counts) throws -> [Programme] {
        let document: FeedJSON
        do {
            document = try JSONDecoder().decode(FeedJSON.self, from: body)
        } catch let error as DecodingError {
            throw ProviderError.htmlPage(in: body, contentType: nil, expected: "JSON", source: page.day.map(\.description) ?? URLRedaction.redacted(page.url))
                ?? ProviderError.malformed("\(page.label)\(DecodingErrorDescription(error))")
        }
        let items: [FeedJSON]
        switch compiled.items.resolve(in: document) {
        case .success(.array(let elements)):
            items = elements
        case .success(let other):
            throw ProviderError.malformed("\(page.label)items '\(compiled.items)' is \(other.kind), not an array")
        case .failure(let miss):
            throw ProviderError.malformed("\(page.label)items '\(compiled.items)' not found: \(miss.sentence(document: "the response"))")
        }
        stats.rows += items.count
        if items.isEmpty { stats.emptyPages += 1 }

        var times = compiled.times.page(day: page.day)
        return try items.enumerated().map { index, item in
            var row = FeedRow(item: item, fields: compiled.fields)
            let place = "\(page.label)\(compiled.items)[\(index)]"
            let startValue = try row.required(.start, at: place)
            guard let start = times.start(startValue) else {
                throw ProviderError.malformed("\(place): field 'start' (path '\(row.path(.start))', time_format \(recipe.timeFormat)): \(startValue.excerpt) is not a time")
            }
            let titleValue = try row.required(.title, at: place)
            guard let title = FeedRow.line(titleValue) else {
                throw ProviderError.malformed("\(place): field 'title' (path '\(row.path(.title))'): \(titleValue.excerpt) is not text")
            }
            var programme = Programme(channel: channel, start: start, title: title, source: id)
            programme.stop = row.optional(.stop) { times.stop($0, after: start) }
            programme.subtitle = row.optional(.subtitle, FeedRow.line)
            programme.synopsis = row.optional(.description, FeedRow.paragraph)
            programme.categories = row.optional(.category, FeedRow.categories)
            programme.episode = row.optional(.episode, FeedRow.episode)
            stats.record(row)
            return programme
        }
    }

    /// An airing without a stop is kept when it starts inside the window, as `TimeWindow` does.
    private static func overlaps(_ programme: Programme, _ window: DateInterval) -> Bool {
        guard let stop = programme.stop else { return programme.start >= window.start && programme.start < window.end }
        return programme.start < window.end && stop > window.start
    }
}

/// One item and the recipe's field paths, remembering which fields gave a value.
struct FeedRow {
    let item: FeedJSON
    let fields: [(JSONFeedRecipe.Field, FeedPath)]
    private(set) var present: Set<JSONFeedRecipe.Field> = []
    /// Fields whose path found something, readable or not.
    private(set) var found: Set<JSONFeedRecipe.Field> = []
    /// Fields found but not readable, with what was found there.
    private(set) var unreadable: [JSONFeedRecipe.Field: String] = [:]

    init(item: FeedJSON, fields: [(JSONFeedRecipe.Field, FeedPath)]) {
        self.item = item
        self.fields = fields
    }

    func path(_ field: JSONFeedRecipe.Field) -> String {
        fields.first { $0.0 == field }.map { $0.1.description } ?? ""
    }

    /// The value of a required field, null and empty strings counting as missing.
    mutating func required(_ field: JSONFeedRecipe.Field, at place: String) throws -> FeedJSON {
        guard let path = fields.first(where: { $0.0 == field })?.1 else {
            preconditionFailure("a compiled recipe maps its required fields")
        }
        switch path.resolve(in: item) {
        case .success(let value) where !Self.isEmpty(value):
            present.insert(field)
            return value
        case .success(let value):
            throw ProviderError.malformed("\(place): field '\(field)' (path '\(path)') is \(value.excerpt)")
        case .failure(let miss):
            throw ProviderError.malformed("\(place): field '\(field)' (path '\(path)') is missing: \(miss.sentence(document: "the item"))")
        }
    }

    /// The field read with `parse`; nil when it is not mapped, missing, empty or unreadable.
    mutating func optional<Value>(_ field: JSONFeedRecipe.Field, _ parse: (FeedJSON) -> Value?) -> Value? {
        guard let path = fields.first(where: { $0.0 == field })?.1,
              case .success(let value) = path.resolve(in: item), !Self.isEmpty(value)
        else { return nil }
        found.insert(field)
        guard let parsed = parse(value) else {
            unreadable[field] = value.kind
            return nil
        }
        present.insert(field)
        return parsed
    }

    private static func isEmpty(_ value: FeedJSON) -> Bool {
        switch value {
        case .null: true
        case .string(let text): text.allSatisfy(\.isWhitespace)
        default: false
        }
    }

    /// Text on one line: runs of white space, line breaks included, become one space.
    static func line(_ value: FeedJSON) -> String? {
        guard let text = value.text else { return nil }
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// Text as written, trimmed; a synopsis keeps its paragraphs.
    static func paragraph(_ value: FeedJSON) -> String? {
        let text = value.text?.trimmingCharacters(in: .whitespacesAndNewlines)
        return text?.isEmpty == false ? text : nil
    }

    /// A string, or the strings of an array.
    static func categories(_ value: FeedJSON) -> [LocalizedText]? {
        let values: [FeedJSON]
        if case .array(let elements) = value { values = elements } else { values = [value] }
        let names = values.compactMap(line)
        return names.isEmpty ? nil : names.map { LocalizedText($0) }
    }

    /// `S02E05` / `T2 E5` / `2x05` (season and number), a bare number (the number), other text
    /// as on-screen numbering only, or an object with `season` and `episode` or `number`.
    static func episode(_ value: FeedJSON) -> Episode? {
        switch value {
        case .number(let number) where number >= 1 && number == number.rounded():
            return Episode(number: Int(number))
        case .string(let raw):
            let text = raw.trimmingCharacters(in: .whitespaces)
            if let number = Int(text), number >= 1 { return Episode(number: number) }
            if let match = text.wholeMatch(of: /[SsTt](\d{1,4})\s*[EeCc](\d{1,5})/) ?? text.wholeMatch(of: /(\d{1,4})[xX](\d{1,5})/) {
                return Episode(season: Int(match.1), number: Int(match.2), onscreen: text)
            }
            return text.isEmpty ? nil : Episode(onscreen: text)
        case .object(let members):
            let season = members["season"].flatMap(wholeNumber)
            let number = (members["episode"] ?? members["number"]).flatMap(wholeNumber)
            return season == nil && number == nil ? nil : Episode(season: season, number: number)
        default:
            return nil
        }
    }

    private static func wholeNumber(_ value: FeedJSON) -> Int? {
        value.text.flatMap { Int($0) }
    }
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

        mutating func record(_ row: FeedRow) {
            for field in row.present { present[field, default: 0] += 1 }
            for field in row.found { found[field, default: 0] += 1 }
            unreadable.merge(row.unreadable) { first, _ in first }
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
