import Foundation
import GuideCore
import GuideStorage
import GuideTransport
import TestSupport

/// The stores a killed `tvguide build` may leave half-written, and the moments it is killed in.
enum KillStore: String, CaseIterable, Sendable {
    case snapshot
    case audience = "audience store"
    case httpCache = "http cache"
    case lookupCache = "lookup cache"
}

enum KillPhase: String, Sendable {
    case fetching, writing
}

/// SplitMix64: the kill points come from a printed seed, so a failing run can be replayed with
/// `TVGUIDE_KILL_SEED`.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// How many kills and from which seed: a few by default, `TVGUIDE_KILL_ITERATIONS` per phase for
/// the long run, `TVGUIDE_KILL_SEED` to replay one.
struct KillSettings: Sendable {
    var iterations: Int
    var seed: UInt64

    static func fromEnvironment(defaultIterations: Int) -> KillSettings {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["TVGUIDE_KILL_ITERATIONS"].flatMap { Int($0) }.map { max(1, $0) } ?? defaultIterations
        let seed = environment["TVGUIDE_KILL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
        return KillSettings(iterations: iterations, seed: seed)
    }
}

/// What the kills of one phase found, per store; written to `$RELIABILITY_OUT/kill.tsv`.
struct KillTally: Sendable {
    let phase: KillPhase
    /// Runs started to be killed, and those the kill reached (the others had ended first).
    private(set) var attempts = 0
    private(set) var kills = 0
    private(set) var corrupt: [KillStore: Int] = [:]
    private(set) var nextRunOK: [KillStore: Int] = [:]
    /// Kills that left temporary files behind, and how many per folder: the writes they cut off,
    /// whose leftovers the next run had to clear.
    private(set) var killsLeavingTemporaryFiles = 0
    private(set) var temporaryFiles: [String: Int] = [:]
    /// Every problem seen, for the failure message: "kill 3 from old at …: http cache after the kill: …".
    private(set) var problems: [String] = []

    init(phase: KillPhase) {
        self.phase = phase
    }

    var summary: String {
        "\(kills) of \(attempts) run(s) killed before their end; "
            + KillStore.allCases.map { "\($0.rawValue) \(corrupt[$0] ?? 0) corrupt" }.joined(separator: ", ")
            + "; \(killsLeavingTemporaryFiles) kill(s) cut a write off, leaving temporary files for the next run to remove ("
            + temporaryFiles.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }.joined(separator: ", ") + ")"
    }

    mutating func record(
        iteration: String, killed: Bool, afterKill: [KillStore: [String]], afterNextRun: [KillStore: [String]], abandoned: [String]
    ) {
        attempts += 1
        for store in KillStore.allCases {
            let found = afterKill[store] ?? []
            let next = afterNextRun[store] ?? []
            // A run that ended before its kill must hold too, but the figures count kills only.
            if killed, !found.isEmpty { corrupt[store, default: 0] += 1 }
            if killed, next.isEmpty { nextRunOK[store, default: 0] += 1 }
            problems += found.map { "\(iteration): \(store.rawValue) after the kill: \($0)" }
            problems += next.map { "\(iteration): \(store.rawValue) after the next run: \($0)" }
        }
        guard killed else { return }
        kills += 1
        if !abandoned.isEmpty { killsLeavingTemporaryFiles += 1 }
        for file in abandoned {
            temporaryFiles[(file as NSString).deletingLastPathComponent, default: 0] += 1
        }
    }

