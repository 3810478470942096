// Regenerates docs/reliability/secrets.tsv (what bench/reliability.sh runs for its `secrets` part):
//   swift build --build-tests && RELIABILITY_OUT=<dir> swift test --skip-build --filter SecretsTests
// With RELIABILITY_OUT set, `tvguide build` runs at every log level; without it (`swift test`),
// at trace, whose lines are a superset of every other level's, and at the default level.
import AsyncHTTPClient
import Foundation
import GuideCore
import GuideStorage
import GuideTransport
import NIOCore
import NIOHTTP1
import TVGuideKit
import Testing
import TestSupport

/// API keys and tokens never appear in any output (docs/metadata.md, "Secrets").
/// A full run with every credential set, against fake APIs on loopback that first answer and then
/// fail in the ways that echo requests back; every byte the runs print, write or serve is
/// searched for every secret in every form it could take.
@Suite(.serialized) struct SecretsTests {
    static let levels = (ProcessInfo.processInfo.environment["RELIABILITY_OUT"] ?? "").isEmpty
        ? ["trace", "warning"] : ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    @Test func noKeyOrTokenReachesAnyOutputOfRunsThatSucceedAndThatFail() async throws {
        let secrets = RunSecrets.random()
        // The failing run's user has a 4-digit PIN: looked for as a word (`SecretScanner`).
        var failingSecrets = secrets
        failingSecrets.tvdbPin = "4711"
        let scanner = SecretScanner(secrets, failingSecrets)
        let ledger = OutputLedger()
        let log = RequestLog()
        let guide = try FakeAPIs.channelGuide("Atreseries.es")
        let healthy = try Scratch()
        let failing = try Scratch()

        try await LoopbackServer.run(log: log, FakeAPIs.handler(secrets, guide: guide, failing: false)) { base in
            let config = FakeAPIs.configuration(base: base, timeout: "60s")
            let runs = try await Self.buildAtEveryLevel(config: config, guide: guide, in: healthy, secrets: secrets, ledger: ledger, label: "healthy")
            #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
            ledger.add("healthy: validate", try await CLI.run(["validate"], in: healthy.url, environment: secrets.environment))
        }
        try await Self.expectEveryCredentialWasUsed(log, secrets: secrets, scanner: scanner)
        let good = try SnapshotStore.load(healthy.file("snapshots/latest.json"))
        #expect(Set(good.works.values.flatMap(\.sources.values)) == ["tmdb", "tmdb-v4", "thetvdb"], "every metadata provider served")
        #expect(good.programmes.allSatisfy { $0.source == "secret-guide" }, "the guide came through the URL with a secret")
        #expect(!good.audiences.isEmpty, "the audience site with a secret in its query served")

        // The failing run starts from the healthy run's snapshots, as a cron job's next run would.
        try FileManager.default.copyItem(at: healthy.file("snapshots"), to: failing.file("snapshots"))
        let thirdPartyLog = RequestLog()
        let failingLog = RequestLog()
        try await LoopbackServer.run(log: thirdPartyLog, FakeAPIs.thirdParty) { thirdParty in
            try await LoopbackServer.run(log: failingLog, FakeAPIs.handler(failingSecrets, guide: guide, failing: true, thirdParty: thirdParty)) { base in
                let config = FakeAPIs.configuration(base: base, timeout: FakeAPIs.stallTimeout)
                let runs = try await Self.buildAtEveryLevel(config: config, guide: guide, in: failing, secrets: failingSecrets, ledger: ledger, label: "failing")
                #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
                try await Self.serveWithAFailingRefresh(base: base, snapshots: healthy.file("snapshots"), scratch: failing,
                                                        secrets: failingSecrets, ledger: ledger)
            }
        }
        let login = try #require(await failingLog.last(path: "/thetvdb/v4/login"))
        #expect(String(decoding: login.body, as: UTF8.self).contains(#""pin":"4711""#), "the short PIN was used")
        try Self.expectEveryFailureWasProvoked(try SnapshotStore.load(failing.file("snapshots/latest.json")))
        let thirdParty = await thirdPartyLog.requests
        #expect(!thirdParty.isEmpty, "the redirect to another origin was followed")
        #expect(thirdParty.allSatisfy { $0.headers["authorization"] == nil }, "a redirect to another origin carries no token")

        try await Self.readTheSnapshots(healthy: healthy, failing: failing, secrets: failingSecrets, ledger: ledger)
        try await Self.rejectABrokenConfiguration(in: failing, secrets: failingSecrets, ledger: ledger)
        try ledger.addFiles(under: healthy.url, as: "healthy")
        try ledger.addFiles(under: failing.url, as: "failing")

        let outputs = ledger.all
        try ledger.writeReport(scanner: scanner)
        for output in outputs {
            let hits = scanner.hits(in: output.data)
            #expect(hits.isEmpty, "\(output.name) holds \(hits)")
        }
        for expected in ["build --log-level trace stderr", "snapshots/latest.json", "snapshots/guide-", "cache/metadata/thetvdb.json",
                         "cache/*.entry", "export/guide.xml", "export xmltv stdout", "audiences stdout", "diff stdout",
                         "serve: GET /metrics", "serve: GET /health", "serve: GET /programmes/", "serve stderr"] {
            #expect(outputs.contains { $0.name.contains(expected) && !$0.data.isEmpty }, "no output '\(expected)' was searched")
        }
    }

