import Foundation
import GuideCore
import Hummingbird
import NIOConcurrencyHelpers
import Prometheus

/// The Prometheus metrics `/metrics` exposes: requests and their latency per route, refreshes,
/// and per provider the requests, failures and fallbacks of the guides this process built. One
/// registry per server, so several servers in one process (tests) keep their own counts.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    private struct RouteKey: Hashable {
        var route: String
        var status: Int
    }

    private let recorders = NIOLockedValueBox<[RouteKey: RequestRecorder]>([:])
    private static let latencyBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1),
    ]

    /// The counter and histogram of one route and status, looked up once for the fast lane.
    struct RequestRecorder: Sendable {
        let counter: Counter
        let histogram: DurationHistogram

        func record(_ duration: Duration) {
            counter.increment()
            histogram.record(duration)
        }
    }

    func recordRequest(route: String, status: Int, duration: Duration) {
        recorder(route: route, status: status).record(duration)
    }

    /// One lock and one dictionary lookup per request; the registry is only asked for a new
    /// route or status.
    func recorder(route: String, status: Int) -> RequestRecorder {
        let key = RouteKey(route: route, status: status)
        return recorders.withLockedValue { recorders in
            if let recorder = recorders[key] { return recorder }
            let counter = registry.makeCounter(
                descriptor: MetricNameDescriptor(metricName: "tvguide_http_requests", unitName: "total", helpText: "HTTP requests answered, by route and status."),
                labels: [("route", route), ("status", String(status))])
            // The registry gives every status of a route the route's one histogram.
            let histogram = registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(metricName: "tvguide_http_request_duration", unitName: "seconds", helpText: "Time to answer a request, by route."),
                labels: [("route", route)], buckets: Self.latencyBuckets)
            let recorder = RequestRecorder(counter: counter, histogram: histogram)
            recorders[key] = recorder
            return recorder
        }
    }

    func recordRefresh(_ outcome: Result<RefreshOutcome, any Error>) {
        let label: String
        switch outcome {
        case .success(let refresh):
            label = "success"
            for provider in refresh.snapshot.report.providers {
                let labels = [("provider", provider.id)]
                registry.makeCounter(descriptor: Self.providerRequests, labels: labels).increment(by: Int64(refresh.requests[provider.id] ?? 0))
                registry.makeCounter(descriptor: Self.providerFailures, labels: labels).increment(by: Int64(provider.errors.count))
                registry.makeCounter(descriptor: Self.providerFallbacks, labels: labels).increment(by: Int64(provider.channelsFallenBack))
            }
        case .failure:
            label = "failure"
        }
        registry.makeCounter(descriptor: Self.refreshes, labels: [("outcome", label)]).increment()
    }

    /// A refresh that found another replica building, or its guide fresh: not a failure.
    func recordRefreshLeftToAnotherReplica() {
        registry.makeCounter(descriptor: Self.refreshes, labels: [("outcome", "skipped")]).increment()
    }

    /// Whether the shared store can be reached, and each reconnection after a loss.
    func recordStore(live: Bool, reconnected: Bool) {
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "tvguide_store_up", helpText: "1 while the shared snapshot store is followed live, 0 while it cannot be reached."))
            .set(Int64(live ? 1 : 0))
        let reconnects = registry.makeCounter(descriptor: MetricNameDescriptor(
            metricName: "tvguide_store_reconnects", unitName: "total", helpText: "Connections to the shared snapshot store made again after a loss."))
        if reconnected { reconnects.increment() }
    }

    /// A snapshot another replica committed, swapped in.
    func recordFollowedSnapshot() {
        registry.makeCounter(descriptor: MetricNameDescriptor(
            metricName: "tvguide_store_snapshots", unitName: "total", helpText: "Snapshots other replicas committed to the shared store, swapped in."))
            .increment()
    }

    func recordGuide(_ index: GuideIndex) {
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "tvguide_guide_programmes", helpText: "Programmes in the served guide."))
            .set(Int64(index.snapshot.programmes.count))
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "tvguide_guide_channels", helpText: "Channels in the served guide."))
            .set(Int64(index.snapshot.channels.count))
        registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "tvguide_guide_generated", unitName: "timestamp_seconds", helpText: "When the served guide was built."))
            .set(index.snapshot.generatedAt.timeIntervalSince1970)
    }

    private static var refreshes: MetricNameDescriptor { MetricNameDescriptor(metricName: "tvguide_refreshes", unitName: "total", helpText: "Background guide refreshes, by outcome.") }
    private static var providerRequests: MetricNameDescriptor { MetricNameDescriptor(metricName: "tvguide_provider_requests", unitName: "total", helpText: "HTTP requests providers made during refreshes.") }
    private static var providerFailures: MetricNameDescriptor { MetricNameDescriptor(metricName: "tvguide_provider_failures", unitName: "total", helpText: "Failures providers reported during refreshes.") }
    private static var providerFallbacks: MetricNameDescriptor { MetricNameDescriptor(metricName: "tvguide_provider_fallbacks", unitName: "total", helpText: "Channels a provider served in place of one before it in the chain.") }

    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}

/// Counts every answer, errors included, under the route pattern (`/channels/{id}/schedule`),
/// so a client probing random paths cannot make the label set grow.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        metrics.recordRequest(route: context.endpointPath ?? "unmatched", status: response.status.code, duration: ContinuousClock.now - started)
        return response
    }
}
