import Foundation
import GuideCore
import GuideTransport
import Testing
import TestSupport

/// `LiveTransport` against each `ChaosFault`: the typed error, the requests made (retried or not)
/// and the time taken. The provider-level suite (TVGuideKitTests/ChaosTests) builds on these.
/// The time limit only stops a hang: beside the rest of the package's tests, a test can wait
/// minutes for a thread that others' blocking calls hold, on one core above all.
@Suite("LiveTransport under injected faults", .timeLimit(.minutes(10)))
struct ChaosTransportTests {
    static let body = Data(String(repeating: #"{"data":[1,2,3]}"#, count: 64).utf8)
    static let backoff = Duration.milliseconds(50)
    /// How long the delay and trickle faults keep an attempt that no timeout ends: far longer
    /// than a busy machine can hold up the timeout's own task, so that the answer never comes first.
    static let unendedAttempt = Duration.seconds(600)

    /// A short attempt timeout where the fault waits for it; elsewhere one that a machine loaded
    /// by every other suite never reaches, so that the error is the fault's, not the load's.
    static func timeout(for fault: ChaosFault) -> Duration {
        switch fault {
        case .delay, .trickle: .milliseconds(400)
        default: .seconds(30)
        }
    }

    static func policy(for fault: ChaosFault) -> TransportPolicy {
        TransportPolicy(timeout: timeout(for: fault), retries: 1, backoffBase: backoff, maxBodyBytes: 1 << 20)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var fault: ChaosFault
        var kind: String
        /// Words the error's message must hold, so that it says what happened.
        var says: String
        /// Requests the transport makes: 2 when the fault is worth a retry.
        var requests: Int
        var testDescription: String { "\(fault)" + (fault == .status(429, retryAfter: 3600) ? " (long Retry-After)" : "") }
    }

    static let cases: [Case] = [
        Case(fault: .delay(unendedAttempt), kind: "timeout", says: "timeout after 0.4s", requests: 2),
        // A byte a second: the body's 1 kB takes longer than `unendedAttempt`.
        Case(fault: .trickle(bytes: 1, every: .seconds(1)), kind: "timeout", says: "timeout after 0.4s", requests: 2),
        Case(fault: .resetBeforeHead, kind: "unreachable", says: "connection reset by the server", requests: 2),
        Case(fault: .resetAfterHead, kind: "unreachable", says: "connection reset by the server after 64 bytes", requests: 2),
        Case(fault: .truncated, kind: "malformed", says: "cut short: the connection closed after 512 bytes of the 2048 announced", requests: 2),
        Case(fault: .status(500), kind: "http", says: "HTTP 500", requests: 2),
        Case(fault: .status(502), kind: "http", says: "HTTP 502", requests: 2),
        Case(fault: .status(503), kind: "http", says: "HTTP 503", requests: 2),
        Case(fault: .status(429, retryAfter: 1), kind: "rateLimited", says: "retry after 1s", requests: 2),
        // Longer than `maxRetryAfter`: not waited for, not retried.
        Case(fault: .status(429, retryAfter: 3600), kind: "rateLimited", says: "retry after 3600s", requests: 1),
        // The same answer every time: not retried.
        Case(fault: .redirectLoop, kind: "unreachable", says: "redirects in a loop", requests: 1),
        Case(fault: .hugeBody(bytes: 50 << 20), kind: "malformed", says: "exceeds the limit of 1 MB (max_body)", requests: 1),
    ]

    @Test(arguments: cases)
    func aFaultGivesItsTypedErrorWithinTheAttemptsBudget(_ chaos: Case) async throws {
        try await ChaosServer.run([ChaosRoute("/", .bytes(Self.body, contentType: "application/json"), fault: chaos.fault)],
                                  connectionDeadline: Self.unendedAttempt) { server in
            let transport = LiveTransport(policy: Self.policy(for: chaos.fault))
            let started = ContinuousClock.now
            let error = await #expect(throws: ProviderError.self) {
                try await transport.get(server.baseURL.appendingPathComponent("feed.json"))
            }
            let elapsed = ContinuousClock.now - started
            #expect(error?.kind == chaos.kind, "\(String(describing: error))")
            #expect(error?.description.contains(chaos.says) == true, "\(String(describing: error))")
            #expect(server.totalRequests == chaos.requests)
            // The request counts check the retries. Where the fault waits for the attempt timeout,
            // the time checks that the timeout ends it: well short of the server's hold, which an
            // attempt the timeout did not end would last, however long a busy machine makes the
            // two attempts and the backoff.
            if chaos.kind == "timeout" {
                #expect(elapsed < Self.unendedAttempt / 2, "\(elapsed)")
            }
            if case .hugeBody(let size) = chaos.fault {
                #expect(server.hugeBodyBytesSent < size / 4, "the client stopped reading at its limit: \(server.hugeBodyBytesSent) bytes sent")
            }
        }
    }

    @Test("a body with the right bytes and a wrong Content-Type is returned as it came")
    func aMislabelledBodyIsTheCallersToJudge() async throws {
        let fault = ChaosFault.mislabelled(contentType: "text/html; charset=utf-8")
        try await ChaosServer.run([ChaosRoute("/", .bytes(Self.body, contentType: "application/json"), fault: fault)]) { server in
            let response = try await LiveTransport(policy: Self.policy(for: fault)).get(server.baseURL.appendingPathComponent("feed.json"))
            #expect(response.body == Self.body)
            #expect(response.headers["content-type"] == "text/html; charset=utf-8")
        }
    }

    @Test("after failFastAfter failures in a row, requests fail at once with the same error for the transport's life")
    func aSourceThatKeepsFailingIsNoLongerAsked() async throws {
        let route = ChaosRoute("/", .bytes(Self.body, contentType: "application/json"), fault: .status(503))
        try await ChaosServer.run([route]) { server in
            let transport = LiveTransport(policy: TransportPolicy(timeout: .seconds(30), retries: 1, backoffBase: Self.backoff, failFastAfter: 3))
            for index in 0..<6 {
                await #expect(throws: ProviderError.http(status: 503, url: server.baseURL.absoluteString + "\(index).json")) {
                    try await transport.get(server.baseURL.appendingPathComponent("\(index).json"))
                }
            }
            // Three failures of two attempts each; the last three never reached the server.
            #expect(server.totalRequests == 6)
            server.setFault(nil, on: "/")
            await #expect(throws: ProviderError.self) {
                try await transport.get(server.baseURL.appendingPathComponent("again.json"))
            }
            #expect(server.totalRequests == 6)
        }
    }

    @Test("a success between failures starts the count again")
    func aSuccessResetsTheStreak() async throws {
        let route = ChaosRoute("/", .bytes(Self.body, contentType: "application/json"), fault: .status(500))
        try await ChaosServer.run([route]) { server in
            let transport = LiveTransport(policy: TransportPolicy(timeout: .seconds(30), retries: 0, backoffBase: Self.backoff, failFastAfter: 2))
            let url = server.baseURL.appendingPathComponent("feed.json")
            await #expect(throws: ProviderError.self) { try await transport.get(url) }
            server.setFault(nil, on: "/")
            let recovered = try await transport.get(url).body
            #expect(recovered == Self.body)
            server.setFault(.status(500), on: "/")
            await #expect(throws: ProviderError.self) { try await transport.get(url) }
            server.setFault(nil, on: "/")
            let again = try await transport.get(url).body
            #expect(again == Self.body)
            #expect(server.totalRequests == 4)
        }
    }
}
