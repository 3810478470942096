import Foundation

/// Runs the work for a key once while it is in flight: a caller asking for a key whose work is
/// already running waits for that run's value instead of starting another. Nothing is kept once
/// the work finishes; the next caller starts it afresh.
///
/// The work runs in its own task, so cancelling one waiting caller does not cancel it for the
/// others.
package actor Coalescer<Key: Hashable & Sendable, Value: Sendable> {
    private var inFlight: [Key: Task<Value, Never>] = [:]

    package init() {}

    package func value(for key: Key, _ work: @escaping @Sendable () async -> Value) async -> Value {
        if let running = inFlight[key] { return await running.value }
        let task = Task { await work() }
        inFlight[key] = task
        let value = await task.value
        inFlight[key] = nil
        return value
    }
}
