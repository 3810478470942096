import Foundation
import GuideConfig
import GuideCore
import GuideServer
import XMLTV

/// Wires `tvguide serve`: the server gets the snapshot store, the build pipeline as its refresh,
/// and the XMLTV writer, without knowing the modules behind them.
package enum ServeSetup {
    /// - Parameters:
    ///   - snapshotDirectory: instead of the configured `snapshots.dir`.
    ///   - refresh: false serves the loaded guide without rebuilding it.
    package static func source(configuration: GuideConfiguration, snapshotDirectory: URL?, refresh: Bool,
                              clock: @escaping @Sendable () -> Date) -> GuideSource {
        let store = SnapshotStore(directory: snapshotDirectory ?? configuration.snapshots.directory, keep: configuration.snapshots.keep)
        let rebuild: (@Sendable () async throws -> RefreshOutcome)? = refresh ? { @Sendable in
            do {
                let summary = try await GuideBuilder.build(configuration: configuration,
                                                           request: BuildRequest(now: clock(), snapshotDirectory: store.directory))
                return RefreshOutcome(snapshot: summary.snapshot, requests: summary.timings.mapValues { $0.requests })
            } catch {
                // The error is shown by /health, which no log handler filters.
                throw RefreshFailure(description: SecretValues.shared.redact(String(describing: error)))
            }
        } : nil
        var source = GuideSource(
            loadLatest: { try store.loadLatest() },
            refresh: rebuild,
            xmltv: { snapshot in try XMLTVWriter.write(channels: snapshot.channels, programmes: snapshot.programmes) },
            gzip: { data in try Gzip.compress(data) },
            clock: clock)
        if let playlist = PlaylistSource(configuration: configuration) {
            let keeper = PlaylistKeeper(source: playlist)
            source.playlist = { await keeper.current() }
        }
        return source
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
        return settings
    }
}

/// A failed refresh as the server shows it, with the configuration's secret values removed.
struct RefreshFailure: Error, CustomStringConvertible {
    var description: String
}
