import Foundation
import GuideCore
import GuideTransport

/// Measures how long the chain spent with a provider: wall time from its first call to the end
/// of its last, and the requests its transports made: what each `LiveTransport` sent, or the
/// recorded answers read (`CountingTransport`). The CLI prints both; snapshots leave them out.
struct TimedGuideProvider: GuideProvider {
    let inner: any GuideProvider
    let timing: ProviderTiming

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
    /// Answers read from recordings.
    private var replayed = 0
    /// The live transports built for the provider, which count what they send.
    private nonisolated let live = LiveTransports()

    /// Requests the servers saw (retries included; cache answers and fail-fast refusals are not
    /// requests), or recorded answers read.
    var requests: Int { replayed + live.sent }

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
        if first == nil { first = .now }
    }

    func countReplayed() {
        replayed += 1
    }

    nonisolated func track(_ transport: LiveTransport) {
        live.add(transport)
    }

    private func finished() {
        last = .now
    }
}

/// A provider's recordings, counting the answers read.
struct CountingTransport: HTTPTransport {
    let inner: any HTTPTransport
    let timing: ProviderTiming

    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        await timing.countReplayed()
        return try await inner.get(url, headers: headers)
    }

    func post(_ url: URL, headers: [String: String], body: Data) async throws -> TransportResponse {
        await timing.countReplayed()
        return try await inner.post(url, headers: headers, body: body)
    }
}

/// The live transports of one provider, added while the factory (synchronous) builds it.
private final class LiveTransports: @unchecked Sendable {
    // Guards `transports`.
    private let lock = NSLock()
    private var transports: [LiveTransport] = []

    func add(_ transport: LiveTransport) {
        lock.withLock { transports.append(transport) }
    }

    var sent: Int { lock.withLock { transports.reduce(0) { $0 + $1.requestsSent } } }
}
