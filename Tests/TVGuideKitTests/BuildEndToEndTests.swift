import Foundation
import GuideCore
import GuideStorage
import Testing
import TestSupport

/// The recorded week is Monday 2026-10-19 to Monday 2026-10-26; Wednesday 21:00 in Madrid.
let recordedNow = "2026-10-21T19:00:00Z"

let unavailable: LoopbackHandler = { _ in .status(503) }

@Suite struct BuildEndToEndTests {
    @Test func offlineDefaultFallsBackToTheSampleAndSaysSo() async throws {
        let scratch = try Scratch()
        try await LoopbackServer.run(unavailable) { base in
            try scratch.write("providers.yaml", try defaultConfig(miguiatv: base.absoluteString))
            let run = try await CLI.run(["build", "--now", recordedNow], in: scratch.url)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("miguiatv"))
            #expect(run.stdout.range(of: #"miguiatv\s+failed"#, options: .regularExpression) != nil, "\(run.stdout)")
            #expect(run.stdout.contains("HTTP 503"))
            #expect(run.stdout.range(of: #"xmltv-sample\s+served\s+24 channel\(s\)"#, options: .regularExpression) != nil, "\(run.stdout)")
            #expect(run.stdout.contains("fell back for 24"))
            #expect(run.stdout.contains("recorded week shifted by +0, +1 week(s)"), "\(run.stdout)")
        }
        let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        #expect(snapshot.channels.count == 24)
        #expect(Set(snapshot.programmes.map(\.source)) == ["xmltv-sample"])
        #expect(snapshot.generatedAt == ISOTime.parse(recordedNow))
        let dated = try FileManager.default.contentsOfDirectory(atPath: scratch.file("snapshots").path).filter { $0.hasPrefix("guide-") }
        #expect(dated.count == 1)
    }

    @Test func miguiatvOverLoopbackOwnsEveryChannelAndTheSampleStandsBy() async throws {
        let scratch = try Scratch()
        let log = RequestLog()
        let files = LoopbackServer.serving(directory: Fixtures.url("miguiatv"))
        try await LoopbackServer.run(log: log, files) { base in
            // A base_url without its trailing slash still keeps every path segment.
            try scratch.write("providers.yaml", try defaultConfig(miguiatv: String(base.absoluteString.dropLast()), extra: "\n    shift_weeks: auto"))
            let run = try await CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url)
            #expect(run.status == 0, "\(run.stderr)")
            // channels.json and one schedule per channel, nothing more.
            let paths = await log.requests.map(\.path)
            #expect(paths.count == 25, "\(paths)")
            // A second run inside the cache TTL asks the server nothing.
            let again = try await CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(await log.count == 25)
        }
        let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        let owners = Set(snapshot.report.channels.compactMap(\.provider))
        #expect(owners == ["miguiatv"])
        #expect(snapshot.report.providers.first { $0.id == "xmltv-sample" }?.status != .failed)
        #expect(snapshot.programmes.contains { $0.providerIDs?["tmdb"] != nil && $0.kind == .movie })
    }

    @Test func aChannelEveryProviderFailsForKeepsItsLastGoodProgrammes() async throws {
        let scratch = try Scratch()
        let files = LoopbackServer.serving(directory: Fixtures.url("miguiatv"))
        let failLa1 = Flag()
        try await LoopbackServer.run({ request in
            if request.path.hasSuffix("/channel/1.json"), failLa1.isSet { return .status(500) }
            return await files(request)
        }) { base in
            let config = try defaultConfig(miguiatv: base.absoluteString, extra: "\n    shift_weeks: auto")
                .replacingOccurrences(of: "guide: [elpais, movistarplus, miguiatv, xmltv-sample]", with: "guide: [miguiatv]")
                .replacingOccurrences(of: "ttl: 2h", with: "ttl: 0s")
            try scratch.write("providers.yaml", config)
            let first = try await CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url)
            #expect(first.status == 0, "\(first.stderr)")
            failLa1.set()
            let second = try await CLI.run(["build", "--now", "2026-10-21T20:00:00Z"], in: scratch.url)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("1 stale"), "\(second.stdout)")
            #expect(second.stdout.contains("HTTP 500"))
        }
        let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        let la1 = try #require(snapshot.report.channels.first { $0.id == "La1.es" })
        #expect(la1.stale)
        #expect(la1.staleSince == ISOTime.parse(recordedNow))
        #expect(la1.programmes > 20)
        #expect(snapshot.programmes.contains { $0.channel == "La1.es" })
    }

    @Test func aRunWhereNothingIsServedFailsAndLeavesTheLastSnapshotUntouched() async throws {
        let scratch = try Scratch()
        try await LoopbackServer.run(unavailable) { base in
            try scratch.write("providers.yaml", try defaultConfig(miguiatv: base.absoluteString))
            #expect(try await CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url).status == 0)
            let before = try Data(contentsOf: scratch.file("snapshots/latest.json"))
            let broken = try defaultConfig(miguiatv: base.absoluteString)
                .replacingOccurrences(of: "guide: [elpais, movistarplus, miguiatv, xmltv-sample]", with: "guide: [miguiatv]")
            try scratch.write("providers.yaml", broken)
            let run = try await CLI.run(["build", "--now", "2026-10-21T20:00:00Z"], in: scratch.url)
            #expect(run.status == 1)
            #expect(run.stderr.contains("no provider served any channel"))
            #expect(try Data(contentsOf: scratch.file("snapshots/latest.json")) == before)
        }
    }

    @Test func aTruncatedSourceIsMalformedAndTheLastSnapshotStays() async throws {
        let scratch = try Scratch()
        try await LoopbackServer.run(unavailable) { base in
            try scratch.write("providers.yaml", try defaultConfig(miguiatv: base.absoluteString))
            #expect(try await CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url).status == 0)
        }
        let before = try Data(contentsOf: scratch.file("snapshots/latest.json"))
        try scratch.write("truncated.yaml", """
            guide: [broken]
            providers:
              broken: { type: xmltv, url: \(Fixtures.url("xmltv/truncated.xml").path) }
            """)
        let run = try await CLI.run(["build", "--config", "truncated.yaml", "--now", recordedNow], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stdout.contains("malformed"), "\(run.stdout)")
        #expect(run.stdout.contains("truncated.xml: line"), "\(run.stdout)")
        #expect(try Data(contentsOf: scratch.file("snapshots/latest.json")) == before)
    }

    @Test func fromAndToOverrideTheWindow() async throws {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", """
            guide: [sample]
            providers:
              sample: { type: xmltv, url: \(Fixtures.url("xmltv/sample.xml").path) }
            """)
        let run = try await CLI.run(["build", "--now", recordedNow, "--from", "2026-10-22", "--to", "2026-10-23T00:00:00+02:00", "--quiet"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        #expect(snapshot.window == TimeWindow(from: ISOTime.parse("2026-10-22T00:00:00Z")!, to: ISOTime.parse("2026-10-22T22:00:00Z")!))
        #expect(!snapshot.programmes.isEmpty)
        #expect(snapshot.programmes.allSatisfy { $0.start < snapshot.window.to && ($0.stop ?? $0.start) > snapshot.window.from })
    }

    @Test func secretsFromTheEnvironmentReachNoOutputAndNoSnapshot() async throws {
        let scratch = try Scratch()
        let secret = "s3cr3t-Value-42"
        try await LoopbackServer.run({ _ in .status(500) }) { base in
            try scratch.write("providers.yaml", """
                guide: [private, sample]
                metadata: { movie: [private-tmdb] }
                providers:
                  private: { type: xmltv, url: "\(base.absoluteString)${TVGUIDE_TEST_SECRET}/guide.xml?api_key=${TVGUIDE_TEST_SECRET}", retries: 0, timeout: 60s }
                  private-tmdb: { type: tmdb, base_url: "\(base.absoluteString)${TVGUIDE_TEST_SECRET}/3/", api_key: "${TVGUIDE_TEST_SECRET}", retries: 0, timeout: 60s }
                  sample: { type: xmltv, url: \(Fixtures.url("xmltv/sample.xml").path), shift_weeks: auto }
                """)
            let run = try await CLI.run(["build", "--now", recordedNow, "--verbose"], in: scratch.url, environment: ["TVGUIDE_TEST_SECRET": secret])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("HTTP 500"), "the failure is reported: \(run.stdout)")
            #expect(run.stdout.contains("/REDACTED/3/configuration?api_key=REDACTED"), "the metadata failure is reported: \(run.stdout)")
            #expect(!run.stdout.contains(secret), "\(run.stdout)")
            #expect(!run.stderr.contains(secret), "\(run.stderr)")
        }
        for file in try FileManager.default.subpathsOfDirectory(atPath: scratch.url.path) {
            let url = scratch.file(file)
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            #expect(!String(decoding: data, as: UTF8.self).contains(secret), "\(file) holds the secret")
            #expect(!file.contains(secret))
        }
    }

    @Test func goldenSnapshotOfTheOfflineDefault() async throws {
        let scratch = try Scratch()
        let golden = Fixtures.url("golden/offline-default.json")
        try await LoopbackServer.run(unavailable) { base in
            try scratch.write("providers.yaml", try defaultConfig(miguiatv: base.absoluteString))
            #expect(try await CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url).status == 0)
        }
        let built = scratch.file("snapshots/latest.json")
        if ProcessInfo.processInfo.environment["TVGUIDE_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contentsOf: built).write(to: golden)
        }
        let diff = try await CLI.run(["diff", golden.path, built.path])
        #expect(diff.status == 0, "the offline build differs from the golden snapshot (rerun with TVGUIDE_UPDATE_GOLDEN=1 if intended):\n\(diff.stdout)")
    }
}

extension BuildEndToEndTests {
    /// `--now` governs token expiry as it governs the window: 76 years ahead, past every recorded
    /// token's exp, the recorded TheTVDB still logs in once for the whole run.
    @Test func theRunClockGovernsTheRecordedLogin() async throws {
        let scratch = try Scratch()
        try await LoopbackServer.run(unavailable) { base in
            try scratch.write("providers.yaml", try defaultConfig(miguiatv: base.absoluteString))
            let run = try await CLI.run(["build", "--now", "2102-11-25T09:00:00Z"], in: scratch.url)
            #expect(run.status == 0, "\(run.stderr)")
            let line = run.stdout.split(separator: "\n").first { $0.contains("from recordings; ") && $0.contains("login") }
            #expect(line?.hasSuffix("; 1 login") == true, "\(run.stdout)")
        }
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
