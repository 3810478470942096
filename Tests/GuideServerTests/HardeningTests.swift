import AsyncHTTPClient
import Foundation
@testable import GuideServer
import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenAPIKit
import Testing

/// The limits of `ServerLimits` on a real server: each refusal is an error with the status HTTP
/// has for it (JSON, or the HTML page on the web guide's paths), and the connection closes after it. Requests a client library would not send
/// (a body with a GET, a NUL in the target, a head of 100 kB) go over a raw socket.
@Suite struct HardeningTests {
    static let limits = ServerLimits()

    /// Sends `request` on a fresh connection and returns the one answer, and whether the server
    /// then closed the connection.
    static func raw(_ request: String, port: Int, then more: [UInt8] = []) async throws -> (RawAnswer?, closed: Bool) {
        // Sent from the event loop as the connection opens: a test task held up past the request
        // timeout by a busy machine would otherwise find it closed.
        let connection = try await RawConnection.open(port: port, greeting: request)
        defer { Task { await connection.close() } }
        if !more.isEmpty { try? await connection.send(more) }
        let answer = try await connection.waitForAnswers(1).first
        return (answer, try await connection.waitUntilClosed(within: .seconds(60)))
    }

    static func message(_ answer: RawAnswer?) throws -> String {
        let body = try #require(answer).body
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        return try #require((json["error"] as? [String: Any])?["message"] as? String)
    }

    // MARK: Request size

    @Test func aTargetOverTheLimitIsA414AndTheConnectionCloses() async throws {
        try await ServerHarness.run { client in
            let target = "/search?q=" + String(repeating: "a", count: Self.limits.uriBytes)
            let response = try await client.get(target)
            #expect(response.status == 414)
            #expect(response.headers["connection"] == "close")
            #expect(try errorMessage(response) == "the request target is \(target.utf8.count) bytes, at most 8192 are allowed")
            // Just within the limit, the route answers (here: `q` itself is too long).
            let within = try await client.get("/search?q=" + String(repeating: "a", count: Self.limits.uriBytes - 10))
            #expect(within.status == 400)
        }
    }

    @Test func headerFieldsOverTheLimitAreA431() async throws {
        try await ServerHarness.run { client in
            let big = String(repeating: "v", count: Self.limits.headerBytes)
            let (oneBig, closed) = try await Self.raw("GET /now HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n", port: client.port)
            #expect(oneBig?.status == 431)
            #expect(try Self.message(oneBig).hasPrefix("the header fields are "))
            #expect(closed)
            let many = (0...Self.limits.headerFields).map { "X-\($0): 1\r\n" }.joined()
            let (tooMany, _) = try await Self.raw("GET /now HTTP/1.1\r\nHost: x\r\n\(many)\r\n", port: client.port)
            #expect(tooMany?.status == 431)
            #expect(try Self.message(tooMany) == "102 header fields, at most 100 are allowed")
            // Past what the parser holds, it stops reading: still a 431, with a JSON body; but a
            // 414 when the request line alone is that long, as nginx answers (RFC 9112 §3).
            let huge = String(repeating: "v", count: Self.limits.headBytes + 1)
            let (fieldsOverflow, fieldsClosed) = try await Self.raw("GET /now HTTP/1.1\r\nHost: x\r\nX-Huge: \(huge)\r\n\r\n", port: client.port)
            #expect(fieldsOverflow?.status == 431)
            #expect(try Self.message(fieldsOverflow).hasPrefix("the request head (request line and header fields) is over 65536 bytes"))
            #expect(fieldsClosed)
            for request in ["GET /now?q=\(huge) HTTP/1.1\r\nHost: x\r\n\r\n", "GET /now?q=\(huge)"] {
                let (answer, closed) = try await Self.raw(request, port: client.port)
                #expect(answer?.statusLine == "HTTP/1.1 414 URI Too Long", "\(request.suffix(24).debugDescription)")
                #expect(try Self.message(answer) == "the request target is over 8192 bytes")
                #expect(closed)
            }
            // A head within every limit is served.
            let fine = String(repeating: "v", count: 8_000)
            #expect(try await client.get("/now", headers: ["X-Fine": fine]).status == 200)
        }
    }

