import Foundation
import GuideCore
import GuideStorage
import Hummingbird
import NIOConcurrencyHelpers

/// A response body rendered once and served many times: the bytes, their ETag and how long
/// clients may keep them.
struct RenderedResponse: Sendable {
    var status: HTTPResponse.Status = .ok
    var contentType: String
    /// The bytes, when held in memory; empty once `file` holds them.
    private(set) var body: ByteBuffer
    /// A large body, moved out of memory (`movedToFile`).
    private(set) var file: BodyFile?
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
        self.file = nil
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

    /// Bodies of this size and more are kept in a temporary file rather than in memory: a
    /// feed of thousands of channels (a playlist, a calendar) is megabytes, asked again and again.
    static let fileThreshold = 1 << 20

    /// The body's length, wherever it is.
    var length: Int { file?.count ?? body.readableBytes }

    /// The same response with its body in a temporary file when it is `fileThreshold` bytes or
    /// more and a file can be made; otherwise as it is.
    func movedToFile() -> RenderedResponse {
        guard file == nil, body.readableBytes >= Self.fileThreshold, let stored = BodyFile(body) else { return self }
        var moved = self
        moved.file = stored
        moved.body = ByteBuffer()
        return moved
    }

    /// The bytes, read back from the file when they are there.
    var bytes: ByteBuffer { file.map { ByteBuffer(bytes: $0.read(0..<$0.count)) } ?? body }

    /// Whether clients may get the body gzip-compressed: text of some size, not already compressed.
    var isCompressible: Bool {
        length >= Self.compressionThreshold
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
            ? gzip.flatMap { gzip in try? compressed.get(orMake: { ByteBuffer(bytes: try gzip(Data(bytes.readableBytesView))) }) }
            : nil
        let tag = coded == nil ? etag : "W/" + etag
        var headers = HTTPFields()
        headers[.eTag] = tag
        headers[.cacheControl] = maxAge > 0 ? "public, max-age=\(maxAge)" : "no-cache"
        if negotiated { headers[.vary] = "Accept-Encoding" }
        headers.append(contentsOf: extraHeaders)
        if status == .ok {
            if let condition = request.headers[.ifMatch], !EntityTag.list(condition, contains: tag, weakly: false) {
                return APIError.preconditionFailed(etag: tag)
            }
            if let condition = request.headers[.ifNoneMatch], EntityTag.list(condition, contains: tag, weakly: true) {
                return Response(status: .notModified, headers: headers)
            }
        }
        if coded != nil { headers[.contentEncoding] = "gzip" }
        headers[.contentType] = contentType
        if coded == nil, let file {
            headers[.contentLength] = String(file.count)
            return Response(status: status, headers: headers, body: file.responseBody())
        }
        let sent = coded ?? body
        headers[.contentLength] = String(sent.readableBytes)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: sent))
    }
}

/// A rendered body in an unlinked temporary file (`SpillFile`): on disk, or in the page cache,
/// which the kernel may reclaim, rather than in the server's memory. It goes with the last
/// response holding it.
final class BodyFile: Sendable {
    private let file: SpillFile
    let count: Int

    /// Nil when no temporary file can be made or written (a full disk): the body stays in memory.
    init?(_ body: ByteBuffer) {
        guard let file = SpillFile(), file.write(Array(body.readableBytesView), at: 0) else { return nil }
        self.file = file
        count = body.readableBytes
    }

    func read(_ range: Range<Int>) -> [UInt8] {
        file.read(range)
    }

    /// The body read a chunk at a time as the client takes it.
    func responseBody() -> ResponseBody {
        ResponseBody(contentLength: count) { writer in
            var offset = 0
            while offset < self.count {
                let chunk = self.read(offset..<min(self.count, offset + Self.chunk))
                guard !chunk.isEmpty else { throw BodyFileError() }
                try await writer.write(ByteBuffer(bytes: chunk))
                offset += chunk.count
            }
            try await writer.finish(nil)
        }
    }

    private static let chunk = 1 << 16

    /// The file ended before its length: the response stops short and its connection closes.
    struct BodyFileError: Error {}
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
