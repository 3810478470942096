import Foundation
import GuideCore

/// Measures how long the chain spent with a provider: wall time from its first call to the end
/// of its last. Its transport counts the HTTP requests it made (`CountingTransport`). The CLI
/// prints both; snapshots leave them out.
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
    /// HTTP requests made (answers from the on-disk cache are not requests).
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
        if first == nil { first = .now }
    }

    func countRequest() {
        requests += 1
    }

    private func finished() {
        last = .now
    }
}

/// A provider's transport, counting the requests that reach the network (a fetch served from
/// the on-disk cache is not one; a failed one is), so the report says what the server saw.
struct CountingTransport: HTTPTransport {
    let inner: any HTTPTransport
    let timing: ProviderTiming

    func get(_ url: URL, headers: [String: String]) async throws -> HTTPResponse {
        try await counted { try await inner.get(url, headers: headers) }
    }

    func post(_ url: URL, headers: [String: String], body: Data) async throws -> HTTPResponse {
        try await counted { try await inner.post(url, headers: headers, body: body) }
    }

    private func counted(_ request: () async throws -> HTTPResponse) async throws -> HTTPResponse {
        do {
            let response = try await request()
            if response.origin != .cache { await timing.countRequest() }
            return response
        } catch {
            await timing.countRequest()
            throw error
        }
    }
}
