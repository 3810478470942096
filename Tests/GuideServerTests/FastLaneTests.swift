import Foundation
import GuideCore
@testable import GuideServer
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
import TestSupport

/// The fast lane answers a repeat request for a cached body on the event loop; it must answer
/// exactly what the router would, and step aside whenever it might not.
@Suite struct FastLaneTests {
    // MARK: the handler, on an embedded channel

    /// A handler whose guide holds one fast answer, `/now` for `second`.
    struct Lane {
        let channel = EmbeddedChannel()
        let state = GuideState(index: GuideIndex(ServerHarness.golden), origin: "latest.json", loadedAt: nil)
        let metrics = ServerMetrics()
        let second = Int(ServerHarness.goldenNow.timeIntervalSince1970)
        let body = ByteBuffer(string: #"{"items":[]}"#)

        init() throws {
            var logger = Logger(label: "test.fastlane")
            logger.logLevel = .critical
            let serving = ServingContext(state: state, metrics: metrics, settings: ServerSettings(port: 0),
                                         source: ServerHarness.source(snapshot: ServerHarness.golden), logger: logger)
            var fields = HTTPFields()
            fields[.contentType] = "application/json; charset=utf-8"
            fields[.contentLength] = String(body.readableBytes)
            let head = FastAnswer.Head(fields: fields, metrics: metrics.recorder(route: "/now", status: 200))
            state.remember(FastAnswer(head: head, body: body, second: second), for: "/now", version: state.index.version)
            try channel.pipeline.syncOperations.addHandler(FastLaneHandler(serving: serving, serverName: "tvguide"))
        }

        func request(_ target: String, _ headers: HTTPHeaders = [:], version: HTTPVersion = .http1_1) throws {
            try channel.writeInbound(HTTPServerRequestPart.head(HTTPRequestHead(version: version, method: .GET, uri: target, headers: headers)))
            try channel.writeInbound(HTTPServerRequestPart.end(nil))
        }

        /// The parts written back to the client since the last call.
        func answered() throws -> [HTTPServerResponsePart] {
            var parts: [HTTPServerResponsePart] = []
            while let part = try channel.readOutbound(as: HTTPServerResponsePart.self) { parts.append(part) }
            return parts
        }

        /// The request heads handed on to the router since the last call.
        func handedOn() throws -> [String] {
            var targets: [String] = []
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
                if case .head(let head) = part { targets.append(head.uri) }
            }
            return targets
        }
    }

    @Test func aRecordedAnswerIsWrittenWithDateAndServerAndTheRequestGoesNoFurther() throws {
        let lane = try Lane()
        try lane.request("/now")
        let parts = try lane.answered()
        #expect(parts.count == 3)
        guard parts.count == 3, case .head(let head) = parts[0], case .body(.byteBuffer(let body)) = parts[1], case .end(nil) = parts[2] else {
            Issue.record("expected head, body, end: \(parts)")
            return
        }
        #expect(head.status == .ok && head.version == .http1_1)
        #expect(head.headers["Content-Type"] == ["application/json; charset=utf-8"])
        #expect(head.headers["Server"] == ["tvguide"])
        #expect(head.headers["Date"].first?.hasSuffix(" GMT") == true)
        #expect(body == lane.body)
        #expect(try lane.handedOn().isEmpty)
        #expect(String(decoding: lane.metrics.exposition(), as: UTF8.self).contains(#"tvguide_http_requests_total{route="/now",status="200"} 1"#))
    }

    @Test func anythingElseGoesToTheRouter() throws {
        // Each on a lane of its own: after one request handed on, the next would follow it anyway.
        let requests: [(String, HTTPHeaders, HTTPVersion)] = [
            ("/now?tz=Europe/Madrid", [:], .http1_1), ("/now", ["If-None-Match": "\"abc\""], .http1_1),
            ("/now", ["Connection": "close"], .http1_1), ("/now", [:], .http1_0), ("http://127.0.0.1/now", [:], .http1_1),
        ]
        for (target, headers, version) in requests {
            let lane = try Lane()
            try lane.request(target, headers, version: version)
            #expect(try lane.handedOn() == [target])
            #expect(try lane.answered().isEmpty)
        }
        // A body recorded for another second is not answered with.
        let stale = try Lane()
        stale.state.remember(try #require(stale.state.fastAnswer(for: "/now", second: stale.second)).moved(to: stale.second - 1),
                             for: "/now", version: stale.state.index.version)
        try stale.request("/now")
        #expect(try stale.handedOn() == ["/now"])
    }

