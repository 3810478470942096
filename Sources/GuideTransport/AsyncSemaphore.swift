/// A FIFO counting semaphore for tasks. Neither NIO, AsyncHTTPClient nor swift-async-algorithms
/// offers one, and the HTTP client's own pool limit is per host and global, not per provider.
actor AsyncSemaphore {
    private var available: Int
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextWaiterID: UInt64 = 0

    init(permits: Int) {
        available = permits
    }

    /// Runs `body` holding one permit, waiting in line for it first.
    nonisolated func withPermit<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async throws {
        if available > 0 && waiters.isEmpty {
            available -= 1
            return
        }
        let id = nextWaiterID
        nextWaiterID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func release() {
        if waiters.isEmpty {
            available += 1
        } else {
            // The permit passes straight to the longest waiter, so `available` stays unchanged.
            waiters.removeFirst().continuation.resume()
        }
    }

    private func cancelWaiter(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}

/// A gate that a 429 closes for its `Retry-After`: requests arriving meanwhile wait for it to
/// open. Closing again only ever pushes the opening later.
actor PauseGate {
    private var closedUntil: ContinuousClock.Instant?

    func close(for duration: Duration) {
        let until = ContinuousClock.now + duration
        if let closedUntil, closedUntil >= until { return }
        closedUntil = until
    }

    func waitUntilOpen() async throws {
        while let until = closedUntil, until > ContinuousClock.now {
            try await Task.sleep(until: until, clock: .continuous)
        }
    }
}
