import Foundation

/// Every way a provider can fail. A failure is reported, never a crash: the chain records it and
/// asks the next provider.
public enum ProviderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host could not be reached (DNS, refused, reset).
    case unreachable(String)
    case timeout(seconds: Double)
    case http(status: Int, url: String)
    /// The server said 429; `retryAfter` in seconds when it said how long to wait.
    case rateLimited(retryAfter: Double?)
    /// The response arrived but is not what the format promises.
    case malformed(String)
    /// The provider cannot run as configured (a missing API key, a missing file).
    case notConfigured(String)
    /// The provider has nothing for this request (an unknown channel).
    case notFound(String)

    /// A short machine-readable name: `unreachable`, `timeout`, `http`, …
    public var kind: String {
        switch self {
        case .unreachable: "unreachable"
        case .timeout: "timeout"
        case .http: "http"
        case .rateLimited: "rateLimited"
        case .malformed: "malformed"
        case .notConfigured: "notConfigured"
        case .notFound: "notFound"
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let detail): "unreachable: \(detail)"
        case .timeout(let seconds): "timeout after \(Self.trim(seconds))s"
        case .http(let status, let url): "HTTP \(status) from \(url)"
        case .rateLimited(let retryAfter?): "rate limited (429), retry after \(Self.trim(retryAfter))s"
        case .rateLimited(nil): "rate limited (429)"
        case .malformed(let detail): "malformed response: \(detail)"
        case .notConfigured(let reason): "not configured: \(reason)"
        case .notFound(let detail): "not found: \(detail)"
        }
    }

    /// Wraps any error as a `ProviderError`, keeping one that already is.
    public init(_ error: any Error) {
        if let error = error as? ProviderError {
            self = error
        } else if error is DecodingError {
            self = .malformed(String(describing: error))
        } else {
            self = .unreachable(String(describing: error))
        }
    }

    private static func trim(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
