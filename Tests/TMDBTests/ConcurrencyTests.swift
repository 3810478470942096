import Foundation
import GuideCore
import GuideTransport
import TestSupport
import TMDB
import Testing

@Suite("TMDB shared requests")
struct ConcurrencyTests {
    @Test("the configuration is fetched once across many concurrent lookups, and not again later")
    func configurationOnce() async throws {
        let log = RequestLog()
        // Held back so that every lookup asks for it while the first request is still out.
        let slowConfiguration = recorded(after: .milliseconds(500))
        let queries = [
            film("Titanic", year: 1997), film("Titanic", year: 1953), film("El Laberinto Del Fauno", year: 2006),
            film("Starsky y Hutch", year: 2004), film("Alien", year: 1980), series("Los Simpson", year: 1989),
        ]
        let found = try await withFakeTMDB(log: log, overrides: ["/3/configuration": slowConfiguration]) { tmdb in
            let concurrent = try await withThrowingTaskGroup(of: String?.self) { group in
                for query in queries {
                    group.addTask { try await tmdb.lookup(query).match?.providerID }
                }
                return try await group.reduce(into: Set<String>()) { ids, id in if let id { ids.insert(id) } }
            }
            let later = try await tmdb.lookup(film("Titanic", tmdb: "597")).match?.providerID
            return concurrent.union([later].compactMap { $0 })
        }
        #expect(found == ["597", "16535", "1417", "9384", "348", "456"])
        #expect(await log.count(path: "/3/configuration") == 1)
    }

    @Test("concurrent lookups of the same work share one details request")
    func detailsCoalesced() async throws {
        let log = RequestLog()
        // Held back so that the lookups overlap while it is in flight.
        let slowDetails = recorded(after: .seconds(1))
        let (lookups, notes) = try await withFakeTMDB(log: log, overrides: ["/3/movie/597": slowDetails]) { tmdb in
            let lookups = try await withThrowingTaskGroup(of: MetadataLookup.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await tmdb.lookup(film("Titanic", tmdb: "597")) }
                }
                return try await group.reduce(into: [MetadataLookup]()) { $0.append($1) }
            }
            return (lookups, await tmdb.reportNotes())
        }
        #expect(lookups.count == 8)
        #expect(Set(lookups).count == 1)
        #expect(lookups.first?.metadata?.title == "Titanic")
        #expect(await log.count(path: "/3/movie/597") == 1)
        #expect(notes == ["2 request(s): 2 from the network"])
    }
}
