import Foundation
import GuideCore
import GuideTransport
import TestSupport
import TheTVDB

/// The key the fake server accepts.
let goodKey = "test-api-key-1234"

/// A fake TheTVDB v4 on loopback, in the real format: `POST /v4/login` takes `{"apikey", "pin"}`
/// and hands out a new token each time; every GET needs `Authorization: Bearer <a token it
/// issued>`; answers are `{"status": "success", "data": …}` envelopes.
///
/// `answers` holds each GET's `data` under its recording name (`search?query=Dark&type=series`,
/// `series/1/extended?meta=translations`, as `RecordingLayout` names them). A search
/// without an entry answers `[]`, any other request without one 404s, as TheTVDB does.
actor FakeTheTVDB {
    private let answers: [String: String]
    /// Answered before the normal answer, once each, per path (`/v4/search`): 500s, 429s.
    private var interruptions: [String: [LoopbackResponse]]
    /// Issues these tokens in turn, then `token-<n>`.
    private var scriptedTokens: [String]
    private var valid = Set<String>()
    private(set) var issued: [String] = []
    /// Every GET is refused with 401, whatever the token.
    private var refuseEveryGET = false

    init(_ answers: [String: String], interruptions: [String: [LoopbackResponse]] = [:], tokens: [String] = []) {
        self.answers = answers
        self.interruptions = interruptions
        self.scriptedTokens = tokens
    }

    nonisolated var handler: LoopbackHandler {
        { await self.answer($0) }
    }

    /// The tokens issued so far stop working, as when TheTVDB expires a token early.
    func revokeTokens() { valid.removeAll() }

    func refuseGETs() { refuseEveryGET = true }

    private func answer(_ request: LoopbackRequest) -> LoopbackResponse {
        if var queued = interruptions[request.path], !queued.isEmpty {
            let next = queued.removeFirst()
            interruptions[request.path] = queued
            return next
        }
        guard request.path.hasPrefix("/v4/") else { return .status(404) }
        let relative = String(request.path.dropFirst("/v4/".count))

        if relative == "login" {
            guard request.method == "POST",
                  let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: String],
                  body["apikey"] == goodKey
            else {
                return .json(#"{"status":"failure","message":"Unauthorized","data":null}"#, status: 401)
            }
            let token = scriptedTokens.isEmpty ? "token-\(issued.count + 1)" : scriptedTokens.removeFirst()
            issued.append(token)
            valid.insert(token)
            return success(#"{"token":"\#(token)"}"#)
        }

        guard request.method == "GET" else { return .status(405) }
        let bearer = request.headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard !refuseEveryGET, let bearer, valid.contains(bearer) else {
            return .json(#"{"status":"failure","message":"Unauthorized","data":null}"#, status: 401)
        }
        var query = URLComponents()
        query.percentEncodedQuery = request.query
        guard let name = RecordingLayout.fileName(
            path: relative.removingPercentEncoding ?? relative, percentEncodedQueryItems: query.percentEncodedQueryItems ?? [])
        else { return .status(404) }
        if let data = answers[name] { return success(data) }
        if relative == "search" { return success("[]") }
        return .json(#"{"status":"failure","message":"NotFoundException: Not Found","data":null}"#, status: 404)
    }

    private func success(_ data: String) -> LoopbackResponse {
        .json(#"{"status":"success","data":\#(data)}"#)
    }
}

/// Starts `fake` on loopback and runs `body` with its base URL (`http://127.0.0.1:PORT/v4/`).
func withFake<T: Sendable>(
    _ fake: FakeTheTVDB, log: RequestLog, _ body: (URL) async throws -> T
) async throws -> T {
    try await LoopbackServer.run(log: log, fake.handler) { root in
        try await body(root.appendingPathComponent("v4/", isDirectory: true))
    }
}

func provider(
    _ base: URL, key: String? = goodKey, pin: String? = nil, policy: TransportPolicy = .loopbackExact,
    clock: TestClock = TestClock()
) -> TheTVDBProvider {
    TheTVDBProvider(id: "thetvdb", baseURL: base, apiKey: key, pin: pin, transport: LiveTransport(policy: policy),
                    now: { clock.now })
}

/// Quick retries for the tests of 5xx and 429; a timeout no loaded machine reaches.
let retryPolicy = TransportPolicy(timeout: .seconds(60), retries: 2, backoffBase: .milliseconds(10))

/// A wall clock the test moves by hand. NSLock rather than `Mutex`, which needs macOS 15 while
/// the package supports macOS 14.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_792_900_800)) {
        current = start
    }

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }
}

/// A JWT (`header.payload.signature`, base64url) whose payload carries `exp`, as TheTVDB's are.
func jwt(exp: Date, id: Int) -> String {
    func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    let header = base64URL(#"{"alg":"RS256","typ":"JWT"}"#)
    let payload = base64URL(#"{"age":"","apikey":"redacted","id":"\#(id)","exp":\#(Int(exp.timeIntervalSince1970))}"#)
    return "\(header).\(payload).c2lnbmF0dXJl"
}

// MARK: - Records in the v4 format

enum Records {
    static let extendedQuery = "?meta=translations"

    static func seriesKey(_ id: Int) -> String { "series/\(id)/extended" + extendedQuery }
    static func movieKey(_ id: Int) -> String { "movies/\(id)/extended" + extendedQuery }

    /// One `search` result for a series, as TheTVDB sends it.
    static func searchResult(
        id: Int, name: String, year: String?, type: String = "series", aliases: [String] = [],
        translations: [String: String] = [:]
    ) -> String {
        let yearField = year.map { #""year":"\#($0)","first_air_time":"\#($0)-01-10","# } ?? ""
        let aliasList = aliases.map { #""\#($0)""# }.joined(separator: ",")
        let translationMap = translations.sorted { $0.key < $1.key }.map { #""\#($0.key)":"\#($0.value)""# }
            .joined(separator: ",")
        return #"""
        {"objectID":"\#(type)-\#(id)","aliases":[\#(aliasList)],"country":"esp","id":"\#(type)-\#(id)",\#
        "image_url":"https://artworks.thetvdb.com/banners/v4/\#(type)/\#(id)/posters/poster.jpg",\#
        "name":"\#(name)",\#(yearField)"overviews":{"eng":"An overview."},"primary_language":"spa",\#
        "primary_type":"\#(type)","status":"Ended","type":"\#(type)","tvdb_id":"\#(id)",\#
        "translations":{\#(translationMap)},"network":"La 1","remote_ids":[{"id":"tt00\#(id)","type":2,"sourceName":"IMDB"}],\#
        "thumbnail":"https://artworks.thetvdb.com/banners/v4/\#(type)/\#(id)/posters/poster_t.jpg"}
        """#
    }

    /// A minimal series record: a name, a year, and (when given) translations.
    static func series(
        id: Int, name: String, year: String = "2020", nameTranslations: [String: String] = [:],
        overviewTranslations: [String: String] = [:], overview: String? = nil
    ) -> String {
        let names = nameTranslations.sorted { $0.key < $1.key }
            .map { #"{"name":"\#($0.value)","language":"\#($0.key)","isPrimary":false}"# }.joined(separator: ",")
        let overviews = overviewTranslations.sorted { $0.key < $1.key }
            .map { #"{"overview":"\#($0.value)","language":"\#($0.key)","isPrimary":false}"# }.joined(separator: ",")
        let overviewField = overview.map { #""\#($0)""# } ?? "null"
        return #"""
        {"id":\#(id),"name":"\#(name)","slug":"\#(name.lowercased())","image":null,"nameTranslations":["spa","eng"],\#
        "overviewTranslations":["spa","eng"],"aliases":[],"firstAired":"\#(year)-01-10","lastAired":"","nextAired":"",\#
        "score":10,"status":{"id":1,"name":"Continuing","recordType":"series","keepUpdated":false},\#
        "originalCountry":"esp","originalLanguage":"spa","defaultSeasonType":1,"isOrderRandomized":false,\#
        "lastUpdated":"2025-01-01 00:00:00","averageRuntime":null,"episodes":null,"overview":\#(overviewField),\#
        "year":"\#(year)","artworks":null,"genres":[],"characters":null,"remoteIds":[],"seasons":[],\#
        "contentRatings":[],"translations":{"nameTranslations":[\#(names)],"overviewTranslations":[\#(overviews)],"alias":[]}}
        """#
    }

    /// Game of Thrones as `series/121361/extended?meta=translations` answers it, trimmed
    /// to the fields the provider reads plus a few it must skip over.
    static let gameOfThrones = #"""
    {"id":121361,"name":"Game of Thrones","slug":"game-of-thrones",\#
    "image":"https://artworks.thetvdb.com/banners/posters/121361-1.jpg","nameTranslations":["eng","spa","deu"],\#
    "overviewTranslations":["eng","spa"],"aliases":[{"language":"eng","name":"GoT"}],"firstAired":"2011-04-17",\#
    "lastAired":"2019-05-19","nextAired":"","score":5000,\#
    "status":{"id":2,"name":"Ended","recordType":"series","keepUpdated":false},"originalCountry":"usa",\#
    "originalLanguage":"eng","defaultSeasonType":1,"isOrderRandomized":false,"lastUpdated":"2024-06-01 10:00:00",\#
    "averageRuntime":58,"episodes":null,"overview":"Seven noble families fight for control of Westeros.",\#
    "year":"2011","airsTime":"21:00","airsDays":{"sunday":true,"monday":false,"tuesday":false,"wednesday":false,\#
    "thursday":false,"friday":false,"saturday":false},\#
    "originalNetwork":{"id":8,"name":"HBO","slug":"hbo","nameTranslations":[],"overviewTranslations":[],\#
    "aliases":[],"country":"usa","primaryCompanyType":1,"activeDate":null,"inactiveDate":null,\#
    "companyType":{"companyTypeId":1,"companyTypeName":"Network"},"parentCompany":{"id":null,"name":null,\#
    "relation":{"id":null,"typeName":null}},"tagOptions":null},\#
    "latestNetwork":{"id":9,"name":"Max","slug":"max"},\#
    "genres":[{"id":1,"name":"Drama","slug":"drama"},{"id":2,"name":"Fantasy","slug":"fantasy"},\#
    {"id":3,"name":"Adventure","slug":"adventure"}],\#
    "artworks":[\#
    {"id":1,"image":"https://artworks.thetvdb.com/banners/posters/121361-1.jpg","thumbnail":"https://artworks.thetvdb.com/banners/posters/121361-1_t.jpg","language":"eng","type":2,"score":100,"width":680,"height":1000,"includesText":true},\#
    {"id":2,"image":"https://artworks.thetvdb.com/banners/posters/121361-2.jpg","thumbnail":"","language":"spa","type":2,"score":300,"width":680,"height":1000,"includesText":true},\#
    {"id":3,"image":"/banners/fanart/original/121361-3.jpg","thumbnail":"","language":null,"type":3,"score":50,"width":1920,"height":1080},\#
    {"id":4,"image":"https://artworks.thetvdb.com/banners/fanart/original/121361-4.jpg","thumbnail":"","language":null,"type":3,"score":70,"width":1920,"height":1080},\#
    {"id":5,"image":"https://artworks.thetvdb.com/banners/graphical/121361-g.jpg","thumbnail":"","language":"eng","type":1,"score":10,"width":758,"height":140},\#
    {"id":6,"image":"https://artworks.thetvdb.com/banners/clearlogo/121361.png","thumbnail":"","language":"eng","type":23,"score":10,"width":800,"height":310}],\#
    "companies":[],"lists":[],"trailers":[],"tags":[],\#
    "remoteIds":[{"id":"tt0944947","type":2,"sourceName":"IMDB"},{"id":"1399","type":12,"sourceName":"TheMovieDB.com"},\#
    {"id":"http://www.hbo.com/game-of-thrones","type":4,"sourceName":"Official Website"}],\#
    "characters":[\#
    {"id":11,"name":"Tyrion Lannister","peopleId":301,"seriesId":121361,"series":null,"movie":null,"movieId":null,"episodeId":null,"type":3,"image":"https://artworks.thetvdb.com/banners/actors/tyrion.jpg","sort":1,"isFeatured":true,"url":"https://thetvdb.com/people/301","nameTranslations":null,"overviewTranslations":null,"aliases":null,"peopleType":"Actor","personName":"Peter Dinklage","tagOptions":null,"personImgURL":"https://artworks.thetvdb.com/banners/person/301.jpg"},\#
    {"id":12,"name":"Jon Snow","peopleId":302,"type":3,"image":"https://artworks.thetvdb.com/banners/actors/jon.jpg","sort":2,"peopleType":"Actor","personName":"Kit Harington","personImgURL":null},\#
    {"id":10,"name":"Daenerys Targaryen","peopleId":303,"type":3,"image":null,"sort":0,"peopleType":"Actor","personName":"Emilia Clarke","personImgURL":"https://artworks.thetvdb.com/banners/person/303.jpg"},\#
    {"id":13,"name":null,"peopleId":304,"type":1,"image":null,"sort":0,"peopleType":"Creator","personName":"David Benioff","personImgURL":null},\#
    {"id":14,"name":null,"peopleId":305,"type":2,"image":null,"sort":0,"peopleType":"Director","personName":"Alan Taylor","personImgURL":null},\#
    {"id":15,"name":"Hodor","peopleId":306,"type":4,"image":null,"sort":3,"peopleType":"Guest Star","personName":"Kristian Nairn","personImgURL":null}],\#
    "seasons":[\#
    {"id":1,"seriesId":121361,"type":{"id":1,"name":"Aired Order","type":"official","alternateName":null},"number":0,"nameTranslations":[],"overviewTranslations":[],"image":null,"imageType":null,"companies":{},"lastUpdated":""},\#
    {"id":2,"seriesId":121361,"type":{"id":1,"name":"Aired Order","type":"official","alternateName":null},"number":1},\#
    {"id":3,"seriesId":121361,"type":{"id":1,"name":"Aired Order","type":"official","alternateName":null},"number":2},\#
    {"id":4,"seriesId":121361,"type":{"id":2,"name":"DVD Order","type":"dvd","alternateName":null},"number":1},\#
    {"id":5,"seriesId":121361,"type":{"id":1,"name":"Aired Order","type":"official","alternateName":null},"number":3}],\#
    "contentRatings":[{"id":1,"name":"TV-MA","country":"usa","description":"","contentType":"","order":0,"fullName":null},\#
    {"id":2,"name":"18","country":"esp","description":"","contentType":"","order":0,"fullName":null}],\#
    "seasonTypes":[{"id":1,"name":"Aired Order","type":"official","alternateName":null}],\#
    "translations":{"nameTranslations":[\#
    {"name":"Game of Thrones","language":"eng","isPrimary":true},\#
    {"name":"Juego de tronos","language":"spa","isPrimary":false},\#
    {"name":"Canción de hielo y fuego","language":"spa","isAlias":true,"isPrimary":false},\#
    {"name":"Das Lied von Eis und Feuer","language":"deu","isPrimary":false}],\#
    "overviewTranslations":[\#
    {"overview":"Seven noble families fight for control of Westeros.","language":"eng","isPrimary":true},\#
    {"overview":"Siete familias nobles luchan por el control de Poniente.","language":"spa","isPrimary":false}],\#
    "alias":["GoT"]}}
    """#
}
