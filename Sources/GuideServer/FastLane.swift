import Foundation
import GuideCore
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// A response the router made that the same request target may get again, without the router,
/// for the rest of the second it was made in.
///
/// Hummingbird hands every request from the event loop to a Swift task and the response back
/// again; for a body already rendered (`ServingContext.cached`), those hops and the router cost
/// more than everything else (docs/server.md, "Performance", has the figures). The fast lane answers a repeat on the
/// event loop itself, with the very head and body the router gave: it records only responses
/// whose cache key says they depend on nothing but the path and query (and the second), and
/// forgets them when the second or the guide changes.
struct FastAnswer: Sendable {
    /// The router's header fields, before Hummingbird adds `Date` and `Server`, and where the
    /// answer counts in the metrics. A class: `FastLaneHandler` knows by identity that it has
    /// already converted these fields this second.
    final class Head: Sendable {
        let fields: HTTPFields
        let metrics: ServerMetrics.RequestRecorder
        /// The body is sent gzip-compressed to clients that accept it (`Vary: Accept-Encoding`):
        /// this identity answer is only for those that send no `Accept-Encoding`.
        let negotiated: Bool

        init(fields: HTTPFields, metrics: ServerMetrics.RequestRecorder) {
            self.fields = fields
            self.metrics = metrics
            negotiated = fields[values: .vary].contains("Accept-Encoding")
        }
    }

    var head: Head
    var body: ByteBuffer
    /// The clock's second (`ServingContext.now`) the body holds for.
    var second: Int
}

/// Set by `FastLaneMiddleware` around the router, filled by `ServingContext.cached` when the body
/// may be reused for the same request target.
final class FastLaneCandidate: @unchecked Sendable {
    // @unchecked: written and read by the one task that answers the request.
    var body: ByteBuffer?
    var second = 0
    var version = ""

    @TaskLocal static var current: FastLaneCandidate?
}

/// Records the answers the fast lane may give again. Added first, so that the response it records
/// is the one every other middleware has had its say on.
struct FastLaneMiddleware<Context: RequestContext>: RouterMiddleware {
    let state: GuideState
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard FastLaneHandler.isEligible(request.head) else { return try await next(request, context) }
        let candidate = FastLaneCandidate()
        let response = try await FastLaneCandidate.$current.withValue(candidate) { try await next(request, context) }
        // The body written must be the body recorded: a middleware that changed it (compressed
        // it, say) would show in the length.
        if response.status == .ok, let body = candidate.body, let route = context.endpointPath,
           response.headers[.contentLength] == String(body.readableBytes), let target = request.head.path {
            let head = FastAnswer.Head(fields: response.headers, metrics: metrics.recorder(route: route, status: 200))
            state.remember(FastAnswer(head: head, body: body, second: candidate.second), for: target, version: candidate.version)
        }
        return response
    }
}

/// Hummingbird's HTTP/1.1 channel with the fast lane added in front of the conversion to
/// `HTTPTypes`: the fast lane works on NIO's own HTTP/1 parts, which saves converting (and
/// parsing as a URL) every request it answers.
struct FastLaneHTTP1Channel: ServerChildChannel {
    let http1: HTTP1Channel
    let serving: ServingContext
    let serverName: String
    /// Which refusals are HTML pages: the rule of the router's `WebErrorMiddleware`.
    let webErrors: WebErrorRule?

