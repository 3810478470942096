import Foundation
import HTTPTypes
import Hummingbird

/// Cross-origin reads (CORS) of the JSON API and the feeds, for the configured origins only
/// (`server.cors_origins`, `--cors-origin`); the server adds it only when some are configured,
/// so by default no answer carries `Access-Control-Allow-Origin`. The web pages, their assets,
/// `/health` and `/metrics` never get it.
///
/// Hummingbird's `CORSMiddleware` takes a list of origins only as variadic arguments written in
/// the code, and answers every path; here the list comes from the configuration and the paths
/// are the API's.
struct CrossOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: CrossOrigin

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard CrossOrigin.covers(request.uri.path) else { return try await next(request, context) }
        let allowed = request.headers[.origin].flatMap(origins.allowed)
        if request.method == .options, let origin = request.headers[.origin], request.headers[.accessControlRequestMethod] != nil {
            return preflight(origin: origin, allowed: allowed)
        }
        var response = try await next(request, context)
        response.headers.append(HTTPField(name: .vary, value: "Origin"))
        if let allowed {
            response.headers[.accessControlAllowOrigin] = allowed
            response.headers[.accessControlExposeHeaders] = "ETag"
        }
        return response
    }

    /// The browser's question before a request it may not send without asking: allowed origins
    /// may GET (and HEAD) with `If-None-Match`; others get a 403 that says why.
    private func preflight(origin: String, allowed: String?) -> Response {
        guard let allowed else {
            var response = APIError.body(status: .forbidden, message: "origin \(Quoted(origin)) may not read this server's API; see server.cors_origins")
            response.headers.append(HTTPField(name: .vary, value: "Origin"))
            return response
        }
        var headers = HTTPFields()
        headers[.accessControlAllowOrigin] = allowed
        headers[.accessControlAllowMethods] = "GET, HEAD"
        headers[.accessControlAllowHeaders] = "If-None-Match"
        headers[.accessControlMaxAge] = String(CrossOrigin.preflightMaxAge)
        headers[.vary] = "Origin"
        return Response(status: .noContent, headers: headers)
    }
}

/// The origins allowed to read the API from a browser.
struct CrossOrigin: Sendable {
    /// Origins exactly as browsers send them: scheme, host and port when not the default.
    let origins: Set<String>
    let any: Bool

    init(_ origins: [String]) {
        any = origins.contains("*")
        self.origins = Set(origins)
    }

    /// The `Access-Control-Allow-Origin` for a request from `origin`, nil when it is not allowed.
    /// A sandboxed page's `null` origin is never allowed.
    func allowed(_ origin: String) -> String? {
        guard origin != "null" else { return nil }
        if any { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    /// The fields letting `allowed` (an origin, or `*`) read an answer and its ETag, as NIO
    /// header pairs for the refusals `ConnectionGuard` writes itself (the middleware sets the same).
    static func allowedFields(_ allowed: String) -> [(name: String, value: String)] {
        [("Access-Control-Allow-Origin", allowed), ("Access-Control-Expose-Headers", "ETag")]
    }

    /// Browsers may cache a preflight answer this many seconds.
    static let preflightMaxAge = 600

    /// The first path segments of the JSON API and the feeds.
    static let coveredRoots: Set<Substring> = [
        "channels", "lineups", "now", "grid", "programmes", "upcoming", "search", "audiences", "recommendations", "openapi.yaml",
        "reminders.ics", "calendar.ics", "xmltv.xml", "xmltv.xml.gz", "playlist.m3u",
    ]

    static func covers(_ path: String) -> Bool {
        let root = path.dropFirst().prefix { $0 != "/" }
        return coveredRoots.contains(root)
    }
}
