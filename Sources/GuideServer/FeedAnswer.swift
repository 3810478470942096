import Foundation

/// One file of a feed as it is sent: where it is, its size and modification time, and the
/// validators made of them.
struct FeedFile: Sendable {
    static let xmlType = "application/xml; charset=utf-8"
    static let gzipType = "application/gzip"

    let path: String
    let size: Int
    /// Seconds since 1970: `Last-Modified`.
    let modified: Int
    /// Strong, as nginx makes it for a static file (`"mtime-size"` in hex): a file of a guide
    /// version never changes once written, and another file has another time or size.
    let etag: String
    let contentType: String

    init(_ url: URL, contentType: String) throws {
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        path = url.path
        size = Int(status.st_size)
        modified = Int(status.st_mtim.tv_sec)
        etag = "\"\(String(modified, radix: 16))-\(String(size, radix: 16))\""
        self.contentType = contentType
    }

    /// The guide version the file belongs to: the name of its folder.
    var version: String {
        URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
    }
}

/// The answer to a GET or HEAD of a feed file, from the request's conditions and range (RFC 9110
/// §13 and §14) as nginx answers for a static file: 304 when the client holds these bytes, 412
/// when it asked for others, 206 with one range of them, 416 for a range past the end. The
/// fast lane and the router both answer by it.
struct FeedAnswer {
    var status: Int
    var headers: [(name: String, value: String)]
    /// The bytes of the file to send after the head (a GET's 200 or 206); nil for none.
    var body: Range<Int>?

    /// - Parameters:
    ///   - encoded: the file is the gzip form of what was asked (`Content-Encoding: gzip`).
    ///   - negotiated: the path has both forms, chosen by `Accept-Encoding` (`Vary`).
    ///   - field: the request's header field of a lowercase name.
    init(_ file: FeedFile, head: Bool, encoded: Bool, negotiated: Bool, maxAge: Int, now: Int, field: (String) -> String?) {
        var headers: [(name: String, value: String)] = [
            ("ETag", file.etag), ("Last-Modified", HTTPDate.format(epochSeconds: file.modified)),
            ("Cache-Control", maxAge > 0 ? "public, max-age=\(maxAge)" : "no-cache"),
        ]
        if negotiated { headers.append(("Vary", "Accept-Encoding")) }
        self.headers = headers
        body = nil
        let matches = { (list: String, weakly: Bool) in EntityTag.list(list, contains: file.etag, weakly: weakly) }
        // §13.2.2: If-Match, else If-Unmodified-Since; then If-None-Match, else If-Modified-Since.
        if let condition = field("if-match") {
            if !matches(condition, false) { status = 412; return }
        } else if let since = field("if-unmodified-since").flatMap(HTTPDate.parse), file.modified > since {
            status = 412
            return
        }
        if let condition = field("if-none-match") {
            if matches(condition, true) { status = 304; return }
        } else if let since = field("if-modified-since").flatMap(HTTPDate.parse), file.modified <= since, since <= now {
            status = 304
            return
        }
        // The gzip file sent as the coding of the document is still the document's type.
        self.headers += [("Content-Type", encoded ? FeedFile.xmlType : file.contentType), ("Accept-Ranges", "bytes")]
        if encoded { self.headers.append(("Content-Encoding", "gzip")) }
        var range = 0..<file.size
        status = 200
        if let asked = field("range"), Self.rangeApplies(field("if-range"), file) {
            switch ByteRange.parse(asked, size: file.size) {
            case .satisfiable(let part):
                status = 206
                range = part
                self.headers.append(("Content-Range", "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(file.size)"))
            case .unsatisfiable:
                status = 416
                self.headers = self.headers.filter { $0.name != "Content-Type" && $0.name != "Content-Encoding" }
                self.headers.append(("Content-Range", "bytes */\(file.size)"))
                return
            case .ignored:
                break
            }
        }
        self.headers.append(("Content-Length", String(range.count)))
        if !head && !range.isEmpty { body = range }
    }

    /// §13.1.5: a range is for these bytes only when `If-Range` is absent or names them (their
    /// strong ETag, or exactly their `Last-Modified`).
    private static func rangeApplies(_ condition: String?, _ file: FeedFile) -> Bool {
        guard let condition else { return true }
        if condition.hasPrefix("\"") { return condition == file.etag }
        return HTTPDate.parse(condition) == file.modified
    }
}

/// A `Range: bytes=…` field (RFC 9110 §14.1.2) on a representation of `size` bytes.
enum ByteRange: Equatable {
    case satisfiable(Range<Int>)
    /// Every range starts past the end: a 416.
    case unsatisfiable
    /// Not a byte range this server serves (another unit, a bad form, several ranges): the whole
    /// representation is sent, as RFC 9110 allows.
    case ignored

    static func parse(_ field: String, size: Int) -> ByteRange {
        let text = field.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes=") else { return .ignored }
        let specs = text.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard specs.count == 1, let spec = specs.first, let dash = spec.firstIndex(of: "-") else { return .ignored }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        func number(_ digits: Substring) -> Int? {
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
            return Int(digits)
        }
        if first.isEmpty {
            // The last N bytes.
            guard let suffix = number(last) else { return .ignored }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, size - suffix)..<size)
        }
        guard let start = number(first) else { return .ignored }
        let end: Int
        if last.isEmpty {
            end = size - 1
        } else {
            guard let given = number(last), given >= start else { return .ignored }
            end = min(given, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .satisfiable(start..<(end + 1))
    }
}
