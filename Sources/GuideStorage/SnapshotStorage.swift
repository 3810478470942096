import Foundation
import GuideCore

/// Where builds commit snapshots and servers read them: a folder (`SnapshotStore`, the default)
/// or a database several processes share (`snapshots.store`, the PostgreSQL store). Every
/// implementation commits a snapshot whole or not at all, so `latest` always points at a snapshot
/// that was written entire, and keeps the snapshot's bytes as `SnapshotCodec` writes them, so
/// `tvguide diff` and other tools read any of them alike.
package protocol SnapshotStorage: Sendable {
    /// For messages: a folder's path, or a URL without its password.
    var location: String { get }
    /// The snapshot `latest` points at; nil when none was committed yet.
    func latest() async throws -> Snapshot?
    /// Stores `snapshot`, moves `latest` to it and keeps the newest `keep`; returns where it
    /// went (a file's path, or the store's URL and the snapshot's number).
    func commit(_ snapshot: Snapshot) async throws -> String
}

/// A store that several `tvguide` processes share: servers follow what any process commits, and
/// builders take turns.
package protocol SharedSnapshotStorage: SnapshotStorage {
    /// `latest()` for a server about to serve it: `follow` then reports only what comes after.
    func latestToServe() async throws -> Snapshot?
    /// Runs until the task is cancelled, telling `handle` how the store can be reached and every
    /// snapshot another process commits after the one served (this process's own commits are
    /// already in service). It never throws: a lost connection is an event, and it reconnects.
    func follow(_ handle: @escaping @Sendable (SnapshotFeedEvent) async -> Void) async
    /// Runs `body` as the one builder, after waiting for any other to finish (`tvguide build`).
    func asBuilder<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
    /// Runs `body` as the one builder, unless another process is building or committed a
    /// snapshot within `fresh` (then nil, at once): replicas whose timers fire at different
    /// moments build once per interval between them, not once each.
    func asBuilderIfDue<T: Sendable>(fresh: Duration, _ body: @Sendable () async throws -> T) async throws -> T?
}

/// What a server following a shared store hears.
package enum SnapshotFeedEvent: Sendable {
    /// Listening for commits: a new snapshot arrives within moments.
    case live
    /// The store cannot be reached, or cannot tell of commits; it is asked again every few
    /// seconds. `reason` names no password.
    case lost(reason: String)
    /// Another process committed this snapshot; it is now `latest`.
    case committed(Snapshot)
}

extension SnapshotStore: SnapshotStorage {
    package var location: String { directory.path }

    package func latest() async throws -> Snapshot? {
        try await offCooperativeThreads { try loadLatest() }
    }

    package func commit(_ snapshot: Snapshot) async throws -> String {
        try await offCooperativeThreads { try write(snapshot).path }
    }
}
