import Foundation
import GuideCore
import GuideTransport
import TestSupport
import TMDB
import Testing

@Suite("TMDB title matching")
struct MatchingTests {
    @Test("remakes: the year picks the film", arguments: [(1997, "597"), (1953, "16535")])
    func remakeWithYear(year: Int, expectedID: String) async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(film("Titanic", year: year))
        }
        #expect(lookup.match == MetadataMatch(method: .exact, confidence: 0.95, providerID: expectedID, title: "Titanic"))
        #expect(lookup.metadata?.year == year)
    }

    @Test("remakes without a year are ambiguous: no details are fetched and the candidates are named")
    func remakeWithoutYear() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(film("Titanic"))
        }
        #expect(lookup == .ambiguous(["597 Titanic (1997)", "16535 Titanic (1953)"]))
        #expect(await log.requests.map(\.path) == ["/3/configuration", "/3/search/movie"])
    }

    @Test("two equally good series in one search are rejected as ambiguous")
    func equallyGoodSeries() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(series("Hermanos", year: 2024))
        }
        #expect(lookup == .ambiguous(["245703 Hermanos (2024)", "259557 Hermanos (2024)"]))
        #expect(await log.count(path: "/3/search/tv") == 1)
        #expect(await log.requests.allSatisfy { !$0.path.hasPrefix("/3/tv/") })
    }

    @Test("accents and capitals do not count: El Laberinto Del Fauno is El laberinto del fauno")
    func accentsAndCase() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(film("El Laberinto Del Fauno", year: 2006))
        }
        #expect(lookup.match == MetadataMatch(method: .exact, confidence: 0.95, providerID: "1417", title: "El laberinto del fauno"))
        #expect(await log.queries(path: "/3/search/movie") == [
            "api_key=\(testKey)&query=El%20Laberinto%20Del%20Fauno&language=es-ES&year=2006",
        ])
    }

    @Test("`y` in the guide matches `&` at TMDB")
    func ampersand() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(film("Starsky y Hutch", year: 2004))
        }
        #expect(lookup.match == MetadataMatch(method: .exact, confidence: 0.95, providerID: "9384", title: "Starsky & Hutch"))
    }

    @Test("a year that finds nothing is dropped and the search repeated; the year within ±2 then decides")
    func searchAgainWithoutYear() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(film("Alien", year: 1980))
        }
        let match = try #require(lookup.match)
        #expect(match.method == .nearYear)
        #expect(match.providerID == "348")
        #expect(abs(match.confidence - 0.70) < 1e-9)
        #expect(match.title == "Alien, el octavo pasajero")
        #expect(await log.queries(path: "/3/search/movie") == [
            "api_key=\(testKey)&query=Alien&language=es-ES&year=1980",
            "api_key=\(testKey)&query=Alien&language=es-ES",
        ])
        #expect(await log.requests.last?.path == "/3/movie/348")
    }

    @Test("nothing found with or without the year is no match, and no details are asked for")
    func noMatch() async throws {
        let log = RequestLog()
        let empty: LoopbackHandler = { _ in .json(#"{"page":1,"results":[],"total_pages":0,"total_results":0}"#) }
        let lookup = try await withFakeTMDB(log: log, overrides: ["/3/search/movie": empty]) { tmdb in
            try await tmdb.lookup(film("Una película que no existe", year: 2020))
        }
        #expect(lookup == .noMatch)
        #expect(await log.requests.map(\.path) == ["/3/configuration", "/3/search/movie", "/3/search/movie"])
    }

    @Test("an id TMDB does not know (404) falls back to the title search")
    func unknownIDThenSearch() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log, overrides: ["/3/movie/99999999": { _ in resourceNotFound }]) { tmdb in
            try await tmdb.lookup(film("Titanic", year: 1997, tmdb: "99999999"))
        }
        #expect(lookup.match == MetadataMatch(method: .exact, confidence: 0.95, providerID: "597", title: "Titanic"))
        #expect(await log.requests.map(\.path) == ["/3/configuration", "/3/movie/99999999", "/3/search/movie", "/3/movie/597"])
    }
}
