// kill.tsv with 200 kills per phase (bench/reliability.sh kill runs this; about 6 minutes on 2 cores):
//   RELIABILITY_OUT=docs/reliability TVGUIDE_KILL_ITERATIONS=200 swift test --skip-build --filter CrashSafetyTests
// A failure prints its seed; TVGUIDE_KILL_SEED=<seed> replays the same kill points.
import Foundation
import GuideCore
import GuideStorage
import GuideTransport
import Testing
import TestSupport

/// `tvguide build` killed with SIGKILL at random points, while fetching and while writing, many
/// times over. After every kill each store holds whole data, the old or the new, never a torn
/// file that would be served; and the next run succeeds and leaves nothing of the killed one.
@Suite struct CrashSafetyTests {
    /// The previous run and the killed one an hour later, in the recorded week.
    static let oldNow = "2026-10-21T18:00:00Z"
    static let newNow = recordedNow

    static func arguments(now: String) -> [String] {
        // One day of the recorded week: enough programmes to look up and join, a run short enough to kill often.
        ["build", "--now", now, "--from", "2026-10-21T04:00:00Z", "--to", "2026-10-22T04:00:00Z"]
    }

    @Test func killedWhileFetchingEveryStoreHoldsAndTheNextRunSucceeds() async throws {
        let settings = KillSettings.fromEnvironment(defaultIterations: 4)
        print("CrashSafetyTests fetching: \(settings.iterations) kill(s), TVGUIDE_KILL_SEED=\(settings.seed)")
        let sites = FakeSites(delay: 2...20)
        let tally = try await LoopbackServer.run(sites.handler) { base in
            let rig = try await KillRig(sites: sites, configuration: try FakeSites.configuration(base: base))
            var generator = SeededGenerator(seed: settings.seed)
            var tally = KillTally(phase: .fetching)
            for iteration in 0..<settings.iterations {
                let start = iteration.isMultiple(of: 2) ? rig.fresh : rig.fromOld
                // Within the first half of the calibrated run: a run under less load than the
                // calibration's can take half as long, and a kill after its end tests nothing.
                let after = Duration.milliseconds(Int.random(in: 0...rig.calibrated.milliseconds / 2, using: &generator))
                try await rig.killAndRecover(iteration, from: start, into: &tally) { process in
                    await process.send(SIGKILL, after: after)
                }
            }
            // Torn files cannot come from a kill (every write is atomic) but from a full disk or a
            // cut-off copy: the next run must read past them all and repair every store.
            let afterTearing = try await rig.tearAndRecover(using: &generator)
            let tornProblems = afterTearing.values.flatMap { $0 }
            #expect(tornProblems.isEmpty, "seed \(settings.seed): \(tornProblems)")
            return tally
        }
        try tally.write()
        print("CrashSafetyTests \(tally.phase.rawValue): \(tally.summary)")
        #expect(tally.problems.isEmpty, "seed \(settings.seed): \(tally.problems.prefix(20).joined(separator: "\n"))")
        #expect(tally.attempts == settings.iterations)
        #expect(tally.kills > 0, "every run ended before its kill")
    }

