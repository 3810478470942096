import Foundation
import GuideCore
import GuideStorage
import TestSupport
import Testing

/// `tvguide build` with metadata chains, against fake TMDB and TheTVDB servers on loopback that
/// serve the recordings in Fixtures/.
struct MetadataEndToEndTests {
    /// One loopback server for both APIs: `/tmdb/3/…` and `/thetvdb/v4/…` (login included).
    static let fakeAPIs: LoopbackHandler = { request in
        if request.path.hasPrefix("/tmdb/") {
            return await LoopbackServer.serving(directory: Fixtures.url("tmdb"), mountPath: "/tmdb/3/")(request)
        }
        return await LoopbackServer.serving(directory: Fixtures.url("thetvdb"), mountPath: "/thetvdb/v4/")(request)
    }

    static func configuration(base: URL) -> String {
        """
        cache: { dir: cache, ttl: 2h }
        guide: [sample]
        metadata:
          movie: [tmdb]
          series: [thetvdb, tmdb]
        providers:
          sample: { type: xmltv, url: \(Fixtures.url("xmltv/sample.xml").path) }
          tmdb: { type: tmdb, base_url: "\(base.absoluteString)tmdb/3/", api_key: "${TEST_TMDB_KEY}", timeout: 60s, retries: 0 }
          thetvdb: { type: thetvdb, base_url: "\(base.absoluteString)thetvdb/v4/", api_key: "${TEST_TVDB_KEY}", timeout: 60s, retries: 0 }
        """
    }

    @Test func eachWorkIsLookedUpOnceAndNotAgainWithinTheTTL() async throws {
        let scratch = try Scratch()
        let log = RequestLog()
        let keys = ["TEST_TMDB_KEY": "tmdb-key-123", "TEST_TVDB_KEY": "tvdb-key-456"]
        try await LoopbackServer.run(log: log, Self.fakeAPIs) { base in
            try scratch.write("providers.yaml", Self.configuration(base: base))
            let first = try await CLI.run(["build", "--now", recordedNow], in: scratch.url, environment: keys)
            #expect(first.status == 0, "\(first.stderr)")
            let requestsAfterFirstRun = await log.count
            #expect(requestsAfterFirstRun > 0)

            // The film airs several times in the window: one details request.
            #expect(await log.count(path: "/tmdb/3/movie/1417") == 1)
            #expect(await log.count(path: "/tmdb/3/configuration") == 1)
            #expect(await log.count(path: "/thetvdb/v4/login") == 1)
            #expect(await log.last(path: "/thetvdb/v4/login")?.method == "POST")
            let detailsQuery = await log.last(path: "/tmdb/3/movie/1417")?.query ?? ""
            #expect(detailsQuery.contains("api_key=tmdb-key-123"))
            #expect(detailsQuery.contains("append_to_response=credits%2Cvideos%2Cimages"))

            let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
            let fauno = snapshot.programmes.filter { $0.title == "El laberinto del fauno" }
            #expect(fauno.count == 3)
            #expect(fauno.allSatisfy { $0.work == "movie/tmdb/1417" })
            let work = try #require(snapshot.works["movie/tmdb/1417"])
            #expect(work.metadata.originalTitle == "El laberinto del fauno")
            #expect(work.metadata.providerIDs?["imdb"] == "tt0457430")
            #expect(work.sources["overview"] == "tmdb")
            #expect(work.matches["tmdb"]?.method == .exact)
            #expect(Set(snapshot.programmes.compactMap(\.work)) == Set(snapshot.works.keys), "every work is referenced, every reference resolves")

            // A series enriched by both: TheTVDB first, TMDB filling what TheTVDB lacks.
            let series = snapshot.works.values.filter { $0.kind == .series }
            #expect(!series.isEmpty)
            #expect(series.contains { Set($0.sources.values) == ["thetvdb", "tmdb"] }, "per-field merge across both providers")

            let metadata = try #require(snapshot.report.metadata)
            #expect(metadata.unmatched.contains("movie: Días de cine"))
            #expect(metadata.providers.map(\.id) == ["tmdb", "thetvdb"])
            #expect(metadata.providers.allSatisfy { $0.status == .served && $0.cached == 0 })

            let second = try await CLI.run(["build", "--now", recordedNow], in: scratch.url, environment: keys)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(await log.count == requestsAfterFirstRun, "a second run inside the TTL makes no request")
            let again = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
            #expect(again.works == snapshot.works)
            #expect(again.report.metadata?.providers.allSatisfy { $0.cached == $0.lookups } == true)
            #expect(second.stdout.contains("from the lookup cache"), "\(second.stdout)")
        }
        for file in try FileManager.default.subpathsOfDirectory(atPath: scratch.url.path) {
            guard let data = FileManager.default.contents(atPath: scratch.file(file).path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("tmdb-key-123") && !text.contains("tvdb-key-456"), "\(file) holds a key")
        }
    }

    @Test func aMetadataProviderThatFailsIsReportedAndTheGuideIsStillWritten() async throws {
        let scratch = try Scratch()
        try await LoopbackServer.run(unavailable) { base in
            try scratch.write("providers.yaml", Self.configuration(base: base))
            let run = try await CLI.run(["build", "--now", recordedNow], in: scratch.url,
                                        environment: ["TEST_TMDB_KEY": "k", "TEST_TVDB_KEY": "k"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("HTTP 503"), "\(run.stdout)")
            let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
            #expect(!snapshot.programmes.isEmpty)
            #expect(snapshot.works.isEmpty)
            #expect(snapshot.report.metadata?.providers.map(\.status) == [.failed, .failed])
        }
    }

    @Test func aProviderInAGuideChainThatOnlyGivesMetadataIsAConfigurationError() async throws {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", """
            guide: [tmdb]
            providers:
              tmdb: { type: tmdb, replay: \(Fixtures.url("tmdb").path) }
            """)
        let run = try await CLI.run(["validate"], in: scratch.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("provider 'tmdb' (type tmdb) gives metadata: it cannot be in guide; types there: json-feed, miguiatv, scrape, site, xmltv"), "\(run.stderr)")
    }
}
