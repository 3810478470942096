import Foundation
import GuideCore
import Logging
import ServiceLifecycle

/// Rebuilds the guide every `interval` and swaps it in. A failed rebuild keeps the last good
/// guide in service and shows in `/health` and `/metrics`; the next attempt comes on schedule.
struct GuideRefresher: Service {
    let serving: ServingContext
    let refresh: @Sendable () async throws -> RefreshOutcome?
    let interval: Duration

    func run() async throws {
        // A guide older than the interval (or none) is rebuilt at once; a fresh one waits its turn.
        var wait = Self.firstWait(generatedAt: serving.state.index.isEmpty ? nil : serving.state.index.snapshot.generatedAt,
                                  now: serving.now, interval: interval)
        while !Task.isCancelledOrShuttingDown {
            do {
                let pause = wait
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
            } catch {
                return
            }
            await refreshOnce()
            wait = interval
        }
    }

    static func firstWait(generatedAt: Date?, now: Date, interval: Duration) -> Duration {
        guard let generatedAt else { return .zero }
        let age = now.timeIntervalSince(generatedAt)
        let seconds = Double(interval.components.seconds)
        return age >= seconds || age < 0 ? .zero : .seconds(seconds - age)
    }

    func refreshOnce() async {
        let started = serving.now
        do {
            guard let outcome = try await refresh() else {
                serving.metrics.recordRefreshLeftToAnotherReplica()
                serving.logger.debug("another replica builds the guide, or just did; its snapshot arrives through the store")
                return
            }
            await serving.serve(outcome.snapshot, origin: .refresh)
            serving.metrics.recordRefresh(.success(outcome))
            serving.logger.info("guide refreshed: \(outcome.snapshot.programmes.count) programmes on \(outcome.snapshot.channels.count) channels")
        } catch {
            serving.state.refreshFailed(String(describing: error), at: started)
            serving.metrics.recordRefresh(.failure(error))
            serving.logger.warning("guide refresh failed; still serving the last good guide: \(error)")
        }
    }
}

extension Task where Success == Never, Failure == Never {
    fileprivate static var isCancelledOrShuttingDown: Bool { isCancelled || isShuttingDownGracefully }
}