    @Test func killedWhileWritingEveryStoreHoldsAndTheNextRunSucceeds() async throws {
        let settings = KillSettings.fromEnvironment(defaultIterations: 4)
        print("CrashSafetyTests writing: \(settings.iterations) kill(s), TVGUIDE_KILL_SEED=\(settings.seed)")
        let guideStart = try #require(ISOTime.parse("2026-10-21T04:00:00Z"))
        let sites = FakeSites(bulk: BulkGuide.xmltv(channels: Self.bulkChannels, days: 1, start: guideStart))
        let tally = try await LoopbackServer.run(sites.handler) { base in
            let bulkEntry = HTTPCacheFolder(directory: URL(fileURLWithPath: "/")).fileURL(for: base.appendingPathComponent("bulk.xml"))
            // The large guide's cache entry, then the dated snapshot and latest.json: the two big writes.
            let triggers = [
                WriteTrigger(folder: "cache", prefix: ".\(bulkEntry.lastPathComponent)"),
                WriteTrigger(folder: "snapshots", prefix: "."),
            ]
            let rig = try await KillRig(sites: sites, configuration: try FakeSites.configuration(base: base, bulkChannels: Self.bulkChannels),
                                        watching: triggers)
            var generator = SeededGenerator(seed: settings.seed)
            var tally = KillTally(phase: .writing)
            for iteration in 0..<settings.iterations {
                let start = (iteration / 2).isMultiple(of: 2) ? rig.fresh : rig.fromOld
                let trigger = triggers[iteration % 2]
                // Sampling every 250 µs can miss a short write on a loaded machine: then the kill
                // lands within a default span after the write starts.
                let span = rig.writes[trigger] ?? .milliseconds(20)
                let offset = Duration.milliseconds(Int.random(in: 0...span.milliseconds, using: &generator))
                try await rig.killAndRecover(iteration, from: start, into: &tally) { process in
                    await process.send(SIGKILL, after: offset, once: { trigger.isPresent(in: process.currentDirectory) })
                }
            }
            return tally
        }
        try tally.write()
        print("CrashSafetyTests \(tally.phase.rawValue): \(tally.summary)")
        #expect(tally.problems.isEmpty, "seed \(settings.seed): \(tally.problems.prefix(20).joined(separator: "\n"))")
        #expect(tally.attempts == settings.iterations)
        #expect(tally.kills > 0, "every run ended before its kill")
    }

    /// What the kills above leave at random, set up on purpose: the HTTP cache's first write and
    /// the lookup cache's save clear the temporary files nobody holds the writer's lock on (dead
    /// writers, whatever their pid or age), and keep a live writer's, however old its file looks.
    @Test func theCachesRemoveTemporaryFilesThatCrashedWritesLeftBehind() async throws {
        let scratch = try Scratch()
        let cache = scratch.file("cache")
        let lookups = cache.appendingPathComponent("metadata")
        let dead = ".1a2b.entry.2147483646.1a2b.tmp"
        let unnamed = ".3c4d.entry.\(UUID().uuidString).tmp"
        let live = ".5e6f.entry.1.5e6f.tmp"
        var writers: [WriterLock] = []
        for folder in [cache, lookups] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in [dead, unnamed, live] {
                try Data("{\"half\": ".utf8).write(to: folder.appendingPathComponent(name))
            }
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -86_400)],
                                                  ofItemAtPath: folder.appendingPathComponent(live).path)
            writers.append(try WriterLock(folder.appendingPathComponent(live)))
        }
        let url = try #require(URL(string: "http://127.0.0.1:9/schedule.json"))
        try await HTTPCache(directory: cache).store(Data("[]".utf8), for: url, etag: nil, lastModified: nil, contentType: nil, fetchedAt: Date())
        await MetadataLookupCache(directory: cache, ttl: 3600).save()
        #expect(StoreInspection.names(in: cache).filter(StoreInspection.isTemporary) == [live])
        #expect(StoreInspection.names(in: lookups).filter(StoreInspection.isTemporary) == [live])
        #expect(await HTTPCache(directory: cache).entry(for: url)?.body == Data("[]".utf8))
        writers.forEach { $0.release() }
    }

    /// Enough channels that latest.json is several megabytes: its write takes milliseconds, not microseconds.
    static let bulkChannels = 120
}

/// A temporary file whose presence means a write is under way, from its creation to its rename.
struct WriteTrigger: Sendable, Hashable, CustomStringConvertible {
    var folder: String
    var prefix: String

    var description: String { "\(folder)/\(prefix)…tmp" }

    func isPresent(in directory: URL) -> Bool {
        StoreInspection.names(in: directory.appendingPathComponent(folder))
            .contains { $0.hasPrefix(prefix) && StoreInspection.isTemporary($0) }
    }
}

/// Where a killed run starts: the folder to copy, and what its stores may hold after the kill.
struct KillStart: Sendable {
    var template: URL
    var inspection: StoreInspection
}

