import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// `/health` and `/metrics`: what an operator and a scraper watch.
    static func addOperationsRoutes(to routes: RouteTable, _ serving: ServingContext) {
        routes.get("/health") { request, _ in
            let health = serving.state.health
            let index = serving.state.index
            // A replica that lost its store serves the guide in hand, but no newer one: degraded.
            let storeLost = health.store?.live == false
            var reasons: [String] = []
            if let error = health.lastRefreshError { reasons.append("the last refresh failed: \(error)") }
            if storeLost { reasons.append("the shared snapshot store is lost") }
            if !index.isEmpty, let fallback = GuideStatus.fallback(index.snapshot.report) {
                reasons.append("every live guide source failed (\(fallback.failed.joined(separator: ", "))); the guide comes from \(fallback.served.joined(separator: ", "))")
            }
            let report = HealthReport(
                status: index.isEmpty ? "empty" : (reasons.isEmpty ? "ok" : "degraded"), reasons: reasons,
                origin: health.origin, generatedAt: index.isEmpty ? nil : index.snapshot.generatedAt, loadedAt: health.loadedAt,
                channels: index.snapshot.channels.count, programmes: index.snapshot.programmes.count,
                staleChannels: index.snapshot.report.channels.filter(\.stale).map(\.id),
                refresh: .init(enabled: serving.source.refresh != nil && serving.settings.refreshInterval != nil,
                               intervalSeconds: serving.settings.refreshInterval.map { Int($0.components.seconds) },
                               lastAttempt: health.lastRefreshAttempt, lastSuccess: health.lastRefreshSuccess,
                               lastError: health.lastRefreshError, succeeded: health.refreshes, failed: health.failedRefreshes),
                store: health.store.map { store in
                    .init(location: store.location, state: store.live.map { $0 ? "live" : "lost" } ?? "connecting", since: store.since,
                          lastError: store.lastError, reconnects: store.reconnects, followed: store.followed)
                })
            var rendered = try RenderedResponse.json(report, maxAge: 0)
            // An empty guide is not a healthy service: load balancers should not send users to it.
            if index.isEmpty { rendered.status = .serviceUnavailable }
            return rendered.response(for: request)
        }
        routes.get("/metrics") { request, _ in
            RenderedResponse(contentType: "text/plain; version=0.0.4; charset=utf-8", bytes: serving.metrics.exposition(), maxAge: 0)
                .response(for: request)
        }
    }
}

struct HealthReport: Encodable {
    struct Refresh: Encodable {
        var enabled: Bool
        var intervalSeconds: Int?
        var lastAttempt: Date?
        var lastSuccess: Date?
        var lastError: String?
        var succeeded: Int
        var failed: Int
    }
    /// The shared snapshot store (`snapshots.store`), absent with the snapshot folder.
    struct Store: Encodable {
        var location: String
        /// `connecting` before the first attempt, `live` while following, `lost` while reconnecting.
        var state: String
        var since: Date?
        var lastError: String?
        var reconnects: Int
        var followed: Int
    }
    var status: String
    /// Why `status` is `degraded`; empty otherwise.
    var reasons: [String]
    var origin: String
    var generatedAt: Date?
    var loadedAt: Date?
    var channels: Int
    var programmes: Int
    var staleChannels: [String]
    var refresh: Refresh
    var store: Store?
}
