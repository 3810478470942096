import Foundation
import GuideCore
import Hummingbird
import Logging

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

    /// `{"error":{"message":…,"status":…}}`.
    static func json(status: Int, message: String) -> [UInt8] {
        Array((try? JSONRendering.encode(Body(error: .init(status: status, message: message)), timeZone: .gmt)) ?? Data())
    }
}

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

/// Typed access to a request's query: each reader either returns a valid value or throws a 400
/// that names the parameter and what was wrong with it.
struct QueryReader {
    let parameters: Parameters

    init(_ request: Request) {
        parameters = request.uri.queryParameters
    }

    func string(_ name: String) -> String? {
        parameters[name[...]].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A free text parameter (a type, a genre): at most `APILimits.queryText` characters.
    func text(_ name: String) throws -> String? {
        guard let text = string(name) else { return nil }
        guard text.count <= APILimits.queryText else {
            throw APIError.badParameter(name, "\(text.count) characters, at most \(APILimits.queryText) are allowed")
        }
        return text
    }

    /// Every value of a repeated parameter, in order.
    func all(_ name: String) -> [String] {
        parameters.getAll(name).map { String($0) }.filter { !$0.isEmpty }
    }

    /// A comma-separated list, also given by repeating the parameter.
    func list(_ name: String) -> [String]? {
        let values = all(name).flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        return values.isEmpty ? nil : values
    }

    func int(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws -> Int {
        try int(name, in: range) ?? fallback
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else { throw APIError.badParameter(name, "\(Quoted(text)) is not a whole number") }
        guard range.contains(value) else {
            throw APIError.badParameter(name, "\(value) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// `tz`: an IANA zone (`Europe/Madrid`) for rendering times; UTC when absent.
    func timeZone() throws -> TimeZone {
        guard let name = string("tz") else { return .gmt }
        return try Self.zone(named: name)
    }

    /// The zone `tz` names, when it is one of `zoneNames`.
    static func zone(named name: String) throws -> TimeZone {
        guard zoneNames.contains(name), let zone = TimeZone(identifier: name) else {
            throw APIError.badParameter("tz", "\(Quoted(name)) is not a known time zone (e.g. Europe/Madrid)")
        }
        return zone
    }

    /// The names `tz` takes, the `TimeZoneName` enumeration of openapi.yaml: Foundation's canonical
    /// zones and `UTC`. `TimeZone(identifier:)` alone also takes aliases, abbreviations (`EST`)
    /// and offsets (`GMT+1`), which no document could list.
    static let zoneNames = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"])

    /// A moment: an ISO 8601 time (`2026-10-25T20:00:00Z`, `…+01:00`), or a local time or day
    /// without an offset, read in `timeZone`.
    func time(_ name: String, in timeZone: TimeZone) throws -> Date? {
        guard let text = string(name) else { return nil }
        // `ISOTime.parse` reads a time without an offset as UTC; here that is a local time.
        let hasOffset = text.hasSuffix("Z") || text.dropFirst(19).contains { $0 == "+" || $0 == "-" }
        if text.utf8.count == 10 { return try Self.checkedDay(text, name: name).interval(in: timeZone).start }
        let moment: Date
        if hasOffset, let date = ISOTime.parse(text) {
            moment = date
        } else if let local = ISOTime.parse(text + "Z") {
            moment = CivilTime.instant(wallClock: Int(local.timeIntervalSince1970), in: timeZone)
        } else {
            throw APIError.badParameter(name, "\(Quoted(text)) is not an ISO 8601 time or YYYY-MM-DD")
        }
        guard Self.years.contains(CivilTime.components(epochSeconds: Int(moment.timeIntervalSince1970)).year) else {
            throw APIError.badParameter(name, "\(Quoted(text)) is outside the years \(Self.years.lowerBound)–\(Self.years.upperBound) the guide serves")
        }
        return moment
    }

    /// A day of the calendar (`2026-02-30` is not one), in the years the API serves.
    func day(_ name: String) throws -> Day? {
        guard let text = string(name) else { return nil }
        return try Self.checkedDay(text, name: name)
    }

    /// The years a date or time parameter may name. Outside them Foundation's calendar switches to
    /// the Julian one (before 1583, a day would end before it starts) or day arithmetic overflows;
    /// a guide has nothing to say about them anyway. Checked once, here, for every route.
    static let years = 1900...2199

    static func checkedDay(_ text: String, name: String) throws -> Day {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element) }),
              let day = Day(text)
        else { throw APIError.badParameter(name, "\(Quoted(text)) is not a date (YYYY-MM-DD)") }
        guard years.contains(day.year) else {
            throw APIError.badParameter(name, "\(day) is outside the years \(years.lowerBound)–\(years.upperBound) the guide serves")
        }
        guard day.adding(days: 0) == day else { throw APIError.badParameter(name, "\(day) is not a day of the calendar") }
        return day
    }

    /// `limit` and `offset` for lists.
    func page(defaultLimit: Int = PageLimits.defaultLimit) throws -> PageRequest {
        PageRequest(limit: try int("limit", default: defaultLimit, in: 1...PageLimits.maximum),
                    offset: try int("offset", default: 0, in: 0...Int(Int32.max)))
    }
}

enum PageLimits {
    static let defaultLimit = 100
    static let maximum = 1_000
}

struct PageRequest: Sendable, Hashable {
    var limit: Int
    var offset: Int
}

/// One page of a list: the items and where they sit in the whole.
struct Page<Item: Encodable>: Encodable {
    var total: Int
    var offset: Int
    var limit: Int
    var items: [Item]

    init(_ all: [Item], _ request: PageRequest) {
        total = all.count
        offset = request.offset
        limit = request.limit
        let start = min(request.offset, all.count)
        items = Array(all[start..<min(all.count, start + request.limit)])
    }
}
