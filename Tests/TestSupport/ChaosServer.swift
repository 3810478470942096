import Foundation
import GuideCore
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A way for a route of the `ChaosServer` to misbehave.
package enum ChaosFault: Sendable, Hashable, CustomStringConvertible {
    /// The healthy response, its head sent only after this long: a server that hangs.
    case delay(Duration)
    /// The connection reset (RST, `SO_LINGER` 0) as soon as the request has arrived.
    case resetBeforeHead
    /// The head and the first bytes of the body, then the connection reset.
    case resetAfterHead
    /// A `Content-Length` larger than the bytes sent, then an orderly close (FIN).
    case truncated
    /// This status with a short text body, and `Retry-After: retryAfter` when set.
    case status(Int, retryAfter: Int? = nil)
    /// A 200 whose body is an HTML error page, labelled `text/html`, where the route's format is
    /// expected: what a captive portal, a CDN or a CMS answers when the backend is down.
    case htmlErrorPage
    /// A 200 with the route's healthy body under another `Content-Type`.
    case mislabelled(contentType: String)
    /// A 302 back to the very URL asked, forever.
    case redirectLoop
    /// A 200 with `bytes` bytes in the route's content type, chunked (no length announced), each
    /// chunk written when the previous one has left: the server never holds the body.
    case hugeBody(bytes: Int)
    /// The healthy response with its real `Content-Length`, `bytes` bytes every `every`.
    case trickle(bytes: Int, every: Duration)

    /// A short name for reports: `delay`, `reset-before-head`, `status-503`, …
    package var description: String {
        switch self {
        case .delay: "delay"
        case .resetBeforeHead: "reset-before-head"
        case .resetAfterHead: "reset-after-head"
        case .truncated: "truncated"
        case .status(let code, _): "status-\(code)"
        case .htmlErrorPage: "html-error-page"
        case .mislabelled: "mislabelled"
        case .redirectLoop: "redirect-loop"
        case .hugeBody: "huge-body"
        case .trickle: "trickle"
        }
    }
}

/// What a route serves when healthy.
package struct ChaosRoute: Sendable {
    package enum Content: Sendable {
        /// The same bytes for every path under the prefix.
        case bytes(Data, contentType: String)
        /// Files under a folder in the recording layout (docs/recording.md): the request path
        /// below the route's prefix, plus the sorted query. The content type is `contentType`
        /// when given, else guessed from the file name. A missing file is a 404.
        case recordings(URL, contentType: String? = nil)
    }

    /// A path prefix such as `/miguiatv/`; the longest matching prefix wins.
    package var prefix: String
    package var content: Content
    package var fault: ChaosFault?

    package init(_ prefix: String, _ content: Content, fault: ChaosFault? = nil) {
        self.prefix = prefix
        self.content = content
        self.fault = fault
    }
}

