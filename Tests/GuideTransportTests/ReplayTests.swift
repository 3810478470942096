import Foundation
import GuideCore
import GuideTransport
import Testing
import TestSupport

@Suite("ReplayTransport and the recording layout")
struct ReplayTests {
    static let base = URL(string: "http://api.miguia.tv/1/")!

    @Test("a recorded path is answered from the folder")
    func replayHit() async throws {
        try await withTemporaryDirectory { root in
            try write(#"{"data":[[3,"Antena 3","national","es",""]]}"#, to: "es_ES/channel/3.json", under: root)
            let replay = ReplayTransport(root: root, baseURL: Self.base)
            let response = try await replay.get(URL(string: "http://api.miguia.tv/1/es_ES/channel/3.json")!)
            #expect(response.status == 200)
            #expect(response.origin == .replay)
            #expect(response.headers["content-type"] == "application/json")
            #expect(String(decoding: response.body, as: UTF8.self).contains("Antena 3"))
        }
    }

    @Test("a missing recording is .notFound naming the URL and the file looked for")
    func replayMiss() async throws {
        try await withTemporaryDirectory { root in
            let replay = ReplayTransport(root: root, baseURL: Self.base)
            let url = URL(string: "http://api.miguia.tv/1/es_ES/channel/99.json")!
            let expected = root.appendingPathComponent("es_ES/channel/99.json").path
            await #expect(throws: ProviderError.notFound("no recording for \(url.absoluteString) (looked for \(expected))")) {
                try await replay.get(url)
            }
        }
    }

    @Test("query items are matched sorted by name, without credentials")
    func replayQueryOrdering() async throws {
        try await withTemporaryDirectory { root in
            try write(#"{"results":[{"id":348}]}"#, to: "search/movie?query=Alien&year=1979", under: root)
            let replay = ReplayTransport(root: root, baseURL: URL(string: "https://api.themoviedb.org/3/")!)
            let url = URL(string: "https://api.themoviedb.org/3/search/movie?year=1979&api_key=SECRET&query=Alien")!
            let response = try await replay.get(url)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"results":[{"id":348}]}"#)
            await #expect(throws: ProviderError.self) {
                try await replay.get(URL(string: "https://api.themoviedb.org/3/search/movie?query=Alien")!)
            }
        }
    }

    @Test("URLs outside base_url and paths climbing out with .. are .notFound")
    func replayOutsideBase() async throws {
        try await withTemporaryDirectory { root in
            try write("secret", to: "outside.txt", under: root.deletingLastPathComponent())
            try write("{}", to: "es_ES/channels.json", under: root)
            let replay = ReplayTransport(root: root, baseURL: Self.base)
            for text in [
                "http://api.miguia.tv/2/es_ES/channels.json",
                "http://other.example/1/es_ES/channels.json",
                "https://api.miguia.tv/1/es_ES/channels.json",
                "http://api.miguia.tv:8080/1/es_ES/channels.json",
                "http://api.miguia.tv/1/../outside.txt",
                "http://api.miguia.tv/1/es_ES/%2E%2E/%2E%2E/outside.txt",
            ] {
                do {
                    _ = try await replay.get(URL(string: text)!)
                    Issue.record("\(text) should not be answered")
                } catch let error as ProviderError {
                    #expect(error.kind == "notFound", "\(text): \(error)")
                }
            }
        }
    }

    @Test("the loopback server's folder handler and the replay transport read the same layout")
    func loopbackServingMatchesReplay() async throws {
        try await withTemporaryDirectory { root in
            try write(#"{"page":2}"#, to: "api/v4/series?lang=spa&page=2", under: root)
            let log = RequestLog()
            let served = LoopbackServer.serving(directory: root.appendingPathComponent("api"), mountPath: "/api/")
            try await LoopbackServer.run(log: log, served) { base in
                let baseURL = base.appendingPathComponent("api/")
                let url = URL(string: "\(baseURL.absoluteString)v4/series?page=2&token=T0KEN&lang=spa")!
                let live = try await LiveTransport(policy: fastPolicy()).get(url)
                let replay = try await ReplayTransport(root: root.appendingPathComponent("api"), baseURL: baseURL).get(url)
                #expect(live.body == replay.body)
                #expect(live.headers["content-type"] == replay.headers["content-type"])
                #expect(await log.last(path: "/api/v4/series")?.query == "page=2&token=T0KEN&lang=spa")

                await #expect(throws: ProviderError.http(status: 403, url: "\(base.absoluteString)api/%2E%2E/%2E%2E/etc/passwd")) {
                    try await LiveTransport(policy: fastPolicy()).get(URL(string: "\(base.absoluteString)api/%2E%2E/%2E%2E/etc/passwd")!)
                }
                await #expect(throws: ProviderError.http(status: 404, url: "\(base.absoluteString)api/v4/missing")) {
                    try await LiveTransport(policy: fastPolicy()).get(URL(string: "\(base.absoluteString)api/v4/missing")!)
                }
            }
        }
    }

    @Test("recording file names sort query items by name and keep same-name order")
    func recordingFileNames() {
        let base = URL(string: "http://h/x/")!
        #expect(RecordingLayout.relativePath(for: URL(string: "http://h/x/a/b.json")!, under: base) == "a/b.json")
        #expect(RecordingLayout.relativePath(for: URL(string: "http://h/x/q?b=2&a=1&b=1")!, under: base) == "q?a=1&b=2&b=1")
        #expect(RecordingLayout.relativePath(for: URL(string: "http://h/x/q?apikey=k&s=La%20Casa")!, under: base) == "q?s=La%20Casa")
        #expect(RecordingLayout.relativePath(for: URL(string: "http://H:80/x/q")!, under: base) == "q")
        #expect(RecordingLayout.relativePath(for: URL(string: "http://h/x/")!, under: base) == nil)
        #expect(RecordingLayout.relativePath(for: URL(string: "http://h/xy/q")!, under: base) == nil)
    }
}

