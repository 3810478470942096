import Foundation

/// How patient and how parallel a `LiveTransport` is. One policy per provider (providers.yaml
/// sets `timeout:`); every field has the default the project documents.
package struct TransportPolicy: Sendable, Hashable {
    /// Time allowed for one attempt, from sending the request to the last byte of the body.
    package var timeout: Duration
    /// Further attempts after the first one fails with a timeout, a connection error, a 5xx or a 429.
    package var retries: Int
    /// Wait before retry n (0-based) is `backoffBase × 2ⁿ`: no jitter, so runs are reproducible.
    package var backoffBase: Duration
    /// Requests in flight at once through one transport (one transport per provider).
    package var maxConcurrent: Int
    /// The longest `Retry-After` worth sleeping through; a longer one fails at once with `.rateLimited`.
    package var maxRetryAfter: Duration
    /// Bodies larger than this are refused as `.malformed` rather than held in memory.
    package var maxBodyBytes: Int
    /// After this many requests in a row fail for a reason of the server's (timeout, unreachable,
    /// 429, 5xx), retries spent, later requests fail at once with the same error instead of
    /// waiting out the same timeouts: a source that is down costs a run a few timeouts, not one
    /// per title or per day. 0 never gives up. A success in between starts the count again.
    package var failFastAfter: Int

    package init(
        timeout: Duration = .seconds(10),
        retries: Int = 2,
        backoffBase: Duration = .milliseconds(500),
        maxConcurrent: Int = 4,
        maxRetryAfter: Duration = .seconds(60),
        maxBodyBytes: Int = 64 << 20,
        failFastAfter: Int = 3
    ) {
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoffBase = backoffBase
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxRetryAfter = maxRetryAfter
        self.maxBodyBytes = maxBodyBytes
        self.failFastAfter = max(0, failFastAfter)
    }

    /// The wait before retry number `retry` (0 for the first retry).
    package func backoff(beforeRetry retry: Int) -> Duration {
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

/// Byte counts as providers.yaml writes them (`max_body: 8MB`) and as messages show them.
package enum ByteCount {
    /// Bytes from `512KB`, `8MB`, `1GB` (powers of 1024; `B`, `K`, `M`, `G` too) or a bare number
    /// of bytes; nil for anything else, zero or negative.
    package static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = Int(digits), value > 0 else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let shift: Int
        switch unit {
        case "", "B": shift = 0
        case "K", "KB", "KIB": shift = 10
        case "M", "MB", "MIB": shift = 20
        case "G", "GB", "GIB": shift = 30
        default: return nil
        }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : bytes
    }

    /// `8 MB`, `512 KB`, `1234 bytes`: whole units only when exact.
    package static func text(_ bytes: Int) -> String {
        for (shift, unit) in [(30, "GB"), (20, "MB"), (10, "KB")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }
}
