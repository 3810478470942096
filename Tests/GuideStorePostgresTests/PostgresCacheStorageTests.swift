import Foundation
import GuideCore
import GuideStorePostgres
import GuideTransport
import Logging
import Testing
import TestSupport

/// The HTTP cache and the metadata lookups in PostgreSQL, against a real server (a throw-away
/// cluster per test): what one store object writes another reads, freshness follows the TTL as
/// in the folders, and writers of the same key at once all succeed. One cluster at a time
/// (`.serialized`): each starts a PostgreSQL server, and the rest of the suite runs beside them.
@Suite(.serialized, .enabled(if: PostgresCluster.binaries != nil, "PostgreSQL's initdb and postgres were not found (apt-get install postgresql; .ci/run installs it)"))
struct PostgresCacheStorageTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_792_900_800)
    static let ttl: TimeInterval = 7_200

    @Test func anHTTPResponseStoredByOneStoreIsReadByAnotherWithoutItsSecret() async throws {
        try await PostgresCluster.run { cluster in
            var writer = HTTPCache(storage: try PostgresSnapshotStoreTests.store(cluster).httpCache)
            writer.secrets = SecretScrubber(["path-secret-42"])
            let url = try #require(URL(string: "http://127.0.0.1:9/path-secret-42/guide.xml?api_key=query-secret-7&day=1"))
            let body = Data("<tv>\n</tv>".utf8)
            try await writer.store(body, for: url, etag: #""e1""#, lastModified: "Tue, 20 Oct 2026 10:00:00 GMT",
                                   contentType: "text/xml", fetchedAt: Self.fetchedAt)

            var reader = HTTPCache(storage: try PostgresSnapshotStoreTests.store(cluster).httpCache)
            reader.secrets = SecretScrubber(["path-secret-42"])
            let entry = try #require(await reader.entry(for: url))
            #expect(entry.body == body)
            #expect(entry.metadata.etag == #""e1""#)
            #expect(entry.metadata.lastModified == "Tue, 20 Oct 2026 10:00:00 GMT")
            #expect(entry.metadata.contentType == "text/xml")
            #expect(entry.metadata.fetchedAt == Self.fetchedAt)
            #expect(await reader.entry(for: try #require(URL(string: "http://127.0.0.1:9/other.xml"))) == nil)

            // A second write replaces the row whole.
            try await writer.store(Data("<tv/>".utf8), for: url, etag: nil, lastModified: nil, contentType: nil,
                                   fetchedAt: Self.fetchedAt.addingTimeInterval(60))
            let replaced = try #require(await reader.entry(for: url))
            #expect(replaced.body == Data("<tv/>".utf8))
            #expect(replaced.metadata.etag == nil)
            #expect(try await cluster.psql("SELECT count(*) FROM tvguide_http_cache") == "1\n")
            let stored = try await cluster.psql("SELECT url FROM tvguide_http_cache")
            #expect(!stored.contains("path-secret-42") && !stored.contains("query-secret-7"), "\(stored)")
        }
    }

    @Test func anHTTPEntryIsServedWithinTheTTLAndRevalidatedAfterItAsFromTheFolder() async throws {
        try await PostgresCluster.run { cluster in
            let log = RequestLog()
            let handler: LoopbackHandler = { request in
                request.headers["if-none-match"] == #""v1""# ? .status(304) : .json(#"{"v":1}"#, headers: ["etag": #""v1""#])
            }
            try await LoopbackServer.run(log: log, handler) { base in
                let url = base.appendingPathComponent("channels.json")
                // Each transport another builder with its own store object, at its own moment.
                func transport(after seconds: TimeInterval) throws -> LiveTransport {
                    let cache = HTTPCache(storage: try PostgresSnapshotStoreTests.store(cluster).httpCache)
                    return LiveTransport(cache: cache, cacheTTL: .seconds(Int64(Self.ttl)), now: { Self.fetchedAt.addingTimeInterval(seconds) })
                }
                #expect(try await transport(after: 0).get(url).origin == .network)
                #expect(try await transport(after: Self.ttl - 1).get(url).origin == .cache)
                #expect(await log.count == 1)
                // Past the TTL the entry is kept, and asked about with its ETag: a 304 serves it.
                let stale = try await transport(after: Self.ttl).get(url)
                #expect(stale.origin == .revalidated)
                #expect(stale.body == Data(#"{"v":1}"#.utf8))
                #expect(await log.last(path: "/channels.json")?.headers["if-none-match"] == #""v1""#)
                // The 304 moved fetched_at: fresh again for the next builder.
                #expect(try await transport(after: Self.ttl + 60).get(url).origin == .cache)
                #expect(await log.count == 2)
            }
        }
    }

    @Test func metadataAnswersAreSharedUnderTheirFingerprintAndExpireWithTheTTL() async throws {
        try await PostgresCluster.run { cluster in
            let alien = MetadataQueryKey(MetadataQuery(kind: .movie, title: "Alien", year: 1979))
            let titanic = MetadataQueryKey(MetadataQuery(kind: .movie, title: "Titanic"))
            var alienDetails = Metadata()
            alienDetails.title = "Alien"
            alienDetails.year = 1979
            let found = MetadataLookup.found(alienDetails, MetadataMatch(method: .exact, confidence: 1, providerID: "348", title: "Alien"))
            func cache(after seconds: TimeInterval) throws -> MetadataLookupCache {
                MetadataLookupCache(storage: try PostgresSnapshotStoreTests.store(cluster).metadataLookups, ttl: Self.ttl,
                                    now: { Self.fetchedAt.addingTimeInterval(seconds) })
            }
            let first = try cache(after: 0)
            await first.store(found, provider: "tmdb", fingerprint: "fp", key: alien)
            await first.store(.ambiguous(["597 Titanic (1997)"]), provider: "tmdb", fingerprint: "fp", key: titanic)
            await first.save()
            #expect(await first.notes(for: "tmdb").isEmpty)

            let second = try cache(after: Self.ttl - 1)
            #expect(await second.answer(provider: "tmdb", fingerprint: "fp", key: alien) == found)
            #expect(await second.answer(provider: "tmdb", fingerprint: "fp", key: titanic) == .ambiguous(["597 Titanic (1997)"]))
            #expect(await second.answer(provider: "tmdb", fingerprint: "other settings", key: alien) == nil)
            #expect(await second.answer(provider: "thetvdb", fingerprint: "fp", key: alien) == nil)

            // At the TTL an answer is no longer served, and the next save drops it.
            let third = try cache(after: Self.ttl)
            #expect(await third.answer(provider: "tmdb", fingerprint: "fp", key: alien) == nil)
            await third.store(.noMatch, provider: "tmdb", fingerprint: "fp", key: titanic)
            await third.save()
            #expect(try await cluster.psql("SELECT query FROM tvguide_metadata_cache") == "\(titanic.rawValue)\n")
            #expect(await (try cache(after: Self.ttl + 1)).answer(provider: "tmdb", fingerprint: "fp", key: titanic) == .noMatch)
        }
    }

    @Test func writersOfTheSameKeyAtOnceAllSucceed() async throws {
        try await PostgresCluster.run { cluster in
            let url = try #require(URL(string: "http://127.0.0.1:9/shared.json"))
            let key = MetadataQueryKey(MetadataQuery(kind: .movie, title: "Alien", year: 1979))
            let writers = 8
            let failures = try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<writers {
                    let store = try PostgresSnapshotStoreTests.store(cluster)
                    group.addTask {
                        var failures: [String] = []
                        do {
                            try await HTTPCache(storage: store.httpCache).store(Data("body \(index)".utf8), for: url, etag: nil, lastModified: nil,
                                                                                contentType: nil, fetchedAt: Self.fetchedAt)
                        } catch {
                            failures.append("\(error)")
                        }
                        let lookups = MetadataLookupCache(storage: store.metadataLookups, ttl: Self.ttl, now: { Self.fetchedAt })
                        await lookups.store(index.isMultiple(of: 2) ? .noMatch : .ambiguous(["\(index)"]), provider: "tmdb", fingerprint: "fp", key: key)
                        await lookups.save()
                        return failures + (await lookups.notes(for: "tmdb"))
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(failures.isEmpty)
            #expect(try await cluster.psql("SELECT count(*) FROM tvguide_http_cache") == "1\n")
            #expect(try await cluster.psql("SELECT count(*) FROM tvguide_metadata_cache") == "1\n")
            let body = try #require(await HTTPCache(storage: try PostgresSnapshotStoreTests.store(cluster).httpCache).entry(for: url)?.body)
            #expect((0..<writers).map { Data("body \($0)".utf8) }.contains(body), "one writer's body, whole")
        }
    }

    @Test func anUnreachableStoreIsAMissAndAWriteFailureThatNamesNoPassword() async throws {
        var logger = Logger(label: "test.store")
        logger.logLevel = .critical
        let address = try PostgresStoreAddress(try #require(URL(string: "postgres://tvguide:hunter2-secret@127.0.0.1:9/tvguide")))
        let store = PostgresSnapshotStore(address: address, keep: 1, logger: logger)
        let url = try #require(URL(string: "http://127.0.0.1:9/guide.xml"))
        let cache = HTTPCache(storage: store.httpCache)
        #expect(await cache.entry(for: url) == nil)
        do {
            try await cache.store(Data("x".utf8), for: url, etag: nil, lastModified: nil, contentType: nil, fetchedAt: Self.fetchedAt)
            Issue.record("a write to an unreachable store succeeded")
        } catch {
            #expect(String(describing: error).contains("postgres://127.0.0.1:9/tvguide"), "\(error)")
            #expect(!String(describing: error).contains("hunter2-secret"))
        }
        let lookups = MetadataLookupCache(storage: store.metadataLookups, ttl: Self.ttl, now: { Self.fetchedAt })
        let key = MetadataQueryKey(MetadataQuery(kind: .movie, title: "Alien"))
        #expect(await lookups.answer(provider: "tmdb", fingerprint: "fp", key: key) == nil)
        await lookups.store(.noMatch, provider: "tmdb", fingerprint: "fp", key: key)
        await lookups.save()
        let notes = await lookups.notes(for: "tmdb")
        #expect(notes.count == 2, "the read and the write: \(notes)")
        #expect(notes.allSatisfy { !$0.contains("hunter2-secret") })
    }
}
