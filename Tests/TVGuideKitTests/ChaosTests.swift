// Regenerates chaos.tsv (one row per provider type × fault) for bench/reliability.sh:
//   RELIABILITY_OUT=<dir> swift test --filter ChaosTests
import Foundation
import GuideConfig
import GuideCore
import GuideStorage
import TestSupport
import Testing
import TVGuideKit

/// Every provider type against every fault of the chaos server, through the real build pipeline:
/// a healthy run first (shared per provider type), then a run with the fault. Each run must end
/// within the time its transport options allow, report the failing provider with the right
/// `ProviderError` kind, fall back to the next provider, and keep the last good data for what
/// nobody served.
///
/// What a fault must give (the transport's choices, docs/configuration.md "Failures"):
/// - delay, trickle → `timeout` (the attempt timeout covers the whole body);
/// - reset before or after the head, redirect loop → `unreachable` (a loop is not retried);
/// - truncated body, HTML error page with status 200, a body over `max_body` → `malformed`;
/// - 500, 502, 503 → `http`; 429 → `rateLimited`;
/// - the right body under a wrong `Content-Type` → accepted: labels are often wrong (JSON sent as
///   `text/html`, XMLTV as `application/octet-stream`), and the body is what the parser judges.
/// The time limit only stops a hang: beside the rest of the package's tests, a test can wait
/// minutes for a thread that others' blocking calls hold, on one core above all.
@Suite("Fault injection through the build pipeline", .timeLimit(.minutes(10)))
struct ChaosTests {
    @Test(arguments: ChaosScenario.allCases, ChaosFaultCase.allCases)
    func aFaultIsReportedFallsBackAndKeepsTheLastGoodData(_ scenario: ChaosScenario, _ faultCase: ChaosFaultCase) async throws {
        let baseline = try await ChaosBaselines.shared.baseline(for: scenario)
        let scratch = try Scratch()
        try scenario.prepare(scratch.url)
        try baseline.restore(into: scratch.file("snapshots"))
        let fault = faultCase.fault(for: scenario)
        let ((summary, elapsed, requests), stall) = try await StallMeter.measure {
            try await ChaosServer.run([ChaosRoute(scenario.prefix, scenario.content, fault: fault)]) { server in
                let (summary, elapsed) = try await ChaosRun.build(scenario, base: server.baseURL, transport: faultCase.transportOptions,
                                                                  in: scratch.url, refresh: true)
                return (summary, elapsed, server.requests(to: scenario.prefix))
            }
        }
        var verdict = ChaosVerdict()
        if faultCase.kind != nil {
            // Once 3 requests in a row have failed, only those already in flight (4 at most) are
            // still sent, each attempted twice at most.
            let most = (3 + 4 - 1) * (ChaosFaultCase.retries + 1)
            verdict.check((1...most).contains(requests), "the faulted provider made \(requests) request(s), not 1 to \(most)")
        }
        let budget = faultCase.budget(for: scenario, baseline: baseline.elapsed) + stall
        verdict.check(elapsed < budget, "the run took \(elapsed), more than its budget of \(budget) (of which \(stall) stalled)")
        verdict.judge(summary.snapshot, baseline: baseline.snapshot, scenario: scenario, faultCase: faultCase)
        #expect(verdict.failures.isEmpty, "\(verdict.failures.joined(separator: "\n"))")
        ChaosReport.append(scenario: scenario, fault: fault, verdict: verdict, snapshot: summary.snapshot, elapsed: elapsed)
    }

