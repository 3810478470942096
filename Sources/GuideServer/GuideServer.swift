import Foundation
import GuideCore
import GuideStorage
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// `tvguide serve`: the guide over HTTP. Loads the last snapshot before it listens (a warm start
/// answers at once, offline too), rebuilds it in the background and swaps it in whole.
package struct GuideServer: Sendable {
    let settings: ServerSettings
    let source: GuideSource
    let logger: Logger
    let serving: ServingContext

    /// Serves `latest`, the store's latest snapshot read by the caller; nil starts an empty guide
    /// that the first refresh, or the first commit to a shared store, fills.
    package init(settings: ServerSettings, source: GuideSource, latest snapshot: Snapshot?, logger: Logger) {
        self.settings = settings
        self.source = source
        self.logger = logger
        let index = snapshot.map { GuideIndex($0, channelOrder: settings.channelOrder) } ?? .empty
        FreedMemory.release()
        let state = GuideState(index: index, origin: snapshot == nil ? "none" : "latest.json", loadedAt: snapshot.map { _ in source.clock() },
                               store: source.shared.map { GuideState.StoreHealth(location: $0.location) })
        let metrics = ServerMetrics()
        metrics.recordGuide(index)
        serving = ServingContext(state: state, metrics: metrics, settings: settings, source: source, logger: logger)
    }

    /// The route patterns served, in registration order (`GET /channels/{id}/schedule`): what
    /// `/openapi.yaml` must describe.
    package var routes: [String] { Self.makeRouter(serving).paths }

    /// Serves until SIGTERM or SIGINT, then stops accepting, finishes the requests in flight and
    /// returns. `onListening` gets the bound port (useful with port 0).
    package func run(gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
                    onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var services: [any Service] = []
        if let refresh = source.refresh, let interval = settings.refreshInterval {
            services.append(GuideRefresher(serving: serving, refresh: refresh, interval: interval))
        }
        if let shared = source.shared {
            services.append(StoreFollower(serving: serving, store: shared))
        }
        let routes = Self.makeRouter(serving)
        var app = Application(
            router: routes.router,
            // Refusals before routing are worded by the router's rule for errors (HTML or JSON).
            server: .http1WithFastLane(serving: serving, serverName: Self.serverName, webErrors: WebErrorRule(routes: routes)),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: Self.serverName),
            services: services,
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        app.logger.logLevel = logger.logLevel
        serving.feeds.serve(serving.state.index)
        defer {
            // A folder of the run's own goes with it; a configured one keeps the files for the next start.
            if source.feedDirectory == nil { try? FileManager.default.removeItem(at: serving.feeds.directory) }
        }
        try await app.runService(gracefulShutdownSignals: gracefulShutdownSignals)
    }

    static let serverName = "tvguide"

    static func makeRouter(_ serving: ServingContext) -> RouteTable {
        // HEAD answers every GET route with its headers and no body, as HTTP asks of a server.
        let table = RouteTable(router: Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints))
        table.router.middlewares.add(FastLaneMiddleware(state: serving.state, metrics: serving.metrics))
        table.router.middlewares.add(MetricsMiddleware(metrics: serving.metrics))
        if !serving.settings.corsOrigins.isEmpty {
            // Outside the error middleware: a page allowed to read the API reads its errors too.
            table.router.middlewares.add(CrossOriginMiddleware(origins: CrossOrigin(serving.settings.corsOrigins)))
        }
        table.router.middlewares.add(ErrorMiddleware(logger: serving.logger))
        table.router.middlewares.add(WebErrorMiddleware(rule: WebErrorRule(routes: table), serving: serving))
        table.router.middlewares.add(QueryLimitMiddleware(limits: serving.settings.limits))
        addOperationsRoutes(to: table, serving)
        addAPIRoutes(to: table, serving)
        addCalendarRoutes(to: table, serving)
        addFeedRoutes(to: table, serving)
        addRecommendationRoutes(to: table, serving)
        addPlaylistRoutes(to: table, serving)
        addWebRoutes(to: table, serving)
        return table
    }
}

/// Everything a route needs: the served guide, the metrics, the settings and the CLI's hooks.
struct ServingContext: Sendable {
    let state: GuideState
    let metrics: ServerMetrics
    let settings: ServerSettings
    let source: GuideSource
    let logger: Logger
    let catchupTables = CatchupTables()
    let feeds: FeedFiles

    init(state: GuideState, metrics: ServerMetrics, settings: ServerSettings, source: GuideSource, logger: Logger) {
        self.state = state
        self.metrics = metrics
        self.settings = settings
        self.source = source
        self.logger = logger
        let directory = source.feedDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-feeds-\(UUID().uuidString)", isDirectory: true)
        feeds = FeedFiles(directory: directory, lineups: settings.lineups, write: source.writeXMLTV)
    }

    /// Serves `index` from now on: every route's answers and the feeds' files follow it.
    func serve(_ index: GuideIndex, origin: GuideState.Swap) {
        switch origin {
        case .refresh: state.replace(with: index, at: now)
        case .store: state.follow(index, at: now)
        }
        feeds.serve(index)
    }

    /// Indexes a new guide off the tasks' threads, serves it, and hands back to the system what
    /// the old one and the load freed.
    func serve(_ snapshot: Snapshot, origin: GuideState.Swap) async {
        let index = await offCooperativeThreads { [settings] in GuideIndex(snapshot, channelOrder: settings.channelOrder) }
        serve(index, origin: origin)
        metrics.recordGuide(index)
        FreedMemory.release()
    }

    var now: Date { source.clock() }

    /// Answers from the rendered-response cache; `key` must hold everything the body depends
    /// on besides the guide (path, query, and the time when the body shows it).
    func cached(_ request: Request, key: String, render: (GuideIndex) throws -> RenderedResponse) throws -> Response {
        let second = Int(now.timeIntervalSince1970.rounded(.down))
        let (rendered, version, asked) = try state.versionedResponse(for: key, render: render)
        // A body whose key is the path and query, with or without the second, is the same for
        // every request to that target during this second: the fast lane may reuse it. Only
        // once asked again: a query asked once (a client making up query strings) would fill
        // the fast lane's record with bodies nobody asks for.
        if asked, let candidate = FastLaneCandidate.current, rendered.status == .ok, rendered.file == nil {
            let target = request.uri.path + "?" + (request.uri.query ?? "")
            if key == target || (key.hasPrefix(target) && key.dropFirst(target.count) == "@\(second)") {
                candidate.body = rendered.body
                candidate.second = second
                candidate.version = version
            }
        }
        return rendered.response(for: request, gzip: source.gzip)
    }
}

/// Registers routes with the router and remembers their patterns for the OpenAPI check.
final class RouteTable: @unchecked Sendable {
    // @unchecked: filled while the server is assembled, before any request; only read after.
    let router: Router<BasicRequestContext>
    private(set) var paths: [String] = []
    /// The web guide's patterns (`/channel/{id}`): their errors are HTML pages (`WebErrorRule`).
    private(set) var webPaths: [String] = []

    init(router: Router<BasicRequestContext>) {
        self.router = router
    }

    func get(_ path: String, _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response) {
        paths.append("GET \(path)")
        router.get(RouterPath(path), use: handler)
    }

    /// A route of the web guide.
    func page(_ path: String, _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response) {
        webPaths.append(path)
        get(path, handler)
    }
}
