import Foundation
import Hummingbird

/// An error a client caused or can act on, answered as JSON with its status; never a stack trace.
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var message: String

    static func badParameter(_ name: String, _ problem: String) -> APIError {
        APIError(status: .badRequest, message: "parameter '\(name)': \(problem)")
    }

    static func notFound(_ message: String) -> APIError {
        APIError(status: .notFound, message: message)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Self.body(status: status, message: message)
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            var status: Int
            var message: String
        }
        var error: Detail
    }

    static func body(status: HTTPResponse.Status, message: String) -> Response {
        var buffer = ByteBuffer()
        buffer.writeBytes(json(status: status.code, message: message))
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    /// The 412 of an `If-Match` naming other bytes: an error like the others (`no-store`), with
    /// the tag the client could ask for.
    static func preconditionFailed(etag: String) -> Response {
        var response = body(status: .preconditionFailed, message: "If-Match: the current ETag is \(etag)")
        response.headers[.eTag] = etag
        return response
    }

    /// `{"error":{"message":…,"status":…}}`.
    static func json(status: Int, message: String) -> [UInt8] {
        Array((try? JSONRendering.encode(Body(error: .init(status: status, message: message)), timeZone: .gmt)) ?? Data())
    }
}
