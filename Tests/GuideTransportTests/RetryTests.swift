import Foundation
import GuideCore
@testable import GuideTransport
import Testing
import TestSupport

/// Time bounds here are loose on purpose: the whole package's tests share two cores, and some
/// block threads while they run the CLI. Each bound still sits far below what the bug it guards
/// against would take (a 30 s answer, a 3600 s Retry-After). The time limit only stops a hang:
/// a test can wait minutes for a thread that others' blocking calls hold, on one core above all.
@Suite("LiveTransport retries, timeouts and rate limits", .timeLimit(.minutes(10)))
struct RetryTests {
    @Test("a 500 is retried and the following 200 is returned")
    func serverErrorThenSuccess() async throws {
        let log = RequestLog()
        let script = Sequenced([.status(500), .json(#"{"ok":true}"#)])
        try await LoopbackServer.run(log: log, script.handler) { base in
            let transport = LiveTransport(policy: fastPolicy())
            let response = try await transport.get(base.appendingPathComponent("es_ES/channels.json"))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
            #expect(response.origin == .network)
            #expect(response.headers["content-type"] == "application/json")
        }
        #expect(await log.count == 2)
    }

    @Test("5xx on every attempt ends in .http after 1 + retries requests")
    func serverErrorsExhaustRetries() async throws {
        let log = RequestLog()
        try await LoopbackServer.run(log: log, { _ in .status(503) }) { base in
            let url = base.appendingPathComponent("down.json")
            let transport = LiveTransport(policy: fastPolicy(retries: 2))
            await #expect(throws: ProviderError.http(status: 503, url: url.absoluteString)) {
                try await transport.get(url)
            }
        }
        #expect(await log.count == 3)
    }

    @Test("a server slower than the timeout gives .timeout after retrying, in bounded time")
    func timeoutIsRetriedThenReported() async throws {
        let log = RequestLog()
        let started = ContinuousClock.now
        try await LoopbackServer.run(log: log, { _ in LoopbackResponse.json("{}").delayed(by: .seconds(600)) }) { base in
            let transport = LiveTransport(policy: fastPolicy(timeout: .milliseconds(200), retries: 1))
            await #expect(throws: ProviderError.timeout(seconds: 0.2)) {
                try await transport.get(base.appendingPathComponent("slow.json"))
            }
        }
        #expect(await log.count == 2)
        // Bounds are loose: a loaded CI machine may not schedule this test for many seconds.
        #expect(seconds(since: started) < 120, "two 0.2 s attempts must not wait for the 600 s answer")
    }

    @Test("429 with Retry-After: 1 waits about a second, then the 200 is returned")
    func retryAfterIsHonoured() async throws {
        let log = RequestLog()
        let script = Sequenced([.status(429, headers: ["retry-after": "1"]), .json("[]")])
        let started = ContinuousClock.now
        try await LoopbackServer.run(log: log, script.handler) { base in
            // A 10 ms backoff: only Retry-After can explain a one-second wait.
            let transport = LiveTransport(policy: fastPolicy())
            let response = try await transport.get(base.appendingPathComponent("limited.json"))
            #expect(response.status == 200)
        }
        let elapsed = seconds(since: started)
        #expect(elapsed >= 0.95)
        #expect(elapsed < 120)
        #expect(await log.count == 2)
    }

    @Test("a Retry-After beyond maxRetryAfter fails at once with .rateLimited")
    func hugeRetryAfterFailsFast() async throws {
        let log = RequestLog()
        let started = ContinuousClock.now
        try await LoopbackServer.run(log: log, { _ in .status(429, headers: ["retry-after": "3600"]) }) { base in
            let transport = LiveTransport(policy: fastPolicy())
            await #expect(throws: ProviderError.rateLimited(retryAfter: 3600)) {
                try await transport.get(base.appendingPathComponent("limited.json"))
            }
        }
        #expect(await log.count == 1)
        #expect(seconds(since: started) < 120, "an hour's Retry-After is not slept through")
    }