    /// Appends this phase's rows to `kill.tsv` in `RELIABILITY_OUT`, when it is set.
    func write() throws {
        guard let folder = ProcessInfo.processInfo.environment["RELIABILITY_OUT"], !folder.isEmpty else { return }
        // The phases run in parallel: one header, whole rows.
        Self.appending.lock()
        defer { Self.appending.unlock() }
        let file = URL(fileURLWithPath: folder).appendingPathComponent("kill.tsv")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var text = ""
        if (try? Data(contentsOf: file))?.isEmpty ?? true {
            FileManager.default.createFile(atPath: file.path, contents: nil)
            text = "store\tphase\titerations\tcorrupt\tnext_run_ok\n"
        }
        for store in KillStore.allCases {
            text += "\(store.rawValue)\t\(phase.rawValue)\t\(kills)\t\(corrupt[store] ?? 0)\t\(nextRunOK[store] ?? 0)\n"
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    private static let appending = NSLock()
}

/// The fake sites one build talks to, on one loopback server: MiGuiaTV, TMDB, TheTVDB, formulatv
/// pages and, when given, a large XMLTV file. Each answer waits a few milliseconds (fixed per URL)
/// so that a build spends its time mid-fetch, writing cache entries as the answers come in.
struct FakeSites: Sendable {
    var delay: ClosedRange<Int>?
    var bulk: Data?

    var handler: LoopbackHandler {
        { [delay, bulk] request in
            let response = await Self.answer(request, bulk: bulk)
            guard let delay else { return response }
            let hash = (request.path + (request.query ?? "")).utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF_FFFF }
            let milliseconds = delay.lowerBound + hash % delay.count
            return response.delayed(by: .milliseconds(milliseconds))
        }
    }

    private static func answer(_ request: LoopbackRequest, bulk: Data?) async -> LoopbackResponse {
        let routes: [(mount: String, folder: String)] = [
            ("/miguiatv/", "miguiatv"), ("/tmdb/3/", "tmdb"), ("/thetvdb/v4/", "thetvdb"), ("/audiencias/", "formulatv/audiencias"),
        ]
        if request.path == "/bulk.xml", let bulk {
            return LoopbackResponse(status: 200, headers: ["content-type": "application/xml"], body: bulk)
        }
        guard let route = routes.first(where: { request.path.hasPrefix($0.mount) }) else { return .status(404) }
        return await LoopbackServer.serving(directory: Fixtures.url(route.folder), mountPath: route.mount)(request)
    }

    /// The body a GET of `url` gets: what a cache entry for it must hold.
    func body(for url: URL) async -> Data? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let response = await Self.answer(
            LoopbackRequest(path: components.percentEncodedPath, query: components.percentEncodedQuery), bulk: bulk)
        return response.status == 200 ? response.body : nil
    }

    static let keys = ["TEST_TMDB_KEY": "tmdb-crash-key", "TEST_TVDB_KEY": "tvdb-crash-key"]

    /// A configuration using every store: the HTTP cache, the metadata lookup cache, audience days
    /// in the snapshot, and two dated snapshots. `bulkChannels` adds the large XMLTV file and its channels.
    static func configuration(base: URL, bulkChannels: Int = 0) throws -> String {
        let channels = try defaultChannelLines()
            + (0..<bulkChannels).map { "  - { id: \(BulkGuide.channelID($0)), name: Canal \($0) }" }
        let base = base.absoluteString
        return """
            cache: { dir: cache, ttl: 2h }
            snapshots: { dir: snapshots, keep: 2 }
            channels:
            \(channels.joined(separator: "\n"))
            guide: [miguiatv\(bulkChannels > 0 ? ", bulk" : "")]
            metadata:
              movie: [tmdb]
              series: [thetvdb]
            audience: [site]
            providers:
              miguiatv: { type: miguiatv, base_url: "\(base)miguiatv/", language: es_ES, timeout: 60s, retries: 0 }
            \(bulkChannels > 0 ? "  bulk: { type: xmltv, url: \"\(base)bulk.xml\", timeout: 60s, retries: 0 }" : "")
              tmdb: { type: tmdb, base_url: "\(base)tmdb/3/", api_key: "${TEST_TMDB_KEY}", timeout: 60s, retries: 0 }
              thetvdb: { type: thetvdb, base_url: "\(base)thetvdb/v4/", api_key: "${TEST_TVDB_KEY}", timeout: 60s, retries: 0 }
            \(formulatvRecipe("site", url: "\(base)audiencias/{date:dd-MM-yyyy}/", options: ["timeout: 60s", "retries: 0"]))
            """
    }
}

/// A generated XMLTV guide, large enough that writing its snapshot takes a measurable time: a
/// few thousand programmes with long descriptions. Generated per run, never stored.
enum BulkGuide {
    static func channelID(_ index: Int) -> String {
        "bulk\(String(format: "%04d", index)).es"
    }

    /// `channels` channels, each with half-hour to hour-long programmes from `start` for `days` days.
    static func xmltv(channels: Int, days: Int, start: Date) -> Data {
        let words = "el la los un una de del en con sin por noche día mar sol luna casa vida amor ciudad río historia viaje tiempo camino fuego agua tierra cielo luz"
            .split(separator: " ")
        let categories = ["Noticias", "Documental", "Deportes", "Entretenimiento"]
        var generator = SeededGenerator(seed: 20_261_019)
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in String(words.randomElement(using: &generator) ?? "") }.joined(separator: " ")
        }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyyMMddHHmmss '+0000'"
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tv generator-info-name=\"CrashSafetyTests\">\n"
        for channel in 0..<channels {
            text += "  <channel id=\"\(channelID(channel))\"><display-name lang=\"es\">Canal \(channel)</display-name></channel>\n"
        }
        let end = start.addingTimeInterval(TimeInterval(days * 86_400))
        for channel in 0..<channels {
            var time = start
            while time < end {
                let stop = time.addingTimeInterval(TimeInterval([30, 45, 60].randomElement(using: &generator) ?? 30) * 60)
                text += """
                      <programme start="\(format.string(from: time))" stop="\(format.string(from: stop))" channel="\(channelID(channel))">
                        <title lang="es">\(sentence(3))</title>
                        <desc lang="es">\(sentence(40)).</desc>
                        <category lang="es">\(categories.randomElement(using: &generator) ?? "Noticias")</category>
                      </programme>

                    """
                time = stop
            }
        }
        text += "</tv>\n"
        return Data(text.utf8)
    }
}

