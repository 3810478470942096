import Foundation
import GzipCodec
@testable import GuideServer
import Hummingbird
import NIOConcurrencyHelpers
import Testing
@testable import XMLTV

/// HTTP/1.1 as RFC 9112 and RFC 9110 have it, byte for byte over raw sockets: when a connection
/// is kept or closed, requests the server must refuse, conditional requests and gzip. After each,
/// the server still answers (`stillAnswers`). `bench/http-conformance.sh` sends the same requests
/// to nginx for comparison.
@Suite struct HTTP11Tests {
    /// One connection: sends `request` (in `parts`, one write each), waits for `count` answers and
    /// for the server to close, up to `closeWithin`: by default long enough that only a server that
    /// keeps the connection open runs out of it, however busy the machine. A test that expects the
    /// connection kept gives a short time, or none.
    static func exchange(_ port: Int, _ parts: [String], answers count: Int = 1,
                         closeWithin: Duration = .seconds(60)) async throws -> (answers: [RawAnswer], closed: Bool, text: String) {
        // The first part goes from the event loop as the connection opens: a test task held up
        // past the request timeout by a busy machine would otherwise find it closed.
        let connection = try await RawConnection.open(port: port, greeting: parts.first ?? "")
        for part in parts.dropFirst() {
            try await Task.sleep(for: .milliseconds(20))
            // A refusal may close the connection before a long request is all sent; the answer
            // is what counts.
            try? await connection.send(part)
        }
        let answers = try await connection.waitForAnswers(count)
        let closed = try await connection.waitUntilClosed(within: closeWithin)
        let text = connection.text
        await connection.close()
        return (answers, closed, text)
    }

    static func exchange(_ port: Int, _ request: String, answers count: Int = 1,
                         closeWithin: Duration = .seconds(60)) async throws -> (answers: [RawAnswer], closed: Bool, text: String) {
        try await exchange(port, [request], answers: count, closeWithin: closeWithin)
    }

    /// A fresh connection gets a 200 for `/health`: the server survived what came before.
    static func stillAnswers(_ port: Int) async throws -> Bool {
        let connection = try await RawConnection.open(port: port, greeting: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        let answers = try await connection.waitForAnswers(1)
        await connection.close()
        return answers.first?.status == 200
    }

    static func expectLength(_ answer: RawAnswer, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.headers["content-length"] == String(answer.body.count), sourceLocation: sourceLocation)
    }

    // MARK: Keeping and closing