/// A loopback HTTP/1.1 server, on SwiftNIO directly, whose routes fail in chosen ways
/// (`ChaosFault`) so that tests can drive the real transport and providers through them.
///
/// Bounded in time: every connection is closed `connectionDeadline` after it opened whatever it
/// is doing (a delay, a trickle), and `run` closes every connection and the listener when its
/// body returns. Every response says `Connection: close`, so one connection carries one request.
package final class ChaosServer: Sendable {
    /// `http://127.0.0.1:PORT/`.
    package let baseURL: URL
    private let core: Core
    private let listener: any NIOCore.Channel

    /// Starts a server with `routes`, runs `body` with it and shuts it down when `body` ends.
    package static func run<T: Sendable>(
        _ routes: [ChaosRoute], connectionDeadline: Duration = .seconds(20),
        _ body: (ChaosServer) async throws -> T
    ) async throws -> T {
        let server = try await ChaosServer(routes, connectionDeadline: connectionDeadline)
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    private init(_ routes: [ChaosRoute], connectionDeadline: Duration) async throws {
        let core = Core(routes: routes, connectionDeadline: .nanoseconds(connectionDeadline.nanoseconds))
        listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                core.opened(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(ChaosHandler(core: core))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = listener.localAddress?.port, let url = URL(string: "http://127.0.0.1:\(port)/") else {
            try? await listener.close()
            throw StartFailure()
        }
        self.core = core
        self.baseURL = url
    }

    package struct StartFailure: Error, CustomStringConvertible {
        package var description: String { "the chaos server has no local port" }
    }

    /// Requests received on the route with this prefix (faulted or not).
    package func requests(to prefix: String) -> Int {
        core.state.withLockedValue { $0.counts[prefix] ?? 0 }
    }

    /// Requests received on every route, and for paths no route serves.
    package var totalRequests: Int {
        core.state.withLockedValue { $0.counts.values.reduce(0, +) }
    }

    /// Body bytes a `hugeBody` route has written so far: far below its size when the client
    /// stopped reading at its limit.
    package var hugeBodyBytesSent: Int {
        core.state.withLockedValue { $0.hugeBytesSent }
    }

    /// Makes the route with `prefix` fail with `fault` from the next request on (nil: healthy).
    package func setFault(_ fault: ChaosFault?, on prefix: String) {
        core.state.withLockedValue { state in
            for index in state.routes.indices where state.routes[index].prefix == prefix {
                state.routes[index].fault = fault
            }
        }
    }

    private func shutdown() async {
        try? await listener.close()
        let open = core.state.withLockedValue { Array($0.connections.values) }
        for channel in open {
            try? await channel.close()
        }
    }
}

extension Duration {
    fileprivate var nanoseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }

    fileprivate var timeAmount: TimeAmount { .nanoseconds(nanoseconds) }
}

/// What the handlers share: the routes, the counts, the open connections.
private final class Core: Sendable {
    struct State {
        var routes: [ChaosRoute]
        var counts: [String: Int] = [:]
        var connections: [ObjectIdentifier: any NIOCore.Channel] = [:]
        var hugeBytesSent = 0
    }

    let state: NIOLockedValueBox<State>
    let connectionDeadline: TimeAmount

    init(routes: [ChaosRoute], connectionDeadline: TimeAmount) {
        state = NIOLockedValueBox(State(routes: routes))
        self.connectionDeadline = connectionDeadline
    }

    func opened(_ channel: any NIOCore.Channel) {
        let key = ObjectIdentifier(channel)
        state.withLockedValue { $0.connections[key] = channel }
        channel.closeFuture.whenComplete { [self] _ in
            _ = state.withLockedValue { $0.connections.removeValue(forKey: key) }
        }
        // The bound on every connection, whatever its route is doing.
        channel.eventLoop.scheduleTask(in: connectionDeadline) {
            channel.close(promise: nil)
        }
    }

    /// The route for `path` (longest prefix), counting the request; nil when none matches.
    func route(for path: String) -> ChaosRoute? {
        state.withLockedValue { state in
            let route = state.routes.filter { path.hasPrefix($0.prefix) }.max { $0.prefix.count < $1.prefix.count }
            state.counts[route?.prefix ?? "", default: 0] += 1
            return route
        }
    }
}

/// Answers one request per connection as its route says, then closes the connection.
private final class ChaosHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let core: Core
    private var head: HTTPRequestHead?
    private var answered = false

    init(core: Core) {
        self.core = core
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head, !answered else { return }
            answered = true
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        var components = URLComponents(string: head.uri)
        if components == nil { components = URLComponents() }
        let path = components?.percentEncodedPath ?? "/"
        guard let route = core.route(for: path) else {
            return send(status: .notFound, contentType: "text/plain", body: Data("no route\n".utf8), context: context)
        }
        let healthy = Self.healthy(route, path: path, query: components?.percentEncodedQueryItems ?? [])
        guard let fault = route.fault else {
            guard let healthy else { return send(status: .notFound, contentType: "text/plain", body: Data(), context: context) }
            return send(status: .ok, contentType: healthy.contentType, body: healthy.body, context: context)
        }
        let body = healthy ?? Healthy(body: Data("{}".utf8), contentType: "application/json")
        switch fault {
        case .delay(let delay):
            context.eventLoop.assumeIsolated().scheduleTask(in: delay.timeAmount) {
                self.send(status: .ok, contentType: body.contentType, body: body.body, context: context)
            }
        case .resetBeforeHead:
            reset(context)
        case .resetAfterHead:
            writeHead(status: .ok, contentType: body.contentType, length: body.body.count, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body.body.prefix(64))))))
                .assumeIsolated().whenComplete { _ in self.reset(context) }
        case .truncated:
            writeHead(status: .ok, contentType: body.contentType, length: body.body.count + 1024, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body.body.prefix(body.body.count / 2))))))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .status(let code, let retryAfter):
            var extra: [(String, String)] = []
            if let retryAfter { extra.append(("Retry-After", String(retryAfter))) }
            send(status: HTTPResponseStatus(statusCode: code), contentType: "text/plain",
                 body: Data("status \(code)\n".utf8), extraHeaders: extra, context: context)
        case .htmlErrorPage:
            send(status: .ok, contentType: "text/html; charset=utf-8", body: Self.errorPage, context: context)
        case .mislabelled(let contentType):
            send(status: .ok, contentType: contentType, body: body.body, context: context)
        case .redirectLoop:
            send(status: .found, contentType: "text/plain", body: Data(), extraHeaders: [("Location", head.uri)], context: context)
        case .hugeBody(let bytes):
            writeHead(status: .ok, contentType: body.contentType, length: nil, context: context)
            stream(remaining: bytes, context: context)
        case .trickle(let bytes, let every):
            writeHead(status: .ok, contentType: body.contentType, length: body.body.count, context: context)
            context.flush()
            trickle(body.body[...], bytes: max(1, bytes), every: every.timeAmount, context: context)
        }
    }

    private struct Healthy {
        var body: Data
        var contentType: String
    }

    private static func healthy(_ route: ChaosRoute, path: String, query: [URLQueryItem]) -> Healthy? {
        switch route.content {
        case .bytes(let data, let contentType):
            return Healthy(body: data, contentType: contentType)
        case .recordings(let folder, let contentType):
            let below = String(path.dropFirst(route.prefix.count))
            guard let decoded = below.removingPercentEncoding,
                  let name = RecordingLayout.fileName(path: decoded, percentEncodedQueryItems: query),
                  let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name, isDirectory: false).path)
            else { return nil }
            return Healthy(body: data, contentType: contentType ?? RecordingLayout.contentType(forFileName: name))
        }
    }

    private static let errorPage = Data("""
        <!DOCTYPE html>
        <html><head><title>502 Bad Gateway</title></head>
        <body><h1>Bad Gateway</h1><p>The upstream server is temporarily unavailable. Please try again later.</p></body></html>

        """.utf8)

    private func writeHead(status: HTTPResponseStatus, contentType: String, length: Int?,
                           extraHeaders: [(String, String)] = [], context: ChannelHandlerContext) {
        var headers = HTTPHeaders([("Content-Type", contentType), ("Connection", "close")] + extraHeaders)
        if let length { headers.add(name: "Content-Length", value: String(length)) }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
    }

    private func send(status: HTTPResponseStatus, contentType: String, body: Data,
                      extraHeaders: [(String, String)] = [], context: ChannelHandlerContext) {
        writeHead(status: status, contentType: contentType, length: body.count, extraHeaders: extraHeaders, context: context)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// RST instead of FIN: the client sees "connection reset by peer".
    private func reset(_ context: ChannelHandlerContext) {
        guard let socket = context.channel as? any SocketOptionProvider else { return context.close(promise: nil) }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    private static let filler = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 << 10)

    private func stream(remaining: Int, context: ChannelHandlerContext) {
        guard remaining > 0, context.channel.isActive else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        let chunk = Self.filler.getSlice(at: 0, length: min(remaining, Self.filler.readableBytes)) ?? Self.filler
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk)))).assumeIsolated().whenComplete { result in
            guard case .success = result else { return context.close(promise: nil) }
            self.core.state.withLockedValue { $0.hugeBytesSent += chunk.readableBytes }
            self.stream(remaining: remaining - chunk.readableBytes, context: context)
        }
    }

    private func trickle(_ rest: Data.SubSequence, bytes: Int, every: TimeAmount, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        guard !rest.isEmpty else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: rest.prefix(bytes))))), promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: every) {
            self.trickle(rest.dropFirst(bytes), bytes: bytes, every: every, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
