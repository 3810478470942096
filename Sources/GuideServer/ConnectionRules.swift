import NIOCore
import NIOHTTP1

/// Where the connection rules read the time: the system's monotonic clock in the server, a
/// clock a test moves by hand, so that a deadline is tested by moving to it rather than waiting.
protocol ConnectionClock: Sendable {
    var now: NIODeadline { get }
}

/// The clock NIO schedules its timers on.
struct SystemConnectionClock: ConnectionClock {
    var now: NIODeadline { .now() }
}

/// One connection's rules, apart from the channel that carries them out: `ServerLimits` (the size
/// of each request head and body, and how long a client may take to send a request, leave the
/// connection idle, or leave its answers unread) and HTTP/1.1's rules for a request head and for
/// keeping a connection (RFC 9112).
///
/// Each event (bytes read, a request's head or end, an answer written, the timer going off…)
/// reads the time from `clock` and returns what the connection must do about it; `timerToArm()`
/// says when the timer must next go off. `ConnectionGuard` feeds it a channel's events and does
/// what it returns.
struct ConnectionRules<Clock: ConnectionClock> {
    /// A request the connection answers itself, refusing it.
    struct Refusal: Equatable {
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

        static func == (left: Refusal, right: Refusal) -> Bool {
            left.status == right.status && left.message == right.message && left.headersOnly == right.headersOnly
                && left.target == right.target && left.accept == right.accept
                && left.fields.elementsEqual(right.fields) { $0.name == $1.name && $0.value == $1.value }
        }
    }

    /// What the connection does after an event. Each event's comment says which it returns.
    enum Action: Equatable {
        /// Nothing; for a read or an error, it goes no further (past a refusal or the last
        /// request, what the client sends is read and dropped).
        case none
        /// Hand the read, error or event on to the next handler.
        case handOn
        /// Count a refused request, whose answer waits for those owed before it (`sendRefusal`).
        case refuse(Refusal)
        /// Count a refused request and answer it now: write the refusal, close the output once it
        /// is written and linger.
        case refuseNow(Refusal)
        /// Answer a refusal that waited for the answers before it, as `refuseNow` does.
        case sendRefusal(Refusal)
        /// The answer whose end is being written is the last: close the output once it is written.
        case closeAfterWriting
        /// Give the connection a fresh request decoder: the one in place stopped after a request
        /// asking to upgrade (`ConnectionGuard.restartDecoder`).
        case restartDecoder
        /// Close the connection now.
        case close
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

    let limits: ServerLimits
    /// The CORS configuration, nil when CORS is off: refusals carry what other errors carry.
    let crossOrigin: CrossOrigin?
    let clock: Clock
    /// Request lines in the bytes arriving, before NIO's parser reads them (`MinorVersionScan`).
    private var requestLines = MinorVersionScan()
    /// `requestLines.target` is the target of the request now arriving: its request line came
    /// whole and its head has not been handed on.
    private var targetArrived = false
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
    /// The connection has been told to close: no deadline is left to keep.
    private var closed = false
    /// When the timer is armed to go off; nil when it is not armed.
    private var timerDeadline: NIODeadline?

    init(limits: ServerLimits, crossOrigin: CrossOrigin?, clock: Clock) {
        self.limits = limits
        self.crossOrigin = crossOrigin
        self.clock = clock
    }

    // MARK: Reading

    /// The connection is open. The first request is due within `requestTimeout` of the
    /// connection opening, whether or not any byte of it comes.
    mutating func opened() {
        if requestStarted == nil, owed.isEmpty { requestStarted = clock.now }
    }

    /// Bytes read, before the decoder: scans them for request lines, rewriting a higher minor
    /// version (true when it did), and notes that a request is arriving.
    mutating func bytesArrived(_ bytes: inout ByteBuffer) -> Bool {
        let rewritten = requestLines.rewrite(&bytes)
        requestLineArrived = requestLines.sawRequestLine
        if requestLineArrived { targetArrived = true }
        if !receivingBody { partialHead = true }
        if requestStarted == nil, refusal == nil, !readingDone {
            requestStarted = clock.now
            idleSince = nil
        }
        return rewritten
    }

    /// A request head decoded: `handOn`, `refuse`, `refuseNow` or `none`.
    mutating func headArrived(_ head: HTTPRequestHead) -> Action {
        guard refusal == nil, !readingDone else { return .none }
        partialHead = false
        targetArrived = false
        if var refused = refusal(of: head) {
            refused.fields += corsFields(for: head)
            return refuse(refused)
        }
        if requestStarted == nil { requestStarted = clock.now }
        idleSince = nil
        receivingBody = true
        upgradeAsked = Self.asksToUpgrade(head)
        closeAsked = !head.isKeepAlive
        owed.append(closeAsked ? .closing : (head.version == .http1_0 ? .keptHTTP10 : .kept))
        return .handOn
    }

    /// A part of a request body decoded: `handOn` or `none`.
    func bodyArrived() -> Action {
        refusal == nil && !readingDone ? .handOn : .none
    }

    /// A request's end decoded: `handOn` or `none`. Once handed on, `endHandedOn()`.
    mutating func endArrived() -> Action {
        guard refusal == nil, !readingDone else { return .none }
        receivingBody = false
        requestStarted = nil
        return .handOn
    }

