import AsyncHTTPClient
import Foundation
import GuideCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPCompression

/// The network transport: AsyncHTTPClient with a per-attempt timeout, a per-transport bound on
/// requests in flight, retries with exponential backoff, `429` + `Retry-After`, and an optional
/// HTTP cache (on disk, or in the shared store) with a freshness TTL and conditional revalidation (ETag / Last-Modified).
///
/// Create one per provider (the policy and the concurrency bound are per provider); they may
/// all share one `HTTPClient`. The default, `LiveTransport.sharedClient`, lives as long as the
/// process and is never shut down. A client passed in stays the caller's: shut it down
/// (`try await client.shutdown()`) once every transport using it is done.
package final class LiveTransport: HTTPTransport {
    /// The client configuration this transport expects: no connection-establishment retries in
    /// the client (they would turn a refused connection or a DNS failure into a wait for the
    /// timeout; this transport retries with its own backoff and counting), a few redirects
    /// followed, and gzip/deflate bodies decoded.
    package static var recommendedConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 5, allowCycles: false),
            timeout: .init(connect: .seconds(10), read: .seconds(60)),
            // A ratio cap stops a decompression bomb; XMLTV compresses about 10:1.
            decompression: .enabled(limit: .ratio(100))
        )
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// One client for every transport of the process, with `recommendedConfiguration`. A process-
    /// lifetime singleton like `HTTPClient.shared` (whose configuration retries connections):
    /// never shut it down.
    package static let sharedClient = HTTPClient(configuration: recommendedConfiguration)

    package let policy: TransportPolicy
    package let cache: HTTPCache?
    /// A cached response younger than this is served without asking the server.
    package let cacheTTL: Duration
    private let client: HTTPClient
    /// Compressed bodies are asked for only through a client known to decode them.
    private let decodesCompression: Bool
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let permits: AsyncSemaphore
    /// Set by a 429 with `Retry-After`: every request of this transport waits it out, not only
    /// the one that was told, so a rate-limited provider slows down instead of failing.
    private let rateLimitPause = PauseGate()
    private let failures: FailureStreak
    private let sent = SentCounter()

    /// Requests sent to servers so far, retries included: what the servers saw (answers from the
    /// HTTP cache and requests refused by fail-fast are not sent).
    package var requestsSent: Int { sent.value }

    /// - Parameters:
    ///   - now: the wall clock for cache freshness and `Retry-After` dates; tests pass a fixed one.
    package init(
        client: HTTPClient = LiveTransport.sharedClient,
        policy: TransportPolicy = TransportPolicy(),
        cache: HTTPCache? = nil,
        cacheTTL: Duration = .seconds(2 * 3600),
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "tvguide.transport")
    ) {
        self.client = client
        // HTTPClient does not expose its configuration, so only the shared client is known to decode.
        decodesCompression = client === LiveTransport.sharedClient
        self.policy = policy
        self.cache = cache
        self.cacheTTL = cacheTTL
        self.now = now
        self.logger = logger
        self.permits = AsyncSemaphore(permits: policy.maxConcurrent)
        self.failures = FailureStreak(limit: policy.failFastAfter)
    }

    package func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        let shown = URLRedaction.redacted(url)
        try Self.checkHTTP(url)

        let cached = await cache?.entry(for: url)
        if let cached {
            let age = now().timeIntervalSince(cached.metadata.fetchedAt)
            if age >= 0 && age < cacheTTL.inSeconds {
                logger.debug("cache hit", metadata: ["url": "\(shown)", "age_s": "\(Int(age))"])
                return Self.response(from: cached, url: url, origin: .cache)
            }
        }

        var requestHeaders = headers
        if let cached {
            if let etag = cached.metadata.etag { requestHeaders["If-None-Match"] = etag }
            if let lastModified = cached.metadata.lastModified { requestHeaders["If-Modified-Since"] = lastModified }
        }
        let isConditional = requestHeaders["If-None-Match"] != nil || requestHeaders["If-Modified-Since"] != nil
        // The permit is held through retries and their waits: a provider that is rate limiting
        // or failing is not hit by this transport's other requests meanwhile.
        let fetched = try await permits.withPermit {
            try await failures.counting(url, logger: logger) {
                try await fetchWithRetries(.GET, url, headers: requestHeaders, acceptNotModified: cached != nil && isConditional)
            }
        }

        if fetched.status == 304, let cached {
            let refreshed = await store(
                cached.body, for: url,
                etag: fetched.headers["etag"] ?? cached.metadata.etag,
                lastModified: fetched.headers["last-modified"] ?? cached.metadata.lastModified,
                contentType: cached.metadata.contentType
            ) ?? cached
            logger.debug("revalidated (304)", metadata: ["url": "\(shown)"])
            return Self.response(from: refreshed, url: url, origin: .revalidated)
        }
        // An answer that sets cookies starts a session: kept, a later run would get the body
        // without the cookies, and its session would be missing.
        if fetched.status == 200, fetched.headers["set-cookie"] == nil {
            await store(fetched.body, for: url, etag: fetched.headers["etag"],
                  lastModified: fetched.headers["last-modified"], contentType: fetched.headers["content-type"])
        }
        return TransportResponse(status: fetched.status, headers: fetched.headers, body: fetched.body, url: url, origin: .network)
    }

    package func post(_ url: URL, headers: [String: String], body: Data) async throws -> TransportResponse {
        try Self.checkHTTP(url)
        let fetched = try await permits.withPermit {
            try await failures.counting(url, logger: logger) {
                try await fetchWithRetries(.POST, url, headers: headers, body: body, acceptNotModified: false)
            }
        }
        return TransportResponse(status: fetched.status, headers: fetched.headers, body: fetched.body, url: url, origin: .network)
    }

    private static func checkHTTP(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else {
            throw ProviderError.notConfigured("not an http(s) URL: \(URLRedaction.redacted(url))")
        }
    }

    // MARK: - Cache

    /// A cache that cannot be written costs a refetch next time, not this response.
    @discardableResult
    private func store(_ body: Data, for url: URL, etag: String?, lastModified: String?, contentType: String?) async -> HTTPCacheEntry? {
        guard let cache else { return nil }
        do {
            return try await cache.store(body, for: url, etag: etag, lastModified: lastModified, contentType: contentType, fetchedAt: now())
        } catch {
            logger.warning("cache write failed", metadata: ["url": "\(URLRedaction.redacted(url))", "error": "\(error)"])
            return nil
        }
    }

    private static func response(from entry: HTTPCacheEntry, url: URL, origin: TransportResponse.Origin) -> TransportResponse {
        var headers = ["content-length": String(entry.body.count)]
        headers["content-type"] = entry.metadata.contentType
        headers["etag"] = entry.metadata.etag
        headers["last-modified"] = entry.metadata.lastModified
        return TransportResponse(status: 200, headers: headers, body: entry.body, url: url, origin: origin)
    }

    // MARK: - Attempts and retries

    private struct Fetched: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// Failures worth another attempt.
    private enum AttemptFailure: Error {
        case timeout
        case unreachable(String)
        /// The connection closed before the body announced had all arrived: transient on the
        /// wire, so retried, but once retries are spent the response is not what it promised.
        case truncated(String)
    }

    /// Returns a 2xx (or a 304 to a conditional request); throws the typed error once retries are spent.
    private func fetchWithRetries(
        _ method: HTTPMethod, _ url: URL, headers: [String: String], body: Data? = nil, acceptNotModified: Bool
    ) async throws -> Fetched {
        let shown = URLRedaction.redacted(url)
        var retry = 0
        while true {
            let wait: Duration
            let reason: String
            do {
                logger.debug("fetch", metadata: ["url": "\(shown)", "attempt": "\(retry + 1)"])
                try await rateLimitPause.waitUntilOpen()
                let fetched = try await attempt(method, url, headers: headers, body: body)
                switch fetched.status {
                case 200..<300:
                    return fetched
                case 304 where acceptNotModified:
                    return fetched
                case 429:
                    let retryAfter = fetched.headers["retry-after"].flatMap { RetryAfter.seconds(from: $0, now: now()) }
                    if let retryAfter, retryAfter > policy.maxRetryAfter.inSeconds {
                        throw ProviderError.rateLimited(retryAfter: retryAfter)
                    }
                    guard retry < policy.retries else { throw ProviderError.rateLimited(retryAfter: retryAfter) }
                    wait = retryAfter.map { Duration(secondsValue: $0) } ?? policy.backoff(beforeRetry: retry)
                    await rateLimitPause.close(for: wait)
                    reason = "HTTP 429"
                case 408, 500..<600:
                    guard retry < policy.retries else { throw ProviderError.http(status: fetched.status, url: shown) }
                    wait = policy.backoff(beforeRetry: retry)
                    reason = "HTTP \(fetched.status)"
                default:
                    throw ProviderError.http(status: fetched.status, url: shown)
                }
            } catch let failure as AttemptFailure {
                guard retry < policy.retries else {
                    switch failure {
                    case .timeout: throw ProviderError.timeout(seconds: policy.timeout.inSeconds)
                    case .unreachable(let detail): throw ProviderError.unreachable(detail)
                    case .truncated(let detail): throw ProviderError.malformed(detail)
                    }
                }
                wait = policy.backoff(beforeRetry: retry)
                switch failure {
                case .timeout: reason = "timeout"
                case .unreachable(let detail), .truncated(let detail): reason = detail
                }
            }
            logger.debug("retry", metadata: [
                "url": "\(shown)", "retry": "\(retry + 1)/\(policy.retries)",
                "wait_s": "\(wait.inSeconds)", "reason": "\(reason)",
            ])
            try await Task.sleep(for: wait)
            retry += 1
        }
    }

    /// One request, bounded by `policy.timeout` from start to the end of the body (the client's
    /// own deadline stops at the response head, so a slow body would otherwise hang).
    private func attempt(_ method: HTTPMethod, _ url: URL, headers: [String: String], body: Data?) async throws -> Fetched {
        let timeout = policy.timeout
        do {
            return try await withThrowingTaskGroup(of: Fetched.self) { group in
                group.addTask { try await self.perform(method, url, headers: headers, body: body) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw AttemptFailure.timeout
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw AttemptFailure.timeout }
                return first
            }
        } catch let error as AttemptFailure {
            throw error
        } catch let error as ProviderError {
            throw error
        } catch let error as HTTPClientError {
            if Task.isCancelled { throw CancellationError() }
            switch error {
            case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded, .tlsHandshakeTimeout,
                 .getConnectionFromPoolTimeout:
                throw AttemptFailure.timeout
            case .invalidURL, .emptyHost, .emptyScheme:
                throw ProviderError.notConfigured("invalid URL \(URLRedaction.redacted(url))")
            case .redirectCycleDetected, .redirectLimitReached:
                // The same answer every time: not worth a retry.
                throw ProviderError.unreachable("\(URLRedaction.redacted(url)): redirects in a loop (\(error == .redirectCycleDetected ? "back to a URL already visited" : "more than 5 redirects"))")
            default:
                throw AttemptFailure.unreachable("\(URLRedaction.redacted(url)): \(Self.describe(error))")
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw AttemptFailure.unreachable("\(URLRedaction.redacted(url)): \(Self.describe(error))")
        }
    }

    /// A connection failure in words: NIO's own descriptions name the syscall and the errno.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNRESET: return "connection reset by the server"
            case ECONNREFUSED: return "connection refused"
            case EPIPE: return "connection closed by the server"
            default: break
            }
        }
        if let error = error as? HTTPParserError {
            return "not a valid HTTP response (\(error.debugDescription))"
        }
        return "\(error)"
    }

    private func perform(_ method: HTTPMethod, _ url: URL, headers: [String: String], body: Data?) async throws -> Fetched {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let given = Set(headers.keys.map { $0.lowercased() })
        if !given.contains("user-agent") {
            request.headers.add(name: "User-Agent", value: "tvguide")
        }
        if decodesCompression && !given.contains("accept-encoding") {
            request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        for (name, value) in headers {
            request.headers.add(name: name, value: value)
        }
        sent.increment()
        let response = try await client.execute(request, deadline: .distantFuture)
        let status = Int(response.status.code)
        var fields: [String: String] = [:]
        for header in response.headers {
            let name = header.name.lowercased()
            // Set-Cookie values hold commas of their own (Expires dates): several are kept apart by newlines.
            let separator = name == "set-cookie" ? "\n" : ", "
            fields[name] = fields[name].map { "\($0)\(separator)\(header.value)" } ?? header.value
        }
        // Error bodies are not needed: dropping the body stream closes the connection.
        guard (200..<300).contains(status) else { return Fetched(status: status, headers: fields, body: Data()) }

        let limit = policy.maxBodyBytes
        let shown = URLRedaction.redacted(url)
        let tooLarge = ProviderError.malformed("body of \(shown) exceeds the limit of \(ByteCount.text(limit)) (max_body)")
        let announced = fields["content-length"].flatMap(Int.init)
        if let announced, announced > limit { throw tooLarge }
        var body = Data()
        do {
            for try await chunk in response.body {
                guard body.count + chunk.readableBytes <= limit else { throw tooLarge }
                body.append(contentsOf: chunk.readableBytesView)
            }
        } catch let error as ProviderError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
            if let error = error as? NIOHTTPDecompression.DecompressionError, error == .limit {
                // Not retried: the same body inflates the same way every time.
                throw ProviderError.malformed("body of \(shown) is too large: its \(fields["content-encoding"] ?? "compressed") encoding inflates to more than "
                    + "100 times its size (a decompression bomb?), refused after \(ByteCount.text(body.count))")
            }
            if let error = error as? IOError, error.errnoCode == ECONNRESET {
                throw AttemptFailure.unreachable("\(shown): connection reset by the server after \(body.count) bytes of the body")
            }
            let expected = announced.map { " of the \($0) announced" } ?? ""
            let cause = (error as? HTTPParserError) == .invalidEOFState ? "" : " (\(Self.describe(error)))"
            throw AttemptFailure.truncated("body of \(shown) cut short: the connection closed after \(body.count) bytes\(expected)\(cause)")
        }
        // The client has decoded the body: describe what the caller receives, not the wire.
        if decodesCompression, let encoding = fields["content-encoding"]?.lowercased(),
           encoding == "gzip" || encoding == "deflate" {
            fields["content-encoding"] = nil
        }
        fields["content-length"] = String(body.count)
        return Fetched(status: status, headers: fields, body: body)
    }
}