    func setup(channel: any NIOCore.Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let codec = try operations.context(handlerType: HTTP1ToHTTPServerCodec.self)
            // Hummingbird's decoder drops the bytes it holds when removed; the guard's hands them
            // on, which it needs after a request asking to upgrade.
            let original = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let decoder = ConnectionGuard.makeDecoder(serving.settings.limits)
            try operations.addHandler(decoder, position: .after(original))
            operations.removeHandler(original, promise: nil)
            let corsOrigins = serving.settings.corsOrigins
            let connectionGuard = ConnectionGuard(limits: serving.settings.limits, metrics: serving.metrics, serverName: serverName,
                                                  crossOrigin: corsOrigins.isEmpty ? nil : CrossOrigin(corsOrigins),
                                                  refusalBody: RefusalBody(rule: webErrors, clock: { [serving] in serving.now }),
                                                  decoder: decoder)
            try operations.addHandler(ConnectionGuard.ByteWatch(connectionGuard), position: .first)
            try operations.addHandler(connectionGuard, position: .before(codec.handler))
            try operations.addHandler(FastLaneHandler(serving: serving, serverName: serverName), position: .before(codec.handler))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    static func http1WithFastLane(serving: ServingContext, serverName: String, webErrors: WebErrorRule?) -> HTTPServerBuilder {
        // The decoder Hummingbird configures is replaced by `ConnectionGuard.makeDecoder`.
        HTTPServerBuilder { responder in
            FastLaneHTTP1Channel(http1: HTTP1Channel(responder: responder), serving: serving, serverName: serverName, webErrors: webErrors)
        }
    }
}

/// The channel handler that answers from the fast lane, placed between NIO's HTTP/1 codec and
/// Hummingbird. One per connection, so its state needs no lock.
final class FastLaneHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let serving: ServingContext
    private let serverName: String
    /// Requests handed to the router whose response has not been written whole: while there are
    /// any, later requests go the same way, so that answers keep the order of the requests.
    private var withRouter = 0
    /// Dropping the rest (body, end) of a request answered here.
    private var dropping = false
    /// The last head written, with its `Date`: the same for every answer from one `FastAnswer.Head`
    /// within a second of the wall clock.
    private var written: (head: FastAnswer.Head, second: Int, response: HTTPResponseHead)?

    init(serving: ServingContext, serverName: String) {
        self.serving = serving
        self.serverName = serverName
    }

    /// Requests the router records answers for: a plain GET, without conditions (`If-None-Match`
    /// and `If-Match` get their 304 and 412 from the router), without `Connection` (the guard
    /// closes when asked) and without `Origin` (a cross-origin answer is for its origin only).
    static func isEligible(_ head: HTTPRequest) -> Bool {
        head.method == .get && head.headerFields[.ifNoneMatch] == nil && head.headerFields[.ifMatch] == nil
            && head.headerFields[.connection] == nil && head.headerFields[.origin] == nil
    }

