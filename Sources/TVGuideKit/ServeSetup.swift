import Foundation
import GuideConfig
import GuideCore
import GuideStorage
import GzipCodec
import GuideServer
import Logging
import XMLTV

/// Wires `tvguide serve`: the server gets the snapshot store, the build pipeline as its refresh,
/// and the XMLTV writer, without knowing the modules behind them.
package enum ServeSetup {
    /// - Parameters:
    ///   - store: where snapshots are read and committed (`SnapshotStores.make`); a shared one is
    ///     followed, and replicas take turns to build into it.
    ///   - refreshInterval: how often a refresh comes; nil or `refresh` false serves the loaded
    ///     guide without rebuilding it (a shared store's commits still arrive).
    package static func source(configuration: GuideConfiguration, store: any SnapshotStorage, refresh: Bool, refreshInterval: Duration?,
                               clock: @escaping @Sendable () -> Date) -> GuideSource {
        let rebuild: (@Sendable () async throws -> RefreshOutcome?)? = refresh ? { @Sendable in
            do {
                let request = BuildRequest(now: clock(), store: store)
                let built = try await GuideBuilder.buildIfDue(configuration: configuration, request: request, interval: refreshInterval ?? .zero)
                return built.map { RefreshOutcome(snapshot: $0.snapshot, requests: $0.timings.mapValues { $0.requests }) }
            } catch {
                // The error is shown by /health, which no log handler filters.
                throw RefreshFailure(description: SecretValues.shared.redact(String(describing: error)))
            }
        } : nil
        var source = GuideSource(
            refresh: rebuild,
            writeXMLTV: { snapshot, keeping, plain, compressed in
                try XMLTVFeedFiles.write(channels: snapshot.channels, programmes: snapshot.programmes, keeping: keeping, plain: plain, compressed: compressed)
            },
            gzip: { data in try Gzip.compress(data) },
            clock: clock)
        source.shared = store as? any SharedSnapshotStorage
        // Beside the snapshots they are made from; a replica sharing PostgreSQL keeps them in its cache.
        source.feedDirectory = (store as? SnapshotStore)?.directory.appendingPathComponent("feeds", isDirectory: true)
            ?? configuration.cache.directory.appendingPathComponent("feeds", isDirectory: true)
        if let playlist = PlaylistSource(configuration: configuration, caches: CacheStorages(beside: store, settings: configuration.cache)) {
            let keeper = PlaylistKeeper(source: playlist)
            source.playlist = { await keeper.current() }
        }
        return source
    }

    /// The snapshot to serve at start-up; from a shared store, the one its follower then counts as served.
    package static func latest(_ store: any SnapshotStorage) async throws -> Snapshot? {
        if let shared = store as? any SharedSnapshotStorage { return try await shared.latestToServe() }
        return try await store.latest()
    }

    /// The configuration's line-ups and channel order, a refresh every `cache.ttl` unless `refreshInterval` says
    /// otherwise, and the configured CORS origins unless `corsOrigins` (from the command line)
    /// replaces them.
    package static func settings(configuration: GuideConfiguration, host: String, port: Int, refreshInterval: TimeInterval?,
                                reminderMinutes: Int, corsOrigins: [String] = []) -> ServerSettings {
        let interval = refreshInterval ?? configuration.cache.ttl
        var settings = ServerSettings(host: host, port: port, lineups: configuration.lineups, reminderLead: .seconds(reminderMinutes * 60),
                                      refreshInterval: interval > 0 ? .milliseconds(Int64(interval * 1000)) : nil)
        settings.corsOrigins = corsOrigins.isEmpty ? configuration.server.corsOrigins : corsOrigins
        settings.channelAliases = configuration.channelAliases
        settings.channelOrder = configuration.channels.map(\.id)
        settings.publicURL = configuration.server.publicURL
        settings.trustForwarded = configuration.server.trustForwarded
        return settings
    }

    /// Whether only this machine reaches a server listening on `host`.
    package static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// A failed refresh as the server shows it, with the configuration's secret values removed.
struct RefreshFailure: Error, CustomStringConvertible {
    var description: String
}

/// What `tvguide serve` is asked to do, beside the configuration.
package struct ServeRequest: Sendable {
    package var host: String
    package var port: Int
    /// `--snapshots`: the folder that overrides `snapshots.dir` and `snapshots.store`.
    package var snapshotDirectory: URL?
    /// `--refresh-interval`, instead of `cache.ttl`.
    package var refreshInterval: TimeInterval?
    /// False serves the loaded guide without rebuilding it.
    package var refresh: Bool
    package var reminderMinutes: Int
    /// `--cors-origin`: replaces `server.cors_origins` unless empty.
    package var corsOrigins: [String]

    package init(host: String, port: Int, snapshotDirectory: URL?, refreshInterval: TimeInterval?, refresh: Bool,
                 reminderMinutes: Int, corsOrigins: [String]) {
        self.host = host
        self.port = port
        self.snapshotDirectory = snapshotDirectory
        self.refreshInterval = refreshInterval
        self.refresh = refresh
        self.reminderMinutes = reminderMinutes
        self.corsOrigins = corsOrigins
    }
}

extension ServeSetup {
    /// Loads the last snapshot, then serves it and its refreshes until SIGTERM or SIGINT.
    /// `onListening` gets the bound port.
    package static func serve(configuration: GuideConfiguration, request: ServeRequest, clock: @escaping @Sendable () -> Date,
                              onListening: @escaping @Sendable (Int) async -> Void) async throws(CommandFailure) {
        // A server lives for weeks: what it once rendered must not stay with it.
        FreedMemory.returnLargeBlocks()
        let settings = settings(configuration: configuration, host: request.host, port: request.port,
                                refreshInterval: request.refreshInterval, reminderMinutes: request.reminderMinutes,
                                corsOrigins: request.corsOrigins)
        let store = try SnapshotStores.forCommand(configuration, directory: request.snapshotDirectory)
        let source = source(configuration: configuration, store: store, refresh: request.refresh && !configuration.guide.isEmpty,
                            refreshInterval: settings.refreshInterval, clock: clock)
        let logger = Logger(label: "tvguide.serve")
        let snapshot: Snapshot?
        do {
            snapshot = try await latest(store)
        } catch {
            throw CommandFailure(.failed, "could not read the last snapshot: \(error)")
        }
        let server = GuideServer(settings: settings, source: source, latest: snapshot, logger: logger)
        do {
            try await server.run(onListening: onListening)
        } catch {
            throw CommandFailure(.failed, "could not serve on \(request.host):\(request.port): \(error)")
        }
    }
}