    /// Whether the search below could pass without looking: what the fake servers received holds
    /// every secret, in a form the scanner knows.
    static func expectEveryCredentialWasUsed(_ log: RequestLog, secrets: RunSecrets, scanner: SecretScanner) async throws {
        let requests = await log.requests
        let received = requests.map { "\($0.method) \($0.path)?\($0.query ?? "") \($0.headers) \(String(decoding: $0.body, as: UTF8.self))" }
            .joined(separator: "\n")
        let found = Set(scanner.hits(in: received).map(\.secret))
        #expect(found == Set(secrets.all.map(\.name)), "the fake servers saw only \(found.sorted())")
        #expect(requests.contains { $0.path.hasPrefix("/tmdb/3/movie/") && ($0.query ?? "").contains("api_key=\(secrets.tmdbKey)") })
        #expect(requests.contains { $0.path.hasPrefix("/tmdb4/3/") && $0.headers["authorization"] == "Bearer \(secrets.tmdbToken)" })
        #expect(requests.contains { $0.path.hasSuffix("/extended") && $0.headers["authorization"] == "Bearer \(secrets.tvdbBearer)" })
    }

    /// `tvguide build` once per log level, each in its own copy of `scratch` (a fresh cache, so
    /// that every level makes every request); the trace run's outputs stay in `scratch`.
    static func buildAtEveryLevel(config: String, guide: Data, in scratch: Scratch, secrets: RunSecrets, ledger: OutputLedger,
                                  label: String) async throws -> [ProcessResult] {
        var copies: [String: Scratch] = [:]
        for level in levels {
            let copy = level == "trace" ? scratch : try Scratch()
            try copy.write("providers.yaml", config)
            try guide.write(to: copy.file("guide.xml"))
            if level != "trace", FileManager.default.fileExists(atPath: scratch.file("snapshots").path) {
                try FileManager.default.copyItem(at: scratch.file("snapshots"), to: copy.file("snapshots"))
            }
            copies[level] = copy
        }
        let results = try await withThrowingTaskGroup(of: (String, ProcessResult).self) { group in
            for (level, copy) in copies {
                group.addTask {
                    let run = try await CLI.run(["build", "--now", recordedNow, "--refresh-audiences", "--log-level", level],
                                                in: copy.url, environment: secrets.environment)
                    return (level, run)
                }
            }
            var results: [String: ProcessResult] = [:]
            for try await (level, run) in group { results[level] = run }
            return results
        }
        for level in levels {
            guard let run = results[level] else { continue }
            ledger.add("\(label): build --log-level \(level)", run)
            if let copy = copies[level], copy !== scratch { try ledger.addFiles(under: copy.url, as: "\(label) (\(level))") }
        }
        #expect(results["trace"]?.stderr.contains("fetch") == true, "trace logs every fetch with its URL")
        return levels.compactMap { results[$0] }
    }
}

