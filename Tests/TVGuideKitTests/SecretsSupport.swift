import Foundation
import TestSupport

/// The secrets of one run, fresh and random each time so that no fixture or earlier run can hold
/// them by chance: the four keys of docs/metadata.md, TheTVDB's bearer token (issued by the fake
/// login, never in the environment), and two values a user put into provider URLs with `${VAR}`,
/// one in a path and one in a query item whose name does not say "key".
struct RunSecrets: Sendable {
    var tmdbKey: String
    var tmdbToken: String
    var tvdbKey: String
    var tvdbPin: String
    var tvdbBearer: String
    var pathSecret: String
    var querySecret: String

    /// - Parameter pin: a PIN to use instead of a long random one (short PINs are real).
    static func random(pin: String? = nil) -> RunSecrets {
        RunSecrets(
            tmdbKey: randomText(32, from: "0123456789abcdef"),
            // A v4 token is a JWT: base64url parts joined by dots.
            tmdbToken: "eyJ" + randomText(40, from: base64URL) + "." + randomText(90, from: base64URL) + "." + randomText(43, from: base64URL),
            tvdbKey: [8, 4, 4, 4, 12].map { randomText($0, from: "0123456789abcdef") }.joined(separator: "-"),
            tvdbPin: pin ?? randomText(12, from: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"),
            tvdbBearer: "eyJ" + randomText(36, from: base64URL) + "." + randomText(120, from: base64URL) + "." + randomText(86, from: base64URL),
            // `|` is not allowed in a URL: Foundation writes it `%7C`, the form a leak would take.
            pathSecret: randomText(10, from: alphanumerics) + "|" + randomText(14, from: alphanumerics),
            // `/`, `+` and `=` stay raw in a query but are escaped in JSON (`\/`) and by encoders.
            querySecret: randomText(12, from: alphanumerics) + "/+" + randomText(12, from: alphanumerics) + "=")
    }

    /// What `providers.yaml` refers to, for the child's environment.
    var environment: [String: String] {
        [
            "TMDB_API_KEY": tmdbKey, "TMDB_ACCESS_TOKEN": tmdbToken, "THETVDB_API_KEY": tvdbKey, "THETVDB_PIN": tvdbPin,
            "TVGUIDE_TEST_GUIDE_SECRET": pathSecret, "TVGUIDE_TEST_AUDIENCE_SECRET": querySecret,
        ]
    }

    var all: [(name: String, value: String)] {
        [
            ("TMDB_API_KEY", tmdbKey), ("TMDB_ACCESS_TOKEN", tmdbToken), ("THETVDB_API_KEY", tvdbKey), ("THETVDB_PIN", tvdbPin),
            ("TheTVDB bearer token", tvdbBearer), ("guide URL path secret", pathSecret), ("audience URL query secret", querySecret),
        ]
    }

    private static let base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    private static let alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

    private static func randomText(_ count: Int, from alphabet: String) -> String {
        let characters = Array(alphabet)
        return String((0..<count).map { _ in characters.randomElement() ?? "x" })
    }
}

/// Looks for secrets in bytes, in every form a leak takes: as is, percent-encoded (upper- and
/// lower-case hex), JSON-escaped, base64 and base64url. Written apart from the redaction code it
/// checks, so that a shared mistake cannot hide a leak.
struct SecretScanner: Sendable {
    /// Below this length a value is looked for only as a whole word: a 4-digit PIN is also a
    /// year or a byte count, and only standing alone can it be told from those.
    static let wholeWordBelow = 8

    struct Hit: Sendable, CustomStringConvertible {
        var secret: String
        var form: String
        var count: Int
        var description: String { "\(secret) as \(form) ×\(count)" }
    }

    private let patterns: [(secret: String, form: String, bytes: Data, wholeWord: Bool)]

    init(_ runs: RunSecrets...) {
        var patterns: [(String, String, Data, Bool)] = []
        for (name, value) in runs.flatMap(\.all) where !patterns.contains(where: { $0.2 == Data(value.utf8) }) {
            guard value.count >= Self.wholeWordBelow else {
                patterns.append((name, "whole word", Data(value.utf8), true))
                continue
            }
            var seen: Set<String> = []
            for (form, text) in Self.forms(of: value) where seen.insert(text).inserted {
                patterns.append((name, form, Data(text.utf8), false))
            }
        }
        self.patterns = patterns
    }

