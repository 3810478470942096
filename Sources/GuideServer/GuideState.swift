import Foundation
import GuideCore
import NIOConcurrencyHelpers
import NIOCore

/// The guide being served and how its refreshes went. A refresh swaps the whole index at once,
/// so a request sees either the old guide or the new one, never a mix.
final class GuideState: Sendable {
    struct Health: Sendable {
        /// When the served guide was loaded or built.
        var loadedAt: Date?
        /// Where the served guide came from: `latest.json` at start-up or a refresh.
        var origin: String
        var lastRefreshAttempt: Date?
        var lastRefreshSuccess: Date?
        /// Why the last refresh failed; nil once one succeeds.
        var lastRefreshError: String?
        var refreshes: Int = 0
        var failedRefreshes: Int = 0
        /// The shared store followed, when there is one (`snapshots.store`).
        var store: StoreHealth?
    }

    /// How a replica follows the shared store.
    struct StoreHealth: Sendable {
        /// The store's URL without password.
        var location: String
        /// True while listening for commits; false after the connection was lost, until it is
        /// made again. Nil before the first attempt.
        var live: Bool?
        /// When `live` last changed.
        var since: Date?
        /// Why the store was lost; nil once it is back.
        var lastError: String?
        /// Connections made again after a loss.
        var reconnects = 0
        /// Snapshots committed by another process and swapped in.
        var followed = 0

        init(location: String) {
            self.location = location
        }
    }

    private struct Current: Sendable {
        var index: GuideIndex
        var health: Health
        var responses = BoundedCache<RenderedResponse>()
        /// By request target (`/now?tz=Europe/Madrid`): what `FastLaneHandler` may answer with.
        var fastAnswers = BoundedCache<FastAnswer>()

        /// Swaps `index` in whole; the bodies rendered from the old one go with it.
        mutating func serve(_ index: GuideIndex, at moment: Date, origin: String) -> Retired {
            let retired = Retired(index: self.index, responses: forgetResponses())
            self.index = index
            health.loadedAt = moment
            health.origin = origin
            return retired
        }

        mutating func forgetResponses() -> Retired.Responses {
            defer {
                responses = BoundedCache()
                fastAnswers = BoundedCache()
            }
            return (responses, fastAnswers)
        }
    }

    /// What a swap takes out of service, handed back to be let go after the lock: freeing a
    /// large guide takes long enough that every request waiting on the lock would wait for it.
    private struct Retired {
        typealias Responses = (BoundedCache<RenderedResponse>, BoundedCache<FastAnswer>)
        var index: GuideIndex
        var responses: Responses
    }

    /// Rendered bodies kept per guide version; beyond this many, or this many bytes of bodies, the
    /// cache starts over, which bounds its memory whatever query strings clients send (a query
    /// string a client makes up is a new key, and `/grid?hours=24&limit=1000` is megabytes). The
    /// fast lane's answers share those bodies and have the same bounds.
    static let responseCacheLimit = 4_096
    static let responseCacheBytes = 64 << 20

    private let current: NIOLockedValueBox<Current>

    /// Where a guide swapped in comes from: this server's refresh, or another replica's commit.
    enum Swap {
        case refresh
        case store
    }

    init(index: GuideIndex, origin: String, loadedAt: Date?, store: StoreHealth? = nil) {
        current = NIOLockedValueBox(Current(index: index, health: Health(loadedAt: loadedAt, origin: origin, store: store)))
    }

    var index: GuideIndex { current.withLockedValue { $0.index } }
    var health: Health { current.withLockedValue { $0.health } }

    func replace(with index: GuideIndex, at moment: Date) {
        let retired = current.withLockedValue {
            $0.health.lastRefreshAttempt = moment
            $0.health.lastRefreshSuccess = moment
            $0.health.lastRefreshError = nil
            $0.health.refreshes += 1
            return $0.serve(index, at: moment, origin: "refresh")
        }
        withExtendedLifetime(retired) {}
    }

    /// Serves a snapshot another replica committed to the shared store.
    func follow(_ index: GuideIndex, at moment: Date) {
        let retired = current.withLockedValue {
            $0.health.store?.followed += 1
            return $0.serve(index, at: moment, origin: "store")
        }
        withExtendedLifetime(retired) {}
    }

    /// Records whether the shared store can be reached (`live`), and why not; true when this
    /// is a reconnection after a loss.
    @discardableResult
    func storeReachable(_ live: Bool, error: String? = nil, at moment: Date) -> Bool {
        current.withLockedValue {
            guard var store = $0.health.store else { return false }
            let reconnected = store.live == false && live
            if reconnected { store.reconnects += 1 }
            if store.live != live { store.since = moment }
            store.live = live
            store.lastError = live ? nil : error
            $0.health.store = store
            return reconnected
        }
    }

    func refreshFailed(_ message: String, at moment: Date) {
        current.withLockedValue {
            $0.health.lastRefreshAttempt = moment
            $0.health.lastRefreshError = message
            $0.health.failedRefreshes += 1
        }
    }

    /// The response rendered for `key` on this guide version, or a new one from `render`. Two
    /// requests racing for the same key may both render; the bodies are identical.
    func response(for key: String, render: (GuideIndex) throws -> RenderedResponse) rethrows -> RenderedResponse {
        try versionedResponse(for: key, render: render).response
    }

    /// `response(for:render:)`, the version of the guide it was rendered from, and whether it
    /// came from the cache (asked before) rather than rendered now.
    func versionedResponse(for key: String, render: (GuideIndex) throws -> RenderedResponse) rethrows
        -> (response: RenderedResponse, version: String, cached: Bool) {
        // Only the index's version is copied out on a hit: copying the whole index would retain
        // and release its every array and dictionary on each request.
        let (version, cached) = current.withLockedValue { ($0.index.version, $0.responses[key]) }
        if let cached { return (cached, version, true) }
        let index = self.index
        let rendered = try render(index).movedToFile()
        current.withLockedValue {
            guard $0.index.version == index.version else { return }
            // A body in a file counts too: the bound holds the temporary folder's share as well.
            $0.responses.insert(rendered, for: key, bytes: rendered.length)
        }
        return (rendered, index.version, false)
    }

    /// The answer recorded for `target` during `second`.
    func fastAnswer(for target: String, second: Int) -> FastAnswer? {
        current.withLockedValue { current in
            current.fastAnswers[target].flatMap { $0.second == second ? $0 : nil }
        }
    }

    /// Records `answer` unless the guide changed since `version`, whose bodies it would still hold.
    func remember(_ answer: FastAnswer, for target: String, version: String) {
        current.withLockedValue {
            guard $0.index.version == version else { return }
            $0.fastAnswers.insert(answer, for: target, bytes: answer.body.readableBytes)
        }
    }
}

/// Values by key, started over once `GuideState.responseCacheLimit` entries or
/// `GuideState.responseCacheBytes` bytes would be passed: a bound on memory whatever keys
/// clients make up, without the bookkeeping of an eviction order.
struct BoundedCache<Value: Sendable>: Sendable {
    private var values: [String: (value: Value, bytes: Int)] = [:]
    private var bytes = 0

    subscript(key: String) -> Value? { values[key]?.value }

    mutating func insert(_ value: Value, for key: String, bytes size: Int) {
        if values.count >= GuideState.responseCacheLimit || bytes + size > GuideState.responseCacheBytes {
            values = [:]
            bytes = 0
        }
        bytes += size - (values.updateValue((value, size), forKey: key)?.bytes ?? 0)
    }
}
