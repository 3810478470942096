import Foundation
import GuideCore
import GuideTransport
import TestSupport
import TMDB
import Testing

@Suite("TMDB from recordings")
struct ReplayTests {
    private func recordedTMDB() -> TMDBProvider {
        TMDBProvider(
            id: "tmdb-recorded", credentials: .none,
            transport: ReplayTransport(root: casesFolder, baseURL: recordedBaseURL))
    }

    @Test("a film and a series answered from the recordings, and the report says so")
    func replay() async throws {
        let tmdb = recordedTMDB()
        let titanic = try await tmdb.lookup(film("Titanic", year: 1997))
        let simpsons = try await tmdb.lookup(series("Los Simpson", year: 1989))

        #expect(titanic.match == MetadataMatch(method: .exact, confidence: 0.95, providerID: "597", title: "Titanic"))
        #expect(titanic.metadata?.poster == imageBase + "w500/toJrSb59OYl59Nb9Wrcck0YbxVQ.jpg")
        #expect(simpsons.metadata?.providerIDs?["thetvdb"] == "71663")
        // configuration + search + details, then search + details.
        #expect(await tmdb.reportNotes() == ["5 request(s): 5 from recordings"])
    }

    @Test("an id without a recording falls back to the title search, which is recorded")
    func unrecordedID() async throws {
        let tmdb = recordedTMDB()
        let lookup = try await tmdb.lookup(film("Starsky y Hutch", year: 2004, tmdb: "1"))
        #expect(lookup.match?.providerID == "9384")
        #expect(await tmdb.reportNotes() == ["4 request(s): 3 from recordings, 1 failed"])
    }

    @Test("a query with neither a title nor a usable TMDB id is no match, without a request")
    func nothingToAsk() async throws {
        let tmdb = recordedTMDB()
        #expect(try await tmdb.lookup(film("  ", tmdb: "tt0120338")) == .noMatch)
        #expect(await tmdb.reportNotes() == ["no requests"])
    }

    @Test("a search without a recording fails as not found, naming the file to add")
    func unrecordedSearch() async throws {
        let tmdb = recordedTMDB()
        let error = await providerError { _ = try await tmdb.lookup(film("Vertigo", year: 1958)) }
        guard case .notFound(let detail) = error else {
            Issue.record("expected not found, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("search/movie?language=es-ES&query=Vertigo&year=1958"))
    }
}
