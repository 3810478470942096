import Foundation
import NIOCore
import NIOHTTP1

/// Holds one connection to `ServerLimits`: the size of each request head and body, and how long
/// a client may take to send a request, leave the connection idle, or leave its answers unread.
///
/// It sits right after NIO's HTTP/1 decoder, in front of the fast lane and Hummingbird, so every
/// request passes it whoever answers it. A refused request goes no further: the guard answers it
/// with a JSON error itself (after the answers still owed to earlier requests, keeping their
/// order) and closes the connection. `ByteWatch`, in front of the decoder, tells it when a
/// request starts arriving, which the decoder does not say until the head is whole.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// In front of the HTTP decoder: notes the first byte of each request.
    final class ByteWatch: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private let connection: ConnectionGuard

        init(_ connection: ConnectionGuard) {
            self.connection = connection
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            connection.bytesArrived()
            context.fireChannelRead(data)
        }
    }

    private struct Refusal {
        var status: HTTPResponseStatus
        var message: String
        /// The refused request is a HEAD: its answer has the body's length but not the body.
        var headersOnly: Bool
        /// Written to the client; the connection lingers `lingerTime`, then closes.
        var sent = false
        /// When it was refused, then when it was sent.
        var since: NIODeadline
    }

    private let limits: ServerLimits
    private let metrics: ServerMetrics
    private let serverName: String
    private var context: ChannelHandlerContext?
    /// When the request being received began (the connection's opening for the first); nil when
    /// none is arriving.
    private var requestStarted: NIODeadline?
    /// Bytes of a request head have arrived, the whole head has not.
    private var partialHead = false
    /// The head of the request being received has arrived; its body and end have not.
    private var receivingBody = false
    /// Requests handed on whose answers have not been written to the end.
    private var unanswered = 0
    /// Since when the connection has had nothing to do: no request arriving, none unanswered.
    private var idleSince: NIODeadline?
    /// Since when the socket's send buffer has been full: the client is not reading.
    private var unwritableSince: NIODeadline?
    private var refusal: Refusal?
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?

    init(limits: ServerLimits, metrics: ServerMetrics, serverName: String) {
        self.limits = limits
        self.metrics = metrics
        self.serverName = serverName
    }

    // MARK: Events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { opened() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        opened()
        context.fireChannelActive()
    }

    private func opened() {
        // The first request is due within `requestTimeout` of the connection opening, whether or
        // not any byte of it comes.
        if requestStarted == nil, unanswered == 0 { requestStarted = .now() }
        armTimer()
    }

    fileprivate func bytesArrived() {
        if !receivingBody { partialHead = true }
        guard requestStarted == nil, refusal == nil else { return }
        requestStarted = .now()
        idleSince = nil
        armTimer()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Refused: what the client still sends is read and dropped until the connection closes.
        guard refusal == nil else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            partialHead = false
            if let (status, message) = check(head) {
                refuse(status, message, headersOnly: head.method == .HEAD)
                return
            }
            if requestStarted == nil { requestStarted = .now() }
            idleSince = nil
            receivingBody = true
            unanswered += 1
        case .body:
            break
        case .end:
            receivingBody = false
            requestStarted = nil
            // Answered already (by the fast lane, before its end was read): idle from now.
            if unanswered == 0 { becameIdle() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        unanswered -= 1
        context.write(data, promise: promise)
        guard unanswered == 0 else { return }
        if refusal != nil {
            sendRefusal()
        } else if requestStarted == nil {
            becameIdle()
        }
    }

    private func becameIdle() {
        idleSince = .now()
        armTimer()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            unwritableSince = nil
        } else {
            unwritableSince = .now()
            armTimer()
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if refusal != nil, error is ByteToMessageDecoderError { return }
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // Handled here rather than by Hummingbird, which answers a bare 400 for every parser error.
        if case .headerOverflow = parserError {
            refuse(.requestHeaderFieldsTooLarge,
                   "the request head (request line and header fields) is over \(limits.headBytes) bytes or has too many fields")
        } else {
            refuse(.badRequest, "malformed HTTP request")
        }
    }

    // MARK: Limits

    /// The status and message refusing `head`, or nil when it is within the limits.
    private func check(_ head: HTTPRequestHead) -> (HTTPResponseStatus, String)? {
        let uriBytes = head.uri.utf8.count
        if uriBytes > limits.uriBytes {
            return (.uriTooLong, "the request target is \(uriBytes) bytes, at most \(limits.uriBytes) are allowed")
        }
        var fieldBytes = 0
        var fields = 0
        var declaredBody: Int?
        var chunked = false
        for (name, value) in head.headers {
            fields += 1
            fieldBytes += name.utf8.count + value.utf8.count + 4
            if Self.isName(name, "content-length") {
                declaredBody = Int(value) ?? Int.max
            } else if Self.isName(name, "transfer-encoding") {
                chunked = true
            }
        }
        if fields > limits.headerFields {
            return (.requestHeaderFieldsTooLarge, "\(fields) header fields, at most \(limits.headerFields) are allowed")
        }
        if fieldBytes > limits.headerBytes {
            return (.requestHeaderFieldsTooLarge, "the header fields are \(fieldBytes) bytes, at most \(limits.headerBytes) are allowed")
        }
        if chunked {
            return (.payloadTooLarge, "request bodies are not accepted: every route is a GET")
        }
        if let declaredBody, declaredBody > limits.bodyBytes {
            return (.payloadTooLarge, "a request body of \(declaredBody) bytes, at most \(limits.bodyBytes) are allowed (every route is a GET)")
        }
        return nil
    }

    /// Whether the header `name` is `lowercased`, ignoring ASCII case: on every request, for
    /// every field, so without Foundation's comparison and its allocations.
    private static func isName(_ name: String, _ lowercased: StaticString) -> Bool {
        guard name.utf8.count == lowercased.utf8CodeUnitCount else { return false }
        return lowercased.withUTF8Buffer { expected in
            zip(name.utf8, expected).allSatisfy { byte, wanted in byte | 0x20 == wanted || byte == wanted }
        }
    }

    /// Refuses the request now arriving: answers it once the earlier ones are answered, then
    /// closes the connection.
    private func refuse(_ status: HTTPResponseStatus, _ message: String, headersOnly: Bool = false) {
        guard refusal == nil else { return }
        refusal = Refusal(status: status, message: message, headersOnly: headersOnly, since: .now())
        metrics.recordRequest(route: "refused", status: Int(status.code), duration: .zero)
        if unanswered == 0 { sendRefusal() }
        armTimer()
    }

    private func sendRefusal() {
        guard let context, var refusal, !refusal.sent else { return }
        refusal.sent = true
        refusal.since = .now()
        self.refusal = refusal
        let body = APIError.json(status: Int(refusal.status.code), message: refusal.message)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Date", value: HTTPDate.format(epochSeconds: Int(Date().timeIntervalSince1970)))
        headers.add(name: "Server", value: serverName)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: refusal.status, headers: headers))), promise: nil)
        if !refusal.headersOnly {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        // Half-closed: the client reads the answer to its end, while what it still sends is
        // read and dropped until the linger time is up.
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
        armTimer()
    }

    // MARK: Timeouts

    /// The earliest moment the connection has outstayed a limit; nil when none runs (a request
    /// read whole and being answered, with the client reading).
    private var deadline: NIODeadline? {
        var earliest: NIODeadline?
        func consider(_ moment: NIODeadline?, _ limit: Duration) {
            guard let moment else { return }
            let due = moment + TimeAmount(limit)
            if earliest.map({ due < $0 }) ?? true { earliest = due }
        }
        if let refusal {
            // Until it is sent, the answers before it are being written, which the write
            // timeout bounds.
            if refusal.sent { consider(refusal.since, limits.lingerTime) }
        } else if requestStarted != nil {
            consider(requestStarted, limits.requestTimeout)
        } else if unanswered == 0 {
            consider(idleSince, limits.idleTimeout)
        }
        consider(unwritableSince, limits.writeTimeout)
        return earliest
    }

    /// Makes sure the timer goes off no later than `deadline`. It is not moved later when the
    /// deadline moves on (each request would); on going off it looks again and sleeps on.
    private func armTimer() {
        guard let context, let deadline else { return }
        if let timerDeadline, timer != nil, timerDeadline <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in self?.timerWentOff() }
    }

    private func timerWentOff() {
        timer = nil
        timerDeadline = nil
        guard let context, let deadline else { return }
        guard deadline <= .now() else {
            armTimer()
            return
        }
        if refusal == nil, requestStarted != nil, partialHead, unwritableSince == nil {
            // Part of a head that did not arrive whole in time: say so before closing. A
            // connection that sent nothing is closed without a word.
            refuse(.requestTimeout, "the request was not received within \(limits.requestTimeout)")
            return
        }
        context.close(promise: nil)
    }
}
