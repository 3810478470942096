import Foundation

/// How patient and how parallel a `LiveTransport` is. One policy per provider (providers.yaml
/// sets `timeout:`); every field has the default the project documents.
public struct TransportPolicy: Sendable, Hashable {
    /// Time allowed for one attempt, from sending the request to the last byte of the body.
    public var timeout: Duration
    /// Further attempts after the first one fails with a timeout, a connection error, a 5xx or a 429.
    public var retries: Int
    /// Wait before retry n (0-based) is `backoffBase × 2ⁿ`: no jitter, so runs are reproducible.
    public var backoffBase: Duration
    /// Requests in flight at once through one transport (one transport per provider).
    public var maxConcurrent: Int
    /// The longest `Retry-After` worth sleeping through; a longer one fails at once with `.rateLimited`.
    public var maxRetryAfter: Duration
    /// Bodies larger than this are refused as `.malformed` rather than held in memory.
    public var maxBodyBytes: Int

    public init(
        timeout: Duration = .seconds(10),
        retries: Int = 2,
        backoffBase: Duration = .milliseconds(500),
        maxConcurrent: Int = 4,
        maxRetryAfter: Duration = .seconds(60),
        maxBodyBytes: Int = 64 << 20
    ) {
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoffBase = backoffBase
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxRetryAfter = maxRetryAfter
        self.maxBodyBytes = maxBodyBytes
    }

    /// The wait before retry number `retry` (0 for the first retry).
    public func backoff(beforeRetry retry: Int) -> Duration {
        backoffBase * (1 << min(retry, 30))
    }
}

extension Duration {
    /// The duration in seconds, for `ProviderError` and `Date` arithmetic.
    var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    init(secondsValue: Double) {
        self = .nanoseconds(Int64((secondsValue * 1e9).rounded()))
    }
}
