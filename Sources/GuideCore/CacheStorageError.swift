import Foundation

/// Why a cache's storage could not be read or written. Neither ever fails a run: what cannot be
/// read is a miss, what cannot be written is fetched again next time, and the reason reaches the
/// run report or the log. `cache` names the cache for messages (a folder, or a URL without its password).
package enum CacheStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(cache: String, reason: String)
    /// Stored for other provider settings (another fingerprint) or another format version.
    case otherSettings(cache: String)
    case unwritable(cache: String, reason: String)

    package var description: String {
        switch self {
        case .unreadable(let cache, let reason): "\(cache) is unreadable and was ignored: \(reason)"
        case .otherSettings(let cache): "\(cache) was made with other settings and was ignored"
        case .unwritable(let cache, let reason): "could not write \(cache): \(reason)"
        }
    }
}
