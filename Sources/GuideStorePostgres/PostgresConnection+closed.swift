import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// A statement sent to a connection that had already closed, which postgres-nio never answers.
package struct ConnectionClosedUnanswered: Error, CustomStringConvertible {
    package init() {}
    package var description: String { "the connection closed and the statement was never answered" }
}

extension PostgresConnection {
    /// `query`'s answer, or `ConnectionClosedUnanswered` once two checks `grace` apart have found
    /// the connection closed without one. Every statement of this module goes through here.
    ///
    /// Written by hand because postgres-nio (1.33) never answers a query written to a connection
    /// that has closed: the query waits forever, deaf to cancellation (its fix, vapor/postgres-nio
    /// #487, was reverted in #501). A follower whose poll went out just as its server stopped hung
    /// so, and never reconnected. A statement in flight when the connection closes fails on its
    /// own; the grace lets its error, or an answer that came just before, arrive first.
    @discardableResult
    package func run(_ query: PostgresQuery, logger: Logger, grace: TimeAmount = .milliseconds(500)) async throws -> PostgresRowSequence {
        let answer = OnceAnswer<PostgresRowSequence>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard answer.wait(continuation) else { return }
                // A check on a timer rather than a callback on `closeFuture`: the follower's
                // connection lives for days, and its callbacks would pile up, one per poll.
                answer.watch(eventLoop.scheduleRepeatedTask(initialDelay: grace, delay: grace) { _ in
                    answer.check(closed: self.isClosed)
                })
                // Left waiting when the connection closes first: nothing will answer it.
                Task {
                    do {
                        answer.resume(with: .success(try await self.query(query, logger: logger)))
                    } catch {
                        answer.resume(with: .failure(error))
                    }
                }
            }
        } onCancel: {
            answer.resume(with: .failure(CancellationError()))
        }
    }

    /// `body` between BEGIN and COMMIT (ROLLBACK when it throws), every statement through `run`:
    /// `withTransaction` sends its BEGIN and COMMIT past it.
    package func inTransaction<T>(logger: Logger, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await run("BEGIN", logger: logger)
        let value: T
        do {
            value = try await body(self)
        } catch {
            // A lost connection has rolled back already; ROLLBACK then fails, which changes nothing.
            _ = try? await run("ROLLBACK", logger: logger)
            throw error
        }
        try await run("COMMIT", logger: logger)
        return value
    }
}

/// The first of the query's answer, the connection's closing and a cancellation: the
/// continuation is resumed once, whichever comes first.
private final class OnceAnswer<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var check: RepeatedTask?
        var cancelledEarly = false
        var closedAtLastCheck = false
        var done = false
    }

    private let state = NIOLockedValueBox(State())

    /// False when a cancellation came first: the continuation has been resumed.
    func wait(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let waiting = state.withLockedValue { state in
            if !state.cancelledEarly { state.continuation = continuation }
            return !state.cancelledEarly
        }
        if !waiting { continuation.resume(throwing: CancellationError()) }
        return waiting
    }

    func watch(_ check: RepeatedTask) {
        let stop = state.withLockedValue { state in
            state.check = check
            return state.done
        }
        if stop { check.cancel() }
    }

    /// Gives up once two checks in a row found the connection closed.
    func check(closed: Bool) {
        let given = state.withLockedValue { state in
            defer { state.closedAtLastCheck = closed }
            return closed && state.closedAtLastCheck
        }
        if given { resume(with: .failure(ConnectionClosedUnanswered())) }
    }

    func resume(with result: Result<Value, any Error>) {
        let (continuation, check) = state.withLockedValue { state -> (CheckedContinuation<Value, any Error>?, RepeatedTask?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            if state.continuation == nil { state.cancelledEarly = true }
            defer { state.continuation = nil }
            return (state.continuation, state.check)
        }
        check?.cancel()
        continuation?.resume(with: result)
    }
}