/// A snapshot file a whole run wrote: its bytes and what they decode to.
struct KnownSnapshot: Sendable {
    var snapshot: Snapshot
    var bytes: Data

    init(_ file: URL) throws {
        bytes = try Data(contentsOf: file)
        snapshot = try SnapshotCodec.decode(bytes)
    }
}

/// What a killed run may leave in its folder, store by store, and what the next run must repair.
/// Each check returns its problems; none means the store held.
struct StoreInspection: Sendable {
    /// The last snapshot before the killed run (nil on a first run), and the one it was writing.
    var old: KnownSnapshot?
    var new: KnownSnapshot
    var sites: FakeSites

    func afterKill(_ folder: URL) async -> [KillStore: [String]] {
        let known = [old, new].compactMap { $0 }
        let (snapshotProblems, snapshots) = snapshots(in: folder, latestMayBe: known, datedMayBe: known, latestRequired: old != nil)
        return [
            .snapshot: snapshotProblems,
            .audience: snapshots.flatMap(audienceProblems),
            .httpCache: await httpCacheProblems(in: folder),
            .lookupCache: lookupCacheProblems(in: folder),
        ]
    }

    /// After a next run that should have succeeded: its snapshot is the new one, and no store
    /// keeps what the killed run abandoned.
    func afterNextRun(_ folder: URL, _ run: ProcessResult) async -> [KillStore: [String]] {
        guard run.status == 0 else {
            let failure = "the next run exited \(run.status): \(run.stderr.suffix(400))"
            return Dictionary(uniqueKeysWithValues: KillStore.allCases.map { ($0, [failure]) })
        }
        let (snapshotProblems, snapshots) = snapshots(
            in: folder, latestMayBe: [new], datedMayBe: [old, new].compactMap { $0 }, latestRequired: true)
        let cache = folder.appendingPathComponent("cache")
        return [
            .snapshot: snapshotProblems + leftovers(in: folder.appendingPathComponent("snapshots")),
            .audience: snapshots.flatMap(audienceProblems),
            .httpCache: await httpCacheProblems(in: folder) + leftovers(in: cache),
            .lookupCache: lookupCacheProblems(in: folder) + leftovers(in: cache.appendingPathComponent("metadata")),
        ]
    }

    /// `latest.json` and the dated files: each must load and be one of the snapshots it may be,
    /// whole; `latest.packed` must read as `latest.json` does; only snapshots, the companion and
    /// temporary files may be in the folder, and no temporary file is listed as a snapshot. Returns the problems and each snapshot found with the one it matched.
    private func snapshots(
        in folder: URL, latestMayBe: [KnownSnapshot], datedMayBe: [KnownSnapshot], latestRequired: Bool
    ) -> ([String], [(Snapshot, Snapshot)]) {
        let store = SnapshotStore(directory: folder.appendingPathComponent("snapshots"), keep: 2)
        var problems: [String] = []
        var found: [(Snapshot, Snapshot)] = []
        func check(_ url: URL, mayBe: [KnownSnapshot]) {
            do {
                let data = try Data(contentsOf: url)
                // The same bytes as a whole run's file are that snapshot; decoding them again would
                // only cost time (a debug build takes a good part of a second on a large one).
                if let known = mayBe.first(where: { $0.bytes == data }) {
                    found.append((known.snapshot, known.snapshot))
                    return
                }
                let snapshot = try SnapshotCodec.decode(data)
                if let known = mayBe.first(where: { Self.sameGuide(snapshot, $0.snapshot) }) {
                    found.append((snapshot, known.snapshot))
                } else {
                    problems.append("\(url.lastPathComponent) (generated \(ISOTime.format(snapshot.generatedAt))) is neither the old nor the new snapshot")
                }
            } catch {
                problems.append("\(url.lastPathComponent) does not load: \(error)")
            }
        }
        if FileManager.default.fileExists(atPath: store.latestURL.path) {
            check(store.latestURL, mayBe: latestMayBe)
        } else if latestRequired {
            problems.append("latest.json is missing")
        }
        for dated in store.list() {
            if dated.lastPathComponent.hasPrefix(".") { problems.append("the temporary file \(dated.lastPathComponent) is listed as a snapshot") }
            check(dated, mayBe: datedMayBe)
        }
        // A companion left by a killed build is either latest.json's own or ignored: what the
        // store reads is always what latest.json holds.
        if FileManager.default.fileExists(atPath: store.packedURL.path) {
            do {
                if try store.loadLatest() != SnapshotStore.load(store.latestURL) {
                    problems.append("latest.packed reads other than latest.json")
                }
            } catch {
                problems.append("latest.packed beside a latest.json that does not load: \(error)")
            }
        }
        for name in Self.names(in: store.directory) where name != SnapshotStore.latestName && name != SnapshotStore.packedName
            && !Self.isTemporary(name) && !(name.hasPrefix("guide-") && name.hasSuffix(".json")) {
            problems.append("unexpected file \(name) among the snapshots")
        }
        return (problems, found)
    }