    @Test func connectionCloseGetsOneAnswerThenTheServerCloses() async throws {
        try await ServerHarness.run { client in
            for option in ["close", "Close", "keep-alive, close"] {
                // A second request pipelined behind it is not read, let alone answered.
                let request = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: \(option)\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n"
                let (answers, closed, text) = try await Self.exchange(client.port, request)
                let answer = try #require(answers.first, "\(option)")
                #expect(answers.count == 1, "\(option)")
                #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "one status line: \(option)")
                #expect(answer.statusLine == "HTTP/1.1 200 OK")
                #expect(answer.headers["connection"] == "close", "\(option)")
                Self.expectLength(answer)
                #expect(closed, "\(option)")
            }
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    @Test func http10IsClosedAfterOneAnswerUnlessItAsksToKeepAlive() async throws {
        try await ServerHarness.run { client in
            let (once, closed, text) = try await Self.exchange(client.port, "GET /health HTTP/1.0\r\n\r\nGET /health HTTP/1.0\r\n\r\n")
            #expect(once.count == 1)
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2)
            #expect(once.first?.statusLine == "HTTP/1.1 200 OK")
            #expect(once.first?.headers["connection"] == "close")
            #expect(closed)

            let (kept, keptClosed, _) = try await Self.exchange(
                client.port, "GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /now HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", answers: 2, closeWithin: .milliseconds(500))
            #expect(kept.map(\.statusLine) == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
            #expect(kept.map { $0.headers["connection"] } == ["keep-alive", "keep-alive"])
            kept.forEach { Self.expectLength($0) }
            #expect(!keptClosed)
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    @Test func aRequestAskingToUpgradeLeavesTheConnectionServing() async throws {
        try await ServerHarness.run { client in
            let h2c = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n"
            let websocket = "GET /now HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
            let next = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
            // Pipelined behind the upgrade request, and sent after its answer.
            let connection = try await RawConnection.open(port: client.port, greeting: h2c + next)
            #expect(try await connection.waitForAnswers(2, within: .seconds(60)).map(\.statusLine) == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
            try await connection.send(websocket)
            #expect(try await connection.waitForAnswers(3, within: .seconds(60)).count == 3)
            try await connection.send(next)
            let answers = try await connection.waitForAnswers(4, within: .seconds(60))
            #expect(answers.map(\.status) == [200, 200, 200, 200])
            #expect(answers.allSatisfy { $0.headers["upgrade"] == nil && $0.headers["connection"] == nil })
            answers.forEach { Self.expectLength($0) }
            #expect(!connection.isClosed)
            await connection.close()
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    // MARK: Requests refused

    @Test func connectIsA405WithABodyAndTheConnectionCloses() async throws {
        try await ServerHarness.run { client in
            let (answers, closed, _) = try await Self.exchange(
                client.port, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try #require(answers.first)
            #expect(answers.count == 1)
            #expect(answer.statusLine == "HTTP/1.1 405 Method Not Allowed")
            #expect(answer.headers["allow"] == "GET, HEAD")
            #expect(answer.headers["connection"] == "close")
            #expect(!answer.body.isEmpty)
            Self.expectLength(answer)
            #expect(try HardeningTests.message(answer) == "method CONNECT is not allowed; this server answers GET and HEAD")
            #expect(closed)
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    @Test func aMissingDuplicatedOrInvalidHostIsA400() async throws {
        try await ServerHarness.run { client in
            let cases = [
                ("GET /health HTTP/1.1\r\n\r\n", "an HTTP/1.1 request needs a Host header field"),
                ("GET /health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n", "2 Host header fields; a request has one"),
                ("GET /health HTTP/1.1\r\nHost: a.example/evil\r\n\r\n", "the Host header field is not a host with an optional port"),
                ("GET /health HTTP/1.1\r\nHost: user@a.example\r\n\r\n", "the Host header field is not a host with an optional port"),
            ]
            for (request, message) in cases {
                let (answers, closed, _) = try await Self.exchange(client.port, request)
                let answer = try #require(answers.first, "\(request.debugDescription)")
                #expect(answer.statusLine == "HTTP/1.1 400 Bad Request", "\(request.debugDescription)")
                #expect(answer.headers["connection"] == "close")
                Self.expectLength(answer)
                #expect(try HardeningTests.message(answer) == message)
                #expect(closed, "\(request.debugDescription)")
            }
            // HTTP/1.0 needs none; an empty one, an IP literal and a port are hosts.
            for request in ["GET /health HTTP/1.0\r\n\r\n", "GET /health HTTP/1.1\r\nHost:\r\n\r\n",
                            "GET /health HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n", "GET /health HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n"] {
                let (answers, _, _) = try await Self.exchange(client.port, request, closeWithin: .zero)
                #expect(answers.first?.statusLine == "HTTP/1.1 200 OK", "\(request.debugDescription)")
            }
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    @Test func http12IsServedAsHTTP11() async throws {
        try await ServerHarness.run { client in
            // Whole, then with the version split between two reads, on one kept connection.
            let connection = try await RawConnection.open(port: client.port, greeting: "GET /health HTTP/1.2\r\nHost: x\r\n\r\n")
            #expect(try await connection.waitForAnswers(1).first?.statusLine == "HTTP/1.1 200 OK")
            try await connection.send("GET /health HTTP/1.")
            try await Task.sleep(for: .milliseconds(50))
            try await connection.send("9\r\nHost: x\r\n\r\n")
            let answers = try await connection.waitForAnswers(2)
            #expect(answers.map(\.statusLine) == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
            #expect(answers.allSatisfy { $0.headers["connection"] == nil })
            #expect(!connection.isClosed)
            await connection.close()
            // HTTP/2 and HTTP/1.10 are not HTTP/1.1.
            for version in ["HTTP/2.0", "HTTP/1.10"] {
                let (answers, closed, _) = try await Self.exchange(client.port, "GET /health \(version)\r\nHost: x\r\n\r\n")
                #expect(answers.first?.statusLine == "HTTP/1.1 400 Bad Request", "\(version)")
                #expect(closed)
            }
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    /// Header fields and bodies may hold text shaped like a version; only request lines change.
    @Test func onlyARequestLinesMinorVersionIsRewritten() {
        var scan = MinorVersionScan()
        let sent = "GET / HTTP/1.2\r\nX-Via: GET / HTTP/1.2\r\nReferer: a b HTTP/1.3\r\n\r\nHEAD /now?x=1 HTTP/1.9\r\n\r\nGET / HTTP/1.1\r\n\r\n"
        var buffer = ByteBuffer(string: sent)
        let changed = scan.rewrite(&buffer)
        #expect(changed)
        #expect(String(buffer: buffer)
            == "GET / HTTP/1.1\r\nX-Via: GET / HTTP/1.2\r\nReferer: a b HTTP/1.3\r\n\r\nHEAD /now?x=1 HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")
        var plain = ByteBuffer(string: "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let plainChanged = scan.rewrite(&plain)
        #expect(!plainChanged)
        #expect(scan.sawRequestLine)
        var junk = ByteBuffer(string: "NOT HTTP AT ALL\r\n\r\n")
        let junkChanged = scan.rewrite(&junk)
        #expect(!junkChanged)
        #expect(!scan.sawRequestLine)
    }

    @Test func anAbsoluteFormTargetWithUserinfoIsA400() async throws {
        try await ServerHarness.run { client in
            let (answers, closed, _) = try await Self.exchange(client.port, "GET http://user:secret@x/health HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try #require(answers.first)
            #expect(answer.statusLine == "HTTP/1.1 400 Bad Request")
            Self.expectLength(answer)
            #expect(try HardeningTests.message(answer) == "the request target has userinfo (user@host), which HTTP does not allow")
            #expect(!answer.text.contains("secret"))
            #expect(closed)
            // Without userinfo, the absolute form is served (RFC 9112 §3.2.2).
            let (plain, _, _) = try await Self.exchange(client.port, "GET http://x/health HTTP/1.1\r\nHost: x\r\n\r\n", closeWithin: .zero)
            #expect(plain.first?.statusLine == "HTTP/1.1 200 OK")
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    @Test func anUnknownMethodIsA405WithAllow() async throws {
        try await ServerHarness.run { client in
            // One NIO's parser does not know: refused by the guard, and the connection closed.
            let (unknown, closed, _) = try await Self.exchange(client.port, "BREW /now HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try #require(unknown.first)
            #expect(answer.statusLine == "HTTP/1.1 405 Method Not Allowed")
            #expect(answer.headers["allow"] == "GET, HEAD")
            Self.expectLength(answer)
            #expect(try HardeningTests.message(answer) == "the request method is not allowed; this server answers GET and HEAD")
            #expect(closed)
            // One it knows: the router's 405, and the connection kept.
            let (known, knownClosed, _) = try await Self.exchange(
                client.port, "PROPFIND /now HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n", answers: 2, closeWithin: .milliseconds(500))
            #expect(known.map(\.statusLine) == ["HTTP/1.1 405 Method Not Allowed", "HTTP/1.1 200 OK"])
            #expect(known.first?.headers["allow"] == "GET, HEAD")
            #expect(!knownClosed)
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    // MARK: Conditional requests

    @Test func ifNoneMatchComparesWeaklyAndAFailedIfMatchIsA412() async throws {
        try await ServerHarness.run { client in
            let (first, _, _) = try await Self.exchange(client.port, "GET /channels HTTP/1.1\r\nHost: x\r\n\r\n", closeWithin: .zero)
            let etag = try #require(first.first?.headers["etag"])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            for held in [etag, "W/\(etag)", "\"other\", W/\(etag)", "*"] {
                let (answers, _, _) = try await Self.exchange(
                    client.port, "GET /channels HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(held)\r\n\r\n", closeWithin: .zero)
                #expect(answers.first?.statusLine == "HTTP/1.1 304 Not Modified", "\(held)")
                #expect(answers.first?.headers["etag"] == etag, "\(held)")
                #expect(answers.first?.body.isEmpty == true)
            }
            let (other, _, _) = try await Self.exchange(client.port, "GET /channels HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"other\"\r\n\r\n", closeWithin: .zero)
            #expect(other.first?.status == 200)
            // If-Match compares strongly: a weak tag never matches.
            for (held, status) in [(etag, "HTTP/1.1 200 OK"), ("*", "HTTP/1.1 200 OK"), ("\"other\"", "HTTP/1.1 412 Precondition Failed"),
                                   ("W/\(etag)", "HTTP/1.1 412 Precondition Failed")] {
                let (answers, closed, _) = try await Self.exchange(
                    client.port, "GET /channels HTTP/1.1\r\nHost: x\r\nIf-Match: \(held)\r\n\r\n", closeWithin: .milliseconds(100))
                let answer = try #require(answers.first)
                #expect(answer.statusLine == status, "\(held)")
                Self.expectLength(answer)
                #expect(!closed)
                if answer.status == 412 {
                    #expect(try HardeningTests.message(answer) == "If-Match: the current ETag is \(etag)")
                    #expect(answer.headers["etag"] == etag)
                    #expect(answer.headers["cache-control"] == "no-store")
                }
            }
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    // MARK: gzip

    /// On a day's grid of every channel, rendered in milliseconds: `/xmltv.xml` goes the same
    /// way (`bench/http-conformance.sh`), but rendering it takes seconds in a debug build, which
    /// would hold up the suite's other servers.
    @Test func largeBodiesAreSentGzipCompressedToClientsThatAcceptIt() async throws {
        let path = "/grid?hours=24&at=2026-10-21T00:00:00Z"
        try await ServerHarness.run { client in
            let (plainAnswers, _, _) = try await Self.exchange(client.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n", closeWithin: .zero)
            let plain = try #require(plainAnswers.first)
            #expect(plain.headers["vary"] == "Accept-Encoding")
            #expect(plain.headers["content-encoding"] == nil)
            #expect(plain.body.count > 50_000)
            for accept in ["gzip", "br, gzip;q=0.5", "*", "deflate, gzip, br"] {
                let (answers, _, _) = try await Self.exchange(
                    client.port, "GET \(path) HTTP/1.1\r\nHost: x\r\nAccept-Encoding: \(accept)\r\n\r\n", closeWithin: .zero)
                let answer = try #require(answers.first, "\(accept)")
                #expect(answer.statusLine == "HTTP/1.1 200 OK")
                #expect(answer.headers["content-encoding"] == "gzip", "\(accept)")
                #expect(answer.headers["vary"] == "Accept-Encoding")
                #expect(answer.headers["etag"] == "W/" + (plain.headers["etag"] ?? ""))
                Self.expectLength(answer)
                #expect(answer.body.count * 5 < plain.body.count, "compressed \(plain.body.count) to \(answer.body.count) bytes")
                #expect(try Gzip.decompress(Data(answer.body), name: "answer") == Data(plain.body))
            }
            // Refused by q=0, or not asked: the body as it is, still varying.
            for accept in ["gzip;q=0", "br", "gzip;q=0, *"] {
                let (answers, _, _) = try await Self.exchange(
                    client.port, "GET \(path) HTTP/1.1\r\nHost: x\r\nAccept-Encoding: \(accept)\r\n\r\n", closeWithin: .zero)
                #expect(answers.first?.headers["content-encoding"] == nil, "\(accept)")
                #expect(answers.first?.headers["vary"] == "Accept-Encoding")
                #expect(answers.first?.body.count == plain.body.count)
            }
            // The compressed form revalidates against its own, weak, ETag.
            let (revalidated, _, _) = try await Self.exchange(
                client.port, "GET \(path) HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nIf-None-Match: W/\(plain.headers["etag"] ?? "")\r\n\r\n",
                closeWithin: .zero)
            #expect(revalidated.first?.status == 304)
            // Small bodies stay as they are, and say nothing of encodings.
            let (small, _, _) = try await Self.exchange(client.port, "GET /health HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n", closeWithin: .zero)
            #expect(small.first?.headers["content-encoding"] == nil)
            #expect(small.first?.headers["vary"] == nil)
            #expect(try await Self.stillAnswers(client.port))
        }
    }

    /// The fast lane answers repeats without the router; a client accepting gzip must still get
    /// the router's compressed body, not the identity one recorded for others.
    /// With CORS on, `Vary` names `Origin` too.
    @Test(arguments: [[], [CrossOriginTests.app]])
    func theFastLaneLeavesNegotiatedBodiesToTheRouter(corsOrigins: [String]) async throws {
        var settings = ServerHarness.patientSettings
        settings.corsOrigins = corsOrigins
        try await ServerHarness.run(settings: settings) { client in
            let plain = "GET /now HTTP/1.1\r\nHost: x\r\n\r\n"
            let connection = try await RawConnection.open(port: client.port, greeting: plain + plain + plain)
            // Asked more than once, /now is in the fast lane's record once these are answered.
            _ = try await connection.waitForAnswers(3)
            try await connection.send("GET /now HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
            let answers = try await connection.waitForAnswers(4)
            #expect(answers.map { $0.headers["content-encoding"] } == [nil, nil, nil, "gzip"])
            // The last `Vary` field read: CORS adds `Vary: Origin` after `Vary: Accept-Encoding`.
            #expect(answers.allSatisfy { $0.headers["vary"] == (corsOrigins.isEmpty ? "Accept-Encoding" : "Origin") })
            await connection.close()
        }
    }

    @Test func aBodyRenderedOnceIsCompressedOnce() throws {
        let rendered = RenderedResponse(contentType: "application/xml", bytes: Array(repeating: UInt8(ascii: "a"), count: 4_096), maxAge: 300)
        let compressions = Counter()
        let gzip: @Sendable (Data) throws -> Data = { data in
            compressions.increment()
            return try Gzip.compress(data)
        }
        var fields = HTTPFields()
        fields[.acceptEncoding] = "gzip"
        let request = Request(head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/xmltv.xml", headerFields: fields), body: RequestBody(buffer: ByteBuffer()))
        let copy = rendered
        let lengths = [rendered.response(for: request, gzip: gzip), copy.response(for: request, gzip: gzip), rendered.response(for: request, gzip: gzip)]
            .map { $0.headers[.contentLength] }
        #expect(Set(lengths).count == 1)
        #expect(lengths.first != "4096")
        #expect(compressions.value == 1)
        // Already compressed (`/xmltv.xml.gz`): sent as it is, not compressed again.
        let gz = RenderedResponse(contentType: "application/gzip", bytes: Array(repeating: UInt8(ascii: "a"), count: 4_096), maxAge: 300)
        let answer = gz.response(for: request, gzip: gzip)
        #expect(answer.headers[.contentEncoding] == nil)
        #expect(answer.headers[.contentLength] == "4096")
        #expect(compressions.value == 1)
    }

    // MARK: CORS on refusals

    @Test func theServersOwnRefusalsCarryCORSFields() async throws {
        var settings = ServerHarness.patientSettings
        settings.corsOrigins = [CrossOriginTests.app]
        try await ServerHarness.run(settings: settings) { client in
            let origin = "Origin: \(CrossOriginTests.app)\r\n"
            let many = (0...settings.limits.headerFields).map { "X-\($0): 1\r\n" }.joined()
            let refused = [
                ("GET /search?q=\(String(repeating: "a", count: settings.limits.uriBytes)) HTTP/1.1\r\nHost: x\r\n\(origin)\r\n", "HTTP/1.1 414 URI Too Long"),
                ("GET /now HTTP/1.1\r\nHost: x\r\n\(origin)\(many)\r\n", "HTTP/1.1 431 Request Header Fields Too Large"),
                ("GET /now HTTP/1.1\r\nHost: x\r\n\(origin)Content-Length: 100000\r\n\r\n", "HTTP/1.1 413 Payload Too Large"),
                ("GET /now HTTP/1.1\r\n\(origin)\r\n", "HTTP/1.1 400 Bad Request"),
            ]
            for (request, statusLine) in refused {
                let (answers, closed, _) = try await Self.exchange(client.port, request)
                let answer = try #require(answers.first, "\(statusLine)")
                #expect(answer.statusLine == statusLine)
                #expect(answer.headers["access-control-allow-origin"] == CrossOriginTests.app, "\(statusLine)")
                #expect(answer.headers["access-control-expose-headers"] == "ETag", "\(statusLine)")
                #expect(answer.headers["vary"] == "Origin", "\(statusLine)")
                Self.expectLength(answer)
                #expect(closed)
            }
            // Another origin is not let read them.
            let (other, _, _) = try await Self.exchange(client.port, "GET /now HTTP/1.1\r\nHost: x\r\nOrigin: https://evil.example\r\nContent-Length: 100000\r\n\r\n")
            #expect(other.first?.status == 413)
            #expect(other.first?.headers["access-control-allow-origin"] == nil)
            #expect(other.first?.headers["vary"] == "Origin")
            #expect(try await Self.stillAnswers(client.port))
        }
        // A head that never came whole names no origin: nothing to allow but for `*`. The partial
        // head goes from the event loop as the connection opens, however busy the test's threads.
        settings.limits.requestTimeout = .seconds(1)
        for (origins, allowed) in [([CrossOriginTests.app], nil), (["*"], "*")] as [([String], String?)] {
            settings.corsOrigins = origins
            try await ServerHarness.run(settings: settings) { client in
                let connection = try await RawConnection.open(port: client.port, greeting: "GET /now HTTP/1.1\r\nHost: x\r\nOrigin: \(CrossOriginTests.app)\r\n")
                let timedOut = try await connection.waitForAnswers(1, within: .seconds(60))
                await connection.close()
                #expect(timedOut.first?.statusLine == "HTTP/1.1 408 Request Timeout", "\(origins)")
                #expect(timedOut.first?.headers["access-control-allow-origin"] == allowed, "\(origins)")
                #expect(try await Self.stillAnswers(client.port))
            }
        }
    }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let count = NIOLockedValueBox(0)
    var value: Int { count.withLockedValue { $0 } }
    func increment() { count.withLockedValue { $0 += 1 } }
}
