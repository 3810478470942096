import Foundation
import GuideCore

/// Measures how long the chain spent with a provider: wall time from its first request to the
/// end of its last, and how many requests it got. The CLI prints it; snapshots leave it out.
struct TimedGuideProvider: GuideProvider {
    let inner: any GuideProvider
    let timing = ProviderTiming()

    var id: String { inner.id }

    func channels() async throws -> [Channel] {
        try await timing.measure { try await inner.channels() }
    }

    func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        try await timing.measure { try await inner.schedule(for: channel, in: window) }
    }

    func reportNotes() async -> [String] {
        await inner.reportNotes()
    }
}

actor ProviderTiming {
    private var first: ContinuousClock.Instant?
    private var last: ContinuousClock.Instant?
    private(set) var requests = 0

    var elapsed: Duration {
        guard let first, let last else { return .zero }
        return last - first
    }

    nonisolated func measure<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        await started()
        do {
            let value = try await work()
            await finished()
            return value
        } catch {
            await finished()
            throw error
        }
    }

    private func started() {
        requests += 1
        if first == nil { first = .now }
    }

    private func finished() {
        last = .now
    }
}
