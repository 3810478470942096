import Foundation
import GuideConfig
import GuideCore

/// `tvguide sources test`: each catalogue site's recipe run on its recordings, its programmes
/// compared field by field with those `tests.yaml` expects.
///
/// `tests.yaml` is a list of cases:
/// ```yaml
/// - channel: "3"                      # the site id
///   date: 2022-10-04                  # the page's day
///   responses:                        # request → recorded answer, relative to the folder
///     https://programacion-tv.elpais.com/data/parrilla_04102022.json: recordings/content.json
///   url: https://programacion-tv.elpais.com/data/parrilla_04102022.json   # the first request
///   count: 25                         # how many programmes
///   programmes:                       # expected, in the site's order; only the keys given are compared
///     - { start: 2022-10-03T23:30:00Z, title: Comerse el mundo, season: 1 }
///     - { index: 24, title: Telediario }   # `index` picks a later programme (0-based)
/// ```
package enum SiteTests {
    package struct Result: Sendable {
        package var site: String
        /// Each field checked, in the order first checked, and whether every check of it passed.
        package var fields: [(name: String, passed: Bool)]
        /// What differed, one line each.
        package var failures: [String]
        package var passed: Bool { failures.isEmpty && !fields.isEmpty }

        package var json: JSONValue {
            .object([
                "site": .string(site), "passed": .bool(passed),
                "fields": .object(Dictionary(fields.map { ($0.name, JSONValue.bool($0.passed)) }, uniquingKeysWith: { a, b in a })),
                "failures": .array(failures.map(JSONValue.string)),
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
        var recordings: [String: URL] = [:]
        for entry in testCase["responses"]?.entries ?? [] {
            if let file = entry.value.scalar { recordings[entry.key] = site.folder.appendingPathComponent(file) }
        }
        let listed = channels.first { $0.siteID == siteID }
        let xmltvID = listed?.xmltvID ?? siteID
        let known = listed.map { [Channel(id: siteID, name: $0.name, language: $0.language)] } ?? []
        // `today` (default: the case's date) is the run's day, for `{days_ahead}`.
        let today = testCase["today"]?.scalar.flatMap(Day.init) ?? day
        let provider = SiteGuideProvider(id: site.name, recipe: recipe, channels: known, transport: RecordedResponses(recordings), today: today)
        let result: SiteGuideProvider.DayResult
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
        if let url = testCase["url"]?.scalar {
            let actual = result.urls.first?.absoluteString ?? "nothing"
            tally.check("url", actual == url, "\(label): url: expected \(url), got \(actual)")
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

    /// `expected` as `toMatchObject` means it: scalars equal as text (times as instants), lists
    /// element by element, mappings on the keys they name; `~` means absent.
    static func matches(_ expected: YAMLTree, _ actual: JSONValue?, key: String) -> Bool {
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
            case .array(let items) where items.count == 1: return matches(expected, items[0], key: key)
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

        mutating func check(_ field: String, _ ok: Bool, _ message: @autoclosure () -> String) {
            if passedByField[field] == nil { order.append(field) }
            passedByField[field] = (passedByField[field] ?? true) && ok
            if !ok { failures.append(message()) }
        }

        mutating func fail(_ field: String, _ message: String) {
            check(field, false, message)
        }

        var result: Result {
            Result(site: site, fields: order.map { ($0, passedByField[$0] ?? false) }, failures: failures)
        }
    }
}

/// Answers from files, by request: `URL` or `POST URL` → file. A request with no recording is
/// `notFound`, naming it, so a test says which answer to record.
struct RecordedResponses: HTTPTransport {
    var files: [String: URL]

    init(_ files: [String: URL]) {
        self.files = files
    }

    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        try answer(url, key: url.absoluteString)
    }

    func post(_ url: URL, headers: [String: String], body: Data) async throws -> TransportResponse {
        try answer(url, key: "POST \(url.absoluteString)")
    }

    private func answer(_ url: URL, key: String) throws -> TransportResponse {
        guard let file = files[key] ?? files[url.absoluteString] else {
            throw ProviderError.notFound("no recording for \(key) (add it under responses in tests.yaml)")
        }
        let body = try Data(contentsOf: file)
        let type: String = switch file.pathExtension.lowercased() {
        case "json": "application/json"
        case "html", "htm": "text/html"
        case "xml": "application/xml"
        default: "application/octet-stream"
        }
        return TransportResponse(status: 200, headers: ["content-type": type], body: body, url: url, origin: .replay)
    }
}
