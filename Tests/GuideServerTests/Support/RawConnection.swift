import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP connection to the server that sends bytes exactly as written: malformed requests,
/// heads trickled a line at a time, bodies no client library would send with a GET. It records
/// what the server sends back and when the server closes the connection.
final class RawConnection: Sendable {
    private let channel: any Channel
    private let recorder: Recorder

    private final class Recorder: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer

        let received = NIOLockedValueBox<[UInt8]>([])
        let closedAt = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
        let greeting: [UInt8]

        init(greeting: [UInt8]) {
            self.greeting = greeting
        }

        func channelActive(context: ChannelHandlerContext) {
            if !greeting.isEmpty { context.writeAndFlush(NIOAny(ByteBuffer(bytes: greeting)), promise: nil) }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.withLockedValue { $0 += buffer.readableBytesView }
        }

        func channelInactive(context: ChannelHandlerContext) {
            closedAt.withLockedValue { $0 = ContinuousClock.now }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            // A reset: the connection is gone, which `closedAt` records.
            context.close(promise: nil)
        }
    }

    private init(channel: any Channel, recorder: Recorder) {
        self.channel = channel
        self.recorder = recorder
    }

    /// Connects to 127.0.0.1:`port`. `reading: false` leaves what the server sends unread in the
    /// socket until `startReading()`: a client that does not read its answers. `greeting` is
    /// sent the moment the connection opens, from the event loop, however busy the test's own
    /// threads are.
    static func open(port: Int, reading: Bool = true, greeting: String = "") async throws -> RawConnection {
        let recorder = Recorder(greeting: Array(greeting.utf8))
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: reading)
            // A small receive buffer fills sooner when the client does not read.
            .channelOption(.socketOption(.so_rcvbuf), value: 4_096)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(recorder) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, recorder: recorder)
    }

    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
    }

    func startReading() async throws {
        try await channel.setOption(.autoRead, value: true).get()
        channel.read()
    }

    var received: [UInt8] { recorder.received.withLockedValue { $0 } }
    var text: String { String(decoding: received, as: UTF8.self) }
    var isClosed: Bool { closedAt != nil }
    /// When the connection closed, as its event loop saw it: exact however late the test looks.
    var closedAt: ContinuousClock.Instant? { recorder.closedAt.withLockedValue { $0 } }

    /// Waits up to `limit` for the server to close the connection; true when it did.
    func waitUntilClosed(within limit: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while !isClosed, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return isClosed
    }

    /// Waits up to `limit` until `count` answers have come back whole (by their Content-Length).
    func waitForAnswers(_ count: Int, within limit: Duration = .seconds(60)) async throws -> [RawAnswer] {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let answers = RawAnswer.parse(received)
            if answers.count >= count || isClosed { return answers }
            try await Task.sleep(for: .milliseconds(20))
        }
        return RawAnswer.parse(received)
    }

    func close() async {
        try? await channel.close()
    }
}

/// One HTTP/1.1 answer as read off the wire.
struct RawAnswer: Sendable {
    /// `HTTP/1.1 200 OK`, as sent.
    var statusLine: String
    var status: Int
    /// Header names lower-cased.
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The answers in `bytes` that have come whole, in order.
    static func parse(_ bytes: [UInt8]) -> [RawAnswer] {
        var answers: [RawAnswer] = []
        var rest = bytes[...]
        while let end = headEnd(in: rest) {
            let lines = String(decoding: rest[rest.startIndex..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = headers["content-length"].flatMap { Int($0) } ?? 0
            guard rest.distance(from: end.upperBound, to: rest.endIndex) >= length else { break }
            let bodyEnd = rest.index(end.upperBound, offsetBy: length)
            answers.append(RawAnswer(statusLine: lines.first ?? "", status: status, headers: headers, body: Array(rest[end.upperBound..<bodyEnd])))
            rest = rest[bodyEnd...]
        }
        return answers
    }

    /// Where the blank line ending a head is: a plain scan, as the generic `firstRange(of:)` is
    /// slow enough in debug builds to stall a test polling a long conversation.
    private static func headEnd(in bytes: ArraySlice<UInt8>) -> Range<Int>? {
        var index = bytes.startIndex
        while index + 3 < bytes.endIndex {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index..<(index + 4) }
            index += 1
        }
        return nil
    }
}
