import Foundation
import GuideCore

/// What the lookups of one `TMDBProvider` share: the configuration (fetched once), the details
/// requests in flight (one per work, however many lookups want it), whether TMDB has rejected
/// the credentials, and the tally for the run report.
actor TMDBSharedState {
    private var configuration: Task<TMDBImageBase, any Error>?
    private var details: [String: Task<TMDBDetails, any Error>] = [:]
    private var rejection: ProviderError?
    private var answered: [TransportResponse.Origin: Int] = [:]
    private var failed = 0

    /// The image base, from the first successful `fetch`; lookups arriving while it runs share
    /// it. A failed fetch is forgotten, so the next lookup tries again.
    func imageBase(_ fetch: @escaping @Sendable () async throws -> TMDBImageBase) async throws -> TMDBImageBase {
        let task: Task<TMDBImageBase, any Error>
        if let existing = configuration {
            task = existing
        } else {
            task = Task { try await fetch() }
            configuration = task
        }
        do {
            return try await task.value
        } catch {
            if configuration == task { configuration = nil }
            throw error
        }
    }

    /// The details for `key`, fetched by the first lookup that asks while none is in flight; the
    /// lookups asking meanwhile wait for that same request.
    func details(_ key: String, _ fetch: @escaping @Sendable () async throws -> TMDBDetails) async throws -> TMDBDetails {
        if let inFlight = details[key] { return try await inFlight.value }
        let task = Task { try await fetch() }
        details[key] = task
        defer { details[key] = nil }
        return try await task.value
    }

    /// After a 401 every lookup fails at once the same way, instead of asking TMDB again.
    func reject(_ error: ProviderError) {
        rejection = error
    }

    func checkNotRejected() throws {
        if let rejection { throw rejection }
    }

    func answered(from origin: TransportResponse.Origin) {
        answered[origin, default: 0] += 1
    }

    func requestFailed() {
        failed += 1
    }

    /// `42 request(s): 40 from recordings, 2 failed`.
    func requestSummary() -> String {
        let parts: [(Int, String)] = [
            (answered[.network] ?? 0, "from the network"),
            (answered[.cache] ?? 0, "from the cache"),
            (answered[.revalidated] ?? 0, "revalidated"),
            (answered[.replay] ?? 0, "from recordings"),
            (failed, "failed"),
        ]
        let total = parts.reduce(0) { $0 + $1.0 }
        guard total > 0 else { return "no requests" }
        return "\(total) request(s): " + parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }
}
