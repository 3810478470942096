import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// The web guide: server-rendered pages and their assets. Their errors are HTML pages
    /// (`WebErrorMiddleware`).
    static func addWebRoutes(to routes: RouteTable, _ serving: ServingContext) {
        let settings = serving.settings
        routes.page("/") { request, _ in
            try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.grid(index, query: query, settings: settings, now: now), .grid)
            }
        }
        routes.page("/channel/{id}") { request, context in
            let id = WebLinks.decoded(context.parameters.get("id"))
            return try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.channel(index, id: id, query: query, now: now), .channel)
            }
        }
        routes.page("/programme/{id}") { request, context in
            let id = WebLinks.decoded(context.parameters.get("id"))
            let catchups = await serving.catchups()
            return try webPage(request, serving, key: catchups.key) { index, query, now in
                let catchup = index.programme(id).flatMap { catchups.table(index)[$0.channel] }
                return WebPages.render(try WebPages.programme(index, id: id, query: query, now: now, catchup: catchup), .programme)
            }
        }
        routes.page("/programme/{id}/airings") { request, context in
            let id = WebLinks.decoded(context.parameters.get("id"))
            return try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.airings(index, id: id, query: query, now: now), .airings)
            }
        }
        routes.page("/coming-up") { request, _ in
            try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.comingUp(index, query: query, settings: settings, now: now), .comingUp)
            }
        }
        routes.page("/find") { request, _ in
            try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.search(index, query: query, settings: settings, now: now), .search)
            }
        }
        routes.page("/ratings") { request, _ in
            try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.audiences(index, query: query, now: now), .audiences)
            }
        }
        routes.page("/my-calendar") { request, _ in
            try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.calendar(index, query: query, settings: settings, now: now), .calendar)
            }
        }
        routes.page("/my-channels") { request, _ in
            try webPage(request, serving) { index, query, now in
                WebPages.render(try WebPages.channels(index, query: query, settings: settings, now: now), .channels)
            }
        }
        addPreferenceRoutes(to: routes, serving)
        routes.page("/assets/{name}") { request, context in
            // A fixed dictionary, never the file system: `..` and encoded variants find nothing.
            let name = context.parameters.get("name") ?? ""
            guard let asset = WebAssets.files[name] else {
                throw APIError.notFound("There is no asset \(Quoted(WebLinks.decoded(name))).")
            }
            return asset.response(for: request, gzip: serving.source.gzip)
        }
        // Browsers ask for it on every site they open.
        routes.page("/favicon.ico") { request, _ in
            WebIcon.response.response(for: request)
        }
    }

    /// A page rendered as of the current minute and cached under it (see `WebPages.maxAge`), in
    /// the reader's language and for their choices.
    /// - Parameter key: what else the page shows, beyond the guide and the request.
    private static func webPage(_ request: Request, _ serving: ServingContext, key extra: String = "",
                                render: (GuideIndex, WebQuery, Date) throws -> RenderedResponse) throws -> Response {
        let now = WebTime.minute(serving.now)
        let query = try WebQuery(request)
        let key = "web \(request.uri.path)?\(request.uri.query ?? "") @\(WebTime.epoch(now)) \(query.language.rawValue) \(query.preferences.key)" + extra
        return try serving.cached(request, key: key) { index in try render(index, query, now) }
    }
}
