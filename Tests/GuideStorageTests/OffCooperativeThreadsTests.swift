import Foundation
@testable import GuideStorage
import Testing

/// Work that holds its thread (a guide's parse, encode or index) must not hold the threads Swift's
/// tasks share, one per core: a server whose guide is loading still has to answer.
@Suite struct OffCooperativeThreadsTests {
    /// Twice as many pieces of held work as there are cores, the first holding its thread until
    /// another task has run: had they run on the tasks' threads, that task could not run until a
    /// watchdog on a thread of its own let them go.
    @Test func heldWorkLeavesTheTasksThreadsFree() async throws {
        let holders = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let release = DispatchSemaphore(value: 0)
        let watchdog = Watchdog()
        // Only a hang reaches it: on one busy core, the test's own task may wait long for its turn.
        DispatchQueue.global().asyncAfter(deadline: .now() + 600) {
            guard watchdog.claim() else { return }
            for _ in 0..<holders { release.signal() }
        }
        let started = AsyncStream<Void>.makeStream()
        let held = Task {
            await withTaskGroup(of: Int.self) { group in
                for index in 0..<holders {
                    group.addTask {
                        await offCooperativeThreads {
                            started.continuation.yield()
                            release.wait()
                            return index
                        }
                    }
                }
                return await group.reduce(0, +)
            }
        }
        for await _ in started.stream { break }
        // Every holder has been handed over by now or is about to be: let them all reach their threads.
        for _ in 0..<holders { await Task.yield() }
        let answered = await Task.detached { await Task.yield(); return "answered" }.value
        let inTime = watchdog.claim()
        #expect(inTime, "the held work kept the tasks' threads until the watchdog let it go")
        #expect(answered == "answered")
        if inTime { for _ in 0..<holders { release.signal() } }
        #expect(await held.value == (0..<holders).reduce(0, +))
    }

    /// One piece at a time: each spreads over every core already.
    @Test func heldWorkRunsOnePieceAtATime() async {
        let running = Running()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await offCooperativeThreads {
                        running.enter()
                        Thread.sleep(forTimeInterval: 0.01)
                        running.leave()
                    }
                }
            }
        }
        #expect(running.most == 1)
    }

    /// How many pieces ran at once, at the most.
    private final class Running: @unchecked Sendable {
        private let lock = NSLock()
        private var now = 0
        private(set) var most = 0

        func enter() { lock.withLock { now += 1; most = max(most, now) } }
        func leave() { lock.withLock { now -= 1 } }
    }

    /// Of the test and its watchdog, whichever claims it first wins.
    private final class Watchdog: @unchecked Sendable {
        private let lock = NSLock()
        private var claimed = false

        /// True for the first caller only.
        func claim() -> Bool { lock.withLock { defer { claimed = true }; return !claimed } }
    }

    @Test func errorsReachTheCaller() async {
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await offCooperativeThreads { () throws -> Int in throw Refused() }
        }
    }
}
