import Foundation
import GuideCore
import GuideServer
import OpenAPIKit
import Testing

/// The request side, property-tested: for every operation of `/openapi.yaml`, requests made up
/// from its parameters' schemas (values in range, at and past the bounds, of the wrong type, junk,
/// missing, repeated, unknown) get an answer the document describes — no 5xx, a documented status
/// and content type, a body that conforms. Seeded, so a failure names a request that fails again;
/// `fuzz/router` runs the same idea unbounded under libFuzzer.
@Suite struct RequestFuzzTests {
    /// Enough to reach every status of every operation in a few seconds; `fuzz/router` runs the
    /// same idea for as long as it is given.
    static let casesPerOperation = 12

    @Test func madeUpRequestsGetDocumentedAnswers() async throws {
        try await ServerHarness.run(settings: ServerSettings(port: 0, lineups: ["main": ["La1.es", "Antena3.es"]])) { client in
            let contract = try OpenAPIContract(yaml: try await client.get("/openapi.yaml").text)
            var generator = RequestGenerator(seed: 0x7476_6775_6964_6531)
            var statuses: [Int: Int] = [:]
            var failures: [String] = []
            for (route, path, operation) in contract.operations.sorted(by: { $0.route < $1.route }) {
                for _ in 0..<Self.casesPerOperation {
                    let request = generator.request(path: path, operation: operation)
                    let response = try await client.get(request)
                    statuses[response.status, default: 0] += 1
                    let problems = OpenAPIContract.violations(of: response, to: operation)
                    if !problems.isEmpty { failures.append("\(route): GET \(request): \(problems.joined(separator: "; "))") }
                }
            }
            #expect(failures == [])
            // The generator reaches both sides: answers and refusals.
            #expect(statuses[200, default: 0] > 60 && statuses[400, default: 0] > 30 && statuses[404, default: 0] > 10, "\(statuses.sorted { $0.key < $1.key })")
        }
    }
}

/// Requests made up from an operation's parameters, deterministic for a seed.
struct RequestGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64: small, fast and the same on every platform.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    static let channels = ["La1.es", "La2.es", "Antena3.es", "BeMad.es", "Cuatro.es", "Nope.es", "la1.es", ""]
    static let programmes = ["BeMad.es@20261021T200000Z", "La1.es@20261021T190000Z", "La1.es%4020261021T190000Z",
                             "La1.es@20261021T190001Z", "La1.es@", "@20261021T190000Z", "La1.es@2026-10-21T19:00:00Z", "Nope.es@20261021T190000Z"]
    /// Texts no schema asks for: empty, spaces, other scripts, escapes, control characters, huge.
    static let junk = ["", " ", "0", "-1", "1.5", "1e3", "NaN", "true", "null", "ñandú", "日本語", "🙂", "%00", "\u{1}", "a&b=c",
                       "../../etc/passwd", "<script>", "'\"", "\\", String(repeating: "x", count: 300), "99999999999999999999",
                       "2026-02-30", "1582-10-10", "+02:00", "T", ",", ",,,", "%", "%ZZ", "%C3%28"]
    /// The junk a path segment can carry through the test's HTTP client: it sends a path whose
    /// percent-escapes are not UTF-8 (`%C3%28`, `%ZZ`) as `/`, so such a request would test the
    /// web guide's front page instead. HardeningTests sends those over raw sockets.
    static let pathJunk = junk.filter { !$0.contains("%") || $0.removingPercentEncoding != nil }

    mutating func request(path template: String, operation: DereferencedOperation) -> String {
        var path = template
        var query: [(String, String)] = []
        for parameter in operation.parameters {
            guard case .a(let context) = parameter.schemaOrContent else { continue }
            if parameter.location == .path {
                let value: String
                switch parameter.name {
                case "id" where template.hasPrefix("/programme"): value = chance(80) ? pick(Self.programmes) : pick(Self.pathJunk)
                case "id": value = chance(80) ? pick(Self.channels) : pick(Self.pathJunk)
                default: value = self.value(for: context.schema)
                }
                path = path.replacingOccurrences(of: "{\(parameter.name)}", with: Self.encoded(value, segment: true))
            } else if parameter.required ? chance(90) : chance(45) {
                query.append((parameter.name, value(for: context.schema, name: parameter.name)))
            }
        }
        if chance(5) { query.append(("unknown", pick(Self.junk))) }
        if chance(5), let repeated = query.first { query.append(repeated) }
        guard !query.isEmpty else { return path }
        return path + "?" + query.map { "\(Self.encoded($0.0, segment: false))=\(Self.encoded($0.1, segment: false))" }.joined(separator: "&")
    }

    /// A value for `schema`: mostly one it allows, sometimes one at or just past a bound, and
    /// sometimes junk.
    mutating func value(for schema: DereferencedJSONSchema, name: String = "") -> String {
        if chance(12) { return pick(Self.junk) }
        if let allowed = schema.allowedValues, !allowed.isEmpty, chance(90) { return "\(pick(allowed).value)" }
        switch schema {
        case .integer(_, let context):
            let low = context.minimum?.value ?? -5, high = context.maximum?.value ?? 5_000
            switch below(6) {
            case 0: return String(low - 1)
            case 1: return String(high + (high < Int.max ? 1 : 0))
            case 2: return String(low)
            case 3: return String(high)
            default: return String(low + below(min(high - low, 400) + 1))
            }
        case .string(let core, let context):
            if core.formatString == "date" { return day() }
            if context.pattern != nil { return time() }
            if name == "q" || name == "title" { return pick(["matrix", "a", "Noticias", "el", "ÑANDÚ", "cine", "zzzz"]) }
            if name == "genre" { return pick(["drama", "Ciencia ficcion", "Comedia", "news", "deporte"]) }
            if name == "lineup" { return pick(["main", "main", "other"]) }
            return pick(["national", "regional", "main", "x"])
        case .array:
            let pool = name == "programme" ? Self.programmes : Self.channels
            return (0...below(3)).map { _ in pick(pool) }.joined(separator: ",")
        default:
            return pick(Self.junk)
        }
    }

    /// Days around the golden snapshot's window, and a few far from it.
    mutating func day() -> String {
        chance(85) ? String(format: "2026-10-%02ld", 14 + below(20)) : pick(["1900-01-01", "2199-12-31", "2025-10-20", "2026-02-29", "2024-02-29"])
    }

    mutating func time() -> String {
        let base = day()
        switch below(5) {
        case 0: return base
        case 1: return base + String(format: "T%02ld:%02ld:00", below(25), below(60))
        case 2: return base + String(format: "T%02ld:30:00Z", below(24))
        case 3: return base + String(format: "T%02ld:00:00.5+%02ld:00", below(24), below(15))
        default: return base + " 21:00:00-02:00"
        }
    }

    /// Percent-encoded; a text that is only escapes goes as written, so that escapes of a NUL or
    /// of bytes that are not UTF-8 reach the server.
    static func encoded(_ text: String, segment: Bool) -> String {
        if !text.isEmpty, text.range(of: "^(%[0-9A-F]{2})+$", options: .regularExpression) != nil { return text }
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~@:")
        if !segment { allowed.insert(charactersIn: ",/") }
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
