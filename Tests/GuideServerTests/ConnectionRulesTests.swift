@testable import GuideServer
import NIOCore
import NIOHTTP1
import Testing

/// `ConnectionRules` on a manual clock: each deadline of `ServerLimits` is checked at the
/// moment it falls due and just before, and each limit on a request head, as events the guard
/// would feed them. `SlowClientTests`, `HardeningTests` and `HTTP11Tests` check the same on real
/// sockets, as smoke tests.
@Suite struct ConnectionRulesTests {
    typealias Rules = ConnectionRules<ManualClock>
    typealias Action = Rules.Action

    /// A connection as `ConnectionGuard` drives it: events go to the rules, and the timer is armed
    /// when they say and goes off as the clock passes it.
    struct Connection {
        var rules: Rules
        let clock = ManualClock()
        let opened: NIODeadline
        private var armed: NIODeadline?

        init(limits: ServerLimits = ServerLimits(), crossOrigin: CrossOrigin? = nil) {
            rules = Rules(limits: limits, crossOrigin: crossOrigin, clock: clock)
            opened = clock.now
            rules.opened()
            rearm()
        }

        /// Time since the connection opened.
        var elapsed: Duration { .nanoseconds((clock.now - opened).nanoseconds) }

        /// Feeds one event to the rules and arms the timer as they then say.
        mutating func event(_ feed: (inout Rules) -> Action) -> Action {
            let action = feed(&rules)
            rearm()
            return action
        }

        /// Bytes of a request arrive.
        mutating func send(_ text: String) {
            var bytes = ByteBuffer(string: text)
            _ = rules.bytesArrived(&bytes)
            rearm()
        }

        /// A whole request arrives (its bytes, head and end): what the head and the end's
        /// handing on were answered.
        @discardableResult
        mutating func request(_ head: HTTPRequestHead) -> [Action] {
            send("\(head.method.rawValue) \(head.uri) HTTP/\(head.version.major).\(head.version.minor)\r\n")
            let headAction = event { $0.headArrived(head) }
            guard headAction == .handOn, event({ $0.endArrived() }) == .handOn else { return [headAction] }
            return [headAction, event { $0.endHandedOn() }]
        }

        /// The socket's send buffer fills, or has room again.
        mutating func writable(_ isWritable: Bool) {
            _ = event { $0.writabilityChanged(isWritable: isWritable); return .none }
        }

        /// The answer to the oldest request handed on is written: the `Connection` field its head
        /// carries, and what its end did.
        @discardableResult
        mutating func answer() -> (connection: String?, end: Action) {
            let field = rules.connectionField
            return (field, event { $0.answerEnded() })
        }

        /// Lets `duration` pass, the timer going off each time the clock reaches it: what each
        /// time did, when it did something, with the moment since the opening.
        mutating func wait(_ duration: Duration) -> [Timed] {
            let end = clock.now + TimeAmount(duration)
            var happened: [Timed] = []
            while let due = armed, due <= end {
                clock.move(to: due)
                armed = nil
                let action = rules.timerFired()
                rearm()
                if action != .none { happened.append(Timed(at: elapsed, action: action)) }
            }
            clock.move(to: end)
            return happened
        }

        private mutating func rearm() {
            if let moment = rules.timerToArm() { armed = moment }
        }
    }

    struct Timed: Equatable, CustomStringConvertible {
        var at: Duration
        var action: Action
        var description: String { "\(action) at \(at)" }
    }

    static func head(_ target: String = "/now", version: HTTPVersion = .http1_1, method: HTTPMethod = .GET,
                     _ fields: [(String, String)] = [("Host", "x")]) -> HTTPRequestHead {
        HTTPRequestHead(version: version, method: method, uri: target, headers: HTTPHeaders(fields))
    }

    static func timeout(target: Substring?, fields: [(name: String, value: String)] = []) -> Rules.Refusal {
        Rules.Refusal(status: .requestTimeout, message: "the request was not received within 10.0 seconds", headersOnly: false,
                      fields: fields, target: target)
    }

    // MARK: Request timeout

    @Test func aConnectionThatSendsNothingIsClosedAtTheRequestTimeoutWithoutAWord() {
        var connection = Connection()
        #expect(connection.wait(.seconds(10) - .nanoseconds(1)).isEmpty)
        #expect(connection.wait(.nanoseconds(1)) == [Timed(at: .seconds(10), action: .close)])
        #expect(connection.rules.deadline == nil)
        #expect(connection.wait(.seconds(60)).isEmpty)
    }