/// Runs the builds of one kill test in a scratch folder: a template per starting state, copied
/// for each kill, so that every killed run starts from the same files.
struct KillRig: Sendable {
    let scratch: Scratch
    let sites: FakeSites
    /// No snapshot and no cache: the first run.
    let fresh: KillStart
    /// The snapshot and caches of a run an hour earlier, the caches past their TTL so that the
    /// killed run fetches and rewrites every entry instead of serving them.
    let fromOld: KillStart
    /// How long a whole run takes, and each watched write in it.
    let calibrated: Duration
    let writes: [WriteTrigger: Duration]

    init(sites: FakeSites, configuration: String, watching triggers: [WriteTrigger] = []) async throws {
        let scratch = try Scratch()
        self.scratch = scratch
        self.sites = sites
        let empty = scratch.file("fresh")
        try Self.writeConfiguration(configuration, in: empty)
        let old = scratch.file("old")
        try Self.writeConfiguration(configuration, in: old)
        let oldRun = try await Self.complete(in: old, now: CrashSafetyTests.oldNow)
        try await Self.ageCaches(in: old)
        let copy = scratch.file("calibration")
        try FileManager.default.copyItem(at: old, to: copy)
        let run = try await Self.complete(in: copy, now: CrashSafetyTests.newNow, watching: triggers)
        try FileManager.default.removeItem(at: copy)
        calibrated = run.elapsed
        writes = run.writes
        // A first run writes the same guide: the earlier run only changes where its parts come
        // from (the audience days it kept), not what they are.
        fresh = KillStart(template: empty, inspection: StoreInspection(old: nil, new: run.snapshot, sites: sites))
        fromOld = KillStart(template: old, inspection: StoreInspection(old: oldRun.snapshot, new: run.snapshot, sites: sites))
        print("CrashSafetyTests: a whole run takes \(calibrated), latest.json is \(run.snapshot.bytes.count) bytes; watched writes: \(writes)")
    }

    /// Copies `start`, runs the build there, kills it when `killAt` returns, inspects every store,
    /// then runs the build again to the end and inspects them again.
    func killAndRecover(
        _ iteration: Int, from start: KillStart, into tally: inout KillTally,
        killAt: (RunningProcess) async -> Void
    ) async throws {
        let folder = scratch.file("kill-\(iteration)")
        try FileManager.default.copyItem(at: start.template, to: folder)
        let process = try Self.start(in: folder, now: CrashSafetyTests.newNow)
        await killAt(process)
        let killedAt = process.started.duration(to: .now)
        let ended = await process.termination()
        let afterKill = await start.inspection.afterKill(folder)
        let abandoned = StoreInspection.temporaryFiles(in: folder)
        let next = try await CLI.run(CrashSafetyTests.arguments(now: CrashSafetyTests.newNow), in: folder, environment: FakeSites.keys)
        let afterNextRun = await start.inspection.afterNextRun(folder, next)
        let label = "kill \(iteration) from \(start.template.lastPathComponent) at \(killedAt) (\(ended))"
        tally.record(iteration: label, killed: ended.signalled, afterKill: afterKill, afterNextRun: afterNextRun, abandoned: abandoned)
        try FileManager.default.removeItem(at: folder)
    }

    /// The earlier run's stores with every file cut short at a random length (latest.json
    /// replaced, so that its hard-linked dated twin stays whole), then a whole run: what its
    /// stores hold afterwards.
    func tearAndRecover(using generator: inout SeededGenerator) async throws -> [KillStore: [String]] {
        let folder = scratch.file("torn")
        try FileManager.default.copyItem(at: fromOld.template, to: folder)
        let files = [("snapshots", SnapshotStore.latestName), ("cache", ".entry"), ("cache/metadata", ".json")].flatMap { sub, suffix in
            StoreInspection.names(in: folder.appendingPathComponent(sub)).filter { $0.hasSuffix(suffix) && !StoreInspection.isTemporary($0) }
                .map { folder.appendingPathComponent(sub).appendingPathComponent($0) }
        }
        guard files.contains(where: { $0.path.contains("/metadata/") }), files.contains(where: { $0.pathExtension == "entry" }) else {
            throw KillRigError(description: "the earlier run left no cache files to tear: \(files.map(\.lastPathComponent))")
        }
        for file in files {
            let data = try Data(contentsOf: file)
            try FileManager.default.removeItem(at: file)
            try data.prefix(Int.random(in: 0..<max(1, data.count), using: &generator)).write(to: file)
        }
        let next = try await CLI.run(CrashSafetyTests.arguments(now: CrashSafetyTests.newNow), in: folder, environment: FakeSites.keys)
        return await fromOld.inspection.afterNextRun(folder, next)
    }

