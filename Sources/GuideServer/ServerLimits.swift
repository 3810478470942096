import Foundation
import Hummingbird
import NIOHTTP1

/// What one client may ask of the server and how long it may take: past these, a request gets an
/// error (JSON, or the web guide's HTML page on its paths: `RefusalBody`) and its connection is closed, or the connection is closed without a word where
/// there is no request to answer (an idle keep-alive, a client that stopped reading). Each bound
/// is what keeps a misbehaving client from holding memory or a connection for long; none comes
/// near what the guide's own pages, feeds and API clients send.
package struct ServerLimits: Sendable, Hashable {
    /// The request target (path and query), bytes; longer is a 414.
    package var uriBytes = 8 * 1_024
    /// The header fields, bytes (each name and value, plus 4 for `: ` and CRLF); more is a 431.
    package var headerBytes = 16 * 1_024
    /// Header fields; more is a 431.
    package var headerFields = 100
    /// The request head as the HTTP parser reads it (request line and fields): past this it stops
    /// reading and the request gets a 431, so that no head, however long, is held whole.
    package var headBytes = 64 * 1_024
    /// A request body, bytes. The routes take none: a body declared longer, or one sent chunked
    /// (of a length not known in advance), is a 413 before any of it is read.
    package var bodyBytes = 1_024
    /// Query parameters, a repeated one counting each time; more is a 400.
    package var queryParameters = 128
    /// From the connection's opening, or the first byte of a later request, to the end of that
    /// request: a client that trickles its head (slowloris) gets a 408 and is disconnected.
    package var requestTimeout: Duration = .seconds(10)
    /// Keep-alive: a connection with no request under way this long after its last answer is closed.
    package var idleTimeout: Duration = .seconds(30)
    /// A client that stops reading its answers (the socket's send buffer stays full) is disconnected.
    package var writeTimeout: Duration = .seconds(30)
    /// After a refusal the connection reads and drops what the client still sends for this long
    /// before closing, so that the client reads the refusal rather than a reset.
    package var lingerTime: Duration = .seconds(2)

    package init() {}

    /// NIO's parser holds a head up to `headBytes`; `ConnectionGuard` applies the finer limits.
    var decoderLimits: NIOHTTPDecoderLimitConfiguration {
        var configuration = NIOHTTPDecoderLimitConfiguration()
        configuration.maxHeaderFieldSize = headBytes
        configuration.maxHeaderListSize = headBytes
        configuration.maxHeaderFieldCount = headerFields * 2
        return configuration
    }

    /// The single-valued parameters some route reads (the query parameters of `/openapi.yaml`
    /// less the lists of ids, `channels` and `programme`, which may repeat; a test holds the two
    /// together): one given twice is a 400, so that `hours=1&hours=100` cannot mean one thing to
    /// a proxy and another to the server. No route reads any other, so a shared link's repeated
    /// `utm_source` changes nothing and is let through.
    static let singleValuedParameters: Set<Substring> = [
        "alarm", "all", "at", "back", "date", "from", "genre", "hours", "kind", "lang", "limit", "lineup", "offset", "q", "set", "shown",
        "title", "to", "tonight", "type", "tz", "view", "year_from", "year_to",
    ]

    /// The parameters that may repeat: lists of ids, channels, titles, kinds and genres.
    static let listParameters: Set<Substring> = ["channel", "channels", "dislikes", "genres", "kinds", "likes", "programme", "saved", "series"]
    /// Those of them whose values are also comma-separated (ids, kinds and genres; titles may hold commas).
    static let commaSeparatedParameters: Set<Substring> = ["channel", "channels", "genres", "kinds", "programme"]

    /// The web guide's form fields whose empty value is a choice ("every genre", "all channels"),
    /// by path: the only parameters an empty value is allowed for (openapi.yaml says so of each).
    static let emptyChoices: [Substring: Set<Substring>] = ["/coming-up": ["genre"], "/my-channels/save": ["lineup"]]
}

/// The query limits, checked before routing: `ServerLimits.queryParameters`, no repeats of a
/// single-valued parameter, and no empty value (`tz=`) of a parameter a route reads: a 400, as
/// any malformed value is, but for the form choices of `ServerLimits.emptyChoices`. The fast
/// lane records only the router's 200s, so it never answers a target refused here.
struct QueryLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limits: ServerLimits

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let query = request.uri.query, !query.isEmpty else { return try await next(request, context) }
        let parameters = request.uri.queryParameters
        guard parameters.count <= limits.queryParameters else {
            throw APIError(status: .badRequest, message: "\(parameters.count) query parameters, at most \(limits.queryParameters) are allowed")
        }
        var seen = Set<Substring>()
        for (name, _) in parameters where ServerLimits.singleValuedParameters.contains(name) {
            guard seen.insert(name).inserted else {
                throw APIError.badParameter(String(name.prefix(APILimits.echoedText)), "given more than once; give it once")
            }
        }
        let choices = ServerLimits.emptyChoices[request.uri.path[...]] ?? []
        if let (name, _) = parameters.first(where: { $0.value.isEmpty && Self.isRead($0.key) && !choices.contains($0.key) }) {
            throw APIError.badParameter(String(name), "empty; give a value or leave the parameter out")
        }
        // A list's items are comma-separated: `channels=a,,b` holds an empty one, refused the same way.
        if let (name, _) = parameters.first(where: { ServerLimits.commaSeparatedParameters.contains($0.key) && Self.hasEmptyItem($0.value) }) {
            throw APIError.badParameter(String(name), "an empty item in the list; separate the values with single commas")
        }
        return try await next(request, context)
    }

    /// Whether a comma-separated value has an item of nothing but white space.
    private static func hasEmptyItem(_ value: Substring) -> Bool {
        value.contains(",") && value.split(separator: ",", omittingEmptySubsequences: false).contains { $0.allSatisfy(\.isWhitespace) }
    }

    private static func isRead(_ name: Substring) -> Bool {
        ServerLimits.singleValuedParameters.contains(name) || ServerLimits.listParameters.contains(name)
    }
}