    @Test func aHeadTrickledALineAtATimeGetsA408AtTheRequestTimeoutThenLingers() {
        var connection = Connection()
        connection.send("GET /now HTTP/1.1\r\n")
        var happened: [Timed] = []
        for line in 0..<30 where happened.isEmpty {
            happened = connection.wait(.milliseconds(500))
            if happened.isEmpty { connection.send("X-Slow-\(line): 1\r\n") }
        }
        // Timed from the opening, not from the last line.
        #expect(happened == [Timed(at: .seconds(10), action: .refuseNow(Self.timeout(target: "/now")))])
        // What the client still sends is dropped while the refusal lingers, then the connection closes.
        connection.send("X-Late: 1\r\n")
        #expect(connection.event { $0.headArrived(Self.head()) } == .none)
        #expect(connection.wait(.seconds(2) - .nanoseconds(1)).isEmpty)
        #expect(connection.wait(.nanoseconds(1)) == [Timed(at: .seconds(12), action: .close)])
    }

    @Test func aClientClosingItsSideWhileTheRefusalLingersIsClosedAtOnce() {
        var connection = Connection()
        connection.send("GET /now HTTP/1.1\r\nHost: x\r\n")
        #expect(connection.wait(.seconds(10)).map(\.action) == [.refuseNow(Self.timeout(target: "/now"))])
        #expect(connection.event { $0.inputClosed() } == .close)
        #expect(connection.rules.deadline == nil)
    }

    @Test func aHeadWhoseRequestLineHasNotComeWholeTimesOutWithoutATarget() {
        var connection = Connection(crossOrigin: CrossOrigin(["*"]))
        connection.send("GET /now?limit=")
        // Without a head, the origin is unknown: only `*` can be allowed.
        let fields = CrossOrigin.allowedFields("*")
        #expect(connection.wait(.seconds(10)).map(\.action) == [.refuseNow(Self.timeout(target: nil, fields: fields))])
    }

    @Test func aLaterRequestIsTimedFromItsFirstByte() {
        var connection = Connection()
        connection.request(Self.head())
        #expect(connection.answer().end == .none)
        #expect(connection.wait(.seconds(5)).isEmpty)
        connection.send("GET /now HTTP/1.1\r\n")
        #expect(connection.wait(.seconds(10) - .nanoseconds(1)).isEmpty)
        #expect(connection.wait(.nanoseconds(1)) == [Timed(at: .seconds(15), action: .refuseNow(Self.timeout(target: "/now")))])
    }

    @Test func aRequestTimeoutWhileTheClientDoesNotReadClosesWithoutA408() {
        var connection = Connection()
        connection.send("GET /now HTTP/1.1\r\n")
        connection.writable(false)
        #expect(connection.wait(.seconds(10)) == [Timed(at: .seconds(10), action: .close)])
    }

    // MARK: Idle timeout

    @Test func anIdleKeepAliveConnectionIsClosedAtTheIdleTimeoutWithoutAWord() {
        var connection = Connection()
        #expect(connection.wait(.seconds(1)).isEmpty)
        #expect(connection.request(Self.head()) == [.handOn, .none])
        #expect(connection.wait(.seconds(3)).isEmpty)
        // Idle from the end of the answer, not from the request.
        #expect(connection.answer() == (nil, .none))
        #expect(connection.wait(.seconds(30) - .nanoseconds(1)).isEmpty)
        #expect(connection.wait(.nanoseconds(1)) == [Timed(at: .seconds(34), action: .close)])
    }

