import Foundation
import GuideCore
import GzipCodec

/// A guide read from a site through a `SiteRecipe` (`type: site`, or `site: NAME` from the
/// catalogue in `sources/`), and the driver of the formats that compile to site recipes
/// (`SiteFrontEnd`).
///
/// For each channel and day of the window (days in the recipe's zone) it makes the recipe's
/// requests, the same request once for the whole run however many channels and days share it
/// (a day's page listing every channel is fetched once), reads the items and maps each through
/// the `programme` filter. A day that fails (a 404, a changed layout) is reported and the other
/// days are kept, so the chain fills only that gap from the next provider; a channel all of
/// whose days fail, or whose items query matched nothing on any page, fails as a whole.
package struct SiteGuideProvider: GuideProvider {
    /// The most days one schedule fetches; a longer window (`shift_weeks: auto`) is refused.
    package static let maximumDays = 62
    /// A start this far from the page's day was misread (milliseconds read as seconds, a wrong format).
    static let plausibleDistance: TimeInterval = 20 * 365 * 86_400

    package let id: String
    package let recipe: SiteRecipe
    private let channelList: [Channel]
    /// Each channel's attributes in its channel list (`lang`, and any other), by site id.
    private let channelAttributes: [String: [String: String]]
    private let transport: any HTTPTransport
    /// The run's clock, whose day in a channel's zone `{days_ahead}` counts from.
    private let now: Date
    /// A site test's day, which replaces the clock's.
    private let fixedToday: Day?
    private let memo = ResponseMemo()
    private let cookies = CookieJar()
    private let tally = SiteTally()
    private let frontEnd: SiteFrontEnd

    /// - Parameters:
    ///   - channels: the channels to serve, each under its site id.
    ///   - channelAttributes: each channel's attributes in the site's channel list, by site id.
    ///   - now: the run's clock; `today` (a site test's) replaces its day.
    ///   - frontEnd: the format the recipe was written in, when not a site's.
    package init(
        id: String, recipe: SiteRecipe, channels: [Channel], channelAttributes: [String: [String: String]] = [:], transport: any HTTPTransport,
        now: Date = Date(), today: Day? = nil, frontEnd: SiteFrontEnd = .site
    ) {
        self.id = id
        self.frontEnd = frontEnd
        self.now = now
        self.fixedToday = today
        self.recipe = recipe
        self.channelList = channels
        self.channelAttributes = channelAttributes
        self.transport = transport
    }

    package func channels() async throws -> [Channel] {
        channelList
    }

    package func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        let zone = try zone(of: channel)
        let days = try days(in: window, zone: zone)
        let outcomes = frontEnd.readsInOrder
            ? await readInOrder(days, channel: channel, zone: zone)
            : await readTogether(days, channel: channel, zone: zone)
        var programmes: [Programme] = []
        var starts: Set<Date> = []
        var failures: [SiteFrontEnd.FailedDay] = []
        var itemsSeen = 0
        for (day, outcome) in zip(days, outcomes) {
            switch outcome {
            case .success(let result):
                itemsSeen += result.items
                for programme in result.programmes where starts.insert(programme.start).inserted {
                    programmes.append(programme)
                }
            case .failure(let error):
                failures.append((day, error))
            }
        }
        if !failures.isEmpty {
            if let failedDays = frontEnd.failedDays {
                try await failedDays(failures, channel, days)
            } else {
                try await noteFailedDays(failures, channel: channel, asked: days.count)
            }
        }
        if itemsSeen == 0, failures.isEmpty, !recipe.empty.noItems {
            throw ProviderError.malformed("\(recipe.site): the items query \(recipe.itemsDescription) matched nothing on any of the \(days.count) page(s) of channel '\(channel.providerID)': has the site changed?")
        }
        programmes.sort { $0.start < $1.start }
        let kept = TimeWindow(from: window.start, to: window.end)
        return programmes.filter { kept.overlaps(start: $0.start, stop: $0.stop) }
    }

    /// Every day at once, each read or failed on its own.
    private func readTogether(_ days: [Day], channel: ChannelRef, zone: TimeZone) async -> [Result<DayResult, any Error>] {
        await withTaskGroup(of: (Int, Result<DayResult, any Error>).self) { group in
            for (index, day) in days.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await self.read(channel: channel, day: day, zone: zone)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var outcomes: [(Int, Result<DayResult, any Error>)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// One day after another, up to the first that fails: no day after it is asked.
    private func readInOrder(_ days: [Day], channel: ChannelRef, zone: TimeZone) async -> [Result<DayResult, any Error>] {
        var outcomes: [Result<DayResult, any Error>] = []
        for day in days {
            do {
                outcomes.append(.success(try await read(channel: channel, day: day, zone: zone)))
            } catch {
                outcomes.append(.failure(error))
                break
            }
        }
        return outcomes
    }

    /// A channel whose every day failed is one error in the report, not one note per day.
    private func noteFailedDays(_ failures: [SiteFrontEnd.FailedDay], channel: ChannelRef, asked: Int) async throws {
        if failures.count < asked {
            await tally.failedDays(failures.map { "\(channel.providerID) \($0.day): \(Self.describe($0.error))" })
        }
        if let (day, error) = failures.first, failures.count == asked {
            if let providerError = error as? ProviderError { throw providerError.prefixed("\(day): ") }
            throw error
        }
    }

    /// Pages, items and programmes read, and the days that failed.
    package func reportNotes() async -> [String] {
        await tally.notes
    }

    private func days(in window: DateInterval, zone: TimeZone) throws -> [Day] {
        let today = fixedToday ?? Day(now, in: zone)
        let first = Day(window.start, in: zone)
        guard frontEnd.readsEachDay(recipe) else { return [first] }
        let last = Day(max(window.start, window.end.addingTimeInterval(-1)), in: zone)
        let count = last.days(since: first) + 1
        guard count <= Self.maximumDays else {
            throw frontEnd.windowTooLong?(count, Self.maximumDays)
                ?? ProviderError.notConfigured("\(frontEnd.kind) \(id): a window of \(count) days is more than the \(Self.maximumDays) fetched day by day")
        }
        let days = (0..<count).map { first.adding(days: $0) }
        // Days past what the site lists (or names) are not asked for: the chain fills them from the next provider.
        var listed = recipe.days ?? Int.max
        if recipe.request.templates.contains(where: \.usesDayWord) { listed = min(listed, recipe.dayWords.count) }
        guard listed < Int.max else { return days }
        let asked = days.filter { (0..<listed).contains($0.days(since: today)) }
        return asked.isEmpty ? [first] : asked
    }

    // MARK: - One channel's day

    package struct DayResult: Sendable {
        /// In the order the site lists them, not clipped to any window.
        package var programmes: [Programme]
        /// Items the items query gave, before mapping.
        package var items: Int
        /// The requests made, in order: the main request's pages, then the steps', then the details'.
        package var requests: [SentRequest]

        package var urls: [URL] { requests.map(\.url) }
    }

    /// A request as it was sent.
    package struct SentRequest: Sendable {
        package var method: String
        package var url: URL
        package var headers: [String: String]
        package var body: String?
    }

    /// One channel's page(s) for `day`, read and mapped: what a site test checks.
    package func read(channel: ChannelRef, day: Day) async throws -> DayResult {
        try await read(channel: channel, day: day, zone: try zone(of: channel))
    }

    /// `zone`: the channel's, worked out once per schedule rather than once per day.
    private func read(channel: ChannelRef, day: Day, zone: TimeZone) async throws -> DayResult {
        var values = try templateValues(channel: channel, day: day, zone: zone)
        let channelObject = channelObject(channel)
        var sent: [SentRequest] = []
        for step in recipe.steps {
            let (value, request) = try await run(step, values: values, channelObject: channelObject, date: day.description)
            values.steps[step.name] = value
            sent += request.map { [$0] } ?? []
        }
        var details: [String: JSONValue] = [:]
        for detail in recipe.details where detail.scope != .programme {
            let (value, request) = try await fetchDetail(detail, values: values)
            details[detail.name] = value
            sent.append(request)
        }
        var result = DayResult(programmes: [], items: 0, requests: [])
        let shared = SiteDay(channel: channel, day: day, zone: zone, values: values, channelObject: channelObject, details: details)
        for page in recipe.pages.isEmpty ? [nil] : recipe.pages.map(Optional.some) {
            var pageValues = values
            pageValues.page = page
            let (response, request) = try await fetch(recipe.request, values: pageValues)
            result.requests.append(request)
            // A front-end that reads its answers its own way does so; a site's are read by its recipe.
            let pageRead = if let readPage = frontEnd.readPage {
                try await readPage(response, SiteFrontEnd.Page(channel: channel, day: day, url: request.url))
            } else {
                try await read(response, page: page, of: shared)
            }
            guard let pageRead else { continue }
            result.items += pageRead.items
            result.programmes += pageRead.programmes
        }
        if recipe.keep == .startsOnDay {
            result.programmes.removeAll { Day($0.start, in: zone) != day }
        }
        await tally.add(pages: max(recipe.pages.count, 1), items: result.items, programmes: result.programmes.count)
        result.requests += sent
        return result
    }

    /// What every page of one channel's day shares.
    private struct SiteDay {
        let channel: ChannelRef
        let day: Day
        let zone: TimeZone
        let values: SiteTemplate.Values
        let channelObject: JSONValue
        /// The channel's and the day's details, by name.
        let details: [String: JSONValue]
    }

    /// One page's answer read; nil for an answer the recipe calls an empty day.
    private func read(_ response: TransportResponse, page: String?, of day: SiteDay) async throws -> SiteFrontEnd.PageRead? {
        if recipe.empty.isEmptyDay(response.body) { return nil }
        if SiteRecipe.EmptyAnswers.trimmed(response.body).isEmpty {
            throw ProviderError.malformed("\(recipe.site): the response is empty (\(URLRedaction.redacted(response.url))); if an empty answer means a day without programmes, say so with `empty: body`")
        }
        // Converted for libjq once per page, not once per item: `$details` can be a large file.
        let variables: [String: JQInput] = [
            "channel": .prepared(JQPrepared(.value(day.channelObject))), "date": .value(.string(day.day.description)),
            "details": .prepared(JQPrepared(.value(.object(day.details)))),
            "page": .value(page.map(JSONValue.string) ?? .null), "url": .value(.string(response.url.absoluteString)),
            "steps": .value(.object(day.values.steps)),
        ]
        let reader = SiteProgrammeReader(channel: day.channel.id, source: id, base: recipe.baseURL ?? response.url)
        // The fast path: one run of `items | programme`. Should it fail, the item by item path
        // below runs instead, to name the item and the stage at fault.
        if let pipeline = recipe.pipeline, let objects = try? pipeline.run(.json(response.body), variables),
           let mapped = try? programmes(from: objects, reader: reader, day: day) {
            return SiteFrontEnd.PageRead(items: objects.count, programmes: fillingStops(mapped))
        }
        let items = try items(of: response, variables: variables, xpathVariables: xpathVariables(day.values))
        // A page's rows, likewise: one run of `.[] | programme`, else row by row.
        if let rows = recipe.rowsPipeline, let objects = try? rows.run(.value(.array(items)), variables),
           let mapped = try? programmes(from: objects, reader: reader, day: day) {
            return SiteFrontEnd.PageRead(items: items.count, programmes: fillingStops(mapped))
        }
        let mapped = try await programmes(fromEach: items, reader: reader, variables: variables, day: day)
        return SiteFrontEnd.PageRead(items: items.count, programmes: fillingStops(mapped))
    }

    /// The objects a fast path gave, read on one clock of the day.
    private func programmes(from objects: [JSONValue], reader: SiteProgrammeReader, day: SiteDay) throws -> [Programme] {
        var times = SiteDayTimes(format: recipe.times, zone: day.zone, day: day.day)
        return try objects.map { try programme(from: $0, reader: reader, times: &times, day: day.day) }
    }

    /// Item by item, with each item's programme details: a fault names the item and the stage.
    private func programmes(fromEach items: [JSONValue], reader: SiteProgrammeReader, variables: [String: JQInput], day: SiteDay) async throws -> [Programme] {
        var times = SiteDayTimes(format: recipe.times, zone: day.zone, day: day.day)
        var programmes: [Programme] = []
        for (index, item) in items.enumerated() {
            var itemVariables = variables
            if recipe.details.contains(where: { $0.scope == .programme }) {
                itemVariables["detail"] = .value(try await programmeDetails(for: item, values: day.values, variables: variables))
            }
            let objects: [JSONValue]
            if let filter = recipe.programme {
                do {
                    objects = try filter.run(.value(item), itemVariables)
                } catch {
                    throw ProviderError.malformed("\(recipe.site): programme filter on item \(index + 1): \(error)")
                }
            } else {
                objects = [item]
            }
            for object in objects {
                do {
                    programmes.append(try programme(from: object, reader: reader, times: &times, day: day.day))
                } catch let failure as SiteProgrammeReader.Failure {
                    throw ProviderError.malformed("\(recipe.site): item \(index + 1): \(failure.reason)")
                }
            }
        }
        return programmes
    }

    /// A missing stop is the next programme's start on the page, as the site shows it, and the
    /// last one's `default_length` after its start.
    private func fillingStops(_ programmes: [Programme]) -> [Programme] {
        var filled = programmes
        for index in filled.indices where filled[index].stop == nil {
            if index + 1 < filled.count, filled[index + 1].start > filled[index].start {
                filled[index].stop = filled[index + 1].start
            } else if index == filled.count - 1, let length = recipe.defaultLength {
                filled[index].stop = filled[index].start.addingTimeInterval(length)
            }
        }
        return filled
    }

    private func items(of response: TransportResponse, variables: [String: JQInput], xpathVariables: [String: String]) throws -> [JSONValue] {
        switch recipe.items {
        case .jq(let filter):
            return try run(filter, on: response, format: recipe.format, variables: variables, name: "items filter")
        case .page(let spec):
            // libxml2's faults (an XPath that cannot run) name the site, as jq's do.
            func read(_ data: Data, format: SiteRecipe.Format, contentType: String?, encoding: PageEncoding?) throws -> [JSONValue] {
                do {
                    return try SitePage.items(data, format: format, contentType: contentType, encoding: encoding, spec: spec, variables: xpathVariables)
                } catch {
                    throw error.prefixed("\(recipe.site): ")
                }
            }
            guard let html = spec.html else {
                return try read(response.body, format: recipe.format, contentType: response.headers["content-type"], encoding: recipe.encoding)
            }
            var items: [JSONValue] = []
            for fragment in try run(html, on: response, format: recipe.format, variables: variables, name: "items.html") {
                guard case .string(let text) = fragment else {
                    throw ProviderError.malformed("\(recipe.site): items.html gave \(fragment.jsonText.prefix(80)), not the text of an HTML page")
                }
                guard !text.isEmpty else { continue }
                items += try read(Data(text.utf8), format: .html, contentType: "text/html; charset=utf-8", encoding: nil)
            }
            return items
        }
    }

    /// `filter` on a JSON or text answer, its faults named by `name` and the answer's URL.
    private func run(_ filter: JQFilter, on response: TransportResponse, format: SiteRecipe.Format, variables: [String: JQInput], name: String) throws -> [JSONValue] {
        do {
            // A text answer is one string; bytes that are not UTF-8 become U+FFFD, as a browser shows them.
            let input: JQInput = format == .text ? .value(.string(String(decoding: response.body, as: UTF8.self))) : .json(response.body)
            return try filter.run(input, variables)
        } catch JQError.input(let message) {
            throw ProviderError.htmlPage(in: response.body, contentType: response.headers["content-type"], expected: "JSON", source: URLRedaction.redacted(response.url))
                ?? ProviderError.malformed("\(recipe.site): \(URLRedaction.redacted(response.url)) is not JSON: \(message)")
        } catch {
            throw ProviderError.malformed("\(recipe.site): \(name): \(error)")
        }
    }

    /// One programme object read, and checked to lie near its page's day.
    private func programme(from object: JSONValue, reader: SiteProgrammeReader, times: inout SiteDayTimes, day: Day) throws -> Programme {
        let programme = try reader.programme(object, times: &times)
        try checkPlausible(programme, day: day)
        return programme
    }

    private func checkPlausible(_ programme: Programme, day: Day) throws {
        let middle = Date(timeIntervalSince1970: TimeInterval(CivilTime.epochSeconds(year: day.year, month: day.month, day: day.day) + 43_200))
        guard abs(programme.start.timeIntervalSince(middle)) > Self.plausibleDistance else { return }
        let hint: String
        switch recipe.times {
        case .unix: hint = "times look like milliseconds? (time_format: unix_ms)"
        case .unixMilliseconds: hint = "times look like seconds? (time_format: unix)"
        default: hint = "is time_format right?"
        }
        throw SiteProgrammeReader.Failure(reason: "start \(ISOTime.format(programme.start)) of '\(programme.title)' is decades away from the page's day \(day): \(hint)")
    }

    private func programmeDetails(for item: JSONValue, values: SiteTemplate.Values, variables: [String: JQInput]) async throws -> JSONValue {
        var fields: [String: JSONValue] = [:]
        for detail in recipe.details where detail.scope == .programme {
            guard let keyFilter = detail.key else { continue }
            let keys: [JSONValue]
            do {
                keys = try keyFilter.run(.value(item), variables)
            } catch {
                throw ProviderError.malformed("\(recipe.site): details.\(detail.name).key: \(error)")
            }
            guard let key = keys.first.flatMap(SiteProgrammeReader.text), !key.isEmpty else {
                fields[detail.name] = .null
                continue
            }
            var keyed = values
            keyed.key = key
            fields[detail.name] = try await fetchDetail(detail, values: keyed).0
        }
        return .object(fields)
    }

    /// A step's value: its request's answer read and filtered, or its filter alone. The request
    /// is made once per run (the memo), whoever asks.
    private func run(_ step: SiteRecipe.Step, values: SiteTemplate.Values, channelObject: JSONValue, date: String) async throws -> (JSONValue, SentRequest?) {
        let label = step.name == "session" ? "session" : "steps.\(step.name)"
        var variables: [String: JQInput] = ["channel": .value(channelObject), "date": .value(.string(date)), "steps": .value(.object(values.steps))]
        var input = JSONValue.null
        var sent: SentRequest?
        var source = "its variables"
        if let request = step.request {
            let (response, request) = try await fetch(request, values: values)
            sent = request
            source = URLRedaction.redacted(response.url)
            input = try read(response, as: step.reading, values: values, name: label)
            variables["headers"] = .value(.object(response.headers.mapValues(JSONValue.string)))
            variables["cookies"] = .value(.object(await cookies.values(for: response.url).mapValues(JSONValue.string)))
        }
        var value = input
        if let filter = step.value {
            do {
                value = try filter.run(.value(input), variables).first ?? .null
            } catch {
                throw ProviderError.malformed("\(recipe.site): \(label): \(error)")
            }
        }
        // A computed step may give an empty text (the empty branch of a conditional URL part);
        // a request's step giving one has missed its token.
        guard value.isObject || SiteProgrammeReader.text(value).map({ !$0.isEmpty || step.request == nil }) == true else {
            let filter = step.value.map { "the value filter '\($0.source)'" } ?? "the answer"
            throw ProviderError.malformed("\(recipe.site): \(label): \(filter) gave nothing from \(source)")
        }
        return (value, sent)
    }

    private func fetchDetail(_ detail: SiteRecipe.Detail, values: SiteTemplate.Values) async throws -> (JSONValue, SentRequest) {
        do {
            let (response, request) = try await fetch(detail.request, values: values)
            return (try read(response, as: detail.reading, values: values, name: "details.\(detail.name)"), request)
        } catch {
            guard detail.optional else { throw error }
            return (.null, SentRequest(method: detail.request.method, url: try url(detail.request, values: values), headers: [:], body: nil))
        }
    }

    /// A step's or a detail's answer as a value, read as its `format` says.
    private func read(_ response: TransportResponse, as reading: SiteRecipe.Reading, values: SiteTemplate.Values, name: String) throws -> JSONValue {
        switch reading.format {
        case .json:
            guard let value = JSONValue(json: response.body) else {
                throw ProviderError.malformed("\(recipe.site): \(name): \(URLRedaction.redacted(response.url)) is not JSON: it starts \(String(decoding: response.body.prefix(200), as: UTF8.self).debugDescription)")
            }
            return value
        case .text:
            return .string(String(decoding: response.body, as: UTF8.self))
        case .html, .xml:
            do {
                return try SitePage.object(response.body, format: reading.format, contentType: response.headers["content-type"], encoding: recipe.encoding,
                                           fields: reading.fields, variables: xpathVariables(values))
            } catch {
                throw ProviderError.malformed("\(recipe.site): \(name): \(URLRedaction.redacted(response.url)): \(error)")
            }
        }
    }

    // MARK: - Requests

    /// The channel's zone: `channel_timezone`'s answer for it, or the recipe's `timezone`.
    private func zone(of channel: ChannelRef) throws -> TimeZone {
        guard let filter = recipe.channelTimezone else { return recipe.timezone }
        let name: String
        do {
            guard let given = try filter.run(.value(.null), ["channel": .value(channelObject(channel))]).first else { return recipe.timezone }
            guard case .string(let text) = given else {
                if given == .null { return recipe.timezone }
                throw ProviderError.notConfigured("\(frontEnd.kind) \(id): channel_timezone gave \(given.jsonText.prefix(80)) for channel '\(channel.providerID)', not a zone's name")
            }
            name = text
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError.notConfigured("\(frontEnd.kind) \(id): channel_timezone: \(error)")
        }
        guard let zone = TimeZone(identifier: name) else {
            throw ProviderError.notConfigured("\(frontEnd.kind) \(id): channel_timezone gave '\(name)' for channel '\(channel.providerID)', not a known time zone (an IANA id such as America/New_York)")
        }
        return zone
    }

    private func templateValues(channel: ChannelRef, day: Day, zone: TimeZone) throws -> SiteTemplate.Values {
        let attributes = attributes(of: channel)
        let wanted = recipe.request.templates + recipe.steps.flatMap { $0.request?.templates ?? [] } + recipe.details.flatMap(\.request.templates)
        for name in wanted.reduce(into: Set<String>(), { $0.formUnion($1.channelAttributes) }).sorted() where attributes[name] == nil {
            let known = attributes.keys.sorted().joined(separator: ", ")
            let parts = recipe.channelParts.isEmpty ? "" : "; channel_parts names \(recipe.channelParts.joined(separator: ", "))"
            throw ProviderError.notConfigured("\(frontEnd.kind) \(id): {channel.\(name)}: channel '\(channel.providerID)' has no attribute \(name) in its channel list (it has \(known))\(parts)")
        }
        return SiteTemplate.Values(channel: channel.providerID, channelParts: channelParts(channel.providerID), channelAttributes: attributes, day: day,
                                   zone: zone, dayNames: recipe.dayNames, dayWords: recipe.dayWords, today: fixedToday ?? Day(now, in: zone))
    }

    private func channelParts(_ siteID: String) -> [String: String] {
        guard !recipe.channelParts.isEmpty else { return [:] }
        let pieces = siteID.split(separator: "#", omittingEmptySubsequences: false).map(String.init)
        var parts: [String: String] = [:]
        for (name, piece) in zip(recipe.channelParts, pieces) { parts[name] = piece }
        return parts
    }

    /// The channel's attributes as templates and filters see them: its channel list entry's,
    /// with `id` the site id, `xmltv_id` the guide's id, `name` and `lang`.
    private func attributes(of channel: ChannelRef) -> [String: String] {
        var fields = channelAttributes[channel.providerID] ?? [:]
        fields["site_id"] = nil
        fields["site"] = nil
        fields["id"] = channel.providerID
        fields["xmltv_id"] = channel.id
        if let known = channelList.first(where: { $0.id == channel.providerID }) {
            fields["name"] = known.name
            if let language = known.language { fields["lang"] = language }
        }
        return fields
    }

    private func channelObject(_ channel: ChannelRef) -> JSONValue {
        var fields = attributes(of: channel).mapValues(JSONValue.string)
        for (part, value) in channelParts(channel.providerID) { fields[part] = .string(value) }
        return .object(fields)
    }

    /// What XPath sees: `$date`, `$channel` (the site id) and `$channel.NAME` for each part and attribute.
    private func xpathVariables(_ values: SiteTemplate.Values) -> [String: String] {
        var variables = ["date": values.day.description, "channel": values.channel]
        for (name, value) in values.channelAttributes.merging(values.channelParts, uniquingKeysWith: { _, part in part }) {
            variables["channel.\(name)"] = value
        }
        return variables
    }

    private func url(_ request: SiteRequest, values: SiteTemplate.Values) throws -> URL {
        let text = request.url.render(values, escaping: true)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw ProviderError.notConfigured("\(frontEnd.kind) \(id): '\(text)' is not an http(s) URL")
        }
        return url
    }

    /// The request made (once per run, whoever asks), with the cookies the site set before it;
    /// the cookies its answer sets go to the jar.
    private func fetch(_ request: SiteRequest, values: SiteTemplate.Values) async throws -> (TransportResponse, SentRequest) {
        let url = try url(request, values: values)
        var headers: [String: String] = [:]
        for header in request.headers { headers[header.name] = header.value.render(values, escaping: false) }
        if frontEnd.keepsSession, let jar = await cookies.header(for: url) {
            let named = headers.first { $0.key.lowercased() == "cookie" }
            headers[named?.key ?? "Cookie"] = named.map { $0.value + "; " + jar } ?? jar
        }
        let body = request.body.map { $0.render(values, escaping: false) }
        let sent = SentRequest(method: request.method, url: url, headers: headers, body: body)
        let key = "\(request.method) \(url.absoluteString) \(headers.sorted { $0.key < $1.key }) \(body ?? "")"
        let transport = transport
        let requestHeaders = headers
        let cookies = frontEnd.keepsSession ? cookies : nil
        let site = recipe.site
        let load: @Sendable () async throws -> TransportResponse = {
            var response = if request.method == "POST" {
                try await transport.post(url, headers: requestHeaders, body: Data((body ?? "").utf8))
            } else {
                try await transport.get(url, headers: requestHeaders)
            }
            await cookies?.store(response.headers["set-cookie"], from: url)
            // A file served gzip-compressed without a Content-Encoding (`epg.xml.gz`) is read as its content.
            if Gzip.isCompressed(response.body) {
                response.body = try Gzip.decompress(response.body, name: "\(site): \(URLRedaction.redacted(url))")
            }
            return response
        }
        let response = frontEnd.keepsSession ? try await memo.response(for: key, load) : try await load()
        return (response, sent)
    }

    static func describe(_ error: any Error) -> String {
        (error as? ProviderError).map { "\($0)" } ?? "\(error)"
    }
}

extension SiteRecipe {
    var itemsDescription: String {
        switch items {
        case .jq(let filter): "'\(filter.source.trimmingCharacters(in: .whitespacesAndNewlines))'"
        case .page(let spec): "'\(spec.xpath)'"
        }
    }
}

extension ProviderError {
    func prefixed(_ prefix: String) -> ProviderError {
        switch self {
        case .malformed(let detail): .malformed(prefix + detail)
        default: self
        }
    }
}

/// Every distinct request once per provider: concurrent askers share the one in flight.
private actor ResponseMemo {
    private var responses: [String: Task<TransportResponse, any Error>] = [:]

    func response(for key: String, _ fetch: @escaping @Sendable () async throws -> TransportResponse) async throws -> TransportResponse {
        if let known = responses[key] { return try await known.value }
        let task = Task { try await fetch() }
        responses[key] = task
        return try await task.value
    }
}

/// What the provider did, for the run report.
private actor SiteTally {
    private var pages = 0
    private var items = 0
    private var programmes = 0
    private var failures: [String] = []

    func add(pages: Int, items: Int, programmes: Int) {
        self.pages += pages
        self.items += items
        self.programmes += programmes
    }

    func failedDays(_ lines: [String]) {
        failures += lines
    }

    var notes: [String] {
        var notes: [String] = []
        if pages > 0 { notes.append("read \(pages) page(s): \(items) item(s), \(programmes) programme(s)") }
        return notes + SiteFrontEnd.failedDaysNote(failures)
    }
}