    @Test("the tvguide binary: MiGuiaTV answering 503 falls back to the XMLTV backup and keeps Cuatro's last programmes")
    func theBinaryReportsAFailingProviderAndKeepsTheLastGoodData() async throws {
        let scenario = ChaosScenario.miguiatv
        let faultCase = ChaosFaultCase.status503
        let baseline = try await ChaosBaselines.shared.baseline(for: scenario)
        let scratch = try Scratch()
        try scenario.prepare(scratch.url)
        try baseline.restore(into: scratch.file("snapshots"))
        let route = ChaosRoute(scenario.prefix, scenario.content, fault: faultCase.fault(for: scenario))
        let run = try await ChaosServer.run([route]) { server in
            try scratch.write("providers.yaml", try scenario.configuration(base: server.baseURL, transport: faultCase.transportOptions))
            let request = scenario.request
            return try await CLI.run(["build", "--now", request.now, "--from", request.from ?? "", "--to", request.to ?? ""], in: scratch.url)
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.range(of: #"chaos\s+failed"#, options: .regularExpression) != nil, "\(run.stdout)")
        #expect(run.stdout.contains("HTTP 503 from http://127.0.0.1:"), "\(run.stdout)")
        #expect(run.stdout.contains("fell back for 2"), "\(run.stdout)")
        #expect(run.stdout.contains("1 stale"), "\(run.stdout)")
        var verdict = ChaosVerdict()
        verdict.judge(try SnapshotStore.load(scratch.file("snapshots/latest.json")), baseline: baseline.snapshot, scenario: scenario, faultCase: faultCase)
        #expect(verdict.failures.isEmpty, "\(verdict.failures.joined(separator: "\n"))")
    }
}

/// A fault as the suite injects it, with the transport options of the faulted provider.
enum ChaosFaultCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case delay, trickle, resetBeforeHead, resetAfterHead, truncated
    case status500, status502, status503, status429
    case htmlErrorPage, mislabelled, redirectLoop, hugeBody

    var testDescription: String { rawValue }

    func fault(for scenario: ChaosScenario) -> ChaosFault {
        switch self {
        // Longer than any attempt: the client must give up, not the server.
        case .delay: .delay(.seconds(30))
        // No fixture's body arrives within an attempt at this pace.
        case .trickle: .trickle(bytes: 16, every: .milliseconds(100))
        case .resetBeforeHead: .resetBeforeHead
        case .resetAfterHead: .resetAfterHead
        case .truncated: .truncated
        case .status500: .status(500)
        case .status502: .status(502)
        case .status503: .status(503)
        case .status429: .status(429, retryAfter: Int(Self.retryAfter.components.seconds))
        case .htmlErrorPage: .htmlErrorPage
        case .mislabelled: .mislabelled(contentType: scenario.wrongLabel)
        case .redirectLoop: .redirectLoop
        case .hugeBody: .hugeBody(bytes: 50 << 20)
        }
    }

    /// The attempt timeout: short where the fault waits for it, long elsewhere, so that a busy
    /// machine never turns a quick answer into a timeout.
    var timeout: Duration {
        self == .delay || self == .trickle ? .milliseconds(500) : .seconds(30)
    }

    static let retries = 1
    /// `TransportPolicy`'s default backoff before the first retry.
    static let backoff = Duration.milliseconds(500)
    static let retryAfter = Duration.seconds(1)

    var transportOptions: String {
        "timeout: \(Int(timeout / .milliseconds(1)))ms, retries: \(Self.retries)"
    }

    /// The `ProviderError.kind` the failing provider must report; nil when the answer is accepted.
    var kind: String? {
        switch self {
        case .delay, .trickle: "timeout"
        case .resetBeforeHead, .resetAfterHead, .redirectLoop: "unreachable"
        case .truncated, .htmlErrorPage, .hugeBody: "malformed"
        case .status500, .status502, .status503: "http"
        case .status429: "rateLimited"
        case .mislabelled: nil
        }
    }

    /// Words every error of the failing provider carries, so that the report says what happened.
    func message(for scenario: ChaosScenario) -> String {
        switch self {
        case .delay, .trickle: "timeout after 0.5s"
        case .resetBeforeHead, .resetAfterHead: "connection reset by the server"
        case .redirectLoop: "redirects in a loop"
        case .truncated: "cut short"
        // A page where a page is expected fails on its layout, and says which rows are missing.
        case .htmlErrorPage: scenario == .scrapeAudience ? "//table[@class='audiencias']//tr[td]" : "got an HTML page"
        case .hugeBody: "exceeds the limit of"
        case .status500: "HTTP 500"
        case .status502: "HTTP 502"
        case .status503: "HTTP 503"
        case .status429: "rate limited (429)"
        case .mislabelled: ""
        }
    }

    /// The longest the faulted run may take, besides the time the machine did not give the
    /// process (`StallMeter`, added by the caller): its rounds of requests, each of attempts ×
    /// timeout (for faults that wait for it), the wait before the retry and, for a huge body,
    /// reading up to the provider's body limit at a pace even a loaded debug build keeps
    /// (8 MB/s); plus, for the CPU, the healthy run's own time four times over and ten seconds,
    /// which no load of the other suites uses up but a hang does. A fault that costs a timeout per
    /// channel, per title or per day costs a request each too, which the request count catches
    /// (ChaosTransportTests counts each retry).
    func budget(for scenario: ChaosScenario, baseline: Duration) -> Duration {
        let attempts = Self.retries + 1
        let waiting = self == .delay || self == .trickle ? timeout * attempts : .zero
        let reading = self == .hugeBody ? .milliseconds(scenario.bodyLimit / (8 << 20) * 1_000) : Duration.zero
        let perRequest = waiting + reading + (self == .status429 ? Self.retryAfter : Self.backoff)
        return perRequest * scenario.sequentialRounds + baseline * 4 + .seconds(10)
    }
}

extension ChaosScenario {
    /// Failing requests the faulted provider makes one after another before its transport gives
    /// up on it (`TransportPolicy.failFastAfter`, 3): guide and audience requests run at once, a
    /// metadata provider's shared configuration or login request is asked again per batch.
    var sequentialRounds: Int {
        role == .metadata ? 3 : 1
    }

    /// The faulted provider's `max_body`: its type's default (TransportFactory.BodyLimit), or
    /// the 16 MB its configuration sets.
    var bodyLimit: Int {
        switch self {
        case .miguiatv, .tmdb, .thetvdb: TransportFactory.BodyLimit.jsonAPI.rawValue
        case .jsonFeed, .scrapeAudience: TransportFactory.BodyLimit.page.rawValue
        case .xmltvURL: 16 << 20
        }
    }
}

@Suite struct MaxBodyOptionTests {
    static func setUp(maxBody: String) throws -> ProviderSetup {
        let yaml = """
            guide: [remote]
            providers:
              remote: { type: xmltv, url: "http://127.0.0.1:9/guide.xml", max_body: \(maxBody) }
            """
        let configuration = try GuideConfiguration.parse(yaml: yaml, file: URL(fileURLWithPath: "/tmp/providers.yaml"), environment: [:])
        return try ProviderSetup(configuration: configuration, now: Date())
    }

    @Test(arguments: ["512KB", "64MB", "1GB", "1048576"])
    func aSizeIsAccepted(_ size: String) throws {
        #expect(try Self.setUp(maxBody: size).chain.members.count == 1)
    }

    @Test(arguments: ["lots", "0", "8 parsecs", "-1MB"])
    func anythingElseIsAConfigurationErrorAtItsValue(_ size: String) throws {
        let error = #expect(throws: ConfigError.self) { try Self.setUp(maxBody: size) }
        #expect(error?.description == "/tmp/providers.yaml:3:73: expected a size like 8MB (units: KB, MB, GB), got '\(size)'")
    }
}
