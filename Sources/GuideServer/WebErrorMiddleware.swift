import Foundation
import Hummingbird
import Logging

/// Which errors a person reads in a browser. The server has no API prefix (`/channels` is the
/// API, `/channel/{id}` a page), so the path decides where it can:
/// - a path under a web route (`/`, `/channel/…`, `/programme/…`, `/assets/…`, `/favicon.ico`):
///   an HTML page, whatever the client;
/// - a path under any other route (the JSON API, the feeds, `/health`): JSON;
/// - a path under no route at all: HTML when the client asks for HTML (`Accept: text/html`, as a
///   browser opening a page does), JSON otherwise (`curl`, `fetch`, API clients).
/// Routes are told apart by their first path segment, read from the registered patterns.
struct WebErrorRule: Sendable {
    let routes: RouteTable

    func answersInHTML(_ request: Request) -> Bool {
        answersInHTML(path: request.uri.path[...], accept: request.headers[values: .accept])
    }

    /// The rule on a path and the `Accept` values: what `ConnectionGuard` has of a request it
    /// refuses before routing (no `Accept` at all when it refuses a head the parser gave up on).
    func answersInHTML(path: Substring, accept: some Sequence<String>) -> Bool {
        let segment = Self.firstSegment(path)
        if routes.webPaths.contains(where: { Self.firstSegment($0[...]) == segment }) { return true }
        if routes.paths.contains(where: { Self.firstSegment(Self.pattern($0)[...]) == segment }) { return false }
        return accept.contains { $0.lowercased().contains("text/html") }
    }

    /// The path of a request target as it arrives (`/channel/x?tz=…`, or the absolute form
    /// `http://host/channel/x`), without its query.
    static func path(ofTarget target: Substring) -> Substring {
        var rest = target
        if !rest.hasPrefix("/"), let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...].drop { $0 != "/" && $0 != "?" }
        }
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        return path.isEmpty ? "/" : path
    }

    /// `channel` for `/channel/La1.es`, `` for `/`.
    private static func firstSegment(_ path: Substring) -> Substring {
        path.dropFirst().prefix { $0 != "/" }
    }

    /// `/now` for `GET /now`.
    private static func pattern(_ route: String) -> String {
        String(route.drop { $0 != "/" })
    }
}

/// Answers the errors of requests `WebErrorRule` gives to browsers with HTML pages: a bad or
/// repeated parameter (also when `QueryLimitMiddleware` refuses it before routing), an unknown id
/// or path, a method other than GET and HEAD, a defect. Sits inside `ErrorMiddleware`, which
/// answers every other error in JSON and takes the body off answers to HEAD.
struct WebErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let rule: WebErrorRule
    let serving: ServingContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error where rule.answersInHTML(request) {
            return page(for: error, request)
        }
    }

    private func page(for error: any Error, _ request: Request) -> Response {
        let zone = (try? WebQuery(request))?.zone ?? WebQuery.defaultZone
        let now = WebTime.minute(serving.now)
        let language = WebLanguage.of(request)
        if request.method != .get && request.method != .head {
            var response = WebPages.errorPage(.methodNotAllowed, "This page is read with GET; \(request.method) is not allowed.", zone: zone, now: now,
                                                  language: language)
                .response(for: request)
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        let (status, message): (HTTPResponse.Status, String)
        switch error {
        case let error as APIError:
            (status, message) = (error.status, error.message)
        case let error as HTTPError where error.status == .notFound:
            (status, message) = (.notFound, "There is no page \(Quoted(request.uri.path)).")
        case let error as HTTPError:
            (status, message) = (error.status, error.body ?? error.status.reasonPhrase)
        default:
            serving.logger.error("\(request.method) \(request.uri.path) failed: \(String(describing: error))")
            (status, message) = (.internalServerError, "Something went wrong on the server; it has been logged.")
        }
        return WebPages.errorPage(status, message, zone: zone, now: now, language: language).response(for: request)
    }
}
