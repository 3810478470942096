import Foundation

/// What an `HTTPTransport` fetched (from the network, its cache or a recording). Header names are
/// lower-cased. Not `HTTPResponse`: that is swift-http-types' message head, which the server uses.
public struct TransportResponse: Sendable {
    /// Where the body came from, for the run report.
    public enum Origin: String, Sendable, Codable {
        /// Fetched now from the network.
        case network
        /// Served from the on-disk cache without asking (younger than the cache TTL).
        case cache
        /// Asked with a conditional GET and told it had not changed (304).
        case revalidated
        /// Answered from recorded responses.
        case replay
    }

    public var status: Int
    public var headers: [String: String]
    public var body: Data
    public var url: URL
    public var origin: Origin

    public init(status: Int, headers: [String: String] = [:], body: Data, url: URL, origin: Origin = .network) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.origin = origin
    }
}

/// The one way providers reach the network (or a recording of it). Providers know this protocol
/// only; the CLI chooses the implementation: the live client, with retries, rate-limit handling
/// and an on-disk cache, or the replay of recorded responses.
public protocol HTTPTransport: Sendable {
    /// GETs `url`. Returns a 2xx response; anything else throws a `ProviderError`
    /// (`http`, `timeout`, `unreachable`, `rateLimited`, `notFound` for a missing recording).
    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse
    /// POSTs `body` to `url` (a login, say), never from a cache; same errors as `get`.
    func post(_ url: URL, headers: [String: String], body: Data) async throws -> TransportResponse
}

extension HTTPTransport {
    public func get(_ url: URL) async throws -> TransportResponse {
        try await get(url, headers: [:])
    }
}
