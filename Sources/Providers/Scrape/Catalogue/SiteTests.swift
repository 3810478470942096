import Foundation
import GuideConfig
import GuideCore

/// `tvguide sources test`: each catalogue site's recipe run on its recordings, its programmes
/// compared field by field with those `tests.yaml` expects.
///
/// `tests.yaml` is a list of cases:
/// ```yaml
/// - channel: "3"                      # the site id (`lang:` picks its entry when lists share it)
///   date: 2022-10-04                  # the page's day
///   responses:                        # request → recorded answer, relative to the folder
///     https://programacion-tv.elpais.com/data/parrilla_04102022.json: recordings/content.json
///   url: https://programacion-tv.elpais.com/data/parrilla_04102022.json   # the first request
///   count: 25                         # how many programmes
///   programmes:                       # expected, in the site's order; only the keys given are compared
///     - { start: 2022-10-03T23:30:00Z, title: Comerse el mundo, season: 1 }
///     - { index: 24, title: Telediario }   # `index` picks a later programme (0-based)
/// ```
/// `responses` may also be a list of `{url, method, body, headers, file, answer_headers}`: a
/// request matches an entry when its method and URL do and, when the entry gives them, its body
/// and each of those headers; `answer_headers` (a `set-cookie`) come back with the file. A
/// request without a recording fails the case unless it says `missing: allowed`; `request:
/// {method, url, body, headers}` checks the first request as it was sent.
package enum SiteTests {
    package struct Result: Sendable {
        package var site: String
        /// Each field checked, in the order first checked, and whether every check of it passed.
        package var fields: [(name: String, passed: Bool)]
        /// What differed, one line each.
        package var failures: [String]
        /// The programme keys beside `start` and `title` that the recipe produced on its recordings, sorted.
        package var gives: [String]
        package var passed: Bool { failures.isEmpty && !fields.isEmpty }

        package var json: JSONValue {
            .object([
                "site": .string(site), "passed": .bool(passed),
                "fields": .object(Dictionary(fields.map { ($0.name, JSONValue.bool($0.passed)) }, uniquingKeysWith: { a, b in a })),
                "failures": .array(failures.map(JSONValue.string)),
                "gives": .array(gives.map(JSONValue.string)),
            ])
        }
    }

    package static func run(_ site: SiteCatalogue.Site) async -> Result {
        var tally = Tally(site: site.name)
        do {
            let recipe = try site.recipe()
            guard let tree = try YAMLTree.load(site.testsFile), let cases = tree.items, !cases.isEmpty else {
                tally.fail("tests", "\(site.testsFile.lastPathComponent) has no cases")
                return tally.result
            }
            let channels = (try? site.channels()) ?? []
            for (number, testCase) in cases.enumerated() {
                await run(testCase, number: number + 1, recipe: recipe, channels: channels, site: site, tally: &tally)
            }
        } catch {
            tally.fail("recipe", "\(error)")
        }
        return tally.result
    }

    private static func run(_ testCase: YAMLTree, number: Int, recipe: SiteRecipe, channels: [SiteChannel], site: SiteCatalogue.Site, tally: inout Tally) async {
        let label = testCase["name"]?.scalar.map { "case \(number) (\($0))" } ?? "case \(number)"
        guard let siteID = testCase["channel"]?.scalar, let dateText = testCase["date"]?.scalar, let day = Day(dateText) else {
            tally.fail("tests", "\(label): needs channel and date (YYYY-MM-DD)")
            return
        }
        let recordings: RecordedResponses
        do {
            recordings = try RecordedResponses(testCase["responses"], folder: site.folder)
        } catch {
            tally.fail("tests", "\(label): \(error)")
            return
        }
        let language = testCase["lang"]?.scalar
        // A case may name a channel the lists lack; its `lang` is then the channel's only attribute.
        let listed = channels.first { $0.siteID == siteID && (language == nil || $0.language == language) }
            ?? language.map { SiteChannel(siteID: siteID, xmltvID: nil, name: siteID, language: $0, attributes: ["lang": $0]) }
        let xmltvID = listed?.xmltvID ?? siteID
        let known = listed.map { [Channel(id: siteID, name: $0.name, language: $0.language)] } ?? []
        // `today` (default: the case's date) is the run's day, for `{days_ahead}`.
        let today = testCase["today"]?.scalar.flatMap(Day.init) ?? day
        let provider = SiteGuideProvider(id: site.name, recipe: recipe, channels: known, channelAttributes: listed.map { [siteID: $0.attributes] } ?? [:],
                                         transport: recordings, today: today)
        let result: SiteGuideProvider.DayResult
        defer {
            if testCase["missing"]?.scalar != "allowed" {
                for request in recordings.missed {
                    tally.fail("recordings", "\(label): no recording for \(request) (record it under responses, or say missing: allowed when the case means it to fail)")
                }
            }
        }
        do {
            result = try await provider.read(channel: ChannelRef(id: xmltvID, providerID: siteID), day: day)
        } catch {
            if let expected = testCase["error"]?.scalar {
                tally.check("error", "\(error)".contains(expected), "\(label): expected an error containing '\(expected)', got: \(error)")
            } else {
                tally.fail("recipe", "\(label): \(error)")
            }
            return
        }
        if let expected = testCase["error"]?.scalar {
            tally.fail("error", "\(label): expected an error containing '\(expected)', got \(result.programmes.count) programme(s)")
        }
        for programme in result.programmes {
            if case .object(let fields) = programme.recipeObject { tally.gives.formUnion(fields.keys) }
        }
        if let url = testCase["url"]?.scalar {
            let actual = result.urls.first?.absoluteString ?? "nothing"
            tally.check("url", actual == SiteTemplate.urlSafe(url), "\(label): url: expected \(url), got \(actual)")
        }
        if let expected = testCase["request"] {
            checkRequest(expected, result.requests.first, label: label, tally: &tally)
        }
        if let count = testCase["count"]?.scalar {
            tally.check("count", String(result.programmes.count) == count, "\(label): count: expected \(count), got \(result.programmes.count)")
        }
        for (position, expected) in (testCase["programmes"]?.items ?? []).enumerated() {
            let index = expected["index"]?.scalar.flatMap(Int.init) ?? position
            guard index < result.programmes.count else {
                tally.fail("count", "\(label): programme \(index + 1) expected, only \(result.programmes.count) read")
                continue
            }
            let actual = result.programmes[index].recipeObject
            for entry in expected.entries ?? [] where entry.key != "index" {
                let value = actual[entry.key]
                tally.check(entry.key, matches(entry.value, value, key: entry.key),
                            "\(label): programme \(index + 1) \(entry.key): expected \(describe(entry.value)), got \(value?.jsonText ?? "nothing")")
            }
        }
    }

    /// The first request's method, URL, body and the headers named, as sent.
    private static func checkRequest(_ expected: YAMLTree, _ sent: SiteGuideProvider.SentRequest?, label: String, tally: inout Tally) {
        guard let sent else {
            tally.fail("request", "\(label): request: no request was made")
            return
        }
        if let method = expected["method"]?.scalar {
            tally.check("request", method.uppercased() == sent.method, "\(label): request.method: expected \(method), got \(sent.method)")
        }
        if let url = expected["url"]?.scalar {
            tally.check("request", SiteTemplate.urlSafe(url) == sent.url.absoluteString, "\(label): request.url: expected \(url), got \(sent.url.absoluteString)")
        }
        if let body = expected["body"]?.scalar {
            tally.check("request", body == sent.body, "\(label): request.body: expected \(body), got \(sent.body ?? "none")")
        }
        for header in expected["headers"]?.entries ?? [] {
            let actual = sent.headers.first { $0.key.lowercased() == header.key.lowercased() }?.value
            tally.check("request", actual == header.value.scalar,
                        "\(label): request.headers.\(header.key): expected \(header.value.scalar ?? "nothing"), got \(actual ?? "nothing")")
        }
    }

    /// `expected` as `toMatchObject` means it: scalars equal as text (times as instants), lists
    /// element by element, mappings on the keys they name; `~` means absent. For every key, a
    /// scalar or a mapping also matches a list holding just that one value, as iptv-org's
    /// parsers give one rating or one category either way.
    static func matches(_ expected: YAMLTree, _ actual: JSONValue?, key: String) -> Bool {
        if case .array(let items)? = actual, items.count == 1, !expected.isSequence, !expected.isNull {
            return matches(expected, items[0], key: key)
        }
        switch expected.value {
        case .null:
            return actual == nil || actual == .null
        case .scalar(let text):
            guard let actual else { return false }
            if key == "start" || key == "stop", let want = ISOTime.parse(text), case .string(let got)? = Optional(actual), let have = ISOTime.parse(got) {
                return want == have
            }
            switch actual {
            case .string(let got): return got == text
            case .number, .bool: return actual.jsonText == text
            default: return false
            }
        case .sequence(let items):
            guard case .array(let values)? = actual, values.count == items.count else { return false }
            return zip(items, values).allSatisfy { matches($0, $1, key: key) }
        case .mapping(let entries):
            guard case .object? = actual else { return false }
            return entries.allSatisfy { matches($0.value, actual?[$0.key], key: $0.key) }
        }
    }

    static func describe(_ tree: YAMLTree) -> String {
        switch tree.value {
        case .null: "nothing"
        case .scalar(let text): "'\(text)'"
        case .sequence(let items): "[" + items.map(describe).joined(separator: ", ") + "]"
        case .mapping(let entries): "{" + entries.map { "\($0.key): \(describe($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    private struct Tally {
        var site: String
        var order: [String] = []
        var passedByField: [String: Bool] = [:]
        var failures: [String] = []
        var gives: Set<String> = []

        mutating func check(_ field: String, _ ok: Bool, _ message: @autoclosure () -> String) {
            if passedByField[field] == nil { order.append(field) }
            passedByField[field] = (passedByField[field] ?? true) && ok
            if !ok { failures.append(message()) }
        }

        mutating func fail(_ field: String, _ message: String) {
            check(field, false, message)
        }

        var result: Result {
            Result(site: site, fields: order.map { ($0, passedByField[$0] ?? false) }, failures: failures,
                   gives: gives.subtracting(["start", "title"]).sorted())
        }
    }
}

/// Answers from files, by request (`tests.yaml`'s `responses`). A request with no recording is
/// `notFound`, naming it, so a test says which answer to record, and is kept in `missed`.
final class RecordedResponses: HTTPTransport, @unchecked Sendable {
    struct Recording {
        /// nil: any method (a `URL: file` entry).
        var method: String?
        var url: String
        var body: String?
        var headers: [String: String]
        var file: URL
        var answerHeaders: [String: String]

        /// How many of the request's parts the recording names: the most specific match wins.
        var specificity: Int { (method == nil ? 0 : 1) + (body == nil ? 0 : 1) + headers.count }
    }

    private let recordings: [Recording]
    private let lock = NSLock()
    private var misses: [String] = []

    /// Requests that found no recording, in order.
    var missed: [String] { lock.withLock { misses } }

    init(_ recordings: [Recording]) {
        self.recordings = recordings
    }

    /// `URL: file` and `POST URL: file` entries, or a list of `{url, method, body, headers, file, answer_headers}`.
    convenience init(_ tree: YAMLTree?, folder: URL) throws(ConfigError) {
        var recordings: [Recording] = []
        for entry in tree?.entries ?? [] {
            guard let file = entry.value.scalar else { throw .invalidValue("responses.\(entry.key): expected a file under the site's folder", entry.value.location) }
            let isPost = entry.key.hasPrefix("POST ")
            recordings.append(Recording(method: isPost ? "POST" : nil, url: SiteTemplate.urlSafe(isPost ? String(entry.key.dropFirst(5)) : entry.key),
                                        body: nil, headers: [:], file: folder.appendingPathComponent(file), answerHeaders: [:]))
        }
        for item in tree?.items ?? [] {
            guard let url = item["url"]?.scalar, let file = item["file"]?.scalar else {
                throw .invalidValue("responses: each entry needs url and file (and may give method, body, headers, answer_headers)", item.location)
            }
            func headers(_ key: String) -> [String: String] {
                Dictionary((item[key]?.entries ?? []).map { entry in
                    (entry.key.lowercased(), entry.value.scalar ?? (entry.value.items ?? []).compactMap(\.scalar).joined(separator: "\n"))
                }, uniquingKeysWith: { _, last in last })
            }
            recordings.append(Recording(method: (item["method"]?.scalar ?? "GET").uppercased(), url: SiteTemplate.urlSafe(url), body: item["body"]?.scalar,
                                        headers: headers("headers"), file: folder.appendingPathComponent(file), answerHeaders: headers("answer_headers")))
        }
        self.init(recordings)
    }

    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        try answer("GET", url, headers: headers, body: nil)
    }

    func post(_ url: URL, headers: [String: String], body: Data) async throws -> TransportResponse {
        try answer("POST", url, headers: headers, body: String(decoding: body, as: UTF8.self))
    }

    private func answer(_ method: String, _ url: URL, headers: [String: String], body: String?) throws -> TransportResponse {
        let sent = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        let matching = recordings.filter { recording in
            (recording.method ?? method) == method && recording.url == url.absoluteString && (recording.body == nil || recording.body == body)
                && recording.headers.allSatisfy { sent[$0.key] == $0.value }
        }
        guard let recording = matching.max(by: { $0.specificity < $1.specificity }) else {
            let request = method == "GET" ? url.absoluteString : "\(method) \(url.absoluteString)" + (body.map { " with body \($0.prefix(200))" } ?? "")
            lock.withLock { misses.append(request) }
            throw ProviderError.notFound("no recording for \(request) (add it under responses in tests.yaml)")
        }
        guard let body = FileManager.default.contents(atPath: recording.file.path) else {
            throw ProviderError.notFound("the recording \(recording.file.deletingLastPathComponent().lastPathComponent)/\(recording.file.lastPathComponent) for \(url.absoluteString) cannot be read: save the site's answer there")
        }
        let type: String = switch recording.file.pathExtension.lowercased() {
        case "json": "application/json"
        case "html", "htm": "text/html"
        case "xml": "application/xml"
        default: "application/octet-stream"
        }
        return TransportResponse(status: 200, headers: ["content-type": type].merging(recording.answerHeaders, uniquingKeysWith: { _, given in given }),
                                 body: body, url: url, origin: .replay)
    }
}
