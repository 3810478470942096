import Foundation
import GuideConfig
import GuideCore
import GuideStorage
import GuideServer
import XMLTV

/// What one `tvguide build` is asked to do.
package struct BuildRequest: Sendable {
    /// The run's clock: the window, the snapshot's `generatedAt` and week shifts derive from it.
    package var now: Date
    /// Override the configured window's start and end.
    package var from: Date?
    package var to: Date?
    /// Override `snapshots.dir` (and `snapshots.store`: the folder is used).
    package var snapshotDirectory: URL?
    /// The store to read the last snapshot from and commit to, instead of the configured one:
    /// `tvguide serve` passes the one its follower watches.
    package var store: (any SnapshotStorage)?
    /// Fetch every audience day again, even those the last snapshot already has.
    package var refreshAudiences: Bool

    package init(now: Date, from: Date? = nil, to: Date? = nil, snapshotDirectory: URL? = nil, refreshAudiences: Bool = false,
                 store: (any SnapshotStorage)? = nil) {
        self.store = store
        self.now = now
        self.from = from
        self.to = to
        self.snapshotDirectory = snapshotDirectory
        self.refreshAudiences = refreshAudiences
    }
}

package enum BuildError: Error, CustomStringConvertible {
    /// No provider served any channel: the run writes nothing and the last good snapshot stays.
    case nothingServed(RunSummary)
    case invalidWindow(from: Date, to: Date)

    package var description: String {
        switch self {
        case .nothingServed:
            "no provider served any channel; the last good snapshot was left untouched"
        case .invalidWindow(let from, let to):
            "the window's end (\(ISOTime.format(to))) is not after its start (\(ISOTime.format(from)))"
        }
    }
}

