import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// The web guide: server-rendered pages and their assets.
    static func addWebRoutes(to routes: RouteTable, _ serving: ServingContext) {
        routes.get("/") { request, _ in
            try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.grid(index, query: query, settings: serving.settings, now: now), .grid)
            }
        }
        routes.get("/channel/{id}") { request, context in
            let id = WebLinks.decoded(context.parameters.get("id"))
            return try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.channel(index, id: id, query: query, now: now), .channel)
            }
        }
        routes.get("/programme/{id}") { request, context in
            let id = WebLinks.decoded(context.parameters.get("id"))
            return try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.programme(index, id: id, query: query, now: now), .programme)
            }
        }
        routes.get("/assets/{name}") { request, context in
            // A fixed dictionary, never the file system: `..` and encoded variants find nothing.
            let name = context.parameters.get("name") ?? ""
            guard let asset = WebAssets.files[name] else {
                return WebPages.errorPage(.notFound("There is no asset \(Quoted(WebLinks.decoded(name)))."), zone: WebQuery.defaultZone, now: serving.now)
                    .response(for: request)
            }
            return asset.response(for: request, gzip: serving.source.gzip)
        }
    }

    /// A page rendered as of the current minute and cached under it (see `WebPages.maxAge`); a
    /// client's mistake becomes an HTML error page rather than the API's JSON. Other errors are
    /// defects: they go on to `ErrorMiddleware`, which logs them.
    private static func webPage(_ request: Request, _ serving: ServingContext,
                                render: (GuideIndex, WebQuery, Date) throws -> RenderedResponse) throws -> Response {
        let now = WebTime.minute(serving.now)
        do {
            let query = try WebQuery(request)
            let key = "web \(request.uri.path)?\(request.uri.query ?? "") @\(WebTime.epoch(now))"
            return try serving.cached(request, key: key) { index in try render(index, query, now) }
        } catch let error as APIError {
            let zone = (try? WebQuery(request))?.zone ?? WebQuery.defaultZone
            return WebPages.errorPage(error, zone: zone, now: now).response(for: request)
        }
    }
}