    /// Whole days only: every day of the snapshot has the rows its reference has, ranked 1…n.
    private func audienceProblems(_ snapshot: Snapshot, _ reference: Snapshot) -> [String] {
        guard snapshot.audiences.map(\.day) == reference.audiences.map(\.day) else {
            return ["the audience days \(snapshot.audiences.map(\.day.description)) are not \(reference.audiences.map(\.day.description))"]
        }
        return zip(snapshot.audiences, reference.audiences).compactMap { day, expected in
            let ranks = day.records.map(\.rank)
            guard day.records.count == expected.records.count, ranks == Array(1...max(1, ranks.count)), !ranks.isEmpty else {
                return "\(day.day) has \(day.records.count) row(s) ranked \(ranks), not \(expected.records.count)"
            }
            return nil
        }
    }

    /// Every entry file is whole (metadata line, then exactly `bodyLength` bytes) and holds what
    /// the site answers for its URL, and the cache serves exactly that body.
    private func httpCacheProblems(in folder: URL) async -> [String] {
        let directory = folder.appendingPathComponent("cache")
        let cache = HTTPCache(directory: directory)
        var problems: [String] = []
        for name in Self.names(in: directory) where name.hasSuffix(".entry") {
            let data = (try? Data(contentsOf: directory.appendingPathComponent(name))) ?? Data()
            guard let newline = data.firstIndex(of: UInt8(ascii: "\n")),
                  let metadata = try? JSONDecoder.iso8601.decode(HTTPCacheEntry.Metadata.self, from: data[data.startIndex..<newline]),
                  let url = URL(string: metadata.url)
            else {
                problems.append("\(name) (\(data.count) bytes) has no whole metadata line")
                continue
            }
            let body = data[data.index(after: newline)...]
            let expected = await sites.body(for: url)
            if body.count != metadata.bodyLength { problems.append("\(name) is torn: \(body.count) of \(metadata.bodyLength) body bytes") }
            if expected == nil || Data(body) != expected { problems.append("\(name) holds another body than \(metadata.url) answers") }
            if let served = await cache.entry(for: url), served.body != expected {
                problems.append("the cache serves a wrong body for \(metadata.url)")
            }
        }
        return problems
    }

    /// Every lookup cache file is whole JSON with its version, provider, fingerprint and entries.
    private func lookupCacheProblems(in folder: URL) -> [String] {
        let directory = folder.appendingPathComponent("cache/metadata")
        return Self.names(in: directory).filter { !Self.isTemporary($0) }.compactMap { name in
            let data = (try? Data(contentsOf: directory.appendingPathComponent(name))) ?? Data()
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  object["version"] is Int, object["provider"] is String, object["fingerprint"] is String,
                  object["entries"] is [String: Any]
            else { return "\(name) (\(data.count) bytes) is not a whole lookup cache file" }
            return nil
        }
    }

    /// The temporary files in every store of `folder`, as `store folder/name`.
    static func temporaryFiles(in folder: URL) -> [String] {
        ["snapshots", "cache", "cache/metadata"].flatMap { sub in
            names(in: folder.appendingPathComponent(sub)).filter(isTemporary).map { "\(sub)/\($0)" }
        }
    }

    /// Temporary files still in `folder`: a killed run's, which the next run must have removed.
    private func leftovers(in folder: URL) -> [String] {
        Self.names(in: folder).filter(Self.isTemporary).map { "the abandoned temporary file \($0) was not removed" }
    }

    static func sameGuide(_ a: Snapshot, _ b: Snapshot) -> Bool {
        a.generatedAt == b.generatedAt && a.channels == b.channels && a.programmes == b.programmes
            && a.works == b.works && a.audiences == b.audiences
    }

    static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    static func names(in folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }
}

extension JSONDecoder {
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
