import Foundation
import NIOCore
import NIOHTTP1

/// Holds one connection to `ServerLimits` (the size of each request head and body, and how long
/// a client may take to send a request, leave the connection idle, or leave its answers unread)
/// and to HTTP/1.1's rules for a request head and for keeping a connection (RFC 9112).
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

    private struct Refusal {
        var status: HTTPResponseStatus
        var message: String
        /// The refused request is a HEAD: its answer has the body's length but not the body.
        var headersOnly: Bool
        /// `Allow` for a 405, and the CORS fields the server's other errors carry.
        var fields: [(name: String, value: String)]
        /// The request's target and `Accept` values, as far as they arrived: whether the answer
        /// is an HTML page or JSON (`RefusalBody`).
        var target: Substring?
        var accept: [String] = []
    }

    /// What the answer to a request handed on says about the connection (RFC 9112 §9.3).
    private enum Persistence {
        /// HTTP/1.1: kept unless said otherwise, so nothing to say.
        case kept
        /// HTTP/1.0 with `Connection: keep-alive`: kept only if the answer says so.
        case keptHTTP10
        /// The last request on the connection: its answer says `Connection: close`.
        case closing
    }

    private let limits: ServerLimits
    private let metrics: ServerMetrics
    private let serverName: String
    /// The CORS configuration, nil when CORS is off: refusals carry what other errors carry.
    private let crossOrigin: CrossOrigin?
    /// Words refusals as the web guide's HTML error page or the API's JSON error.
    private let refusalBody: RefusalBody
    /// Request lines in the bytes arriving, before NIO's parser reads them (`MinorVersionScan`).
    private var requestLines = MinorVersionScan()
    /// `requestLines.target` is the target of the request now arriving: its request line came
    /// whole and its head has not been handed on.
    private var targetArrived = false
    private var context: ChannelHandlerContext?
    /// NIO's request decoder in front of this guard, replaced after a request asking to upgrade.
    private var decoder: ByteToMessageHandler<HTTPRequestDecoder>
    /// When the request being received began (the connection's opening for the first); nil when
    /// none is arriving.
    private var requestStarted: NIODeadline?
    /// Bytes of a request head have arrived, the whole head has not.
    private var partialHead = false
    /// The last bytes read held a request line (`MinorVersionScan.sawRequestLine`).
    private var requestLineArrived = false
    /// The head of the request being received has arrived; its body and end have not.
    private var receivingBody = false
    /// The request being received asks to upgrade the connection: NIO's decoder stops at its end.
    private var upgradeAsked = false
    /// The request being received asks to close the connection after its answer.
    private var closeAsked = false
    /// Requests handed on whose answers have not been written to the end, oldest first.
    private var owed = CircularBuffer<Persistence>(initialCapacity: 2)
    /// A request asking to close has been read whole: what the client sends after it is dropped.
    private var readingDone = false
    /// Since when the connection has had nothing to do: no request arriving, none unanswered.
    private var idleSince: NIODeadline?
    /// Since when the socket's send buffer has been full: the client is not reading.
    private var unwritableSince: NIODeadline?
    private var refusal: Refusal?
    /// The last answer is written and the output closed: what the client still sends is read and
    /// dropped until `lingerTime` from then, so that it reads the answer rather than a reset.
    private var lingeringSince: NIODeadline?
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?

    init(limits: ServerLimits, metrics: ServerMetrics, serverName: String, crossOrigin: CrossOrigin?,
         refusalBody: RefusalBody, decoder: ByteToMessageHandler<HTTPRequestDecoder>) {
        self.limits = limits
        self.metrics = metrics
        self.serverName = serverName
        self.crossOrigin = crossOrigin
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
        // The first request is due within `requestTimeout` of the connection opening, whether or
        // not any byte of it comes.
        if requestStarted == nil, owed.isEmpty { requestStarted = .now() }
        armTimer()
    }

    /// Scans `bytes` for request lines, rewriting a higher minor version (true when it did), and
    /// notes that a request is arriving.
    fileprivate func bytesArrived(_ bytes: inout ByteBuffer) -> Bool {
        let rewritten = requestLines.rewrite(&bytes)
        requestLineArrived = requestLines.sawRequestLine
        if requestLineArrived { targetArrived = true }
        noteArrival()
        return rewritten
    }

    private func noteArrival() {
        if !receivingBody { partialHead = true }
        guard requestStarted == nil, refusal == nil, !readingDone else { return }
        requestStarted = .now()
        idleSince = nil
        armTimer()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Refused, or past the last request: what the client still sends is read and dropped
        // until the connection closes.
        guard refusal == nil, !readingDone else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            partialHead = false
            targetArrived = false
            if var refused = check(head) {
                refused.fields += corsFields(for: head)
                refuse(refused)
                return
            }
            if requestStarted == nil { requestStarted = .now() }
            idleSince = nil
            receivingBody = true
            upgradeAsked = Self.asksToUpgrade(head)
            closeAsked = !head.isKeepAlive
            owed.append(closeAsked ? .closing : (head.version == .http1_0 ? .keptHTTP10 : .kept))
        case .body:
            break
        case .end:
            receivingBody = false
            requestStarted = nil
            context.fireChannelRead(data)
            if closeAsked {
                readingDone = true
            } else if upgradeAsked {
                restartDecoder(context: context)
            }
            upgradeAsked = false
            // Answered already (by the fast lane, before its end was read): idle from now.
            if owed.isEmpty { becameIdle() }
            return
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where owed.first == .closing || owed.first == .keptHTTP10:
            head.headers.replaceOrAdd(name: "Connection", value: owed.first == .closing ? "close" : "keep-alive")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head, .body:
            context.write(data, promise: promise)
        case .end:
            if owed.popFirst() == .closing {
                // The last answer: the connection closes once it is written.
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.cascade(to: promise)
                context.write(data, promise: written)
                linger(after: written.futureResult)
                return
            }
            context.write(data, promise: promise)
            guard owed.isEmpty else { return }
            if refusal != nil {
                sendRefusal()
            } else if requestStarted == nil {
                becameIdle()
            }
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

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client closed its side while the guard lingers for it to read the last answer: done.
        if lingeringSince != nil, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Past the last request, the parser's complaints about what follows it are moot.
        if refusal != nil || readingDone, error is ByteToMessageDecoderError || error is HTTPParserError { return }
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // Handled here rather than by Hummingbird, which answers a bare 400 for every parser error.
        switch parserError {
        case .headerOverflow where requestLines.targetLength > limits.uriBytes:
            // The request line alone is past the head's bound: its target is what is too long
            // (RFC 9112 §3, as nginx answers).
            refuse(.uriTooLong, "the request target is over \(limits.uriBytes) bytes", fields: corsFields(for: nil))
        case .headerOverflow:
            refuse(.requestHeaderFieldsTooLarge,
                   "the request head (request line and header fields) is over \(limits.headBytes) bytes or has too many fields",
                   fields: corsFields(for: nil))
        case .invalidMethod where requestLineArrived:
            // A method NIO's parser does not know: not one this server answers either.
            refuse(.methodNotAllowed, "the request method is not allowed; this server answers GET and HEAD",
                   fields: [("Allow", "GET, HEAD")] + corsFields(for: nil))
        default:
            refuse(.badRequest, "malformed HTTP request", fields: corsFields(for: nil))
        }
    }

    // MARK: Upgrade

    /// Whether `head` asks to switch protocols as NIO's parser (llhttp) reads it: `CONNECT`, or an
    /// `Upgrade` field with `upgrade` among the `Connection` options. Such a request is the last
    /// the parser reads: it leaves what follows to the new protocol.
    private static func asksToUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.method == .CONNECT || (head.headers.contains(name: "upgrade")
            && head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" })
    }

    /// Gives the connection a fresh HTTP/1 decoder after a request asking to upgrade, which this
    /// server answers as if it had not asked (RFC 9110 §7.8 lets it): NIO's decoder stops parsing
    /// after such a request whether or not the server switches (swift-nio PR 2570, not merged),
    /// and the next request would never be read. The old decoder hands the bytes it holds to the
    /// new one as it is removed.
    private func restartDecoder(context: ChannelHandlerContext) {
        // After the old decoder's current read: it fires nothing more, having stopped.
        context.eventLoop.assumeIsolated().execute { [self] in
            guard context.channel.isActive else { return }
            let fresh = Self.makeDecoder(limits)
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

    // MARK: Request heads

    /// The refusal of `head`, or nil when it is within the limits and a request HTTP/1.1 allows.
    private func check(_ head: HTTPRequestHead) -> Refusal? {
        func refused(_ status: HTTPResponseStatus, _ message: String, _ fields: [(name: String, value: String)] = []) -> Refusal {
            Refusal(status: status, message: message, headersOnly: head.method == .HEAD, fields: fields,
                    target: head.uri[...], accept: head.headers["accept"])
        }
        let uriBytes = head.uri.utf8.count
        if uriBytes > limits.uriBytes {
            return refused(.uriTooLong, "the request target is \(uriBytes) bytes, at most \(limits.uriBytes) are allowed")
        }
        var fieldBytes = 0
        var fields = 0
        var declaredBody: Int?
        var codings: [Substring] = []
        var hosts: [String] = []
        for (name, value) in head.headers {
            fields += 1
            fieldBytes += name.utf8.count + value.utf8.count + 4
            if Self.isName(name, "content-length") {
                declaredBody = Int(value) ?? Int.max
            } else if Self.isName(name, "transfer-encoding") {
                codings += value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces)[...] }
            } else if Self.isName(name, "host") {
                hosts.append(value)
            }
        }
        if fields > limits.headerFields {
            return refused(.requestHeaderFieldsTooLarge, "\(fields) header fields, at most \(limits.headerFields) are allowed")
        }
        if fieldBytes > limits.headerBytes {
            return refused(.requestHeaderFieldsTooLarge, "the header fields are \(fieldBytes) bytes, at most \(limits.headerBytes) are allowed")
        }
        if !codings.isEmpty {
            // RFC 9112 §6.1: a coding the server does not know is a 501. (A list where `chunked`
            // is not last, or comes twice, never gets here: NIO's parser refuses it, a 400.)
            if let unknown = codings.first(where: { $0.lowercased() != "chunked" }) {
                return refused(.notImplemented, "the transfer coding \(Quoted(String(unknown))) is not implemented; only chunked is")
            }
            return refused(.payloadTooLarge, "request bodies are not accepted: every route is a GET")
        }
        if let declaredBody, declaredBody > limits.bodyBytes {
            return refused(.payloadTooLarge, "a request body of \(declaredBody) bytes, at most \(limits.bodyBytes) are allowed (every route is a GET)")
        }
        // A tunnel is not something this server makes; refused here, as the parser reads
        // nothing after a CONNECT.
        if head.method == .CONNECT {
            return refused(.methodNotAllowed, "method CONNECT is not allowed; this server answers GET and HEAD", [("Allow", "GET, HEAD")])
        }
        // RFC 9112 §3.2: one Host, a valid one, and always one in HTTP/1.1.
        if hosts.count > 1 {
            return refused(.badRequest, "\(hosts.count) Host header fields; a request has one")
        }
        if hosts.isEmpty, head.version != .http1_0 {
            return refused(.badRequest, "an HTTP/1.1 request needs a Host header field")
        }
        if let host = hosts.first, !Self.isHost(host) {
            return refused(.badRequest, "the Host header field is not a host with an optional port")
        }
        // RFC 9110 §4.2.4: credentials in a URI are to be treated as an error.
        if let authority = Self.authority(ofAbsoluteForm: head.uri), authority.contains("@") {
            return refused(.badRequest, "the request target has userinfo (user@host), which HTTP does not allow")
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

    /// `uri-host [ ":" port ]` (RFC 3986): a registered name, an IPv4 address or an IP literal in
    /// brackets, each made of these bytes; empty is allowed (RFC 9112 §3.2, a target without
    /// an authority).
    private static func isHost(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                Self.hostPunctuation.contains(byte)
            }
        }
    }

    private static let hostPunctuation = Set("-._~%!$&'()*+,;=:[]".utf8)

    /// The authority of an absolute-form target (`http://host:port/path`), nil for the origin form.
    private static func authority(ofAbsoluteForm target: String) -> Substring? {
        guard !target.hasPrefix("/"), let scheme = target.range(of: "://") else { return nil }
        return target[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    /// The CORS fields the server's other errors carry (`CrossOriginMiddleware`). Without a head
    /// to read (a timeout, a head the parser gave up on) the origin is not known: only a
    /// configuration letting any origin read gives `*`.
    private func corsFields(for head: HTTPRequestHead?) -> [(name: String, value: String)] {
        guard let crossOrigin else { return [] }
        guard let head else { return crossOrigin.any ? CrossOrigin.allowedFields("*") : [] }
        guard CrossOrigin.covers(String(head.uri.prefix { $0 != "?" })) else { return [] }
        let allowed = head.headers.first(name: "origin").flatMap(crossOrigin.allowed)
        return [("Vary", "Origin")] + (allowed.map(CrossOrigin.allowedFields) ?? [])
    }

    // MARK: Refusals and closing

    /// Refuses the request now arriving: answers it once the earlier ones are answered, then
    /// closes the connection.
    /// Refuses a request whose head the parser did not hand on (too large, malformed, not whole in
    /// time): its request line, when it came whole, gives the target; its fields are not known.
    private func refuse(_ status: HTTPResponseStatus, _ message: String, fields: [(name: String, value: String)]) {
        let target = targetArrived ? Substring(decoding: requestLines.target, as: UTF8.self) : nil
        refuse(Refusal(status: status, message: message, headersOnly: false, fields: fields, target: target))
    }

    private func refuse(_ refused: Refusal) {
        guard refusal == nil, lingeringSince == nil else { return }
        refusal = refused
        metrics.recordRequest(route: "refused", status: Int(refused.status.code), duration: .zero)
        if owed.isEmpty { sendRefusal() }
        armTimer()
    }

    private func sendRefusal() {
        guard let context, let refusal, lingeringSince == nil else { return }
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
        linger(after: written.futureResult)
    }

    /// Half-closes the connection once the last answer is written: the client reads it to its
    /// end, while what it still sends is read and dropped until the linger time is up.
    private func linger(after written: EventLoopFuture<Void>) {
        guard let context else { return }
        lingeringSince = .now()
        written.assumeIsolated().whenComplete { _ in
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
        if let lingeringSince {
            consider(lingeringSince, limits.lingerTime)
        } else if refusal != nil {
            // Until it is sent, the answers before it are being written, which the write
            // timeout bounds.
        } else if requestStarted != nil {
            consider(requestStarted, limits.requestTimeout)
        } else if owed.isEmpty {
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
        if refusal == nil, lingeringSince == nil, requestStarted != nil, partialHead, unwritableSince == nil {
            // Part of a head that did not arrive whole in time: say so before closing. A
            // connection that sent nothing is closed without a word.
            refuse(.requestTimeout, "the request was not received within \(limits.requestTimeout)", fields: corsFields(for: nil))
            return
        }
        context.close(promise: nil)
    }
}