    static func start(in folder: URL, now: String) throws -> RunningProcess {
        try RunningProcess(CLI.executable, CrashSafetyTests.arguments(now: now), environment: CLI.environment(FakeSites.keys),
                           currentDirectory: folder, stdout: folder.appendingPathComponent("stdout.txt"),
                           stderr: folder.appendingPathComponent("stderr.txt"))
    }

    /// A build run to its end: the snapshot it wrote, how long it took, and how long each of the
    /// watched writes lasted.
    static func complete(
        in folder: URL, now: String, watching triggers: [WriteTrigger] = []
    ) async throws -> (snapshot: KnownSnapshot, elapsed: Duration, writes: [WriteTrigger: Duration]) {
        let process = try start(in: folder, now: now)
        var seen: [WriteTrigger: (first: Duration, last: Duration)] = [:]
        if !triggers.isEmpty {
            for (time, present) in await process.sample(every: .microseconds(250), { triggers.filter { $0.isPresent(in: folder) } }) {
                for trigger in present { seen[trigger] = (seen[trigger]?.first ?? time, time) }
            }
        }
        let ended = await process.termination()
        let elapsed = process.started.duration(to: .now)
        // Half as long again as the write was seen: some kills land just after its rename.
        let writes = seen.mapValues { times in (times.last - times.first) * 3 / 2 + .milliseconds(1) }
        let stderr = (try? String(contentsOf: folder.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? ""
        guard ended.status == 0, !ended.signalled else {
            throw KillRigError(description: "a whole build in \(folder.lastPathComponent) ended with \(ended): \(stderr)")
        }
        return (try KnownSnapshot(folder.appendingPathComponent("snapshots/latest.json")), elapsed, writes)
    }

    static func writeConfiguration(_ configuration: String, in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(configuration.utf8).write(to: folder.appendingPathComponent("providers.yaml"))
    }

    /// Moves every cache entry's fetch time three hours back, past the two-hour TTL.
    static func ageCaches(in folder: URL) async throws {
        let past = Date().addingTimeInterval(-3 * 3600)
        let directory = folder.appendingPathComponent("cache")
        let cache = HTTPCache(directory: directory)
        for name in StoreInspection.names(in: directory) where name.hasSuffix(".entry") {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            guard let newline = data.firstIndex(of: UInt8(ascii: "\n")),
                  let metadata = try? JSONDecoder.iso8601.decode(HTTPCacheEntry.Metadata.self, from: data[data.startIndex..<newline]),
                  let url = URL(string: metadata.url), let entry = await cache.entry(for: url)
            else { throw KillRigError(description: "the cache entry \(name) of a whole run does not read") }
            try await cache.store(entry.body, for: url, etag: entry.metadata.etag, lastModified: entry.metadata.lastModified,
                            contentType: entry.metadata.contentType, fetchedAt: past)
        }
        let lookups = directory.appendingPathComponent("metadata")
        let stamp = ISO8601DateFormatter().string(from: past)
        for name in StoreInspection.names(in: lookups) where name.hasSuffix(".json") {
            let file = lookups.appendingPathComponent(name)
            guard var object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
                  var entries = object["entries"] as? [String: [String: Any]]
            else { throw KillRigError(description: "the lookup cache \(name) of a whole run does not read") }
            for key in entries.keys { entries[key]?["fetchedAt"] = stamp }
            object["entries"] = entries
            try JSONSerialization.data(withJSONObject: object).write(to: file)
        }
    }
}

struct KillRigError: Error, CustomStringConvertible {
    var description: String
}

extension Duration {
    var milliseconds: Int {
        Int(components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