    @Test func aBodyOverTheLimitIsA413BeforeItIsRead() async throws {
        try await ServerHarness.run { client in
            let megabyte = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            for method in ["GET", "POST"] {
                let (answer, closed) = try await Self.raw("\(method) /now HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n",
                                                          port: client.port, then: megabyte)
                #expect(answer?.status == 413, "\(method)")
                #expect(try Self.message(answer) == "a request body of 100000000 bytes, at most 1024 are allowed (every route is a GET)")
                #expect(closed, "\(method)")
            }
            let (chunked, _) = try await Self.raw("GET /now HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", port: client.port)
            #expect(chunked?.status == 413)
            #expect(try Self.message(chunked) == "request bodies are not accepted: every route is a GET")
            // RFC 9112 §6.1, as nginx answers: a coding the server does not know is a 501, a
            // list where chunked is not last or comes twice a 400; both close the connection.
            let codings: [(String, String, String)] = [
                ("Transfer-Encoding: gzip", "HTTP/1.1 501 Not Implemented", "the transfer coding 'gzip' is not implemented; only chunked is"),
                ("Transfer-Encoding: gzip, chunked", "HTTP/1.1 501 Not Implemented", "the transfer coding 'gzip' is not implemented; only chunked is"),
                ("Transfer-Encoding: chunked\r\nTransfer-Encoding: x-custom", "HTTP/1.1 400 Bad Request", "malformed HTTP request"),
                ("Transfer-Encoding: chunked, chunked", "HTTP/1.1 400 Bad Request", "malformed HTTP request"),
            ]
            for (field, statusLine, message) in codings {
                let (answer, closed) = try await Self.raw("GET /now HTTP/1.1\r\nHost: x\r\n\(field)\r\n\r\n0\r\n\r\n", port: client.port)
                #expect(answer?.statusLine == statusLine, "\(field)")
                #expect(try Self.message(answer) == message, "\(field)")
                #expect(closed, "\(field)")
            }
            // A small body is read and ignored; the connection serves the next request.
            let connection = try await RawConnection.open(
                port: client.port, greeting: "GET /now HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let answers = try await connection.waitForAnswers(2)
            #expect(answers.map(\.status) == [200, 200])
            #expect(!connection.isClosed)
            await connection.close()
        }
    }

    @Test func malformedRequestsGetAJSON400() async throws {
        try await ServerHarness.run { client in
            // A NUL ends the request line before its version: no target is known, so even under
            // `/assets/` the answer is JSON. (`GET / …` with a bad header is a web page's: below.)
            for request in ["GET /assets/guide.js\u{0}.map HTTP/1.1\r\nHost: x\r\n\r\n", "NOT HTTP AT ALL\r\n\r\n", "GET /now HTTP/1.1\r\nBad Header\r\n\r\n"] {
                let (answer, closed) = try await Self.raw(request, port: client.port)
                #expect(answer?.status == 400, "\(request.debugDescription)")
                #expect(try Self.message(answer) == "malformed HTTP request")
                #expect(closed)
            }
        }
    }

    /// The web guide's error page for a refusal, as the router's `WebErrorMiddleware` renders it
    /// (the harness's clock, the guide's default zone).
    static func errorPage(_ code: Int, _ reason: String, _ message: String) -> [UInt8] {
        let page = WebPages.errorPage(HTTPResponse.Status(code: code, reasonPhrase: reason), message,
                                      zone: WebQuery.defaultZone, now: WebTime.minute(ServerHarness.goldenNow))
        return Array(page.body.readableBytesView)
    }

    /// Refusals made before routing are worded as the router words errors on the same path: the
    /// HTML error page under a web page (whatever the client), and under no route when `Accept`
    /// asks for HTML; JSON under the API's routes and otherwise. Exact bytes, then the server
    /// answers a new connection.
    @Test func refusalsOnWebPagesAreHTMLPages() async throws {
        let huge = String(repeating: "v", count: Self.limits.headBytes + 1)
        let big = String(repeating: "v", count: Self.limits.headerBytes)
        let longTarget = "/channel/La1.es?x=" + String(repeating: "a", count: Self.limits.uriBytes)
        let headOverflow = "the request head (request line and header fields) is over 65536 bytes or has too many fields"
        let bodyRefused = "a request body of 100000 bytes, at most 1024 are allowed (every route is a GET)"
        let cases: [(request: String, statusLine: String, message: String, html: Bool)] = [
            ("GET \(longTarget) HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 414 URI Too Long",
             "the request target is \(longTarget.utf8.count) bytes, at most 8192 are allowed", true),
            // The fields' bytes: `Host: x` (1 + 4 + 4) and `X-Big` (5 + the value + 4).
            ("GET /programme/La1.es@20261021T190000Z HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n",
             "HTTP/1.1 431 Request Header Fields Too Large", "the header fields are \(Self.limits.headerBytes + 18) bytes, at most 16384 are allowed", true),
            // Past what the parser holds: no head is handed on, the request line gives the path.
            ("GET /channel/La1.es HTTP/1.1\r\nHost: x\r\nX-Huge: \(huge)\r\n\r\n", "HTTP/1.1 431 Request Header Fields Too Large", headOverflow, true),
            ("GET / HTTP/1.1\r\nBad Header\r\n\r\n", "HTTP/1.1 400 Bad Request", "malformed HTTP request", true),
            ("GET /nope HTTP/1.1\r\nHost: x\r\nAccept: text/html,application/xhtml+xml\r\nContent-Length: 100000\r\n\r\n",
             "HTTP/1.1 413 Payload Too Large", bodyRefused, true),
            ("GET /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", "HTTP/1.1 413 Payload Too Large", bodyRefused, false),
            ("GET /channels/La1.es/schedule HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nContent-Length: 100000\r\n\r\n",
             "HTTP/1.1 413 Payload Too Large", bodyRefused, false),
            ("GET /nope HTTP/1.1\r\nAccept: text/html\r\nX-Huge: \(huge)\r\n\r\n", "HTTP/1.1 431 Request Header Fields Too Large", headOverflow, false),
        ]
        try await ServerHarness.run { client in
            for (request, statusLine, message, html) in cases {
                let label = String(request.prefix(60))
                let (answer, closed) = try await Self.raw(request, port: client.port)
                let refused = try #require(answer, "\(label)")
                #expect(refused.statusLine == statusLine, "\(label)")
                #expect(refused.headers["content-length"] == String(refused.body.count), "\(label)")
                #expect(refused.headers["connection"] == "close", "\(label)")
                #expect(refused.headers["cache-control"] == "no-store", "\(label)")
                if html {
                    let code = refused.status
                    let reason = String(statusLine.dropFirst("HTTP/1.1 123 ".count))
                    #expect(refused.headers["content-type"] == "text/html; charset=utf-8", "\(label)")
                    #expect(refused.headers["content-security-policy"]?.hasPrefix("default-src 'self'") == true, "\(label)")
                    #expect(refused.body == Self.errorPage(code, reason, message), "\(label)")
                    #expect(refused.text.hasPrefix("<!doctype html>"), "\(label)")
                    #expect(refused.text.contains(message), "\(label)")
                } else {
                    #expect(refused.headers["content-type"] == "application/json; charset=utf-8", "\(label)")
                    #expect(refused.text == "{\"error\":{\"message\":\"\(message)\",\"status\":\(refused.status)}}", "\(label)")
                }
                #expect(closed, "\(label)")
                #expect(try await HTTP11Tests.stillAnswers(client.port), "\(label)")
            }
        }
        // A head on a web page that does not come whole in time: the 408 page.
        var settings = ServerHarness.patientSettings
        settings.limits.requestTimeout = .milliseconds(600)
        try await ServerHarness.run(settings: settings) { client in
            let connection = try await RawConnection.open(port: client.port, greeting: "GET /channel/La1.es HTTP/1.1\r\nHost: x\r\n")
            let timedOut = try #require(try await connection.waitForAnswers(1, within: .seconds(60)).first)
            await connection.close()
            #expect(timedOut.statusLine == "HTTP/1.1 408 Request Timeout")
            #expect(timedOut.headers["content-type"] == "text/html; charset=utf-8")
            #expect(timedOut.headers["content-length"] == String(timedOut.body.count))
            #expect(timedOut.body == Self.errorPage(408, "Request Timeout", "the request was not received within \(settings.limits.requestTimeout)"))
            #expect(try await HTTP11Tests.stillAnswers(client.port))
        }
    }

    // MARK: Methods

    @Test func headAnswersEveryGetWithoutABodyAndOtherMethodsAre405() async throws {
        try await ServerHarness.run { client in
            for path in ["/now", "/channels/La1.es/schedule", "/", "/assets/guide.css", "/channels/Nope.es/schedule", "/nope"] {
                let get = try await client.get(path)
                let head = try await client.send(.HEAD, path)
                #expect(head.status == get.status, "\(path)")
                #expect(head.body.isEmpty, "\(path)")
                #expect(head.headers["content-length"] == String(get.body.count), "\(path)")
            }
            for method in [HTTPMethod.POST, .PUT, .DELETE, .PATCH] {
                for path in ["/now", "/nope"] {
                    let response = try await client.send(method, path)
                    #expect(response.status == 405, "\(method) \(path)")
                    #expect(response.headers["allow"] == "GET, HEAD")
                    #expect(try errorMessage(response) == "method \(method.rawValue) is not allowed; this server answers GET and HEAD")
                }
            }
        }
    }

    // MARK: Query

    @Test func queryParametersAreCountedAndSingleValuedOnesGivenOnce() async throws {
        try await ServerHarness.run { client in
            let many = (0...Self.limits.queryParameters).map { "x\($0)=1" }.joined(separator: "&")
            let tooMany = try await client.get("/now?" + many)
            #expect(tooMany.status == 400)
            #expect(try errorMessage(tooMany) == "129 query parameters, at most 128 are allowed")
            let repeated = try await client.get("/grid?hours=1&hours=100")
            #expect(repeated.status == 400)
            #expect(try errorMessage(repeated) == "parameter 'hours': given more than once; give it once")
            // Names are compared as sent, as the routes read them: `hour%73` is not `hours`.
            #expect(try await client.get("/grid?hours=1&hour%73=2").status == 200)
            // Lists may repeat.
            #expect(try await client.get("/now?channels=La1.es&channels=La2.es").status == 200)
            let reminders = try await client.get("/reminders.ics?programme=La1.es@20261021T190000Z&programme=La1.es@20261021T195500Z")
            #expect(reminders.status == 200)
            // The web pages are held to the same.
            #expect(try await client.get("/?hours=2&hours=3").status == 400)
            // A parameter no route reads cannot mean two things: a shared link's tracking passes.
            #expect(try await client.get("/grid?utm_source=a&utm_source=b").status == 200)
        }
    }

    /// Only a parameter some route reads once is refused when repeated, so the list of them must
    /// be every query parameter the OpenAPI document describes but the lists of ids.
    @Test func singleValuedParametersAreTheDescribedOnesButTheLists() async throws {
        let yaml = try await ServerHarness.run { client in try await client.get("/openapi.yaml").text }
        let contract = try OpenAPIContract(yaml: yaml)
        let described = Set(contract.operations.flatMap { $0.operation.parameters.filter { $0.location == .query }.map(\.name) })
        let lists = Set(ServerLimits.listParameters.map(String.init))
        #expect(described.isSuperset(of: lists))
        #expect(Set(ServerLimits.singleValuedParameters.map(String.init)) == described.subtracting(lists))
    }

    /// Every bounded parameter of every route, just past its bound.
    static let outOfBounds: [String] = {
        let long = String(repeating: "a", count: 201)
        var paths = ["/channels", "/lineups", "/now", "/grid", "/programmes/La1.es@20261021T190000Z/airings", "/upcoming",
                     "/search?q=x", "/audiences", "/audiences/top"].flatMap { path in
            let joiner = path.contains("?") ? "&" : "?"
            return [path + joiner + "limit=1001", path + joiner + "limit=0", path + joiner + "offset=-1"]
        }
        paths += ["/grid?hours=25", "/grid?hours=0", "/search?q=" + long, "/channels?type=" + long, "/upcoming?genre=" + long,
                  "/upcoming?year_from=10000", "/audiences/top?from=2025-01-01&to=2026-10-20", "/calendar.ics?title=" + long,
                  "/calendar.ics?kind=movie&alarm=1441", "/reminders.ics?programme=" + (1...101).map { "La1.es@x\($0)" }.joined(separator: ","),
                  "/?hours=13", "/channel/La1.es?date=2026-13-01", "/now?tz=" + long]
        return paths
    }()

    @Test func everyBoundIsA400NamingTheParameter() async throws {
        try await ServerHarness.run { client in
            for path in Self.outOfBounds {
                let response = try await client.get(path)
                #expect(response.status == 400, "\(path.prefix(80))")
                #expect(response.body.count < 2_000, "the error echoes the input whole: \(path.prefix(80))")
            }
        }
    }

    // MARK: Memory

    /// Made-up query strings are new cache keys: the cache holds at most 64 MiB of bodies.
    @Test func theResponseCacheIsBoundedInBytes() throws {
        let state = GuideState(index: GuideIndex(ServerHarness.golden), origin: "latest.json", loadedAt: nil)
        let megabyte = RenderedResponse(contentType: "application/json", bytes: [UInt8](repeating: 32, count: 1 << 20), maxAge: 1)
        var renders = 0
        let render: (GuideIndex) -> RenderedResponse = { _ in
            renders += 1
            return megabyte
        }
        _ = state.response(for: "/now?x=0", render: render)
        let fits = GuideState.responseCacheBytes >> 20
        for key in 1..<fits { _ = state.response(for: "/now?x=\(key)", render: render) }
        #expect(renders == fits)
        // All 64 held: asking again renders nothing.
        _ = state.response(for: "/now?x=0", render: render)
        #expect(renders == fits)
        // One more megabyte starts the cache over: the first key is rendered again.
        _ = state.response(for: "/now?x=\(fits)", render: render)
        _ = state.response(for: "/now?x=0", render: render)
        #expect(renders == fits + 2)
    }

    /// A body of a mebibyte or more goes to a temporary file as it enters the cache: not held in
    /// memory, read back whole.
    @Test func aLargeBodyIsKeptInAFileNotInMemory() throws {
        let state = GuideState(index: GuideIndex(ServerHarness.golden), origin: "latest.json", loadedAt: nil)
        let bytes = (0..<(3 << 19)).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let large = state.response(for: "/large") { _ in RenderedResponse(contentType: "text/plain", bytes: bytes, maxAge: 1) }
        #expect(large.file != nil)
        #expect(large.body.readableBytes == 0)
        #expect(large.length == bytes.count)
        #expect(Array(large.bytes.readableBytesView) == bytes)
        let small = state.response(for: "/small") { _ in RenderedResponse(contentType: "text/plain", bytes: bytes.prefix(1_000), maxAge: 1) }
        #expect(small.file == nil)
        #expect(small.body.readableBytes == 1_000)
    }

    // MARK: Path traversal

    static let traversals = [
        "%2e%2e%2f%2e%2e%2fPackage.swift", "%2e%2e/%2e%2e/Package.swift", "..%2f..%2fPackage.swift", "%252e%252e%252fPackage.swift",
        "..%252f..%252fPackage.swift", "%c0%ae%c0%ae%c0%afPackage.swift", "%e0%80%ae%e0%80%ae/Package.swift", "..%00/Package.swift",
        "%00", "..%5c..%5cPackage.swift", ".%2e/.%2e/etc/passwd", "%2e%2e%5c%2e%2e%5cetc%5cpasswd",
        // Escapes that are not UTF-8, or not escapes: an id nothing has, like any other.
        "%C3%28", "%ZZ", "%EF%BB%BFLa1.es",
    ]

    /// Sent byte for byte over one connection: a client library would normalise some of these.
    @Test func encodedTraversalFindsNothingUnderAnyRoute() async throws {
        try await ServerHarness.run { client in
            let connection = try await RawConnection.open(port: client.port)
            var paths: [String] = []
            for attempt in Self.traversals {
                paths += ["/assets/\(attempt)", "/channels/\(attempt)/schedule", "/programmes/\(attempt)", "/programmes/\(attempt)/airings",
                          "/channel/\(attempt)", "/programme/\(attempt)", "/\(attempt)"]
            }
            for (number, path) in paths.enumerated() {
                try await connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
                let answer = try await connection.waitForAnswers(number + 1).last
                #expect(answer?.status == 404, "\(path)")
                #expect(answer.map { !$0.text.contains("swift-tools-version") && !$0.text.contains("root:") } == true, "\(path)")
            }
            await connection.close()
        }
    }
}
