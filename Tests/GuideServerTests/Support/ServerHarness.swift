import AsyncHTTPClient
import Foundation
import GuideCore
import GuideStorage
import GzipCodec
import GuideServer
import Logging
import NIOCore
import NIOHTTP1
import TestSupport
import TVGuideKit
import XMLTV

/// Runs a real `GuideServer` on 127.0.0.1 and a free port for the length of a test.
enum ServerHarness {
    /// The golden snapshot's clock: built at 2026-10-21T19:00:00Z, window 20 → 28 October.
    static let goldenNow = ISOTime.parse("2026-10-21T19:00:00Z")!

    /// `Fixtures/golden/offline-default.json`: 24 channels, 4,002 programmes, 76 works, 14 audience days.
    static let golden: Snapshot = {
        // A fixture the suite cannot run without.
        try! SnapshotStore.load(Fixtures.url("golden/offline-default.json"))
    }()

    /// A source serving `snapshot` with the real XMLTV writer and gzip, the clock fixed at `now`.
    static func source(snapshot: Snapshot?, now: Date = goldenNow,
                       refresh: (@Sendable () async throws -> RefreshOutcome?)? = nil,
                       playlist: (@Sendable () async -> ServedPlaylist)? = nil) -> GuideSource {
        var source = GuideSource(
            refresh: refresh,
            writeXMLTV: { snapshot, keeping, plain, compressed in
                try XMLTVFeedFiles.write(channels: snapshot.channels, programmes: snapshot.programmes, keeping: keeping, plain: plain, compressed: compressed)
            },
            gzip: { try Gzip.compress($0) },
            clock: { now })
        source.playlist = playlist
        return source
    }

    /// The server's settings unless a test gives its own: the default limits, but for the time a
    /// connection may take to send a request or stay idle, which a test that does not study them
    /// must never meet while it waits for a thread on a busy machine.
    static let patientSettings: ServerSettings = {
        var settings = ServerSettings(port: 0)
        settings.limits.requestTimeout = .seconds(600)
        settings.limits.idleTimeout = .seconds(600)
        return settings
    }()

    /// Starts the server, runs `body` with a client for it, and stops the server afterwards.
    static func run<T: Sendable>(
        snapshot: Snapshot? = golden, now: Date = goldenNow, settings: ServerSettings = patientSettings,
        refresh: (@Sendable () async throws -> RefreshOutcome?)? = nil,
        playlist: (@Sendable () async -> ServedPlaylist)? = nil,
        feedDirectory: URL? = nil,
        _ body: (ServerClient) async throws -> T
    ) async throws -> T {
        var settings = settings
        settings.port = 0
        var logger = Logger(label: "test.serve")
        logger.logLevel = .critical
        var source = source(snapshot: snapshot, now: now, refresh: refresh, playlist: playlist)
        source.feedDirectory = feedDirectory
        let server = GuideServer(settings: settings, source: source, latest: snapshot, logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await server.run(gracefulShutdownSignals: []) { port in
                    continuation.yield(port)
                    continuation.finish()
                }
            }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await group.next()
                throw HarnessError("the guide server stopped before it listened")
            }
            return try await body(ServerClient(port: port, routes: server.routes))
        }
    }
}

/// What a test reads back from the server.
struct ServerResponse: Sendable {
    var status: Int
    /// Header names lower-cased.
    var headers: [String: String]
    var body: Data
    /// Every `Set-Cookie` field, in order (`headers` keeps one value per name).
    var setCookies: [String] = []

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON (a dictionary or an array).
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: body)
    }

    func object() throws -> [String: Any] {
        guard let object = try json() as? [String: Any] else { throw HarnessError("not a JSON object: \(text.prefix(200))") }
        return object
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A client for the running server: plain HTTP/1.1 GETs, no redirects followed, no decompression.
struct ServerClient: Sendable {
    let port: Int
    /// The routes the server registered (`GET /now`).
    let routes: [String]

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Not `HTTPClient.shared`, which asks for gzip as a browser does and inflates what comes:
    /// the tests read the bytes the server sends. Lives as long as the test process.
    private static let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(redirectConfiguration: .disallow))

    /// GETs `path` (with its query, sent as written, so tests can send raw and malformed paths).
    func get(_ path: String, headers: [String: String] = [:]) async throws -> ServerResponse {
        try await send(.GET, path, headers: headers)
    }

    func send(_ method: HTTPMethod, _ path: String, headers: [String: String] = [:]) async throws -> ServerResponse {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await Self.http.execute(request, timeout: .seconds(60))
        var collected = try await response.body.collect(upTo: 256 << 20)
        let bytes = collected.readBytes(length: collected.readableBytes) ?? []
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name.lowercased()] = value }
        return ServerResponse(status: Int(response.status.code), headers: fields, body: Data(bytes),
                              setCookies: response.headers["set-cookie"])
    }
}
