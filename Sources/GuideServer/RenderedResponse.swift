import Foundation
import GuideCore
import Hummingbird
import NIOConcurrencyHelpers

/// A response body rendered once and served many times: the bytes, their ETag and how long
/// clients may keep them.
struct RenderedResponse: Sendable {
    var status: HTTPResponse.Status = .ok
    var contentType: String
    let body: ByteBuffer
    let etag: String
    /// Seconds for `Cache-Control: max-age`.
    var maxAge: Int
    var extraHeaders = HTTPFields()
    /// The body gzip-compressed, made the first time a client accepts it and kept with the body
    /// (a copy of this value shares it): a body rendered once is compressed once.
    let compressed = CompressedBody()

    init(contentType: String, body: ByteBuffer, maxAge: Int, extraHeaders: HTTPFields = HTTPFields()) {
        self.contentType = contentType
        self.body = body
        var checksum = Checksum()
        checksum.add(body.readableBytesView)
        self.etag = "\"\(checksum.hex)\""
        self.maxAge = maxAge
        self.extraHeaders = extraHeaders
    }

    init(contentType: String, bytes: some Sequence<UInt8>, maxAge: Int, extraHeaders: HTTPFields = HTTPFields()) {
        var buffer = ByteBuffer()
        buffer.writeBytes(bytes)
        self.init(contentType: contentType, body: buffer, maxAge: maxAge, extraHeaders: extraHeaders)
    }

    static func json(_ value: some Encodable, timeZone: TimeZone = .gmt, maxAge: Int) throws -> RenderedResponse {
        RenderedResponse(contentType: "application/json; charset=utf-8", bytes: try JSONRendering.encode(value, timeZone: timeZone), maxAge: maxAge)
    }

    /// Bodies smaller than this are sent as they are: compressing them saves less than the gzip
    /// framing and the second form kept in memory cost.
    static let compressionThreshold = 1_024

    /// Whether clients may get the body gzip-compressed: text of some size, not already compressed.
    var isCompressible: Bool {
        body.readableBytes >= Self.compressionThreshold
            && (contentType.hasPrefix("text/") || contentType.hasPrefix("application/json") || contentType.hasPrefix("application/xml")
                || contentType.hasPrefix("application/yaml") || contentType.hasPrefix("audio/x-mpegurl"))
    }

    /// The response for `request`: 304 without a body when the client already holds these bytes
    /// (`If-None-Match`, weak comparison), 412 when it asks for other bytes than these
    /// (`If-Match`, strong comparison), and the body gzip-compressed with `gzip` when the client
    /// accepts it (`Accept-Encoding`). The compressed form has the weak ETag `W/"…"`, as nginx's
    /// gzip gives it: the same content, other bytes.
    func response(for request: Request, gzip: (@Sendable (Data) throws -> Data)? = nil) -> Response {
        let negotiated = gzip != nil && isCompressible
        // A compression that fails (it does not, on bytes in memory) leaves the body as it is.
        let coded = negotiated && request.headers[.acceptEncoding].map(ContentCoding.acceptsGzip) == true
            ? gzip.flatMap { gzip in try? compressed.get(orMake: { ByteBuffer(bytes: try gzip(Data(body.readableBytesView))) }) }
            : nil
        let tag = coded == nil ? etag : "W/" + etag
        var headers = HTTPFields()
        headers[.eTag] = tag
        headers[.cacheControl] = maxAge > 0 ? "public, max-age=\(maxAge)" : "no-cache"
        if negotiated { headers[.vary] = "Accept-Encoding" }
        headers.append(contentsOf: extraHeaders)
        if status == .ok {
            if let condition = request.headers[.ifMatch], !EntityTag.list(condition, contains: tag, weakly: false) {
                // An error like the others (`no-store`), with the tag the client could ask for.
                var response = APIError.body(status: .preconditionFailed, message: "If-Match: the current ETag is \(tag)")
                response.headers[.eTag] = tag
                return response
            }
            if let condition = request.headers[.ifNoneMatch], EntityTag.list(condition, contains: tag, weakly: true) {
                return Response(status: .notModified, headers: headers)
            }
        }
        let sent = coded ?? body
        if coded != nil { headers[.contentEncoding] = "gzip" }
        headers[.contentType] = contentType
        headers[.contentLength] = String(sent.readableBytes)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: sent))
    }
}

/// The gzip form of one rendered body, made once, by the first request that wants it; requests
/// for it meanwhile wait rather than compress it again.
final class CompressedBody: Sendable {
    private let stored = NIOLockedValueBox<ByteBuffer?>(nil)

    func get(orMake compress: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        try stored.withLockedValue { stored in
            if let stored { return stored }
            let made = try compress()
            stored = made
            return made
        }
    }
}