    static func forms(of value: String) -> [(form: String, text: String)] {
        let upper = percentEncoded(value, lowercaseHex: false)
        let base64 = Data(value.utf8).base64EncodedString()
        let unpadded = String(base64.prefix { $0 != "=" })
        return [
            ("raw", value), ("percent-encoded", upper), ("percent-encoded (lower-case)", percentEncoded(value, lowercaseHex: true)),
            ("JSON-escaped", value.replacingOccurrences(of: "/", with: "\\/")),
            ("base64", unpadded),
            ("base64url", unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")),
        ]
    }

    /// Every byte but RFC 3986's unreserved ones as `%XX`.
    private static func percentEncoded(_ value: String, lowercaseHex: Bool) -> String {
        value.utf8.map { byte in
            let scalar = Unicode.Scalar(byte)
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~".unicodeScalars.contains(scalar) {
                return String(scalar)
            }
            return "%" + String(format: lowercaseHex ? "%02x" : "%02X", byte)
        }.joined()
    }

    func hits(in data: Data) -> [Hit] {
        patterns.compactMap { pattern in
            let count = pattern.wholeWord ? Self.wholeWordCount(of: pattern.bytes, in: data) : Self.count(of: pattern.bytes, in: data)
            return count > 0 ? Hit(secret: pattern.secret, form: pattern.form, count: count) : nil
        }
    }

    func hits(in text: String) -> [Hit] { hits(in: Data(text.utf8)) }

    private static func count(of needle: Data, in haystack: Data) -> Int {
        occurrences(of: needle, in: haystack).count
    }

    private static func wholeWordCount(of needle: Data, in haystack: Data) -> Int {
        func isWordByte(_ index: Int) -> Bool {
            guard index >= haystack.startIndex, index < haystack.endIndex else { return false }
            let byte = haystack[index]
            return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }
        return occurrences(of: needle, in: haystack).filter { !isWordByte($0.lowerBound - 1) && !isWordByte($0.upperBound) }.count
    }

    private static func occurrences(of needle: Data, in haystack: Data) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var start = haystack.startIndex
        while let range = haystack.range(of: needle, in: start..<haystack.endIndex) {
            found.append(range)
            start = range.upperBound
        }
        return found
    }
}

/// Every output of the runs, by name, and what the scanner found in each.
final class OutputLedger: @unchecked Sendable {
    // Guarded by `lock`: outputs are added from the test's tasks.
    private let lock = NSLock()
    private var outputs: [(name: String, data: Data)] = []

    func add(_ name: String, _ data: Data) {
        lock.withLock { outputs.append((name, data)) }
    }

    func add(_ name: String, _ text: String) { add(name, Data(text.utf8)) }

    func add(_ name: String, _ result: ProcessResult) {
        add("\(name) stdout", result.stdout)
        add("\(name) stderr", result.stderr)
    }

    /// Every regular file under `directory`, hidden ones and leftovers of atomic writes included.
    /// Entries of the HTTP cache are one output per folder: there are dozens and they are alike.
    func addFiles(under directory: URL, as prefix: String) throws {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return }
        var grouped: [String: (files: Int, data: Data)] = [:]
        for case let file as URL in walker where (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            let relative = String(file.standardizedFileURL.path.dropFirst(directory.standardizedFileURL.path.count + 1))
            let data = try Data(contentsOf: file)
            if file.pathExtension == "entry" || file.lastPathComponent.hasSuffix(".tmp") {
                let folder = (relative as NSString).deletingLastPathComponent
                grouped[folder, default: (0, Data())].files += 1
                grouped[folder]?.data.append(data)
            } else {
                add("\(prefix)/\(relative)", data)
            }
        }
        for (folder, group) in grouped.sorted(by: { $0.key < $1.key }) {
            add("\(prefix)/\(folder)/*.entry (\(group.files) files)", group.data)
        }
    }

    var all: [(name: String, data: Data)] { lock.withLock { outputs } }

    /// `output	bytes	key_hits` rows into `$RELIABILITY_OUT/secrets.tsv`, when that is set
    /// (appended after an existing header, else a new file with one).
    func writeReport(scanner: SecretScanner) throws {
        guard let directory = ProcessInfo.processInfo.environment["RELIABILITY_OUT"], !directory.isEmpty else { return }
        let file = URL(fileURLWithPath: directory).appendingPathComponent("secrets.tsv")
        let header = "output\tbytes\tkey_hits\n"
        let existing = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        var text = existing.hasPrefix(header) ? existing : header
        for output in all {
            let hits = scanner.hits(in: output.data).reduce(0) { $0 + $1.count }
            text += "\(output.name.replacingOccurrences(of: "\t", with: " "))\t\(output.data.count)\t\(hits)\n"
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
    }
}