    @Test func aConnectionInSteadyUseStaysOpenPastEveryTimeout() {
        var limits = ServerLimits()
        limits.requestTimeout = .seconds(1)
        limits.idleTimeout = .milliseconds(1_500)
        var connection = Connection(limits: limits)
        for round in 0..<100 {
            if round.isMultiple(of: 2) {
                // The router answers after the request's end is read.
                connection.request(Self.head())
                connection.answer()
            } else {
                // The fast lane answers before the end is handed on.
                connection.send("GET /now HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(connection.event { $0.headArrived(Self.head()) } == .handOn)
                #expect(connection.event { $0.endArrived() } == .handOn)
                connection.answer()
                #expect(connection.event { $0.endHandedOn() } == .none)
            }
            #expect(connection.wait(.milliseconds(900)).isEmpty, "round \(round)")
        }
        #expect(connection.wait(.milliseconds(600)) == [Timed(at: .milliseconds(90_600), action: .close)])
    }

    @Test func aSlowAnswerIsNotIdleTime() {
        var connection = Connection()
        connection.request(Self.head())
        // However long the answer takes, no limit runs while the client reads.
        #expect(connection.rules.deadline == nil)
        #expect(connection.wait(.seconds(120)).isEmpty)
        connection.answer()
        #expect(connection.wait(.seconds(30)) == [Timed(at: .seconds(150), action: .close)])
    }

    // MARK: Write timeout

    @Test func aClientThatDoesNotReadItsAnswersIsDisconnectedAtTheWriteTimeout() {
        var connection = Connection()
        connection.request(Self.head())
        connection.writable(false)
        #expect(connection.wait(.seconds(20)).isEmpty)
        // It read some: the time starts again when the buffer next fills.
        connection.writable(true)
        #expect(connection.wait(.seconds(5)).isEmpty)
        connection.writable(false)
        #expect(connection.wait(.seconds(30) - .nanoseconds(1)).isEmpty)
        #expect(connection.wait(.nanoseconds(1)) == [Timed(at: .seconds(55), action: .close)])
    }

    // MARK: Refusals and keeping the connection

    @Test func aRefusalWaitsForTheAnswersBeforeItThenLingers() {
        var connection = Connection()
        connection.request(Self.head())
        connection.request(Self.head("/health"))
        let big = Self.head("/now", [("X-Big", String(repeating: "v", count: ServerLimits().headerBytes))])
        connection.send("GET /now HTTP/1.1\r\n")
        let refused = Rules.Refusal(status: .requestHeaderFieldsTooLarge, message: "the header fields are 16393 bytes, at most 16384 are allowed",
                                    headersOnly: false, fields: [], target: "/now")
        #expect(connection.event { $0.headArrived(big) } == .refuse(refused))
        // Nothing after it is read.
        #expect(connection.event { $0.bodyArrived() } == .none)
        #expect(connection.event { $0.endArrived() } == .none)
        #expect(connection.event { $0.headArrived(Self.head()) } == .none)
        // The write timeout bounds the answers before it; nothing else does.
        #expect(connection.rules.deadline == nil)
        #expect(connection.answer().end == .none)
        #expect(connection.wait(.seconds(1)).isEmpty)
        #expect(connection.answer().end == .sendRefusal(refused))
        #expect(connection.wait(.seconds(2)) == [Timed(at: .seconds(3), action: .close)])
    }

    @Test func aRequestAskingToCloseIsTheLastHandedOn() {
        for (head, field) in [(Self.head("/now", [("Host", "x"), ("Connection", "close")]), "close"),
                              (Self.head("/now", version: .http1_0, []), "close")] {
            var connection = Connection()
            #expect(connection.request(head) == [.handOn, .none], "\(head)")
            // What follows is dropped.
            connection.send("GET /now HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(connection.event { $0.headArrived(Self.head()) } == .none, "\(head)")
            #expect(connection.event { $0.decodingFailed(HTTPParserError.invalidMethod) } == .none, "\(head)")
            #expect(connection.answer() == (field, .closeAfterWriting), "\(head)")
            #expect(connection.wait(.seconds(2)) == [Timed(at: .seconds(2), action: .close)], "\(head)")
        }
    }

    @Test func anHTTP10KeepAliveIsKeptOnlyIfTheAnswerSaysSo() {
        var connection = Connection()
        connection.request(Self.head("/now", version: .http1_0, [("Connection", "keep-alive")]))
        #expect(connection.answer() == ("keep-alive", .none))
        connection.request(Self.head())
        #expect(connection.answer() == (nil, .none))
    }

    @Test func aRequestAskingToUpgradeGetsAFreshDecoder() {
        var connection = Connection()
        let upgrade = Self.head("/now", [("Host", "x"), ("Connection", "Upgrade"), ("Upgrade", "websocket")])
        #expect(connection.request(upgrade) == [.handOn, .restartDecoder])
        #expect(connection.request(Self.head()) == [.handOn, .none])
    }

    // MARK: Request heads

    @Test func eachLimitOnARequestHeadIsItsRefusal() {
        let limits = ServerLimits()
        let rules = Rules(limits: limits, crossOrigin: nil, clock: ManualClock())
        let host = ("Host", "x")
        let cases: [(HTTPRequestHead, HTTPResponseStatus, String)] = [
            (Self.head("/" + String(repeating: "a", count: limits.uriBytes)), .uriTooLong, "the request target is 8193 bytes, at most 8192 are allowed"),
            (Self.head("/now", (0...limits.headerFields).map { ("X-\($0)", "1") }), .requestHeaderFieldsTooLarge, "101 header fields, at most 100 are allowed"),
            (Self.head("/now", [host, ("Transfer-Encoding", "gzip, chunked")]), .notImplemented,
             "the transfer coding \(Quoted("gzip")) is not implemented; only chunked is"),
            (Self.head("/now", [host, ("Transfer-Encoding", "chunked")]), .payloadTooLarge, "request bodies are not accepted: every route is a GET"),
            (Self.head("/now", [host, ("Content-Length", "1025")]), .payloadTooLarge,
             "a request body of 1025 bytes, at most 1024 are allowed (every route is a GET)"),
            (Self.head("x:443", method: .CONNECT, [host]), .methodNotAllowed, "method CONNECT is not allowed; this server answers GET and HEAD"),
            (Self.head("/now", [host, host]), .badRequest, "2 Host header fields; a request has one"),
            (Self.head("/now", []), .badRequest, "an HTTP/1.1 request needs a Host header field"),
            (Self.head("/now", [("Host", "x y")]), .badRequest, "the Host header field is not a host with an optional port"),
            (Self.head("http://user@x/now", [host]), .badRequest, "the request target has userinfo (user@host), which HTTP does not allow"),
        ]
        for (head, status, message) in cases {
            let refusal = rules.refusal(of: head)
            #expect(refusal?.status == status, "\(head)")
            #expect(refusal?.message == message, "\(head)")
        }
        #expect(rules.refusal(of: Self.head("x:443", method: .CONNECT, [host]))?.fields.map(\.value) == ["GET, HEAD"])
        #expect(rules.refusal(of: Self.head("/now", method: .HEAD, [host, host]))?.headersOnly == true)
        // HTTP/1.0 needs no Host; a request within every limit is let through.
        #expect(rules.refusal(of: Self.head("/now", version: .http1_0, [])) == nil)
        #expect(rules.refusal(of: Self.head("http://x:8080/now?a=1", [("host", "x:8080"), ("Content-Length", "1024")])) == nil)
    }

    @Test func aRefusedHeadCarriesTheCrossOriginFieldsOfTheServersErrors() {
        var connection = Connection(crossOrigin: CrossOrigin(["https://app.example"]))
        let head = Self.head("/now", [("Origin", "https://app.example"), ("Content-Length", "5000"), ("Host", "x")])
        connection.send("GET /now HTTP/1.1\r\n")
        guard case .refuseNow(let refusal) = connection.event({ $0.headArrived(head) }) else {
            Issue.record("not refused at once")
            return
        }
        #expect(refusal.fields.map(\.name) == ["Vary", "Access-Control-Allow-Origin", "Access-Control-Expose-Headers"])
        #expect(refusal.fields.map(\.value) == ["Origin", "https://app.example", "ETag"])
    }

    @Test func eachParserErrorIsItsRefusal() {
        var limits = ServerLimits()
        limits.uriBytes = 10
        let cases: [(String, HTTPParserError, HTTPResponseStatus, String)] = [
            ("GET /aaaaaaaaaaaaaaaaaaaa", .headerOverflow, .uriTooLong, "the request target is over 10 bytes"),
            ("GET /a HTTP/1.1\r\nX: ", .headerOverflow, .requestHeaderFieldsTooLarge,
             "the request head (request line and header fields) is over 65536 bytes or has too many fields"),
            ("BREW /a HTTP/1.1\r\n", .invalidMethod, .methodNotAllowed, "the request method is not allowed; this server answers GET and HEAD"),
            ("GET /a HTTP/1.1\r\nX\r\n", .invalidHeaderToken, .badRequest, "malformed HTTP request"),
        ]
        for (bytes, error, status, message) in cases {
            var connection = Connection(limits: limits)
            connection.send(bytes)
            guard case .refuseNow(let refusal) = connection.event({ $0.decodingFailed(error) }) else {
                Issue.record("\(bytes.debugDescription) not refused at once")
                continue
            }
            #expect(refusal.status == status, "\(bytes.debugDescription)")
            #expect(refusal.message == message, "\(bytes.debugDescription)")
            // A second complaint about the same bytes is moot.
            #expect(connection.event { $0.decodingFailed(error) } == .none)
        }
        var connection = Connection()
        #expect(connection.event { $0.decodingFailed(ChannelError.ioOnClosedChannel) } == .handOn)
    }
}
