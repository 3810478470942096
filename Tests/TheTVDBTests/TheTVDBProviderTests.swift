import Foundation
import GuideCore
import GuideTransport
import TestSupport
import TheTVDB
import Testing

@Suite("TheTVDB lookups against a fake v4 API")
struct LookupTests {
    static let thronesSearch = "search?query=Juego%20de%20tronos&type=series&year=2011"

    @Test("search then the extended record, mapped field by field, in Spanish")
    func searchAndExtended() async throws {
        let fake = FakeTheTVDB([
            Self.thronesSearch: "[" + Records.searchResult(
                id: 121361, name: "Game of Thrones", year: "2011", translations: ["spa": "Juego de tronos", "eng": "Game of Thrones"]
            ) + "]",
            Records.seriesKey(121361): Records.gameOfThrones,
        ])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            let thetvdb = provider(base, pin: "4321")
            return try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Juego de tronos", year: 2011))
        }

        #expect(lookup.match == MetadataMatch(method: .exact, confidence: 0.95, providerID: "121361", title: "Juego de tronos"))
        let metadata = try #require(lookup.metadata)
        #expect(metadata.title == "Juego de tronos")
        #expect(metadata.originalTitle == "Game of Thrones")
        #expect(metadata.overview == "Siete familias nobles luchan por el control de Poniente.")
        #expect(metadata.originalLanguage == "en")
        #expect(metadata.countries == ["US"])
        #expect(metadata.year == 2011)
        #expect(metadata.released == "2011-04-17")
        #expect(metadata.genres == ["Drama", "Fantasy", "Adventure"])
        #expect(metadata.runtime == 58)
        #expect(metadata.status == "Ended")
        #expect(metadata.network == "HBO")
        #expect(metadata.contentRating == "18")
        #expect(metadata.homepage == "http://www.hbo.com/game-of-thrones")
        #expect(metadata.seasons == 3)
        #expect(metadata.cast == [
            CastMember(name: "Emilia Clarke", character: "Daenerys Targaryen",
                       photo: "https://artworks.thetvdb.com/banners/person/303.jpg"),
            CastMember(name: "Peter Dinklage", character: "Tyrion Lannister",
                       photo: "https://artworks.thetvdb.com/banners/person/301.jpg"),
            CastMember(name: "Kit Harington", character: "Jon Snow", photo: "https://artworks.thetvdb.com/banners/actors/jon.jpg"),
        ])
        #expect(metadata.crew == [CrewMember(name: "David Benioff", job: "Creator"), CrewMember(name: "Alan Taylor", job: "Director")])
        #expect(metadata.poster == "https://artworks.thetvdb.com/banners/posters/121361-2.jpg")
        #expect(metadata.backdrop == "https://artworks.thetvdb.com/banners/fanart/original/121361-4.jpg")
        #expect(metadata.images == [
            ImageRef(url: "https://artworks.thetvdb.com/banners/graphical/121361-g.jpg", kind: "banner", width: 758, height: 140),
            ImageRef(url: "https://artworks.thetvdb.com/banners/posters/121361-2.jpg", kind: "poster", width: 680, height: 1000),
            ImageRef(url: "https://artworks.thetvdb.com/banners/posters/121361-1.jpg", kind: "poster", width: 680, height: 1000),
            ImageRef(url: "https://artworks.thetvdb.com/banners/fanart/original/121361-4.jpg", kind: "backdrop", width: 1920, height: 1080),
            ImageRef(url: "https://artworks.thetvdb.com/banners/fanart/original/121361-3.jpg", kind: "backdrop", width: 1920, height: 1080),
        ])
        #expect(metadata.providerIDs == ["thetvdb": "121361", "imdb": "tt0944947", "tmdb": "1399"])

        let requests = await log.requests
        #expect(requests.map { "\($0.method) \($0.path)?\($0.query ?? "")" } == [
            "POST /v4/login?",
            "GET /v4/search?query=Juego%20de%20tronos&type=series&year=2011",
            "GET /v4/series/121361/extended?meta=translations",
        ])
        let login = try #require(requests.first)
        #expect(login.headers["content-type"] == "application/json")
        let body = try #require(try JSONSerialization.jsonObject(with: login.body) as? [String: String])
        #expect(body == ["apikey": goodKey, "pin": "4321"])
        let token = try #require(await fake.issued.first)
        #expect(requests.dropFirst().allSatisfy { $0.headers["authorization"] == "Bearer \(token)" })
    }

    @Test("the overview missing in Spanish comes from English; the title stays Spanish")
    func fallbackLanguage() async throws {
        let fake = FakeTheTVDB([
            "search?query=Los%20Serrano&type=series": "[" + Records.searchResult(id: 70001, name: "Los Serrano", year: "2003") + "]",
            Records.seriesKey(70001): Records.series(
                id: 70001, name: "Los Serrano", year: "2003", nameTranslations: ["spa": "Los Serrano", "eng": "The Serranos"],
                overviewTranslations: ["eng": "A widower with three sons marries his school sweetheart."],
                overview: "Own overview, never shown while a translation exists."),
        ])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            try await provider(base).lookup(MetadataQuery(kind: .series, title: "Los Serrano"))
        }
        let metadata = try #require(lookup.metadata)
        #expect(metadata.title == "Los Serrano")
        #expect(metadata.originalTitle == nil)
        #expect(metadata.overview == "A widower with three sons marries his school sweetheart.")
        #expect(metadata.originalLanguage == "es")
        #expect(lookup.match?.method == .titleOnly)
    }

    @Test("without translations in either language, the record's own texts are used")
    func ownTexts() async throws {
        let fake = FakeTheTVDB([
            Records.seriesKey(70001): Records.series(
                id: 70001, name: "Los Serrano", year: "2003", nameTranslations: ["eng": "The Serranos"],
                overviewTranslations: ["eng": "A widower with three sons marries his school sweetheart."],
                overview: "Un viudo con tres hijos se casa con su novia del colegio."),
        ])
        let lookup = try await withFake(fake, log: RequestLog()) { base in
            try await TheTVDBProvider(id: "thetvdb", baseURL: base, apiKey: goodKey, language: "fra", fallbackLanguage: nil,
                                      transport: LiveTransport(policy: .loopbackExact))
                .lookup(MetadataQuery(kind: .series, title: "Los Serrano", providerIDs: ["thetvdb": "70001"]))
        }
        #expect(lookup.metadata?.title == "Los Serrano")
        #expect(lookup.metadata?.overview == "Un viudo con tres hijos se casa con su novia del colegio.")
    }

    @Test("a film: type=movie search, movies/{id}/extended, film artwork types and first release")
    func film() async throws {
        let record = #"""
        {"id":512,"name":"El laberinto del fauno","slug":"pans-labyrinth","image":"/banners/movies/512/posters/512.jpg",\#
        "year":"2006","runtime":118,"originalCountry":"mex","originalLanguage":"spa",\#
        "status":{"id":5,"name":"Released","recordType":"movie","keepUpdated":true},\#
        "first_release":{"country":"esp","date":"2006-10-11","detail":null},\#
        "genres":[{"id":10,"name":"Fantasy","slug":"fantasy"}],\#
        "artworks":[{"id":1,"image":"https://artworks.thetvdb.com/banners/movies/512/posters/a.jpg","type":14,"score":5,"width":680,"height":1000},\#
        {"id":2,"image":"https://artworks.thetvdb.com/banners/movies/512/backgrounds/b.jpg","type":15,"score":5,"width":1920,"height":1080}],\#
        "characters":[{"name":null,"peopleType":"Director","personName":"Guillermo del Toro","sort":0}],\#
        "remoteIds":[{"id":"tt0457430","type":2,"sourceName":"IMDB"},{"id":"1417","type":10,"sourceName":"TheMovieDB.com"}],\#
        "translations":{"nameTranslations":[{"name":"Pan's Labyrinth","language":"eng"}],\#
        "overviewTranslations":[{"overview":"En la España de 1944...","language":"spa"}]}}
        """#
        let fake = FakeTheTVDB([
            "search?query=El%20Laberinto%20Del%20Fauno&type=movie&year=2006":
                "[" + Records.searchResult(id: 512, name: "El laberinto del fauno", year: "2006", type: "movie") + "]",
            Records.movieKey(512): record,
        ])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            try await provider(base).lookup(MetadataQuery(kind: .movie, title: "El Laberinto Del Fauno", year: 2006))
        }
        let metadata = try #require(lookup.metadata)
        #expect(lookup.match?.method == .exact)
        // Only an English name is translated, but the film is Spanish: its own name is the Spanish title.
        #expect(metadata.title == "El laberinto del fauno")
        #expect(metadata.originalTitle == nil)
        #expect(metadata.overview == "En la España de 1944...")
        #expect(metadata.released == "2006-10-11")
        #expect(metadata.runtime == 118)
        #expect(metadata.countries == ["MX"])
        #expect(metadata.crew == [CrewMember(name: "Guillermo del Toro", job: "Director")])
        #expect(metadata.cast == nil)
        #expect(metadata.poster == "https://artworks.thetvdb.com/banners/movies/512/posters/a.jpg")
        #expect(metadata.backdrop == "https://artworks.thetvdb.com/banners/movies/512/backgrounds/b.jpg")
        #expect(metadata.providerIDs == ["thetvdb": "512", "imdb": "tt0457430", "tmdb": "1417"])
        #expect(await log.requests.map(\.path) == ["/v4/login", "/v4/search", "/v4/movies/512/extended"])
    }

    @Test("a guide's thetvdb id is looked up directly, without a search")
    func directID() async throws {
        let fake = FakeTheTVDB([Records.seriesKey(121361): Records.gameOfThrones])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            try await provider(base).lookup(
                MetadataQuery(kind: .series, title: "Juego de tronos (T1)", providerIDs: ["thetvdb": "121361"]))
        }
        #expect(lookup.match == MetadataMatch(method: .providerID, confidence: 1.0, providerID: "121361", title: "Juego de tronos"))
        #expect(await log.requests.map(\.path) == ["/v4/login", "/v4/series/121361/extended"])
    }

    @Test("a guide's thetvdb id that is not found (404) falls back to the title")
    func directIDNotFound() async throws {
        let fake = FakeTheTVDB([
            "search?query=Dark&type=series": "[" + Records.searchResult(id: 5, name: "Dark", year: "2017") + "]",
            Records.seriesKey(5): Records.series(id: 5, name: "Dark", year: "2017"),
        ])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            try await provider(base).lookup(MetadataQuery(kind: .series, title: "Dark", providerIDs: ["thetvdb": "999"]))
        }
        #expect(lookup.match?.providerID == "5")
        #expect(lookup.match?.method == .titleOnly)
        #expect(await log.requests.map(\.path) == [
            "/v4/login", "/v4/series/999/extended", "/v4/search", "/v4/series/5/extended",
        ])
    }

    @Test("a searched record that answers 404 is an http error")
    func recordNotFound() async throws {
        let fake = FakeTheTVDB(["search?query=Dark&type=series": "[" + Records.searchResult(id: 5, name: "Dark", year: "2017") + "]"])
        let log = RequestLog()
        let error = try await withFake(fake, log: log) { base in
            await providerError { _ = try await provider(base).lookup(MetadataQuery(kind: .series, title: "Dark")) }
        }
        guard case .http(404, let url)? = error else {
            Issue.record("expected HTTP 404, got \(String(describing: error))")
            return
        }
        #expect(url.hasSuffix("/v4/series/5/extended?meta=translations"))
    }

    @Test("no match with the year: the search is repeated without it, and the guide's year still picks among the results")
    func retryWithoutYear() async throws {
        let fake = FakeTheTVDB([
            "search?query=Velvet&type=series": "["
                + Records.searchResult(id: 3, name: "Velvet", year: "1990") + ","
                + Records.searchResult(id: 7, name: "Velvet", year: "2014") + "]",
            Records.seriesKey(7): Records.series(id: 7, name: "Velvet", year: "2014"),
        ])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            try await provider(base).lookup(MetadataQuery(kind: .series, title: "Velvet", year: 2016))
        }
        #expect(lookup.match?.method == .nearYear)
        #expect(lookup.match?.providerID == "7")
        #expect(await log.requests.map { $0.query ?? "" } == [
            "", "query=Velvet&type=series&year=2016", "query=Velvet&type=series", "meta=translations",
        ])
    }

    @Test("nothing found in either search is noMatch, with no record asked for")
    func noMatch() async throws {
        let fake = FakeTheTVDB([:])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            try await provider(base).lookup(MetadataQuery(kind: .series, title: "Sin título", year: 2020))
        }
        #expect(lookup == .noMatch)
        #expect(await log.requests.map(\.path) == ["/v4/login", "/v4/search", "/v4/search"])
    }
}

@Suite("TheTVDB title matching")
struct MatchingTests {
    @Test("two equally good results are rejected as ambiguous, and no record is fetched")
    func ambiguous() async throws {
        let fake = FakeTheTVDB([
            "search?query=Hierro&type=series&year=2019": "["
                + Records.searchResult(id: 361, name: "Hierro", year: "2019") + ","
                + Records.searchResult(id: 362, name: "HIERRO", year: "2019") + "]",
        ])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            try await provider(base).lookup(MetadataQuery(kind: .series, title: "Hierro", year: 2019))
        }
        #expect(lookup == .ambiguous(["361 Hierro (2019)", "362 HIERRO (2019)"]))
        #expect(await log.count(path: "/v4/series/361/extended") == 0)
        #expect(await log.count(path: "/v4/series/362/extended") == 0)
    }

    @Test("Hermanos and Hermanos (2024) are told apart by the year in the name")
    func yearSuffix() async throws {
        let results = "["
            + Records.searchResult(id: 80100, name: "Hermanos", year: "2009") + ","
            + Records.searchResult(id: 80200, name: "Hermanos (2024)", year: nil) + "]"
        let fake = FakeTheTVDB([
            "search?query=Hermanos&type=series&year=2024": results,
            "search?query=Hermanos&type=series&year=2009": results,
            "search?query=Hermanos%20%282024%29&type=series": results,
            Records.seriesKey(80100): Records.series(id: 80100, name: "Hermanos", year: "2009"),
            Records.seriesKey(80200): Records.series(id: 80200, name: "Hermanos (2024)", year: "2024"),
        ])
        let log = RequestLog()
        let (recent, older, byName) = try await withFake(fake, log: log) { base in
            let thetvdb = provider(base)
            return (
                try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Hermanos", year: 2024)),
                try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Hermanos", year: 2009)),
                try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Hermanos (2024)"))
            )
        }
        #expect(recent.match?.providerID == "80200")
        #expect(recent.match?.method == .exact)
        #expect(older.match?.providerID == "80100")
        #expect(older.match?.method == .exact)
        #expect(byName.match?.providerID == "80200")
        #expect(byName.match?.title == "Hermanos")
        // The year TheTVDB writes into the name is the record's year, not part of the title.
        #expect(byName.metadata?.title == "Hermanos")
        #expect(byName.metadata?.originalTitle == nil)
        #expect(byName.metadata?.year == 2024)
    }

    @Test("aliases and translations of a result are titles it can match by")
    func aliasesAndTranslations() async throws {
        let fake = FakeTheTVDB([
            "search?query=Money%20Heist&type=series&year=2017": "[" + Records.searchResult(
                id: 327417, name: "La casa de papel", year: "2017", aliases: ["Money Heist: The Phenomenon"],
                translations: ["eng": "Money Heist", "spa": "La casa de papel"]) + "]",
            "search?query=Money%20Heist%3A%20The%20Phenomenon&type=series&year=2017": "[" + Records.searchResult(
                id: 327417, name: "La casa de papel", year: "2017", aliases: ["Money Heist: The Phenomenon"]) + "]",
            Records.seriesKey(327417): Records.series(id: 327417, name: "La casa de papel", year: "2017"),
        ])
        let log = RequestLog()
        let (byTranslation, byAlias) = try await withFake(fake, log: log) { base in
            let thetvdb = provider(base)
            return (
                try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Money Heist", year: 2017)),
                try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Money Heist: The Phenomenon", year: 2017))
            )
        }
        #expect(byTranslation.match?.providerID == "327417")
        #expect(byAlias.match?.providerID == "327417")
        // One record fetch serves both lookups.
        #expect(await log.count(path: "/v4/series/327417/extended") == 1)
    }
}

@Suite("TheTVDB token handling")
struct TokenTests {
    static let dark = [
        "search?query=Dark&type=series": "[" + Records.searchResult(id: 5, name: "Dark", year: "2017") + "]",
        Records.seriesKey(5): Records.series(id: 5, name: "Dark", year: "2017"),
        Records.seriesKey(6): Records.series(id: 6, name: "Elite", year: "2018"),
        Records.seriesKey(8): Records.series(id: 8, name: "Las chicas del cable", year: "2017"),
    ]

    @Test("a rejected key (401 at login) is notConfigured, and the key is not tried again")
    func badKey() async throws {
        let fake = FakeTheTVDB(Self.dark)
        let log = RequestLog()
        let (first, second) = try await withFake(fake, log: log) { base in
            let thetvdb = provider(base, key: "wrong-key-5678")
            return (
                await providerError { _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Dark")) },
                await providerError { _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Elite")) }
            )
        }
        #expect(first == .notConfigured("TheTVDB rejected the API key (HTTP 401)"))
        #expect(second == first)
        #expect(await log.requests.map(\.path) == ["/v4/login"])
    }

    @Test("no API key against a live server: the login is refused and the provider is not configured")
    func noKey() async throws {
        let log = RequestLog()
        let error = try await withFake(FakeTheTVDB(Self.dark), log: log) { base in
            await providerError { _ = try await provider(base, key: nil).lookup(MetadataQuery(kind: .series, title: "Dark")) }
        }
        #expect(error == .notConfigured("TheTVDB needs an API key (its login refused none, HTTP 401)"))
        #expect(await log.requests.map(\.path) == ["/v4/login"])
        let body = try #require(await log.requests.first?.body)
        #expect(try JSONSerialization.jsonObject(with: body) as? [String: String] == ["apikey": ""])
    }

    @Test("the token is reused until its JWT exp, then renewed by a second login")
    func expiry() async throws {
        let clock = TestClock()
        let fake = FakeTheTVDB(Self.dark, tokens: [
            jwt(exp: clock.now.addingTimeInterval(3600), id: 1), jwt(exp: clock.now.addingTimeInterval(7200), id: 2),
        ])
        let log = RequestLog()
        try await withFake(fake, log: log) { base in
            let thetvdb = provider(base, clock: clock)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Dark"))
            clock.advance(by: 3599)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Elite", providerIDs: ["thetvdb": "6"]))
            #expect(await log.count(path: "/v4/login") == 1)
            clock.advance(by: 1)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Las chicas del cable", providerIDs: ["thetvdb": "8"]))
            #expect(await thetvdb.reportNotes() == ["4 request(s): 4 from the network; 2 logins"])
        }
        let issued = await fake.issued
        #expect(issued.count == 2)
        #expect(await log.requests.map(\.path) == [
            "/v4/login", "/v4/search", "/v4/series/5/extended", "/v4/series/6/extended",
            "/v4/login", "/v4/series/8/extended",
        ])
        #expect(await log.requests.last?.headers["authorization"] == "Bearer \(issued[1])")
    }

    @Test("a token that is not a JWT is kept for 28 days")
    func opaqueTokenLifetime() async throws {
        let clock = TestClock()
        let fake = FakeTheTVDB(Self.dark)
        let log = RequestLog()
        try await withFake(fake, log: log) { base in
            let thetvdb = provider(base, clock: clock)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Dark", providerIDs: ["thetvdb": "5"]))
            clock.advance(by: 27 * 86_400)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Elite", providerIDs: ["thetvdb": "6"]))
            #expect(await log.count(path: "/v4/login") == 1)
            clock.advance(by: 86_400)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Dark"))
            #expect(await log.count(path: "/v4/login") == 2)
        }
    }

    @Test("a token whose exp is already past by this run's clock (a clock set ahead, --now) is kept 28 days, not renewed per request")
    func clockAheadOfTheServer() async throws {
        let clock = TestClock()
        let fake = FakeTheTVDB(Self.dark, tokens: [jwt(exp: clock.now.addingTimeInterval(-40 * 365 * 86_400), id: 1)])
        let log = RequestLog()
        try await withFake(fake, log: log) { base in
            let thetvdb = provider(base, clock: clock)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Dark"))
            clock.advance(by: 27 * 86_400)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Elite", providerIDs: ["thetvdb": "6"]))
            #expect(await log.count(path: "/v4/login") == 1)
            clock.advance(by: 86_400)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Las chicas del cable", providerIDs: ["thetvdb": "8"]))
            #expect(await log.count(path: "/v4/login") == 2)
        }
    }

    @Test("a 401 on a GET renews the token once and repeats the request")
    func unauthorizedGET() async throws {
        let fake = FakeTheTVDB(Self.dark)
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            let thetvdb = provider(base)
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Elite", providerIDs: ["thetvdb": "6"]))
            await fake.revokeTokens()
            return try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Dark"))
        }
        #expect(lookup.match?.providerID == "5")
        #expect(await log.requests.map(\.path) == [
            "/v4/login", "/v4/series/6/extended", "/v4/search", "/v4/login", "/v4/search", "/v4/series/5/extended",
        ])
        #expect(await log.requests[4].headers["authorization"] == "Bearer token-2")
    }

    @Test("a second 401 after renewing is notConfigured")
    func unauthorizedTwice() async throws {
        let fake = FakeTheTVDB(Self.dark)
        await fake.refuseGETs()
        let log = RequestLog()
        let error = try await withFake(fake, log: log) { base in
            await providerError { _ = try await provider(base).lookup(MetadataQuery(kind: .series, title: "Dark")) }
        }
        #expect(error == .notConfigured("TheTVDB rejected the API key (HTTP 401)"))
        #expect(await log.requests.map(\.path) == ["/v4/login", "/v4/search", "/v4/login", "/v4/search"])
    }

    @Test("concurrent lookups share one login, and lookups of one record share one request")
    func concurrentLookups() async throws {
        var answers = Self.dark
        for id in 10..<16 {
            answers[Records.seriesKey(id)] = Records.series(id: id, name: "Serie \(id)")
        }
        let fake = FakeTheTVDB(answers)
        let log = RequestLog()
        let titles = try await withFake(fake, log: log) { base in
            let thetvdb = provider(base)
            return try await withThrowingTaskGroup(of: String?.self) { group in
                for id in 10..<16 {
                    for _ in 0..<3 {
                        group.addTask {
                            try await thetvdb.lookup(MetadataQuery(kind: .series, title: "x", providerIDs: ["thetvdb": "\(id)"]))
                                .metadata?.title
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1 ?? "-") }.sorted()
            }
        }
        #expect(titles == (10..<16).flatMap { id in Array(repeating: "Serie \(id)", count: 3) })
        #expect(await log.count(path: "/v4/login") == 1)
        #expect(await log.count == 7)
    }
}

@Suite("TheTVDB failures")
struct FailureTests {
    static let dark = TokenTests.dark

    @Test("a 429 with Retry-After is waited out and the search succeeds")
    func rateLimited() async throws {
        let fake = FakeTheTVDB(Self.dark, interruptions: ["/v4/search": [.status(429, headers: ["Retry-After": "1"])]])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            try await provider(base, policy: retryPolicy).lookup(MetadataQuery(kind: .series, title: "Dark"))
        }
        #expect(lookup.match?.providerID == "5")
        #expect(await log.count(path: "/v4/search") == 2)
    }

    @Test("a 500 is retried and the record then read")
    func serverError() async throws {
        let fake = FakeTheTVDB(Self.dark, interruptions: ["/v4/series/5/extended": [.status(500)]])
        let log = RequestLog()
        let lookup = try await withFake(fake, log: log) { base in
            try await provider(base, policy: retryPolicy).lookup(MetadataQuery(kind: .series, title: "Dark"))
        }
        #expect(lookup.metadata?.title == "Dark")
        #expect(await log.count(path: "/v4/series/5/extended") == 2)
    }

    @Test("a body that is not JSON is malformed, naming the URL")
    func malformedJSON() async throws {
        let fake = FakeTheTVDB(Self.dark, interruptions: ["/v4/series/5/extended": [.json(#"{"status":"success","data":{"id":5,"#)]])
        let log = RequestLog()
        let (error, retried) = try await withFake(fake, log: log) { base in
            let thetvdb = provider(base)
            let error = await providerError { _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Dark")) }
            // The failure is not remembered: the next lookup asks again and gets the record.
            let retried = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Dark"))
            return (error, retried)
        }
        let detail = try #require(error.flatMap { if case .malformed(let detail) = $0 { detail } else { nil } })
        #expect(detail.contains("/v4/series/5/extended?meta=translations"))
        #expect(detail.contains("not valid JSON"))
        #expect(retried.metadata?.title == "Dark")
    }

    @Test("an envelope whose status is not success is malformed")
    func failureStatus() async throws {
        let fake = FakeTheTVDB(Self.dark, interruptions: [
            "/v4/search": [.json(#"{"status":"failure","message":"InvalidQuery","data":null}"#)],
        ])
        let log = RequestLog()
        let error = try await withFake(fake, log: log) { base in
            await providerError { _ = try await provider(base).lookup(MetadataQuery(kind: .series, title: "Dark")) }
        }
        let detail = try #require(error.flatMap { if case .malformed(let detail) = $0 { detail } else { nil } })
        #expect(detail.hasSuffix(#"/v4/search?query=Dark&type=series: status "failure" (InvalidQuery)"#))
    }

    @Test("neither the key nor the token appears in an error or a note")
    func secretsStayOut() async throws {
        let fake = FakeTheTVDB(Self.dark, interruptions: ["/v4/series/5/extended": [.json("not json")]])
        let log = RequestLog()
        let (error, notes) = try await withFake(fake, log: log) { base in
            let thetvdb = provider(base)
            let error = await providerError { _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Dark")) }
            return (error, await thetvdb.reportNotes())
        }
        let text = "\(String(describing: error)) \(notes)"
        #expect(error?.kind == "malformed")
        #expect(!text.contains(goodKey))
        #expect(!text.contains("token-1"))
        #expect(notes == ["2 request(s): 2 from the network; 1 login"])
    }
}