    @Test func answersKeepTheOrderOfTheRequests() throws {
        let lane = try Lane()
        // The router has not answered /health yet: /now must wait its turn behind it.
        try lane.request("/health")
        try lane.request("/now")
        #expect(try lane.handedOn() == ["/health", "/now"])
        for _ in 0..<2 {
            try lane.channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
            try lane.channel.writeOutbound(HTTPServerResponsePart.end(nil))
        }
        #expect(try lane.answered().count == 4)
        // Both answered whole: the next /now is the fast lane's again.
        try lane.request("/now")
        #expect(try lane.handedOn().isEmpty)
        #expect(try lane.answered().count == 3)
    }

    // MARK: a real server

    /// Headers as a client compares them: all but `Date`, which follows the wall clock.
    static func headersBesidesDate(_ response: ServerResponse) -> [String: String] {
        response.headers.filter { $0.key != "date" }
    }

    @Test func repeatRequestsGetTheRouterAnswerByteForByte() async throws {
        try await ServerHarness.run { client in
            for path in ["/now", "/now?tz=Europe/Madrid&limit=5", "/channels/24h.es/schedule?date=2026-10-21", "/channels"] {
                let first = try await client.get(path)
                #expect(first.status == 200, "\(path)")
                for _ in 0..<2 {
                    let again = try await client.get(path)
                    #expect(again.status == 200)
                    #expect(again.body == first.body, "\(path)")
                    #expect(Self.headersBesidesDate(again) == Self.headersBesidesDate(first), "\(path)")
                }
                let etag = try #require(first.headers["etag"])
                #expect(try await client.get(path, headers: ["If-None-Match": etag]).status == 304)
            }
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains(#"tvguide_http_requests_total{route="/now",status="200"} 6"#))
            #expect(metrics.contains(#"tvguide_http_requests_total{route="/now",status="304"} 2"#))
        }
    }

    /// Requests sent back to back on one connection, before any answer: the router's slower
    /// answers and the fast lane's must come back in the order asked.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await ServerHarness.run { client in
            _ = try await client.get("/now")
            let script = """
            import json, socket, sys
            paths = ["/now", "/health", "/now", "/channels/24h.es/schedule?date=2026-10-21", "/now"]
            requests = "".join(f"GET {p} HTTP/1.1\\r\\nHost: x\\r\\n" + ("Connection: close\\r\\n" if i == len(paths) - 1 else "") + "\\r\\n"
                               for i, p in enumerate(paths))
            sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
            sock.sendall(requests.encode())
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
            answers = []
            while data:
                head, _, rest = data.partition(b"\\r\\n\\r\\n")
                length = int([l.split(b":")[1] for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-length:")][0])
                answers.append(json.loads(rest[:length]))
                data = rest[length:]
            print(json.dumps([sorted(answer) for answer in answers]))
            """
            let python = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, String(client.port)])
            #expect(python.status == 0, "\(python.stderr)")
            let keys = try JSONDecoder().decode([[String]].self, from: Data(python.stdout.utf8))
            let now = try #require(try await client.get("/now").object().keys.sorted())
            let health = try #require(try await client.get("/health").object().keys.sorted())
            let schedule = try #require(try await client.get("/channels/24h.es/schedule?date=2026-10-21").object().keys.sorted())
            #expect(keys == [now, health, now, schedule, now])
        }
    }

    // MARK: the guide's record of answers

    @Test func aNewGuideForgetsTheAnswersOfTheOldOne() throws {
        let lane = try Lane()
        let old = lane.state.index.version
        #expect(lane.state.fastAnswer(for: "/now", second: lane.second) != nil)
        #expect(lane.state.fastAnswer(for: "/now", second: lane.second + 1) == nil)
        var snapshot = ServerHarness.golden
        snapshot.programmes.removeLast()
        lane.state.replace(with: GuideIndex(snapshot), at: ServerHarness.goldenNow)
        #expect(lane.state.fastAnswer(for: "/now", second: lane.second) == nil)
        // An answer rendered from the old guide and recorded after the swap is dropped.
        let head = FastAnswer.Head(fields: [:], metrics: lane.metrics.recorder(route: "/now", status: 200))
        lane.state.remember(FastAnswer(head: head, body: lane.body, second: lane.second), for: "/now", version: old)
        #expect(lane.state.fastAnswer(for: "/now", second: lane.second) == nil)
    }
}

extension FastAnswer {
    func moved(to second: Int) -> FastAnswer {
        var answer = self
        answer.second = second
        return answer
    }
}
