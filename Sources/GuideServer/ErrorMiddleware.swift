import Hummingbird
import Logging

/// Turns every error the web guide's `WebErrorMiddleware` leaves into a JSON answer: the router's
/// own 404 and 405 included, and anything unexpected into a 500 whose details go to the log only.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = await answer(request, context: context, next: next)
        // An answer to HEAD has the headers of the answer to GET and no body, errors included.
        return request.method == .head ? response.createHeadResponse() : response
    }

    private func answer(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return APIError.body(status: error.status, message: error.message)
        } catch let error as HTTPError {
            // Every route is a GET (and HEAD): another method is not allowed anywhere, whatever the path.
            if error.status == .notFound || error.status == .methodNotAllowed, request.method != .get, request.method != .head {
                var response = APIError.body(status: .methodNotAllowed, message: "method \(request.method) is not allowed; this server answers GET and HEAD")
                response.headers[.allow] = "GET, HEAD"
                return response
            }
            let message = error.status == .notFound ? "no such route: \(Quoted(request.uri.path))" : (error.body ?? error.status.reasonPhrase)
            return APIError.body(status: error.status, message: message)
        } catch {
            logger.error("\(request.method) \(request.uri.path) failed: \(String(describing: error))")
            return APIError.body(status: .internalServerError, message: "internal error")
        }
    }
}