/// The fake TMDB (v3 key in the query, v4 token in a header), TheTVDB (login, then its bearer
/// token), guide and audience sites on one loopback server, each checking the credential it
/// expects. Healthy, they answer from the recordings in Fixtures/; failing, they fail the ways
/// that tend to echo a request back: error bodies quoting the URL and headers, a redirect to a
/// URL carrying the key, an envelope whose message quotes the token, a malformed body, a timeout.
enum FakeAPIs {
    /// How long TheTVDB's failing answers stall: past `stallTimeout`, which ends them.
    static let stall: Duration = .seconds(60)
    /// TheTVDB's timeout in the failing runs: its stalled answers end in it, while its others
    /// come well within it, however busy the machine.
    static let stallTimeout = "10s"
    /// The timeout of the providers whose answers never stall.
    static let answerTimeout = "60s"

    /// - Parameter thirdParty: another origin, where the failing TMDB v4 API redirects.
    static func handler(_ secrets: RunSecrets, guide: Data, failing: Bool, thirdParty: URL? = nil) -> LoopbackHandler {
        let tmdb = LoopbackServer.serving(directory: Fixtures.url("tmdb"), mountPath: "/tmdb/3/")
        let tmdbV4 = LoopbackServer.serving(directory: Fixtures.url("tmdb"), mountPath: "/tmdb4/3/")
        let tvdb = LoopbackServer.serving(directory: Fixtures.url("thetvdb"), mountPath: "/thetvdb/v4/")
        let audiences = LoopbackServer.serving(directory: Fixtures.url("formulatv"))
        return { request in
            let path = request.path.removingPercentEncoding ?? request.path
            let query = request.query ?? ""
            let echo = "refused: \(request.method) \(request.path)?\(query) headers \(request.headers) body \(String(decoding: request.body, as: UTF8.self))"
            if path.hasPrefix("/guide/") {
                guard path == "/guide/\(secrets.pathSecret)/guide.xml" else { return .status(404) }
                return failing ? .text(echo, status: 500) : LoopbackResponse(headers: ["content-type": "application/xml"], body: guide)
            }
            if path.hasPrefix("/audiencias/") {
                guard query == "u=\(secrets.querySecret)" else { return .status(403) }
                guard failing else {
                    var plain = request
                    plain.query = nil
                    return await audiences(plain)
                }
                // Day by day a different failure: the path ends in `dd-MM-yyyy/`.
                switch Int(path.split(separator: "/").last?.prefix(2) ?? "") ?? 0 {
                case let day where day % 4 == 0: return .text(echo, status: 404)
                case let day where day % 4 == 1: return .text(echo, status: 401)
                case let day where day % 4 == 2:
                    return .status(302, headers: ["location": "/moved/\(secrets.querySecret)/?u=\(secrets.querySecret)"])
                default: return .text("<html><body><p>\(echo)</p></body></html>", contentType: "text/html")
                }
            }
            if path.hasPrefix("/moved/") { return .text(echo, status: 500) }
            if path.hasPrefix("/tmdb/3/") {
                guard query.contains("api_key=\(secrets.tmdbKey)") else { return .text(echo, status: 401) }
                guard failing else { return await tmdb(request) }
                if path.hasSuffix("/configuration") { return await tmdb(request) }
                if path.hasPrefix("/tmdb/3/search/movie") {
                    return query.contains("fauno") ? await tmdb(request) : .text(echo, status: 500)
                }
                if path.hasPrefix("/tmdb/3/search/tv") {
                    return .status(302, headers: ["location": "/tmdb/3/elsewhere/\(secrets.tmdbKey)?api_key=\(secrets.tmdbKey)"])
                }
                if path.hasPrefix("/tmdb/3/elsewhere/") { return .text(echo, status: 404) }
                return .text("<html><body>\(echo)</body></html>", contentType: "text/html")
            }
            if path.hasPrefix("/tmdb4/3/") {
                guard request.headers["authorization"] == "Bearer \(secrets.tmdbToken)" else { return .text(echo, status: 401) }
                guard failing else { return await tmdbV4(request) }
                if path.hasSuffix("/configuration"), let thirdParty {
                    // Another origin: the client must not take the token along.
                    return .status(307, headers: ["location": "\(thirdParty.absoluteString)thirdparty/configuration"])
                }
                return .text(echo, status: 401)
            }
            if path == "/thetvdb/v4/login" {
                let login = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
                guard request.method == "POST", login?["apikey"] as? String == secrets.tvdbKey, login?["pin"] as? String == secrets.tvdbPin else {
                    return .text(echo, status: 401)
                }
                return .json(#"{"status":"success","data":{"token":"\#(secrets.tvdbBearer)"}}"#)
            }
            if path.hasPrefix("/thetvdb/v4/") {
                guard request.headers["authorization"] == "Bearer \(secrets.tvdbBearer)" else { return .text(echo, status: 401) }
                guard failing else { return await tvdb(request) }
                if path == "/thetvdb/v4/search" && (query.contains("Vis") || query.contains("Paco")) {
                    let message = "token \(secrets.tvdbBearer) of key \(secrets.tvdbKey) (pin \(secrets.tvdbPin)) refused at \(request.path)?\(query)"
                    let envelope = try? JSONSerialization.data(withJSONObject: ["status": "failure", "message": message])
                    return LoopbackResponse(headers: ["content-type": "application/json"], body: envelope ?? Data())
                }
                if path == "/thetvdb/v4/search" { return await tvdb(request) }
                return .text(echo).delayed(by: stall)
            }
            return .text(echo, status: 404)
        }
    }

    /// The other origin: TMDB's recorded configuration for whoever asks.
    static let thirdParty: LoopbackHandler = { request in
        request.path == "/thirdparty/configuration" ? .file(Fixtures.url("tmdb/configuration")) : .status(404)
    }

    /// The recorded guide cut down to one channel: its films and series still need looking up,
    /// but a run takes a fraction of the whole guide's time.
    static func channelGuide(_ channel: String) throws -> Data {
        let sample = try String(contentsOf: Fixtures.url("xmltv/sample.xml"), encoding: .utf8)
        var keeping = true
        var kept: [Substring] = []
        for line in sample.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<channel ") {
                keeping = trimmed.contains(#"id="\#(channel)""#)
            } else if trimmed.hasPrefix("<programme ") {
                keeping = trimmed.contains(#"channel="\#(channel)""#)
            } else if trimmed == "</tv>" {
                keeping = true
            }
            if keeping { kept.append(line) }
        }
        return Data(kept.joined(separator: "\n").utf8)
    }

    /// Every credential in the environment, every provider on the fake server; `guide` lists the
    /// guide chain (`secret-guide` is the site with a secret in its path, `local-guide` a file).
    /// `timeout` is TheTVDB's, whose failing answers stall; the others answer at once, failing or
    /// not, and wait up to `answerTimeout`, so that a busy machine never turns their answers
    /// into timeouts.
    static func configuration(base: URL, timeout: String, guide: [String] = ["secret-guide", "local-guide"]) -> String {
        let ratings = formulatvRecipe("ratings", url: "\(base.absoluteString)audiencias/{date:dd-MM-yyyy}/?u=${TVGUIDE_TEST_AUDIENCE_SECRET}",
                                      options: ["timeout: \(answerTimeout)", "retries: 0"])
        return """
            cache: { dir: cache, ttl: 2h }
            snapshots: { dir: snapshots, keep: 14, audience_days: 5 }
            guide: [\(guide.joined(separator: ", "))]
            metadata:
              movie: [tmdb, tmdb-v4, thetvdb]
              series: [thetvdb, tmdb-v4, tmdb]
            audience: [ratings]
            providers:
              secret-guide: { type: xmltv, url: "\(base.absoluteString)guide/${TVGUIDE_TEST_GUIDE_SECRET}/guide.xml", timeout: \(answerTimeout), retries: 1 }
              local-guide: { type: xmltv, url: guide.xml }
              tmdb: { type: tmdb, base_url: "\(base.absoluteString)tmdb/3/", api_key: "${TMDB_API_KEY}", timeout: \(answerTimeout), retries: 0 }
              tmdb-v4: { type: tmdb, base_url: "\(base.absoluteString)tmdb4/3/", access_token: "${TMDB_ACCESS_TOKEN}", timeout: \(answerTimeout), retries: 0 }
              thetvdb: { type: thetvdb, base_url: "\(base.absoluteString)thetvdb/v4/", api_key: "${THETVDB_API_KEY}", pin: "${THETVDB_PIN}", timeout: \(timeout), retries: 0 }
            \(ratings)
            """
    }
}
