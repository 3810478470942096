import Foundation
import GuideCore
import GuideStorage

/// How `tvguide serve` runs: where it listens and what the guide offers beyond the snapshot.
package struct ServerSettings: Sendable {
    package var host: String
    /// 0 picks a free port; the server prints the one it got.
    package var port: Int
    /// Named line-ups (`national`, an operator's) → canonical channel ids, from providers.yaml.
    package var lineups: [String: [String]]
    /// How long before an airing a calendar reminder goes off.
    package var reminderLead: Duration
    /// How often the guide is rebuilt in the background; nil serves the loaded guide as it is.
    package var refreshInterval: Duration?
    /// What one client may ask and how long it may take (docs/server.md, "Limits").
    package var limits = ServerLimits()
    /// Web origins (`https://app.example`) whose pages may read the JSON API and the feeds;
    /// `*` lets any. Empty: no CORS headers at all.
    package var corsOrigins: [String] = []
    /// Channel id → the further ids providers.yaml gives it, for matching a playlist's `tvg-id`.
    package var channelAliases: [String: [String]] = [:]
    /// Channel ids in the order pages and channel lists show them (providers.yaml's channel map);
    /// channels it leaves out follow, by id.
    package var channelOrder: [String] = []
    /// `server.public_url`: the scheme, host and path prefix of the URLs the server writes.
    package var publicURL: String?
    /// `server.trust_forwarded`: believe a proxy's `Forwarded` / `X-Forwarded-*` fields.
    package var trustForwarded = false

    package init(host: String = "127.0.0.1", port: Int = 8080, lineups: [String: [String]] = [:],
                reminderLead: Duration = .seconds(300), refreshInterval: Duration? = nil) {
        self.host = host
        self.port = port
        self.lineups = lineups
        self.reminderLead = reminderLead
        self.refreshInterval = refreshInterval
    }
}

/// What the server needs from the rest of tvguide, handed over by the CLI, which wires the
/// modules: the server itself knows GuideCore only.
package struct GuideSource: Sendable {
    /// Builds a new guide (fetching from the providers and writing a snapshot); nil disables
    /// refresh. Its answer is nil when the build was left to another replica, whose guide
    /// arrives through `shared`.
    package var refresh: (@Sendable () async throws -> RefreshOutcome?)?
    /// Writes the guide's XMLTV document (of the channels given; all when nil) to a file, and
    /// its gzip to another: the feeds `/xmltv.xml` and `/xmltv.xml.gz` are sent from them.
    package var writeXMLTV: XMLTVFileWriter
    /// Where those files go (beside the snapshots, or in the cache folder); nil makes a
    /// temporary folder for the run.
    package var feedDirectory: URL?
    /// Gzip-compresses bytes (rendered bodies sent to clients that accept it).
    package var gzip: @Sendable (Data) throws -> Data
    /// The wall clock; tests and screenshots fix it.
    package var clock: @Sendable () -> Date
    /// The user's M3U playlist as last read (`/playlist.m3u`); nil when providers.yaml names none.
    package var playlist: (@Sendable () async -> ServedPlaylist)?
    /// The store replicas share (`snapshots.store`): the server follows it, swapping in every
    /// snapshot another process commits, and shows how it can be reached in `/health`.
    package var shared: (any SharedSnapshotStorage)?

    package init(refresh: (@Sendable () async throws -> RefreshOutcome?)?,
                writeXMLTV: @escaping XMLTVFileWriter, gzip: @escaping @Sendable (Data) throws -> Data,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.refresh = refresh
        self.writeXMLTV = writeXMLTV
        self.gzip = gzip
        self.clock = clock
    }
}

/// Writes `snapshot`'s XMLTV document, keeping the channels given (all when nil), to the file
/// `plain` and its gzip to `compressed`.
package typealias XMLTVFileWriter = @Sendable (_ snapshot: Snapshot, _ keeping: Set<String>?, _ plain: URL, _ compressed: URL) throws -> Void

/// The playlist `/playlist.m3u` gives back: the last one read well, and why the latest read
/// failed, if it did.
package struct ServedPlaylist: Sendable {
    package var playlist: Playlist?
    package var error: String?
    /// Changes whenever `playlist` does: part of the rendered response's cache key.
    package var revision: Int

    package init(playlist: Playlist?, error: String?, revision: Int) {
        self.playlist = playlist
        self.error = error
        self.revision = revision
    }
}

/// A successful rebuild: the new guide and how many requests each provider made for it.
package struct RefreshOutcome: Sendable {
    package var snapshot: Snapshot
    package var requests: [String: Int]

    package init(snapshot: Snapshot, requests: [String: Int]) {
        self.snapshot = snapshot
        self.requests = requests
    }
}