extension SecretsTests {
    /// Each fault the failing server injects shows in the report, so the error paths really ran.
    static func expectEveryFailureWasProvoked(_ snapshot: Snapshot) throws {
        let guideErrors = snapshot.report.providers.flatMap(\.errors).map(\.message)
        #expect(guideErrors.contains { $0.contains("HTTP 500") }, "\(guideErrors)")
        let metadata = try #require(snapshot.report.metadata)
        let messages = metadata.providers.flatMap(\.errors).map(\.message)
        for expected in ["HTTP 500", "HTTP 404", "timeout", "malformed", "(pin REDACTED)", "rejected the credentials"] {
            #expect(messages.contains { $0.contains(expected) }, "no metadata error with '\(expected)': \(messages)")
        }
        let audience = try #require(snapshot.report.audience)
        let days = audience.providers.flatMap(\.errors).map(\.message)
        for expected in ["HTTP 401", "HTTP 404", "HTTP 500", "malformed"] {
            #expect(days.contains { $0.contains(expected) }, "no audience error with '\(expected)': \(days)")
        }
    }

    /// `tvguide serve --log-level trace` on the healthy guide while its refreshes fail against the
    /// failing server: the API's answers, errors included, `/health` with the failure, `/metrics`.
    static func serveWithAFailingRefresh(base: URL, snapshots: URL, scratch: Scratch, secrets: RunSecrets, ledger: OutputLedger) async throws {
        // Only the failing site in the guide chain: nothing is served, so the refresh fails.
        try scratch.write("serve.yaml", FakeAPIs.configuration(base: base, timeout: FakeAPIs.stallTimeout, guide: ["secret-guide"]))
        let guide = try SnapshotStore.load(snapshots.appendingPathComponent("latest.json"))
        let enriched = try #require(guide.programmes.first { $0.work != nil })
        let id = try #require(enriched.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let server = try await ServeProcess.start([
            "serve", "--config", scratch.file("serve.yaml").path, "--snapshots", snapshots.path, "--port", "0",
            "--refresh-interval", "1s", "--now", recordedNow, "--log-level", "trace",
        ], environment: secrets.environment)
        let health = try await server.waitForHealth { refresh in (refresh["failed"] as? Int ?? 0) >= 1 }
        #expect(health["status"] as? String == "degraded")
        for path in ["/health", "/metrics", "/programmes/\(id)", "/programmes/\(id)/airings", "/channels", "/now", "/grid?hours=3",
                     "/channels/Atreseries.es/schedule", "/search?q=fauno", "/upcoming", "/audiences", "/audiences/top",
                     "/xmltv.xml", "/programme/\(id)", "/programmes/nothing-here", "/grid?hours=1000", "/no/such/route"] {
            let (status, body) = try await fetch(port: server.port, path: path)
            ledger.add("serve: GET \(path) (\(status))", body)
        }
        #expect(try await server.terminate() == 0)
        ledger.add("serve stderr", server.stderr)
        #expect(server.stderr.contains("refresh failed"), "\(server.stderr.suffix(2_000))")
    }

    /// Any status with its body: error answers are outputs too.
    static func fetch(port: Int, path: String) async throws -> (Int, Data) {
        let response = try await LiveTransport.sharedClient.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), Data(body.readableBytesView))
    }

    /// The commands that read snapshots: diff, export, audiences; their output and files.
    static func readTheSnapshots(healthy: Scratch, failing: Scratch, secrets: RunSecrets, ledger: OutputLedger) async throws {
        let old = healthy.file("snapshots/latest.json").path
        let new = failing.file("snapshots/latest.json").path
        let commands: [(String, [String])] = [
            ("diff", ["diff", old, new]),
            ("diff --format json", ["diff", old, new, "--format", "json"]),
            ("export xmltv", ["export", "xmltv", "--snapshot", new]),
            ("export xmltv -o", ["export", "xmltv", "--snapshot", old, "-o", failing.file("export/guide.xml").path]),
            ("audiences", ["audiences", "--snapshots", failing.file("snapshots").path, "--days", "5"]),
            ("audiences --format json", ["audiences", "--snapshots", healthy.file("snapshots").path, "--format", "json"]),
        ]
        try FileManager.default.createDirectory(at: failing.file("export"), withIntermediateDirectories: true)
        for (name, arguments) in commands {
            let run = try await CLI.run(arguments, in: failing.url, environment: secrets.environment)
            #expect(run.status == 0 || name.hasPrefix("diff"), "\(name): \(run.stderr)")
            ledger.add(name, run)
        }
    }

    /// A value from the environment in the wrong place: the error names the variable, not its value.
    static func rejectABrokenConfiguration(in scratch: Scratch, secrets: RunSecrets, ledger: OutputLedger) async throws {
        let config = try String(contentsOf: scratch.file("providers.yaml"), encoding: .utf8)
        try scratch.write("broken-key.yaml", config.replacingOccurrences(
            of: "api_key: \"${TMDB_API_KEY}\", timeout: \(FakeAPIs.answerTimeout)", with: "api_key: \"${TMDB_API_KEY}\", timeout: \"${TMDB_API_KEY}\""))
        try scratch.write("broken-pin.yaml", config.replacingOccurrences(
            of: "pin: \"${THETVDB_PIN}\", timeout: \(FakeAPIs.stallTimeout)",
            with: "pin: \"${THETVDB_PIN}\", concurrency: \"${THETVDB_PIN}\", timeout: \(FakeAPIs.stallTimeout)"))
        for (command, file, variable) in [("validate", "broken-key.yaml", "TMDB_API_KEY"), ("build", "broken-pin.yaml", "THETVDB_PIN")] {
            let run = try await CLI.run([command, "--config", file], in: scratch.url, environment: secrets.environment)
            #expect(run.status == 2)
            #expect(run.stderr.contains("the value of '${\(variable)}'"), "\(run.stderr)")
            ledger.add("\(command) of a broken configuration", run)
        }
    }
}

