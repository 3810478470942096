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

extension ProviderError {
    /// `malformed`, saying that the body is an HTML page, when a body that did not read as
    /// `format` (`JSON`, `XMLTV`) is one — the error page a proxy, a CDN or a CMS serves with
    /// status 200 — and quoting its title, which tells more than the parser's complaint about
    /// the first `<`. Nil when the body does not look like HTML: the parser's error stands.
    ///
    /// The `Content-Type` alone decides nothing: servers label JSON `text/plain` and XMLTV
    /// `application/octet-stream` often enough that a body that parses is accepted whatever its
    /// label, and the label is only quoted here to explain a body that does not.
    public static func htmlPage(in body: Data, contentType: String?, expected format: String, source: String) -> ProviderError? {
        guard let title = htmlTitle(body, contentType: contentType) else { return nil }
        let label = contentType.map { " (\($0))" } ?? ""
        let named = title.isEmpty ? "" : ": '\(title)'"
        return .malformed("\(source): expected \(format), got an HTML page\(label)\(named)")
    }

    /// The title of an HTML page ("" when it has none), or nil when `body` does not look like one.
    private static func htmlTitle(_ body: Data, contentType: String?) -> String? {
        let head = String(decoding: body.prefix(4096), as: UTF8.self)
        let start = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.prefix(14).lowercased()
        let labelled = contentType?.lowercased().hasPrefix("text/html") == true && start.hasPrefix("<")
        guard labelled || start.hasPrefix("<!doctype html") || start.hasPrefix("<html") else { return nil }
        guard let open = head.range(of: "<title", options: .caseInsensitive),
              let tagEnd = head.range(of: ">", range: open.upperBound..<head.endIndex),
              let close = head.range(of: "</title>", options: .caseInsensitive, range: tagEnd.upperBound..<head.endIndex)
        else { return "" }
        let title = head[tagEnd.upperBound..<close.lowerBound].split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return title.count > 80 ? String(title.prefix(80)) + "…" : title
    }
}
