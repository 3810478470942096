import Foundation
import GuideConfig
import GuideCore
import GuideTransport

/// Builds each provider's transport from its options: the replay of a recordings folder when the
/// provider says `replay:`, else the live client with the provider's timeout, retries,
/// concurrency and body limit, sharing the HTTP cache that makes `cache.ttl` hold across runs
/// (and, in the PostgreSQL store, across the processes that build into it).
package struct TransportFactory: Sendable {
    /// Options every HTTP provider accepts.
    package static let options = ["timeout", "retries", "concurrency", "max_body", "replay"]

    /// The largest body a provider type accepts unless its `max_body` says otherwise. A body is
    /// held in memory to be parsed, so each type's limit is a few times the largest real answer
    /// of its kind, not one shared ceiling: a JSON API answering 50 MB is broken, not generous.
    package enum BodyLimit: Int, Sendable {
        /// One channel's week or one work's details: well under 1 MB (MiGuiaTV, TMDB, TheTVDB).
        case jsonAPI = 8_388_608
        /// One page per channel and day, or per day's ranking (scrape, json-feed).
        case page = 16_777_216
        /// A whole guide in one document (XMLTV): a week of hundreds of channels.
        case document = 268_435_456
        /// The user's M3U playlist (`Playlist.maximumBytes`).
        case playlist = 33_554_432
    }

    package var cache: HTTPCache
    package var cacheTTL: TimeInterval
    /// The run's clock, for cache freshness, `Retry-After` dates and providers' token expiry.
    package var clock: RunClock
    /// Counts the requests of the provider being built, for the run report.
    var timing: ProviderTiming?

    /// - Parameters:
    ///   - storage: where the HTTP cache lives (`CacheStorages`); nil for the folder `cache.dir`.
    ///   - secrets: values the cache must never hold (the configuration's `environmentValues`).
    package init(cache: CacheSettings, storage: (any HTTPCacheStorage)? = nil, secrets: [String] = [], clock: RunClock = .wall) {
        self.cache = HTTPCache(storage: storage ?? HTTPCacheFolder(directory: cache.directory))
        self.cache.secrets = SecretScrubber(secrets)
        self.cacheTTL = cache.ttl
        self.clock = clock
    }

    package func transport(for options: ProviderOptions, baseURL: URL, bodyLimit: BodyLimit = .jsonAPI) throws(ConfigError) -> any HTTPTransport {
        let timeout = try options.duration("timeout", default: 10)
        let retries = try options.int("retries", default: 2, in: 0...10)
        let concurrency = try options.int("concurrency", default: 4, in: 1...64)
        let maxBody = try Self.maxBody(options, default: bodyLimit)
        if let recordings = try options.optionalPath("replay") {
            let replay = ReplayTransport(root: recordings, baseURL: baseURL)
            return timing.map { CountingTransport(inner: replay, timing: $0) } ?? replay
        }
        let policy = TransportPolicy(timeout: .milliseconds(Int64(timeout * 1_000)), retries: retries, maxConcurrent: concurrency, maxBodyBytes: maxBody)
        return liveTransport(policy: policy)
    }

    /// The live client for a document the configuration names outside any provider (the playlist).
    func transport(bodyLimit: BodyLimit) -> any HTTPTransport {
        liveTransport(policy: TransportPolicy(timeout: .seconds(10), retries: 1, maxConcurrent: 1, maxBodyBytes: bodyLimit.rawValue))
    }

    private func liveTransport(policy: TransportPolicy) -> any HTTPTransport {
        let live = LiveTransport(policy: policy, cache: cache, cacheTTL: .milliseconds(Int64(cacheTTL * 1_000)), now: clock.reading)
        timing?.track(live)
        return live
    }

    /// The same factory, its transports counting requests into `timing`.
    func counting(into timing: ProviderTiming) -> TransportFactory {
        var copy = self
        copy.timing = timing
        return copy
    }

    /// `max_body: 8MB` (KB, MB, GB or bytes).
    private static func maxBody(_ options: ProviderOptions, default limit: BodyLimit) throws(ConfigError) -> Int {
        guard let text = try options.optionalString("max_body"), let location = options.location(of: "max_body") else { return limit.rawValue }
        guard let bytes = ByteCount.parse(text) else {
            // A configuration error never shows a value taken from the environment.
            let shown = options.environmentValues.contains { text.contains($0) } ? "a value from the environment" : "'\(text)'"
            throw .invalidValue("expected a size like 8MB (units: KB, MB, GB), got \(shown)", location)
        }
        return bytes
    }
}
