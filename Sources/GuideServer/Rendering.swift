import Foundation
import GuideCore
import Hummingbird

/// A response body rendered once and served many times: the bytes, their ETag and how long
/// clients may keep them.
struct RenderedResponse: Sendable {
    var status: HTTPResponse.Status = .ok
    var contentType: String
    var body: ByteBuffer
    var etag: String
    /// Seconds for `Cache-Control: max-age`.
    var maxAge: Int
    var extraHeaders = HTTPFields()

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

    /// The response for `request`: 304 without a body when the client already holds these bytes.
    func response(for request: Request) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = maxAge > 0 ? "public, max-age=\(maxAge)" : "no-cache"
        headers.append(contentsOf: extraHeaders)
        if status == .ok, let held = request.headers[.ifNoneMatch], held.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0 == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}

/// Stable JSON: sorted keys, times in ISO 8601 in the zone the client asked for.
enum JSONRendering {
    static func encode(_ value: some Encodable, timeZone: TimeZone) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ZonedTime.format(date, in: timeZone))
        }
        return try encoder.encode(value)
    }
}

/// ISO 8601 times in a zone: `2026-10-25T22:30:00+01:00`, or `…Z` in UTC.
enum ZonedTime {
    static func format(_ date: Date, in timeZone: TimeZone) -> String {
        let offset = timeZone.secondsFromGMT(for: date)
        let c = CivilTime.components(of: date, in: timeZone)
        var text = "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second))"
        if offset == 0 && timeZone.identifier == TimeZone.gmt.identifier {
            text += "Z"
        } else {
            let sign = offset < 0 ? "-" : "+"
            let magnitude = abs(offset)
            text += "\(sign)\(pad(magnitude / 3600)):\(pad(magnitude % 3600 / 60))"
        }
        return text
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