@Suite("Redaction of credentials")
struct RedactionTests {
    @Test("error messages carry api_key as REDACTED")
    func errorMessagesAreRedacted() async throws {
        try await LoopbackServer.run({ _ in .status(404) }) { base in
            let url = URL(string: "\(base.absoluteString)3/movie/348?api_key=SECRET123&language=es-ES")!
            do {
                _ = try await LiveTransport(policy: fastPolicy()).get(url)
                Issue.record("expected a 404")
            } catch let error as ProviderError {
                #expect(!error.description.contains("SECRET123"))
                #expect(error == .http(status: 404, url: "\(base.absoluteString)3/movie/348?api_key=REDACTED&language=es-ES"))
            }
        }
    }

    @Test("secret query items and user-info are redacted; other items are untouched")
    func redactedURLs() {
        let url = URL(string: "https://user:pw@api.example/v1/x?token=t1&q=a%20b&apiKey=k2&access_token=t3&page=2")!
        #expect(URLRedaction.redacted(url)
                == "https://api.example/v1/x?token=REDACTED&q=a%20b&apiKey=REDACTED&access_token=REDACTED&page=2")
        #expect(URLRedaction.withoutSecrets(url) == "https://api.example/v1/x?q=a%20b&page=2")
        #expect(!URLRedaction.isSecret(queryItemNamed: "keyword"))
        #expect(!URLRedaction.isSecret(queryItemNamed: "monkey"))
        #expect(URLRedaction.isSecret(queryItemNamed: "API-KEY"))
    }

    @Test("replay misses do not echo a key either")
    func replayMissIsRedacted() async throws {
        try await withTemporaryDirectory { root in
            let replay = ReplayTransport(root: root, baseURL: URL(string: "https://api.themoviedb.org/3/")!)
            do {
                _ = try await replay.get(URL(string: "https://api.themoviedb.org/3/movie/348?api_key=SECRET123")!)
                Issue.record("expected .notFound")
            } catch let error as ProviderError {
                #expect(error.kind == "notFound")
                #expect(!error.description.contains("SECRET123"))
                #expect(error.description.contains("api_key=REDACTED"))
            }
        }
    }
}