    @Test("429 on every attempt counts as retries and ends in .rateLimited")
    func rateLimitedAfterRetries() async throws {
        let log = RequestLog()
        try await LoopbackServer.run(log: log, { _ in .status(429) }) { base in
            let transport = LiveTransport(policy: fastPolicy(retries: 1))
            await #expect(throws: ProviderError.rateLimited(retryAfter: nil)) {
                try await transport.get(base.appendingPathComponent("limited.json"))
            }
        }
        #expect(await log.count == 2)
    }

    @Test("a 404 is not retried")
    func notFoundIsNotRetried() async throws {
        let log = RequestLog()
        try await LoopbackServer.run(log: log, { _ in .status(404) }) { base in
            let url = base.appendingPathComponent("es_ES/channel/999.json")
            let transport = LiveTransport(policy: fastPolicy())
            await #expect(throws: ProviderError.http(status: 404, url: url.absoluteString)) {
                try await transport.get(url)
            }
        }
        #expect(await log.count == 1)
    }

    @Test("a refused connection is .unreachable after the retries")
    func refusedConnectionIsUnreachable() async throws {
        let refusing = try RefusingPort()
        let closed = URL(string: "http://127.0.0.1:\(refusing.port)/")!
        let transport = LiveTransport(policy: fastPolicy(retries: 1))
        do {
            _ = try await transport.get(closed.appendingPathComponent("x.json"))
            Issue.record("expected .unreachable")
        } catch let error as ProviderError {
            #expect(error.kind == "unreachable", "\(error)")
            #expect(error.description.contains(closed.appendingPathComponent("x.json").absoluteString))
        }
        withExtendedLifetime(refusing) {}
    }

    @Test("a gzip-encoded body is asked for and handed over decoded")
    func gzipBodyIsDecoded() async throws {
        let log = RequestLog()
        // {"data":[[1,"La 1","national","es",""]]} gzip-compressed.
        let compressed = try #require(Data(base64Encoded: "H4sIAAAAAAAC/6tWSkksSVSyio421FHySVQwVNJRykssyczPS8wBMlOLgYRSbGwtANLCr9IoAAAA"))
        let handler: LoopbackHandler = { request in
            guard request.headers["accept-encoding"]?.contains("gzip") == true else { return .json("not compressed") }
            return LoopbackResponse(headers: ["content-type": "application/json", "content-encoding": "gzip"], body: compressed)
        }
        try await LoopbackServer.run(log: log, handler) { base in
            let response = try await LiveTransport(policy: fastPolicy()).get(base.appendingPathComponent("es_ES/channels.json"))
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"data":[[1,"La 1","national","es",""]]}"#)
            #expect(response.headers["content-encoding"] == nil)
            #expect(response.headers["content-length"] == String(response.body.count))
        }
    }

    @Test("a gzip body that inflates past the ratio cap is too large, and not asked again")
    func gzipBombIsTooLargeNotCutShort() async throws {
        // 20 MB of zeros in about 20 kB: 1,000 times its size, past the 100× the client allows.
        let zipped = try await Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "head -c 20000000 /dev/zero | gzip -1 | base64 -w0"])
        let bomb = try #require(Data(base64Encoded: zipped.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let log = RequestLog()
        try await LoopbackServer.run(log: log, { _ in LoopbackResponse(headers: ["content-type": "application/xml", "content-encoding": "gzip"], body: bomb) }) { base in
            do {
                _ = try await LiveTransport(policy: fastPolicy(retries: 2)).get(base.appendingPathComponent("guide.xml"))
                Issue.record("expected .malformed")
            } catch let error as ProviderError {
                #expect(error.kind == "malformed", "\(error)")
                #expect(error.description.contains("is too large: its gzip encoding inflates to more than 100 times its size"), "\(error)")
                #expect(!error.description.contains("cut short"))
            }
        }
        #expect(await log.count == 1)
    }

    @Test("a body over maxBodyBytes is .malformed")
    func oversizedBodyIsMalformed() async throws {
        try await LoopbackServer.run({ _ in .text(String(repeating: "x", count: 1000)) }) { base in
            var policy = fastPolicy()
            policy.maxBodyBytes = 100
            let transport = LiveTransport(policy: policy)
            do {
                _ = try await transport.get(base.appendingPathComponent("big.txt"))
                Issue.record("expected .malformed")
            } catch let error as ProviderError {
                #expect(error.kind == "malformed", "\(error)")
            }
        }
    }

    @Test("no more than maxConcurrent requests are in flight at once")
    func concurrencyIsBounded() async throws {
        let log = RequestLog()
        try await LoopbackServer.run(log: log, { _ in LoopbackResponse.json("{}").delayed(by: .milliseconds(150)) }) { base in
            let transport = LiveTransport(policy: fastPolicy(maxConcurrent: 3))
            try await withThrowingTaskGroup(of: Int.self) { group in
                for channel in 1...10 {
                    group.addTask {
                        try await transport.get(base.appendingPathComponent("es_ES/channel/\(channel).json")).status
                    }
                }
                for try await status in group {
                    #expect(status == 200)
                }
            }
        }
        #expect(await log.count == 10)
        let peak = await log.maxInFlight
        #expect(peak <= 3)
        #expect(peak >= 2, "requests should still run in parallel up to the bound")
    }

    @Test("Retry-After accepts delta-seconds and the three HTTP-date forms")
    func retryAfterParsing() {
        let now = Date(timeIntervalSince1970: 784_111_767)  // Sun, 06 Nov 1994 08:49:27 GMT
        #expect(RetryAfter.seconds(from: "120", now: now) == 120)
        #expect(RetryAfter.seconds(from: " 5 ", now: now) == 5)
        #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 10)
        #expect(RetryAfter.seconds(from: "Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 10)
        #expect(RetryAfter.seconds(from: "Sun Nov  6 08:49:37 1994", now: now) == 10)
        #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0, "a past date means now")
        #expect(RetryAfter.seconds(from: "soon", now: now) == nil)
    }

    @Test("backoff doubles from the base without jitter")
    func backoffDoubles() {
        let policy = TransportPolicy(backoffBase: .milliseconds(500))
        #expect(policy.backoff(beforeRetry: 0) == .milliseconds(500))
        #expect(policy.backoff(beforeRetry: 1) == .seconds(1))
        #expect(policy.backoff(beforeRetry: 3) == .seconds(4))
    }
}
