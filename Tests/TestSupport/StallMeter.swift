import Foundation

/// How long this process could not run work that was due while `body` ran: a task sleeps in
/// short steps beside it and sums how late each wake-up came. When the whole package's tests
/// share two cores, or some of them block the cooperative pool, every task waits that long too,
/// so a time bound that adds the stall holds on a loaded machine and stays tight on a quiet one.
package enum StallMeter {
    package static func measure<T: Sendable>(_ body: () async throws -> T) async rethrows -> (value: T, stall: Duration) {
        let total = Total()
        let value = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let step = Duration.milliseconds(20)
                let clock = ContinuousClock()
                while !Task.isCancelled {
                    let started = clock.now
                    try? await Task.sleep(for: step)
                    total.add(clock.now - started - step)
                }
            }
            defer { group.cancelAll() }
            return try await body()
        }
        return (value, total.value)
    }

    private final class Total: @unchecked Sendable {
        // @unchecked: `sum` is only touched under `lock`.
        private let lock = NSLock()
        private var sum = Duration.zero

        func add(_ late: Duration) {
            guard late > .zero else { return }
            lock.withLock { sum += late }
        }

        var value: Duration { lock.withLock { sum } }
    }
}