extension SecretsTests {
    /// A PIN of 4 to 7 characters is hidden where it stands as a word and nowhere else, so that
    /// dates and counts stay readable; one shorter than 4 is never looked for in text (it travels
    /// only in TheTVDB's login body, which nothing prints). Keys are hidden in every written form.
    @Test func shortPINsAreHiddenAsWordsAndKeysInEveryWrittenForm() {
        let secrets = SecretValues()
        secrets.add(["4711", "12", "ab|cd/ef+gh=ij"])
        #expect(secrets.redact("login refused (pin 4711)") == "login refused (pin REDACTED)")
        #expect(secrets.redact("147112 programmes, 4711x, pin=4711&") == "147112 programmes, 4711x, pin=REDACTED&")
        #expect(secrets.redact("12 channels on 2026-10-12") == "12 channels on 2026-10-12")
        let written = ["ab|cd/ef+gh=ij", "ab%7Ccd/ef+gh=ij", "ab%7ccd%2Fef%2Bgh%3Dij", #"ab|cd\/ef+gh=ij"#]
        for form in written {
            #expect(secrets.redact("GET http://h/\(form)/x") == "GET http://h/REDACTED/x", "\(form)")
        }
        #expect(SecretScrubber(["2026", "12"]).holdsLongSecret(Data("2026-10-12".utf8)) == false)
        #expect(SecretScrubber(["ab|cd/ef+gh=ij"]).holdsLongSecret(Data(#"{"echo":"ab%7Ccd/ef+gh=ij"}"#.utf8)))
    }
}
