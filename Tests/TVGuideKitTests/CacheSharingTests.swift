import Foundation
import GuideCore
import Testing
import TestSupport

/// Two builders sharing a PostgreSQL store, each in a folder of its own (as two replicas on two
/// machines): the second asks no provider anything the first fetched, whether an HTTP response
/// (the guide's XMLTV, TMDB's answers) or a metadata lookup (TheTVDB's, which starts with a
/// login POST that no HTTP cache answers). Real `tvguide build` processes, a throw-away
/// cluster, and fake providers on loopback that count the requests.
@Suite(.enabled(if: PostgresCluster.binaries != nil, "PostgreSQL's initdb and postgres were not found (apt-get install postgresql; .ci/run installs it)"))
struct CacheSharingTests {
    static let keys = ["TEST_TMDB_KEY": "tmdb-key-123", "TEST_TVDB_KEY": "tvdb-key-456"]

    static let fakeProviders: LoopbackHandler = { request in
        if request.path.hasPrefix("/guide/") {
            return await LoopbackServer.serving(directory: Fixtures.url("xmltv"), mountPath: "/guide/")(request)
        }
        return await MetadataEndToEndTests.fakeAPIs(request)
    }

    static func configuration(base: URL, store: String) -> String {
        """
        cache: { dir: cache, ttl: 2h }
        snapshots: { store: "\(store)", keep: 3 }
        guide: [sample]
        metadata:
          movie: [tmdb]
          series: [thetvdb, tmdb]
        providers:
          sample: { type: xmltv, url: "\(base.absoluteString)guide/sample.xml", timeout: 60s, retries: 0 }
          tmdb: { type: tmdb, base_url: "\(base.absoluteString)tmdb/3/", api_key: "${TEST_TMDB_KEY}", timeout: 60s, retries: 0 }
          thetvdb: { type: thetvdb, base_url: "\(base.absoluteString)thetvdb/v4/", api_key: "${TEST_TVDB_KEY}", timeout: 60s, retries: 0 }
        """
    }

    @Test func aSecondBuilderInAnotherFolderAsksNoProviderWhatTheFirstFetched() async throws {
        try await PostgresCluster.run { cluster in
            let log = RequestLog()
            try await LoopbackServer.run(log: log, Self.fakeProviders) { base in
                let yaml = Self.configuration(base: base, store: cluster.url(password: "${TVGUIDE_PG_PASSWORD}"))
                let environment = Self.keys.merging(["TVGUIDE_PG_PASSWORD": cluster.password]) { own, _ in own }
                let first = try Scratch()
                let second = try Scratch()
                for scratch in [first, second] { try scratch.write("providers.yaml", yaml) }

                let firstRun = try await CLI.run(["build", "--now", recordedNow], in: first.url, environment: environment)
                #expect(firstRun.status == 0, "\(firstRun.stderr)")
                let firstRequests = await log.count
                #expect(await log.count(path: "/guide/sample.xml") == 1)
                #expect(await log.count(path: "/tmdb/3/movie/1417") == 1)
                #expect(await log.count(path: "/thetvdb/v4/login") == 1)
                #expect(!firstRun.stdout.contains("from the lookup cache"), "\(firstRun.stdout)")

                let secondRun = try await CLI.run(["build", "--now", recordedNow], in: second.url, environment: environment)
                #expect(secondRun.status == 0, "\(secondRun.stderr)")
                let secondRequests = await log.count - firstRequests
                print("CacheSharingTests: provider requests, first builder \(firstRequests), second builder \(secondRequests)")
                let asked = await log.requests.suffix(secondRequests).map(\.path)
                #expect(secondRequests == 0, "the second builder asked again: \(asked)")
                #expect(secondRun.stdout.contains("from the lookup cache"), "\(secondRun.stdout)")

                // Both committed; neither kept a cache of its own on disk.
                #expect(try await cluster.psql("SELECT count(*) FROM tvguide_snapshot") == "2\n")
                for scratch in [first, second] {
                    #expect(!FileManager.default.fileExists(atPath: scratch.file("cache").path), "a local cache in \(scratch.url.path)")
                }
                #expect(try await cluster.psql("SELECT count(*) > 0 FROM tvguide_http_cache") == "t\n")
                #expect(try await cluster.psql("SELECT count(*) > 0 FROM tvguide_metadata_cache") == "t\n")
                let secrets = try await cluster.psql("""
                    SELECT count(*) FROM tvguide_http_cache
                    WHERE url LIKE '%-key-%' OR position('tmdb-key-123' IN encode(body, 'escape')) > 0
                       OR position('tvdb-key-456' IN encode(body, 'escape')) > 0
                    """)
                #expect(secrets == "0\n", "an API key in the shared HTTP cache")
            }
        }
    }
}
