import Foundation
import GuideCore
import GuideTransport
import TestSupport
import TMDB
import Testing

@Suite("TMDB credentials and failures")
struct ErrorTests {
    @Test("an API key travels as the first query item and never as a header")
    func apiKey() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log, credentials: .apiKey("k3y/+value")) { tmdb in
            try await tmdb.lookup(film("Titanic", year: 1997))
        }
        #expect(lookup.metadata?.title == "Titanic")
        let requests = await log.requests
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.query?.hasPrefix("api_key=k3y%2F%2Bvalue") == true })
        #expect(requests.allSatisfy { $0.headers["authorization"] == nil })
    }

    @Test("a read-access token travels as a bearer header and no api_key is sent")
    func bearerToken() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log, credentials: .bearerToken("eyJhbGciOiJIUzI1NiJ9.token")) { tmdb in
            try await tmdb.lookup(film("Titanic", year: 1997))
        }
        #expect(lookup.metadata?.title == "Titanic")
        let requests = await log.requests
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer eyJhbGciOiJIUzI1NiJ9.token" })
        #expect(requests.allSatisfy { $0.query?.contains("api_key") != true })
        #expect(await log.queries(path: "/3/configuration") == [nil])
    }

    @Test("credentials never show in their description")
    func credentialsDescription() {
        #expect("\(TMDBCredentials.apiKey("s3cret-key"))" == "apiKey(REDACTED)")
        #expect("\(TMDBCredentials.bearerToken("s3cret-token"))" == "bearerToken(REDACTED)")
    }

    @Test("a rejected key (401) is not-configured, and later lookups fail the same way without asking")
    func badKey() async throws {
        let log = RequestLog()
        let handler: LoopbackHandler = { _ in invalidKey }
        let (first, second, notes) = try await LoopbackServer.run(log: log, handler) { root in
            let tmdb = TMDBProvider(
                id: "tmdb", baseURL: root.appendingPathComponent("3", isDirectory: true), credentials: .apiKey("wrong"),
                transport: LiveTransport(policy: .loopbackExact))
            let first = await providerError { _ = try await tmdb.lookup(film("Titanic", year: 1997)) }
            let second = await providerError { _ = try await tmdb.lookup(film("Alien", year: 1979)) }
            return (first, second, await tmdb.reportNotes())
        }
        let rejected = ProviderError.notConfigured("TMDB rejected the credentials (HTTP 401)")
        #expect(first == rejected)
        #expect(second == rejected)
        #expect(await log.count == 1)
        #expect(notes == ["1 request(s): 1 failed"])
    }

    @Test("a 429 with Retry-After is waited out and the request repeated")
    func rateLimited() async throws {
        let log = RequestLog()
        let limited = recorded(after: [tmdbError(429, code: 25, message: "Your request count (41) is over the allowed limit of 40.",
                                                 headers: ["Retry-After": "1"])])
        let clock = ContinuousClock()
        let start = clock.now
        let lookup = try await withFakeTMDB(log: log, overrides: ["/3/movie/597": limited], policy: retrying) { tmdb in
            try await tmdb.lookup(film("Titanic", tmdb: "597"))
        }
        #expect(clock.now - start >= .seconds(1))
        #expect(lookup.metadata?.title == "Titanic")
        #expect(await log.count(path: "/3/movie/597") == 2)
    }

    @Test("a 500 is retried and the next answer used")
    func serverErrorThenSuccess() async throws {
        let log = RequestLog()
        let failing = recorded(after: [.status(500)])
        let lookup = try await withFakeTMDB(log: log, overrides: ["/3/search/movie": failing], policy: retrying) { tmdb in
            try await tmdb.lookup(film("Titanic", year: 1997))
        }
        #expect(lookup.match?.providerID == "597")
        #expect(await log.count(path: "/3/search/movie") == 2)
    }

    @Test("a 500 that persists reaches the caller as the transport's typed error")
    func serverErrorPersists() async throws {
        let log = RequestLog()
        let error = try await withFakeTMDB(log: log, overrides: ["/3/search/movie": { _ in .status(500) }]) { tmdb in
            await providerError { _ = try await tmdb.lookup(film("Titanic", year: 1997)) }
        }
        guard case .http(let status, let url) = error else {
            Issue.record("expected an HTTP error, got \(String(describing: error))")
            return
        }
        #expect(status == 500)
        #expect(url.contains("/3/search/movie?api_key=REDACTED&query=Titanic"))
    }

    @Test("malformed JSON is malformed, naming the URL with the key redacted",
          arguments: [
            (#"{"adult":false,"id":597,"title":"Tit"#, "not valid JSON"),
            (#"{"id":"597","title":"Titanic"}"#, "id:"),
          ])
    func malformed(body: String, detail: String) async throws {
        let log = RequestLog()
        let error = try await withFakeTMDB(log: log, overrides: ["/3/movie/597": { _ in .json(body) }]) { tmdb in
            await providerError { _ = try await tmdb.lookup(film("Titanic", tmdb: "597")) }
        }
        let message = try #require(error?.malformedDetail)
        #expect(message.contains("/3/movie/597?api_key=REDACTED&append_to_response="))
        #expect(message.contains(detail))
        #expect(!message.contains(testKey))
    }

    /// Retries quickly, with all the time a loaded machine needs per attempt.
    private var retrying: TransportPolicy {
        TransportPolicy(timeout: .seconds(60), retries: 2, backoffBase: .milliseconds(10))
    }
}

extension ProviderError {
    /// The detail of a `.malformed`, nil for any other case.
    var malformedDetail: String? {
        if case .malformed(let detail) = self { return detail }
        return nil
    }
}
