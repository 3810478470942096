import Foundation
import GuideCore
import Hummingbird

/// `/channels` and `/lineups`: what the guide covers.
struct ChannelAPIRoutes: APIRouteCollection {
    let serving: ServingContext

    func addRoutes(to routes: RouteTable) {
        routes.get("/channels") { request, _ in
            try serving.cached(request, key: CacheKey.guide(request)) { index in
                let query = QueryReader(request)
                let page = try query.page()
                let type = try query.text("type").map(SearchText.fold)
                let lineup = try query.lineup(serving.settings)
                var channels = lineup.map { $0.compactMap(index.channel) } ?? index.channels
                if let type { channels = channels.filter { $0.type.map(SearchText.fold) == type } }
                return try .json(Page(channels, page), maxAge: APICaching.guide)
            }
        }
        routes.get("/lineups") { request, _ in
            try serving.cached(request, key: CacheKey.guide(request)) { _ in
                let page = try QueryReader(request).page()
                let lineups = serving.settings.lineups.sorted { $0.key < $1.key }.map { LineupItem(name: $0.key, channels: $0.value) }
                return try .json(Page(lineups, page), maxAge: APICaching.guide)
            }
        }
    }
}