    /// The same for the fast lane, which also leaves HTTP/1.0 to the router, and targets not in
    /// origin form (`/now?tz=…`), whose path `HTTPTypes` would read differently.
    static func isEligible(_ head: HTTPRequestHead) -> Bool {
        head.method == .GET && head.version == .http1_1 && head.uri.utf8.first == UInt8(ascii: "/")
            && !head.headers.contains(name: "if-none-match") && !head.headers.contains(name: "if-match")
            && !head.headers.contains(name: "connection") && !head.headers.contains(name: "origin")
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            // A client not reading its answers goes to the router, which waits for the socket
            // to drain instead of queueing answers without bound.
            if withRouter == 0, context.channel.isWritable,
               answerFeed(head, context: context)
                || (Self.isEligible(head) && answer(head.uri, acceptsEncoding: head.headers.contains(name: "accept-encoding"), context: context)) {
                dropping = true
                return
            }
            withRouter += 1
        case .body, .end:
            if dropping {
                if case .end = part { dropping = false }
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { withRouter -= 1 }
        context.write(data, promise: promise)
    }

    /// Writes the recorded answer for `target`, if there is one for this second and the client
    /// takes it as it is (a client sending `Accept-Encoding` may get a body compressed by the router).
    private func answer(_ target: String, acceptsEncoding: Bool, context: ChannelHandlerContext) -> Bool {
        let started = ContinuousClock.now
        let second = Int(serving.now.timeIntervalSince1970.rounded(.down))
        guard let answer = serving.state.fastAnswer(for: target, second: second),
              !(acceptsEncoding && answer.head.negotiated) else { return false }
        context.write(wrapOutboundOut(.head(response(answer.head))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        answer.head.metrics.record(ContinuousClock.now - started)
        return true
    }

    /// Sends a feed's file as it is, `sendfile` doing the copying, for a GET or HEAD of a
    /// `FeedTarget` whose file is written: a 200, a 206 or a 304, with the headers the router
    /// would give. Cross-origin requests, `Connection` (the guard closes when asked), HTTP/1.0,
    /// a feed still being written and the errors (412, 416) go to the router.
    private func answerFeed(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> Bool {
        guard head.method == .GET || head.method == .HEAD, head.version == .http1_1,
              !head.headers.contains(name: "connection"), !head.headers.contains(name: "origin"),
              let target = FeedTarget(head.uri, lineups: serving.settings.lineups), let feed = serving.feeds.ready(target.key)
        else { return false }
        let started = ContinuousClock.now
        let acceptsGzip = head.headers["accept-encoding"].contains(where: ContentCoding.acceptsGzip)
        let (file, encoded) = target.form.file(of: feed, acceptsGzip: acceptsGzip)
        let wall = Int(Date().timeIntervalSince1970)
        let answer = FeedAnswer(file, head: head.method == .HEAD, encoded: encoded, negotiated: target.form == .plain, maxAge: APICaching.feed,
                                now: wall) { name in
            let values = head.headers[name]
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
        guard [200, 206, 304].contains(answer.status) else { return false }
        var region: (FileRegion, NIOFileHandle)?
        if let range = answer.body {
            // A file of the previous guide may be gone by now: the router then says why.
            guard let handle = try? NIOFileHandle(_deprecatedPath: file.path) else { return false }
            region = (FileRegion(fileHandle: handle, readerIndex: range.lowerBound, endIndex: range.upperBound), handle)
        }
        var headers = HTTPHeaders(answer.headers.map { ($0.name, $0.value) })
        headers.add(name: "Date", value: HTTPDate.format(epochSeconds: wall))
        headers.add(name: "Server", value: serverName)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: answer.status), headers: headers))),
                      promise: nil)
        if let (fileRegion, _) = region { context.write(wrapOutboundOut(.body(.fileRegion(fileRegion))), promise: nil) }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.whenComplete { _ in try? region?.1.close() }
        serving.metrics.recorder(route: target.route, status: answer.status).record(ContinuousClock.now - started)
        return true
    }

    /// The head with `Date` (the wall clock, as Hummingbird writes it) and `Server` added,
    /// converted as `HTTP1ToHTTPServerCodec` converts the router's.
    private func response(_ head: FastAnswer.Head) -> HTTPResponseHead {
        let wall = Int(Date().timeIntervalSince1970)
        if let written, written.head === head, written.second == wall { return written.response }
        var fields = head.fields
        fields[.date] = HTTPDate.format(epochSeconds: wall)
        fields[.server] = serverName
        let response = HTTPResponseHead(HTTPResponse(status: .ok, headerFields: fields))
        written = (head, wall, response)
        return response
    }
}

/// `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(epochSeconds: Int) -> String {
        let c = CivilTime.components(epochSeconds: epochSeconds)
        // 1970-01-01 was a Thursday.
        let days = epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400
        let weekday = weekdays[((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(c.day)) \(months[c.month - 1]) \(c.year) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) GMT"
    }

    /// Seconds since 1970 of an IMF-fixdate (what `format` writes, and what clients send back in
    /// `If-Modified-Since`); nil for anything else, which the conditions then ignore (RFC 9110
    /// §13.1.3 lets a server ignore a date it cannot read).
    static func parse(_ text: String) -> Int? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), parts[1].count == 2, let month = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]), parts[3].count == 4 else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (1...CivilTime.days(inMonth: month + 1, year: year)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        return CivilTime.epochSeconds(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    }
}
