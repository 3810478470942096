import Foundation
import GuideCore
import GuideTransport
import Testing
import TestSupport

@Suite("LiveTransport on-disk cache and conditional GET")
struct CacheTests {
    /// Answers 304 when the client presents the current validators, else the body with them.
    static func validatingHandler(etag: String?, lastModified: String?, body: String) -> LoopbackHandler {
        { request in
            let etagMatches = etag != nil && request.headers["if-none-match"] == etag
            let dateMatches = etag == nil && lastModified != nil && request.headers["if-modified-since"] == lastModified
            var headers: [String: String] = [:]
            headers["etag"] = etag
            headers["last-modified"] = lastModified
            if etagMatches || dateMatches { return .status(304, headers: headers) }
            return .json(body, headers: headers)
        }
    }

    @Test("an expired entry is revalidated with If-None-Match and a 304 serves the cached body")
    func etagRevalidation() async throws {
        try await withTemporaryDirectory { directory in
            let log = RequestLog()
            let clock = TestClock()
            let handler = Self.validatingHandler(etag: #""v1""#, lastModified: "Mon, 19 Oct 2026 04:00:00 GMT", body: #"{"v":1}"#)
            try await LoopbackServer.run(log: log, handler) { base in
                let url = base.appendingPathComponent("es_ES/channels.json")
                let cache = HTTPCache(directory: directory)
                let transport = LiveTransport(policy: fastPolicy(), cache: cache, cacheTTL: .seconds(60), now: { clock.now })

                let first = try await transport.get(url)
                #expect(first.origin == .network)
                #expect(await log.last(path: "/es_ES/channels.json")?.headers["if-none-match"] == nil)

                clock.advance(by: 120)
                let second = try await transport.get(url)
                #expect(second.origin == .revalidated)
                #expect(second.status == 200)
                #expect(second.body == first.body)
                let conditional = try #require(await log.last(path: "/es_ES/channels.json"))
                #expect(conditional.headers["if-none-match"] == #""v1""#)
                #expect(conditional.headers["if-modified-since"] == "Mon, 19 Oct 2026 04:00:00 GMT")

                // The 304 refreshed fetchedAt: within the TTL again, no request.
                clock.advance(by: 30)
                let third = try await transport.get(url)
                #expect(third.origin == .cache)
            }
            #expect(await log.count == 2)
        }
    }

    @Test("Last-Modified alone is revalidated with If-Modified-Since")
    func lastModifiedRevalidation() async throws {
        try await withTemporaryDirectory { directory in
            let log = RequestLog()
            let handler = Self.validatingHandler(etag: nil, lastModified: "Tue, 20 Oct 2026 10:00:00 GMT", body: "[1,2,3]")
            try await LoopbackServer.run(log: log, handler) { base in
                let url = base.appendingPathComponent("now.json")
                // TTL zero: every call asks, and only the 304 path can answer the second one.
                let transport = LiveTransport(policy: fastPolicy(), cache: HTTPCache(directory: directory), cacheTTL: .zero)
                #expect(try await transport.get(url).origin == .network)
                let second = try await transport.get(url)
                #expect(second.origin == .revalidated)
                #expect(String(decoding: second.body, as: UTF8.self) == "[1,2,3]")
                #expect(await log.last(path: "/now.json")?.headers["if-modified-since"] == "Tue, 20 Oct 2026 10:00:00 GMT")
            }
            #expect(await log.count == 2)
        }
    }

    @Test("a changed resource (200 to the conditional GET) replaces the cached body")
    func changedResourceReplacesEntry() async throws {
        try await withTemporaryDirectory { directory in
            let script = Sequenced([
                .json(#"{"v":1}"#, headers: ["etag": #""v1""#]),
                .json(#"{"v":2}"#, headers: ["etag": #""v2""#]),
            ])
            try await LoopbackServer.run(script.handler) { base in
                let url = base.appendingPathComponent("channels.json")
                let cache = HTTPCache(directory: directory)
                let transport = LiveTransport(policy: fastPolicy(), cache: cache, cacheTTL: .zero)
                _ = try await transport.get(url)
                let second = try await transport.get(url)
                #expect(second.origin == .network)
                #expect(String(decoding: second.body, as: UTF8.self) == #"{"v":2}"#)
                let entry = try #require(await cache.entry(for: url))
                #expect(entry.metadata.etag == #""v2""#)
                #expect(String(decoding: entry.body, as: UTF8.self) == #"{"v":2}"#)
            }
        }
    }

    @Test("a fresh entry is served from disk by a second transport (another run) without a request")
    func freshnessAcrossInstances() async throws {
        try await withTemporaryDirectory { directory in
            let log = RequestLog()
            let clock = TestClock()
            try await LoopbackServer.run(log: log, { _ in .json(#"{"channels":[]}"#, headers: ["etag": #""a""#]) }) { base in
                let url = base.appendingPathComponent("es_ES/channels.json")
                let firstRun = LiveTransport(policy: fastPolicy(), cache: HTTPCache(directory: directory),
                                             cacheTTL: .seconds(7200), now: { clock.now })
                #expect(try await firstRun.get(url).origin == .network)

                clock.advance(by: 3600)
                let secondRun = LiveTransport(policy: fastPolicy(), cache: HTTPCache(directory: directory),
                                              cacheTTL: .seconds(7200), now: { clock.now })
                let cached = try await secondRun.get(url)
                #expect(cached.origin == .cache)
                #expect(String(decoding: cached.body, as: UTF8.self) == #"{"channels":[]}"#)
                #expect(cached.headers["content-type"] == "application/json")
                #expect(await log.count == 1)

                clock.advance(by: 3601)
                #expect(try await secondRun.get(url).origin == .network, "older than the TTL: asked again")
            }
            #expect(await log.count == 2)
        }
    }

    @Test("an answer that sets cookies is not cached, so every run gets its cookies; several stay apart")
    func cookieAnswersAreNotCached() async throws {
        try await withTemporaryDirectory { directory in
            let log = RequestLog()
            let cookies = "a=1; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT\nb=2; Path=/"
            try await LoopbackServer.run(log: log, { _ in .json("{}", headers: ["set-cookie": cookies]) }) { base in
                let url = base.appendingPathComponent("init")
                let cache = HTTPCache(directory: directory)
                let transport = LiveTransport(policy: fastPolicy(), cache: cache, cacheTTL: .seconds(7200))
                let first = try await transport.get(url)
                #expect(first.headers["set-cookie"] == cookies)
                #expect(try await transport.get(url).origin == .network)
                #expect(await cache.entry(for: url) == nil)
            }
            #expect(await log.count == 2)
        }
    }

    @Test("failed responses are not cached")
    func errorsAreNotCached() async throws {
        try await withTemporaryDirectory { directory in
            try await LoopbackServer.run({ _ in .status(404) }) { base in
                let url = base.appendingPathComponent("missing.json")
                let cache = HTTPCache(directory: directory)
                let transport = LiveTransport(policy: fastPolicy(), cache: cache)
                _ = try? await transport.get(url)
                #expect(await cache.entry(for: url) == nil)
            }
        }
    }

    @Test("cache entries round-trip, reject truncation and a foreign URL, and leave no temp files")
    func cacheEntryIntegrity() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = HTTPCache(directory: directory)
        let folder = HTTPCacheFolder(directory: directory)
        let url = URL(string: "http://api.miguia.tv/1/es_ES/channel/3.json")!
        let fetchedAt = Date(timeIntervalSince1970: 1_792_900_800)
        let body = Data("{\"data\":[]}\nsecond line".utf8)

        try await cache.store(body, for: url, etag: #""x""#, lastModified: nil, contentType: "application/json", fetchedAt: fetchedAt)
        let entry = try #require(await cache.entry(for: url))
        #expect(entry.body == body)
        #expect(entry.metadata.fetchedAt == fetchedAt)
        #expect(entry.metadata.url == url.absoluteString)
        #expect(entry.metadata.etag == #""x""#)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [folder.fileURL(for: url).lastPathComponent])

        // Another URL whose entry happened to land in this file (a hash collision) is a miss.
        let other = URL(string: "http://api.miguia.tv/1/es_ES/channel/4.json")!
        try FileManager.default.copyItem(at: folder.fileURL(for: url), to: folder.fileURL(for: other))
        #expect(await cache.entry(for: other) == nil)

        // A truncated file is a miss, not a short body.
        let file = folder.fileURL(for: url)
        let contents = try Data(contentsOf: file)
        try contents.dropLast(3).write(to: file)
        #expect(await cache.entry(for: url) == nil)
    }

    @Test("an API key in the URL reaches neither the cache file nor its name, and a new key keeps the entry")
    func cacheHoldsNoSecrets() async throws {
        try await withTemporaryDirectory { directory in
            let log = RequestLog()
            try await LoopbackServer.run(log: log, { _ in .json("{}") }) { base in
                let cache = HTTPCache(directory: directory)
                let transport = LiveTransport(policy: fastPolicy(), cache: cache)
                let url = URL(string: "\(base.absoluteString)search/movie?api_key=SECRET123&query=Alien")!
                _ = try await transport.get(url)
                for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                    #expect(!name.contains("SECRET123"))
                    let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
                    #expect(!text.contains("SECRET123"))
                }
                let rotated = URL(string: "\(base.absoluteString)search/movie?api_key=OTHER456&query=Alien")!
                #expect(try await transport.get(rotated).origin == .cache)
            }
            #expect(await log.count == 1)
        }
    }
}
