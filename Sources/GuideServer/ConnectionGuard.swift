import Foundation
import NIOCore
import NIOHTTP1

/// Holds one connection to its rules (`ConnectionRules`: the limits of `ServerLimits` and
/// HTTP/1.1's rules for a request head and for keeping a connection): feeds them the channel's
/// events and does what they say, writing refusals, closing and arming the timer.
///
/// It sits right after NIO's HTTP/1 decoder, in front of the fast lane and Hummingbird, so every
/// request passes it whoever answers it. A refused request goes no further: the guard answers it
/// itself, with the error the router would give its path (the web guide's HTML page or the API's
/// JSON, `RefusalBody`), after the answers still owed to earlier requests, keeping their order,
/// and closes the connection. A request that asks to close (`Connection: close`, HTTP/1.0
/// without keep-alive) is the last one handed on: its answer says `Connection: close` and the
/// connection closes after it. `ByteWatch`, in front of the decoder, tells it when a request
/// starts arriving, which the decoder does not say until the head is whole.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart
    typealias Rules = ConnectionRules<SystemConnectionClock>

    /// In front of the HTTP decoder: notes the first byte of each request, and reads a higher
    /// HTTP/1 minor version as 1.1 (`MinorVersionScan`).
    final class ByteWatch: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private let connection: ConnectionGuard

        init(_ connection: ConnectionGuard) {
            self.connection = connection
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            let rewritten = connection.bytesArrived(&bytes)
            if rewritten {
                context.fireChannelRead(wrapInboundOut(bytes))
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    private var rules: Rules
    private let metrics: ServerMetrics
    private let serverName: String
    /// Words refusals as the web guide's HTML error page or the API's JSON error.
    private let refusalBody: RefusalBody
    private var context: ChannelHandlerContext?
    /// NIO's request decoder in front of this guard, replaced after a request asking to upgrade.
    private var decoder: ByteToMessageHandler<HTTPRequestDecoder>
    private var timer: Scheduled<Void>?

    init(limits: ServerLimits, metrics: ServerMetrics, serverName: String, crossOrigin: CrossOrigin?,
         refusalBody: RefusalBody, decoder: ByteToMessageHandler<HTTPRequestDecoder>) {
        self.rules = Rules(limits: limits, crossOrigin: crossOrigin, clock: SystemConnectionClock())
        self.metrics = metrics
        self.serverName = serverName
        self.refusalBody = refusalBody
        self.decoder = decoder
    }

    /// NIO's request decoder as this guard needs it: one that hands on the bytes it holds unparsed
    /// when it is removed (see `restartDecoder`).
    static func makeDecoder(_ limits: ServerLimits) -> ByteToMessageHandler<HTTPRequestDecoder> {
        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes, limitConfiguration: limits.decoderLimits))
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
        rules.opened()
        armTimer()
    }

    /// Scans `bytes` for request lines, rewriting a higher minor version (true when it did), and
    /// notes that a request is arriving.
    fileprivate func bytesArrived(_ bytes: inout ByteBuffer) -> Bool {
        let rewritten = rules.bytesArrived(&bytes)
        armTimer()
        return rewritten
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            perform(rules.headArrived(head), context: context) { context.fireChannelRead(data) }
        case .body:
            perform(rules.bodyArrived(), context: context) { context.fireChannelRead(data) }
        case .end:
            guard rules.endArrived() == .handOn else { return }
            context.fireChannelRead(data)
            perform(rules.endHandedOn(), context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if let field = rules.connectionField {
                head.headers.replaceOrAdd(name: "Connection", value: field)
                context.write(wrapOutboundOut(.head(head)), promise: promise)
            } else {
                context.write(data, promise: promise)
            }
        case .body:
            context.write(data, promise: promise)
        case .end:
            let action = rules.answerEnded()
            guard action == .closeAfterWriting else {
                context.write(data, promise: promise)
                perform(action, context: context)
                return
            }
            // The last answer: the connection closes once it is written.
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.write(data, promise: written)
            closeOutput(after: written.futureResult, context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        rules.writabilityChanged(isWritable: context.channel.isWritable)
        armTimer()
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let event = event as? ChannelEvent, event == .inputClosed else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        perform(rules.inputClosed(), context: context) { context.fireUserInboundEventTriggered(event) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        perform(rules.decodingFailed(error), context: context) { context.fireErrorCaught(error) }
    }

    /// Does what the rules said, `handOn` being the event's own (passing it to the next
    /// handler), then arms the timer for the deadline they now have.
    private func perform(_ action: Rules.Action, context: ChannelHandlerContext, handOn: () -> Void = {}) {
        switch action {
        case .none, .closeAfterWriting:
            // `closeAfterWriting` comes only from an answer's end, which `write` closes after.
            break
        case .handOn:
            handOn()
        case .refuse(let refusal):
            metrics.recordRequest(route: "refused", status: Int(refusal.status.code), duration: .zero)
        case .refuseNow(let refusal):
            metrics.recordRequest(route: "refused", status: Int(refusal.status.code), duration: .zero)
            send(refusal, context: context)
        case .sendRefusal(let refusal):
            send(refusal, context: context)
        case .restartDecoder:
            restartDecoder(context: context)
        case .close:
            context.close(promise: nil)
        }
        armTimer()
    }

    // MARK: Upgrade

    /// Gives the connection a fresh HTTP/1 decoder after a request asking to upgrade, which this
    /// server answers as if it had not asked (RFC 9110 §7.8 lets it): NIO's decoder stops parsing
    /// after such a request whether or not the server switches (swift-nio PR 2570, not merged),
    /// and the next request would never be read. The old decoder hands the bytes it holds to the
    /// new one as it is removed.
    private func restartDecoder(context: ChannelHandlerContext) {
        // After the old decoder's current read: it fires nothing more, having stopped.
        context.eventLoop.assumeIsolated().execute { [self] in
            guard context.channel.isActive else { return }
            let fresh = Self.makeDecoder(rules.limits)
            let operations = context.pipeline.syncOperations
            do {
                try operations.addHandler(fresh, position: .after(decoder))
                // The requests the bytes held make reach Hummingbird's inbound stream, which hands
                // on what it has read at the end of a read, only with a read's end of their own.
                let removed = context.eventLoop.makePromise(of: Void.self)
                removed.futureResult.assumeIsolated().whenSuccess { context.fireChannelReadComplete() }
                operations.removeHandler(decoder, promise: removed)
                decoder = fresh
            } catch {
                context.close(promise: nil)
            }
        }
    }

    // MARK: Refusals and closing

    /// Writes `refusal` and closes the connection's output once it is written.
    private func send(_ refusal: Rules.Refusal, context: ChannelHandlerContext) {
        let body = refusalBody.answer(refusal.status, refusal.message, target: refusal.target, accept: refusal.accept)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: body.contentType)
        headers.add(name: "Content-Length", value: String(body.bytes.count))
        headers.add(name: "Cache-Control", value: "no-store")
        for field in body.fields + refusal.fields { headers.add(name: field.name, value: field.value) }
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Date", value: HTTPDate.format(epochSeconds: Int(Date().timeIntervalSince1970)))
        headers.add(name: "Server", value: serverName)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: refusal.status, headers: headers))), promise: nil)
        if !refusal.headersOnly {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body.bytes)))), promise: nil)
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        closeOutput(after: written.futureResult, context: context)
    }

    /// Half-closes the connection once the last answer is written: the client reads it to its
    /// end, while what it still sends is read and dropped until the rules' linger time is up.
    private func closeOutput(after written: EventLoopFuture<Void>, context: ChannelHandlerContext) {
        written.assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
        armTimer()
    }

    // MARK: Timer

    /// Arms the timer when the rules need it to go off sooner than it is armed for.
    private func armTimer() {
        guard let context, let deadline = rules.timerToArm() else { return }
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in self?.timerWentOff() }
    }

    private func timerWentOff() {
        timer = nil
        guard let context else { return }
        perform(rules.timerFired(), context: context)
    }
}
