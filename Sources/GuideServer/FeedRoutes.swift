import Foundation
import GuideCore
import HTTPTypes
import Hummingbird

extension GuideServer {
    /// The XMLTV export, whole or of one line-up, sent from its files (`FeedFiles`). The fast
    /// lane sends the usual requests for them itself; these routes answer the rest (cross-origin
    /// reads, a first request waiting for the files, the errors).
    static func addFeedRoutes(to routes: RouteTable, _ serving: ServingContext) {
        routes.get("/xmltv.xml") { request, context in
            try await feedResponse(request, context, serving, target: .plain)
        }
        routes.get("/xmltv.xml.gz") { request, context in
            try await feedResponse(request, context, serving, target: .compressed)
        }
    }

    private static func feedResponse(_ request: Request, _ context: BasicRequestContext, _ serving: ServingContext,
                                     target: FeedTarget.Form) async throws -> Response {
        let query = QueryReader(request)
        _ = try query.lineup(serving.settings)
        let feed: FeedFiles.Feed
        switch await serving.feeds.feed(query.string("lineup") ?? "") {
        case .success(let found): feed = found
        case .failure(let unavailable): throw APIError(status: .serviceUnavailable, message: unavailable.reason)
        }
        let acceptsGzip = request.headers[values: .acceptEncoding].contains(where: ContentCoding.acceptsGzip)
        let (file, encoded) = target.file(of: feed, acceptsGzip: acceptsGzip)
        let answer = FeedAnswer(file, head: request.method == .head, encoded: encoded, negotiated: target == .plain, maxAge: APICaching.feed,
                                now: Int(Date().timeIntervalSince1970)) { name in
            HTTPField.Name(name).flatMap { request.headers[values: $0].isEmpty ? nil : request.headers[values: $0].joined(separator: ", ") }
        }
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let name = HTTPField.Name(name) { headers.append(HTTPField(name: name, value: value)) }
        }
        switch answer.status {
        case 412:
            return APIError.preconditionFailed(etag: file.etag)
        case 416:
            var response = APIError.body(status: .rangeNotSatisfiable, message: "Range: the feed is \(file.size) bytes")
            response.headers[.contentRange] = "bytes */\(file.size)"
            return response
        default:
            let status = HTTPResponse.Status(code: answer.status)
            guard let range = answer.body else { return Response(status: status, headers: headers) }
            let body = try await FileIO().loadFile(path: file.path, range: range.lowerBound...(range.upperBound - 1), context: context)
            return Response(status: status, headers: headers, body: body)
        }
    }
}

/// A request the fast lane may send a feed file for: `/xmltv.xml` or `/xmltv.xml.gz`, alone or
/// with `?lineup=NAME` of a known line-up written plainly (anything else goes to the router).
struct FeedTarget: Equatable {
    enum Form: Equatable {
        /// `/xmltv.xml`: plain, or gzip with `Content-Encoding` to a client that accepts it.
        case plain
        /// `/xmltv.xml.gz`: the gzip file as it is.
        case compressed

        func file(of feed: FeedFiles.Feed, acceptsGzip: Bool) -> (file: FeedFile, encoded: Bool) {
            switch self {
            case .plain: acceptsGzip ? (feed.compressed, true) : (feed.plain, false)
            case .compressed: (feed.compressed, false)
            }
        }
    }

    var form: Form
    /// The feed: "" for the whole guide, else the line-up's name.
    var key: String

    init?(_ target: String, lineups: [String: [String]]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        switch parts[0] {
        case "/xmltv.xml": form = .plain
        case "/xmltv.xml.gz": form = .compressed
        default: return nil
        }
        guard parts.count == 2 else {
            key = ""
            return
        }
        let query = parts[1]
        guard query.hasPrefix("lineup="), case let name = query.dropFirst(7), !name.isEmpty,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }),
              lineups[String(name)] != nil
        else { return nil }
        key = String(name)
    }

    /// The route whose metrics the answer counts in.
    var route: String { form == .plain ? "/xmltv.xml" : "/xmltv.xml.gz" }
}