/// providers → chain → merge → snapshot: the main job.
package enum GuideBuilder {
    /// Builds and commits a guide. With a shared store (PostgreSQL) it waits for any other
    /// builder to finish first, so two builds never run at once.
    package static func build(
        configuration: GuideConfiguration, request: BuildRequest, catalogue: ProviderCatalogue = .standard,
        progress: @escaping @Sendable (ChainProgress) -> Void = { _ in }
    ) async throws -> RunSummary {
        let store = try request.store ?? SnapshotStores.make(configuration, directory: request.snapshotDirectory)
        guard let shared = store as? any SharedSnapshotStorage else {
            return try await build(configuration: configuration, request: request, store: store, catalogue: catalogue, progress: progress)
        }
        return try await shared.asBuilder {
            try await build(configuration: configuration, request: request, store: shared, catalogue: catalogue, progress: progress)
        }
    }

    /// `tvguide serve`'s refresh: with a shared store, builds only when no other replica is
    /// building and `latest` is older than `interval` (nil otherwise: the follower brings the
    /// other replica's guide); with a folder, always.
    package static func buildIfDue(configuration: GuideConfiguration, request: BuildRequest, interval: Duration) async throws -> RunSummary? {
        let store = try request.store ?? SnapshotStores.make(configuration, directory: request.snapshotDirectory)
        guard let shared = store as? any SharedSnapshotStorage else {
            return try await build(configuration: configuration, request: request, store: store, catalogue: .standard, progress: { _ in })
        }
        return try await shared.asBuilderIfDue(fresh: interval) {
            try await build(configuration: configuration, request: request, store: shared, catalogue: .standard, progress: { _ in })
        }
    }

    private static func build(
        configuration: GuideConfiguration, request: BuildRequest, store: any SnapshotStorage, catalogue: ProviderCatalogue,
        progress: @escaping @Sendable (ChainProgress) -> Void
    ) async throws -> RunSummary {
        let started = ContinuousClock.now
        let window = configuration.timeWindow(now: request.now, from: request.from, to: request.to)
        guard window.to > window.from else { throw BuildError.invalidWindow(from: window.from, to: window.to) }
        let clock = RunClock(fixedAt: request.now)
        var configuration = configuration
        var playlist: PlaylistChannels?
        // Beside the snapshots: builders sharing a PostgreSQL store share what they fetched.
        let caches = CacheStorages(beside: store, settings: configuration.cache)
        if let source = PlaylistSource(configuration: configuration, clock: clock, caches: caches) {
            var read = await PlaylistChannels.read(source) { try? await store.latest() }
            configuration.channels = read.channelMap(configuration.channels, location: SourceLocation(file: configuration.file, line: 1, column: 1))
            playlist = read
        }
        let setup = try ProviderSetup(configuration: configuration, catalogue: catalogue, now: request.now, caches: caches)
        let metadata = try MetadataSetup(configuration: configuration, catalogue: catalogue, clock: clock, caches: caches)
        let audience = try AudienceSetup(configuration: configuration, catalogue: catalogue, clock: clock, caches: caches)

        let (result, unused, timings) = await gather(setup, window: window, progress: progress)

        // The last snapshot is read only when something is missing or audiences are kept: it is as
        // large as the guide.
        var previousWarning: String?
        var previous: Snapshot?
        let somethingMissing = result.channels.contains { result.owners[$0.id] == nil } || result.providers.contains { $0.status == .failed }
        if somethingMissing || audience.chain != nil {
            do {
                previous = try await store.latest()
            } catch {
                previousWarning = "the last snapshot could not be read, so no stale data or audience days can be kept: \(error)"
            }
        }
        let somebodyServed = !result.owners.isEmpty
        var snapshot = GuideAssembler.assemble(consume result, previous: previous, window: window, now: request.now,
                                               releaseFreedMemory: FreedMemory.release)
        // The providers' answers are gone now that the snapshot holds its own copy: what they
        // held is given back before the snapshot is enriched and written.
        FreedMemory.release()
        if let previousWarning { snapshot.report.warnings.append(previousWarning) }
        playlist?.narrow(&snapshot, aliases: configuration.channelAliases)
        var metadataElapsed: Duration?
        if let enricher = metadata.enricher, somebodyServed {
            let enrichmentStarted = ContinuousClock.now
            let enrichment = await enricher.enrich(snapshot.programmes, lastGood: { [previous] in if let previous { previous } else { try? await store.latest() } })
            snapshot.programmes = enrichment.programmes
            snapshot.works = enrichment.works
            snapshot.report.metadata = enrichment.report
            metadataElapsed = ContinuousClock.now - enrichmentStarted
        }
        if let chain = audience.chain, somebodyServed {
            let update = await AudienceStore(keepDays: audience.keepDays).update(
                previous: previous?.audiences ?? [], today: Day(request.now, in: AudienceJoin.defaultTimeZone),
                refresh: request.refreshAudiences, chain: chain, programmes: snapshot.programmes)
            snapshot.audiences = update.audiences
            snapshot.report.audience = update.report
        }
        snapshot.report.warnings += XMLTVWriter.validityNotes(channels: snapshot.channels, programmes: snapshot.programmes, emptyChannels: false)
            .map { "XMLTV export: " + $0 }
        if !unused.isEmpty {
            snapshot.report.warnings.append("provider(s) defined but in no chain: \(unused.joined(separator: ", "))")
        }
        snapshot.report = snapshot.report.redacting(configuration.environmentValues)

        var summary = RunSummary(snapshot: snapshot, timings: timings, metadataElapsed: metadataElapsed, total: .zero)
        guard somebodyServed else {
            summary.total = ContinuousClock.now - started
            throw BuildError.nothingServed(summary)
        }
        summary.written = try await store.commit(snapshot)
        summary.total = ContinuousClock.now - started
        return summary
    }

    /// The chain's answers, with what the run report needs of the providers. Consumed here, the
    /// setup goes with its providers and what they loaded (a parsed XMLTV file is as large as
    /// the guide), leaving the answers with their only owner.
    private static func gather(
        _ setup: consuming ProviderSetup, window: TimeWindow, progress: @escaping @Sendable (ChainProgress) -> Void
    ) async -> (result: GuideChainResult, unused: [String], timings: [String: (elapsed: Duration, requests: Int)]) {
        let result = await setup.chain.run(window: window, progress: progress)
        var timings: [String: (elapsed: Duration, requests: Int)] = [:]
        for (id, timing) in setup.timings {
            timings[id] = (await timing.elapsed, await timing.requests)
        }
        return (result, setup.unused, timings)
    }
}