/// Requests in a row that failed for a reason of the server's; past the limit, the last such
/// error is thrown again without asking (`TransportPolicy.failFastAfter`). Checked after the
/// permit is taken, so requests queued behind the failing ones do not wait out timeouts too.
private actor FailureStreak {
    private let limit: Int
    private var count = 0
    private var last: ProviderError?

    init(limit: Int) {
        self.limit = limit
    }

    nonisolated func counting<T: Sendable>(_ url: URL, logger: Logger, _ request: () async throws -> T) async throws -> T {
        if let open = await openError(for: url) { throw open }
        do {
            let value = try await request()
            await succeeded()
            return value
        } catch let error as ProviderError {
            await failed(error, url: url, logger: logger)
            throw error
        }
    }

    /// The last failure again, naming `url` where the error names one.
    private func openError(for url: URL) -> ProviderError? {
        guard limit > 0, count >= limit, let last else { return nil }
        let shown = URLRedaction.redacted(url)
        switch last {
        case .http(let status, _): return .http(status: status, url: shown)
        case .unreachable(let detail): return .unreachable("\(shown): not asked after \(count) failures in a row, the last: \(detail)")
        default: return last
        }
    }

    private func succeeded() {
        count = 0
    }

    private func failed(_ error: ProviderError, url: URL, logger: Logger) {
        guard Self.isServerSide(error) else { return }
        count += 1
        last = error
        if count == limit {
            logger.warning("giving up on this source for the run", metadata: [
                "url": "\(URLRedaction.redacted(url))", "failures_in_a_row": "\(count)", "error": "\(error)",
            ])
        }
    }

    private static func isServerSide(_ error: ProviderError) -> Bool {
        switch error {
        case .timeout, .unreachable, .rateLimited: true
        case .http(let status, _): status >= 500
        case .malformed, .notConfigured, .notFound: false
        }
    }
}

/// A count read from any thread. NSLock rather than `Mutex`, which needs macOS 15.
private final class SentCounter: @unchecked Sendable {
    // Guards `count`.
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() {
        lock.withLock { count += 1 }
    }
}
