import Foundation
import GuideConfig
import GuideCore
import GuideTransport

/// Builds each provider's transport from its options: the replay of a recordings folder when the
/// provider says `replay:`, else the live client with the provider's timeout, retries and
/// concurrency, sharing the on-disk HTTP cache that makes `cache.ttl` hold across runs.
public struct TransportFactory: Sendable {
    /// Options every HTTP provider accepts.
    public static let options = ["timeout", "retries", "concurrency", "replay"]

    public var cache: HTTPCache
    public var cacheTTL: TimeInterval

    public init(cache: CacheSettings) {
        self.cache = HTTPCache(directory: cache.directory)
        self.cacheTTL = cache.ttl
    }

    public func transport(for options: ProviderOptions, baseURL: URL) throws(ConfigError) -> any HTTPTransport {
        let timeout = try options.duration("timeout", default: 10)
        let retries = try options.int("retries", default: 2, in: 0...10)
        let concurrency = try options.int("concurrency", default: 4, in: 1...64)
        if let recordings = try options.optionalPath("replay") {
            return ReplayTransport(root: recordings, baseURL: baseURL)
        }
        let policy = TransportPolicy(timeout: .milliseconds(Int64(timeout * 1_000)), retries: retries, maxConcurrent: concurrency)
        return LiveTransport(policy: policy, cache: cache, cacheTTL: .milliseconds(Int64(cacheTTL * 1_000)))
    }
}