    /// The request's end has gone on (and may have been answered already, by the fast lane):
    /// `restartDecoder` or `none`.
    mutating func endHandedOn() -> Action {
        var action = Action.none
        if closeAsked {
            readingDone = true
        } else if upgradeAsked {
            action = .restartDecoder
        }
        upgradeAsked = false
        if owed.isEmpty { idleSince = clock.now }
        return action
    }

    /// The decoder failed: `none` (past the last request, its complaints about what follows are
    /// moot), `handOn` (not the parser's) or the refusal the parser's error calls for.
    mutating func decodingFailed(_ error: any Error) -> Action {
        if refusal != nil || readingDone, error is ByteToMessageDecoderError || error is HTTPParserError { return .none }
        guard let parserError = error as? HTTPParserError else { return .handOn }
        // Answered here rather than by Hummingbird, which answers a bare 400 for every parser error.
        switch parserError {
        case .headerOverflow where requestLines.targetLength > limits.uriBytes:
            // The request line alone is past the head's bound: its target is what is too long
            // (RFC 9112 §3, as nginx answers).
            return refuse(.uriTooLong, "the request target is over \(limits.uriBytes) bytes", fields: corsFields(for: nil))
        case .headerOverflow:
            return refuse(.requestHeaderFieldsTooLarge,
                          "the request head (request line and header fields) is over \(limits.headBytes) bytes or has too many fields",
                          fields: corsFields(for: nil))
        case .invalidMethod where requestLineArrived:
            // A method NIO's parser does not know: not one this server answers either.
            return refuse(.methodNotAllowed, "the request method is not allowed; this server answers GET and HEAD",
                          fields: [("Allow", "GET, HEAD")] + corsFields(for: nil))
        default:
            return refuse(.badRequest, "malformed HTTP request", fields: corsFields(for: nil))
        }
    }

    /// The client closed its side: `close` while lingering for it to read the last answer,
    /// `handOn` otherwise.
    mutating func inputClosed() -> Action {
        guard lingeringSince != nil else { return .handOn }
        closed = true
        return .close
    }

    // MARK: Writing

    /// The `Connection` field the answer whose head is being written must carry; nil to leave
    /// the answer's own.
    var connectionField: String? {
        switch owed.first {
        case .closing: "close"
        case .keptHTTP10: "keep-alive"
        case .kept, nil: nil
        }
    }

    /// An answer's end is being written: `closeAfterWriting`, `sendRefusal` (to write after it)
    /// or `none`.
    mutating func answerEnded() -> Action {
        if owed.popFirst() == .closing {
            lingeringSince = clock.now
            return .closeAfterWriting
        }
        guard owed.isEmpty else { return .none }
        if refusal != nil { return sendRefusal() }
        if requestStarted == nil { idleSince = clock.now }
        return .none
    }

    mutating func writabilityChanged(isWritable: Bool) {
        unwritableSince = isWritable ? nil : clock.now
    }

    // MARK: Refusals

    /// Refuses a request whose head the parser did not hand on (too large, malformed, not whole in
    /// time): its request line, when it came whole, gives the target; its fields are not known.
    private mutating func refuse(_ status: HTTPResponseStatus, _ message: String, fields: [(name: String, value: String)]) -> Action {
        let target = targetArrived ? Substring(decoding: requestLines.target, as: UTF8.self) : nil
        return refuse(Refusal(status: status, message: message, headersOnly: false, fields: fields, target: target))
    }

    /// Refuses the request now arriving: it is answered once the earlier ones are, then the
    /// connection closes.
    private mutating func refuse(_ refused: Refusal) -> Action {
        guard refusal == nil, lingeringSince == nil else { return .none }
        refusal = refused
        guard owed.isEmpty else { return .refuse(refused) }
        lingeringSince = clock.now
        return .refuseNow(refused)
    }

    private mutating func sendRefusal() -> Action {
        guard let refusal, lingeringSince == nil else { return .none }
        lingeringSince = clock.now
        return .sendRefusal(refusal)
    }

    // MARK: Timeouts

    /// The earliest moment the connection has outstayed a limit; nil when none runs (a request
    /// read whole and being answered, with the client reading).
    var deadline: NIODeadline? {
        guard !closed else { return nil }
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

    /// When the timer must now be armed to go off, nil when it is armed early enough already or
    /// no deadline runs. It is not moved later when the deadline moves on (each request would):
    /// on going off it looks again and is armed anew.
    mutating func timerToArm() -> NIODeadline? {
        guard let deadline else { return nil }
        if let timerDeadline, timerDeadline <= deadline { return nil }
        timerDeadline = deadline
        return deadline
    }

    /// The timer went off: `none` (the deadline moved on; `timerToArm()` says when to look
    /// again), `close`, or `refuseNow`/`refuse` with a 408 for part of a head that did not
    /// arrive whole in time.
    mutating func timerFired() -> Action {
        timerDeadline = nil
        guard let deadline, deadline <= clock.now else { return .none }
        if refusal == nil, lingeringSince == nil, requestStarted != nil, partialHead, unwritableSince == nil {
            // Say so before closing. A connection that sent nothing is closed without a word.
            return refuse(.requestTimeout, "the request was not received within \(limits.requestTimeout)", fields: corsFields(for: nil))
        }
        closed = true
        return .close
    }
}
