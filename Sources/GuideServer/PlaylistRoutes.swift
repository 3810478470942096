import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// The user's playlist given back with the guide's ids (`/playlist.m3u`), and the XMLTV
    /// export of one line-up (`/xmltv.xml?lineup=…`), for players that take a playlist and its
    /// guide in pairs.
    static func addPlaylistRoutes(to routes: RouteTable, _ serving: ServingContext) {
        routes.get("/playlist.m3u") { request, _ in
            guard let read = serving.source.playlist else {
                throw APIError.notFound("no playlist: name one with `playlist:` in providers.yaml")
            }
            let query = QueryReader(request)
            let lineupName = query.string("lineup")
            let lineup = try query.lineup(serving.settings).map(Set.init)
            let served = await read()
            guard let playlist = served.playlist else {
                throw APIError(status: .serviceUnavailable, message: "the playlist could not be read: \(served.error ?? "unknown error")")
            }
            let guideURL = Self.guideURL(request, serving, lineup: lineupName)
            let key = "/playlist.m3u?lineup=\(lineupName ?? "")&revision=\(served.revision)&url-tvg=\(guideURL)"
            return try serving.cached(request, key: key) { index in
                let matcher = PlaylistMatcher(channels: index.snapshot.channels, aliases: serving.settings.channelAliases)
                var annotated = matcher.annotated(playlist, keep: lineup)
                annotated.attributes.removeAll { ["url-tvg", "x-tvg-url"].contains($0.name.lowercased()) }
                // Both spellings: Kodi's IPTV Simple reads x-tvg-url first, others url-tvg.
                annotated.attributes.insert(contentsOf: [Playlist.Attribute("url-tvg", guideURL), Playlist.Attribute("x-tvg-url", guideURL)], at: 0)
                var headers = HTTPFields()
                headers[.contentDisposition] = "inline; filename=\"tvguide\(lineupName.map { "-" + $0 } ?? "").m3u\""
                return RenderedResponse(contentType: "audio/x-mpegurl; charset=utf-8", bytes: annotated.rendered(), maxAge: 300, extraHeaders: headers)
            }
        }
    }

    /// This server's `/xmltv.xml` as the client reached it (`WebSite`), with the line-up.
    private static func guideURL(_ request: Request, _ serving: ServingContext, lineup: String?) -> String {
        let base = WebSite(request, serving.settings)?.base ?? "http://\(serving.settings.host):\(serving.settings.port)"
        var url = base + "/xmltv.xml"
        if let lineup, let encoded = lineup.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&+=#"))) {
            url += "?lineup=" + encoded
        }
        return url
    }
}
