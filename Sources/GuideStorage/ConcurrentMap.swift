import Foundation
import GuideCore

/// `body(0) … body(count - 1)` run on every core at once, their results in index order.
///
/// For CPU-bound work inside synchronous code that has nothing to await (a parse, an encode, a
/// decode): `concurrentPerform` keeps the calling thread busy with one of the iterations instead
/// of parking it, and a task group would need the caller to be `async` all the way up. It holds
/// its thread until every iteration is done, so async code calls it through `offCooperativeThreads`.
package func concurrentMap<Result: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
    let slots = Slots<Result>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { index in
        slots.store(index, body(index))
    }
    return slots.values
}

/// One slot per iteration. Unchecked Sendable: every write takes the lock, and the values are
/// read after `concurrentPerform` has returned.
private final class Slots<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func store(_ index: Int, _ value: Value) {
        lock.withLock { slots[index] = value }
    }

    var values: [Value] {
        lock.withLock { slots.map { $0! } }
    }
}

/// `transform` of each element, in order, the array cut into runs that are mapped on every core at
/// once; in one run when there are fewer than `minimumPerSlice` elements to give each.
package func concurrentMap<Element: Sendable, Result: Sendable>(_ elements: [Element], minimumPerSlice: Int,
                                                                _ transform: @Sendable (Element) -> Result) -> [Result] {
    let slices = min(4 * ProcessInfo.processInfo.activeProcessorCount, elements.count / max(1, minimumPerSlice))
    guard slices > 1 else { return elements.map(transform) }
    return concurrentMap(slices) { slice in
        elements[(slice * elements.count / slices)..<((slice + 1) * elements.count / slices)].map(transform)
    }.flatMap { $0 }
}

/// `first` on this thread while `second` runs on another, then both results: two stages that
/// need nothing from each other, each with serial stretches the other's work fills.
package func concurrently<First, Second: Sendable>(_ first: () throws -> First, _ second: @escaping @Sendable () -> Second) rethrows -> (First, Second) {
    let slot = Slots<Second>(count: 1)
    let done = DispatchGroup()
    DispatchQueue.global(qos: .userInitiated).async(group: done) { slot.store(0, second()) }
    let firstResult: First
    do {
        firstResult = try first()
    } catch {
        // Waited for all the same: `second` may be reading what the caller frees next.
        done.wait()
        throw error
    }
    done.wait()
    return (firstResult, slot.values[0])
}

/// `work`, which holds its thread for as long as it runs (a parse, an encode, a guide's index,
/// perhaps on every core through `concurrentMap`), run on a thread of its own while the calling
/// task is suspended. Swift's tasks share one thread per core: run on one of them, the work
/// would leave a 2-core server's requests one thread, or none, until it ends. Such work runs one
/// piece at a time: each spreads over every core already, and two at once only held more memory.
package func offCooperativeThreads<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        blockingWork.async {
            continuation.resume(with: Swift.Result { try work() })
        }
    }
}

package func offCooperativeThreads<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        blockingWork.async {
            continuation.resume(returning: work())
        }
    }
}

private let blockingWork = DispatchQueue(label: "tvguide.blocking-work", qos: .userInitiated)
