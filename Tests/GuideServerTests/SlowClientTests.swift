import Foundation
@testable import GuideServer
import Testing
import TestSupport

/// Clients that hold a connection without finishing what they started: the server closes each,
/// not before its time limit (shortened here to keep the suite fast), while a connection in steady
/// use, answered by the router or the fast lane, stays open. Smoke tests of the guard on real
/// sockets: when each limit falls due is `ConnectionRulesTests`' to check, on a manual clock, so
/// the bounds here are ones only a defect would pass, however busy the machine.
@Suite struct SlowClientTests {
    static let settings: ServerSettings = {
        var settings = ServerSettings(port: 0)
        settings.limits.requestTimeout = .milliseconds(600)
        settings.limits.idleTimeout = .milliseconds(900)
        settings.limits.writeTimeout = .milliseconds(600)
        settings.limits.lingerTime = .milliseconds(300)
        return settings
    }()

    /// How long a test waits for the server to close a connection: long enough that only a server
    /// that never closes it runs out of time.
    static let eventually: Duration = .seconds(60)

    @Test func aConnectionThatSendsNothingIsClosedWithoutAWord() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            let started = ContinuousClock.now
            let connection = try await RawConnection.open(port: client.port)
            #expect(try await connection.waitUntilClosed(within: Self.eventually))
            let waited = try #require(connection.closedAt) - started
            #expect(waited >= .milliseconds(600), "closed after \(waited)")
            #expect(connection.received.isEmpty)
        }
    }

    @Test func aHeadTrickledALineAtATimeGetsA408AndIsClosed() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            let started = ContinuousClock.now
            let connection = try await RawConnection.open(port: client.port, greeting: "GET /now HTTP/1.1\r\n")
            var line = 0
            // Slowloris: a new header line every 100 ms, never the blank line that ends the head.
            while !connection.isClosed, ContinuousClock.now - started < Self.eventually {
                try? await connection.send("X-Slow-\(line): 1\r\n")
                line += 1
                try await Task.sleep(for: .milliseconds(100))
            }
            let waited = try #require(connection.closedAt) - started
            #expect(waited >= .milliseconds(600), "held for \(waited)")
            let answer = RawAnswer.parse(connection.received).first
            #expect(answer?.status == 408)
            #expect(answer?.headers["connection"] == "close")
            #expect(try HardeningTests.message(answer).hasPrefix("the request was not received within"))
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            let started = ContinuousClock.now
            let connection = try await RawConnection.open(port: client.port, greeting: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.waitForAnswers(1).first?.status == 200)
            #expect(try await connection.waitUntilClosed(within: Self.eventually))
            // Not before the idle timeout from the answer, which came after `started`.
            let waited = try #require(connection.closedAt) - started
            #expect(waited >= .milliseconds(900), "closed after \(waited)")
            // Nothing more was sent: an idle close has no answer to give.
            #expect(RawAnswer.parse(connection.received).count == 1)
        }
    }

    /// The guard's timer must not count a busy connection's time as idle, whether the router or
    /// the fast lane answers (the fast lane's answers never reach Hummingbird's own handlers).
    /// The rule itself is `ConnectionRulesTests`'s, on a manual clock; this checks the wiring. The
    /// client is a separate process, and the limits are long enough that only a client starved
    /// of every turn for 8 s would see them.
    @Test func aConnectionInSteadyUseStaysOpenPastEveryTimeout() async throws {
        var settings = Self.settings
        settings.limits.requestTimeout = .seconds(4)
        settings.limits.idleTimeout = .seconds(8)
        try await ServerHarness.run(settings: settings) { client in
            let script = """
            import socket, sys, time
            sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
            started, statuses, data = time.monotonic(), [], b""
            try:
                while time.monotonic() - started < 10.0 or len(statuses) < 12:
                    # The same /now twice in a second: the second is the fast lane's.
                    sock.sendall(b"".join(b"GET %s HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" % p for p in (b"/now?limit=1", b"/now?limit=1", b"/health")))
                    wanted = len(statuses) + 3
                    while len(statuses) < wanted:
                        head, separator, rest = data.partition(b"\\r\\n\\r\\n")
                        length = next((int(l.split(b":")[1]) for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-length:")), None)
                        if separator and length is not None and len(rest) >= length:
                            statuses.append(int(head.split(b" ")[1]))
                            data = rest[length:]
                            continue
                        chunk = sock.recv(65536)
                        if not chunk:
                            sys.exit(f"closed after {time.monotonic() - started:.2f} s, {len(statuses)} answers")
                        data += chunk
                    time.sleep(0.1)
            except OSError as error:
                sys.exit(f"{error} after {time.monotonic() - started:.2f} s, {len(statuses)} answers")
            print(len(statuses), len(set(statuses)), statuses[0])
            """
            let python = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, String(client.port)])
            #expect(python.status == 0, "\(python.stderr)")
            let figures = python.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(figures.count == 3 && figures[0] >= 12 && figures[1] == 1 && figures[2] == 200, "answers, distinct statuses, status: \(python.stdout)")
        }
    }

    @Test func aClientThatDoesNotReadItsAnswersIsDisconnected() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            let xmltv = try await client.get("/xmltv.xml").body.count
            let asked = 40
            // Pipelined, never read: the answers fill the socket buffers and then wait.
            let connection = try await RawConnection.open(port: client.port, reading: false,
                                                          greeting: String(repeating: "GET /xmltv.xml HTTP/1.1\r\nHost: x\r\n\r\n", count: asked))
            // Well past the write timeout, so that the server has given up on the client however
            // slowly a busy machine fills its buffers.
            try await Task.sleep(for: .seconds(5))
            try await connection.startReading()
            #expect(try await connection.waitUntilClosed(within: Self.eventually))
            #expect(connection.received.count < asked * xmltv, "\(connection.received.count) bytes of \(asked * xmltv) came")
        }
    }

    @Test func aRefusalKeepsTheOrderOfTheAnswersBeforeIt() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            _ = try await client.get("/now")
            let big = String(repeating: "v", count: ServerLimits().headerBytes)
            let connection = try await RawConnection.open(port: client.port, greeting: "GET /now HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n"
                                                          + "GET /now HTTP/1.1\r\nX-Big: \(big)\r\n\r\nGET /now HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.waitUntilClosed(within: Self.eventually))
            // The two before it answered in order, the refusal, nothing after.
            #expect(RawAnswer.parse(connection.received).map(\.status) == [200, 200, 431])
        }
    }
}
