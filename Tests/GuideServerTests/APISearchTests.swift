import Foundation
import GuideCore
import GuideServer
import Testing

/// `/upcoming`, `/search` and the audience rankings.
@Suite struct APISearchTests {
    @Test func upcomingFilmsFromNowByStartThenChannel() async throws {
        try await ServerHarness.run { client in
            let body = try await client.get("/upcoming?kind=movie&limit=3").object()
            #expect(body["total"] as? Int == 176)
            #expect(try items(body).compactMap { $0["id"] as? String }
                == ["Atreseries.es@20261021T200000Z", "BeMad.es@20261021T200000Z", "La2.es@20261021T200000Z"])

            // Without a kind, everything from now: the 19:00 programmes come first.
            let everything = try await client.get("/upcoming?limit=1").object()
            #expect(try items(everything).first?["start"] as? String == "2026-10-21T19:00:00Z")
            #expect(everything["total"] as? Int == ServerHarness.golden.programmes.filter { $0.start >= ServerHarness.goldenNow }.count)
        }
    }

    @Test func upcomingFiltersByGenreYearsChannelsAndStart() async throws {
        try await ServerHarness.run { client in
            // The genre matches whole, ignoring accents and case.
            let scienceFiction = try await client.get("/upcoming?kind=movie&genre=CIENCIA%20FICCION").object()
            #expect(scienceFiction["total"] as? Int == 19)
            #expect(try items(scienceFiction).allSatisfy { ($0["genres"] as? [String])?.contains("Ciencia ficción") == true })
            #expect(try await client.get("/upcoming?genre=ciencia").object()["total"] as? Int == 0)

            let nineties = try await client.get("/upcoming?kind=movie&year_from=1990&year_to=1999").object()
            #expect(nineties["total"] as? Int == 40)
            #expect(try items(nineties).prefix(3).compactMap { $0["title"] as? String } == ["Matrix", "Todo sobre mi madre", "Matrix"])
            #expect(try items(nineties).allSatisfy { ($0["year"] as? Int).map { (1990...1999).contains($0) } == true })

            let laSexta = try await client.get("/upcoming?kind=movie&channels=LaSexta.es").object()
            let laSextaFilms = ServerHarness.golden.programmes.filter { $0.channel == "LaSexta.es" && $0.kind == .movie && $0.start >= ServerHarness.goldenNow }
            #expect(laSexta["total"] as? Int == laSextaFilms.count)
            #expect(try items(laSexta).allSatisfy { $0["channel"] as? String == "LaSexta.es" })

            let later = try await client.get("/upcoming?kind=movie&from=2026-10-25T23:00:00%2B02:00&limit=1").object()
            #expect(try items(later).first?["id"] as? String == "Antena3.es@20261025T210000Z")
        }
    }

    @Test func searchIgnoresAccentsAndCaseAndListsUpcomingFirst() async throws {
        try await ServerHarness.run { client in
            let body = try await client.get("/search?q=TELENOTICIES").object()
            #expect(body["total"] as? Int == 16)
            let ids = try items(body).compactMap { $0["id"] as? String }
            // On air now and later by start, then the past, latest first.
            #expect(ids.prefix(2) == ["TV3.es@20261021T190000Z", "TV3.es@20261022T123000Z"])
            #expect(ids.suffix(2) == ["TV3.es@20261021T123000Z", "TV3.es@20261020T190000Z"])
            let accented = try await client.get("/search?q=Telen%C3%B3ticies%20vespre").object()
            #expect(accented["total"] as? Int == ServerHarness.golden.programmes.filter { $0.title == "Telenotícies vespre" }.count)
            #expect(try items(accented).allSatisfy { $0["title"] as? String == "Telenotícies vespre" })
        }
    }

    @Test func searchFindsAWorkByItsOriginalTitle() async throws {
        try await ServerHarness.run { client in
            let body = try await client.get("/search?q=the%20matrix").object()
            #expect(body["total"] as? Int == 3)
            #expect(try items(body).allSatisfy { $0["work"] as? String == "movie/tmdb/603" })
        }
    }

    @Test func audiencesRankADayDefaultingToTheLatestHeld() async throws {
        try await ServerHarness.run { client in
            let latest = try await client.get("/audiences?limit=2").object()
            #expect(latest["day"] as? String == "2026-10-20")
            #expect((latest["days"] as? [String])?.count == 14)
            #expect(latest["total"] as? Int == 40)
            let top = try #require(try items(latest).first)
            #expect(top["title"] as? String == "Pasapalabra")
            #expect(top["channelName"] as? String == "Antena 3")
            #expect(top["viewers"] as? Int == 2_743_000)
            #expect(top["rank"] as? Int == 1)
            #expect(try items(latest).last?["programme"] as? String == "Antena3.es@20261020T194500Z")

            let first = try await client.get("/audiences?date=2026-10-07").object()
            #expect(first["day"] as? String == "2026-10-07")
            let expected = try #require(ServerHarness.golden.audiences.first?.records.first)
            #expect(try items(first).first?["viewers"] as? Int == expected.viewers)
        }
    }

    @Test func aDayNotHeldIsA404NamingTheDaysHeld() async throws {
        try await ServerHarness.run { client in
            let response = try await client.get("/audiences?date=2026-10-21")
            #expect(response.status == 404)
            let message = try #require(try errorMessage(response))
            #expect(message.hasPrefix("no audience ranking for 2026-10-21; days held: 2026-10-07, 2026-10-08"))
            #expect(message.hasSuffix("2026-10-20"))
        }
    }

    @Test func topAudiencesRankRecordsAcrossDays() async throws {
        try await ServerHarness.run { client in
            // By default the last week held.
            let week = try await client.get("/audiences/top").object()
            #expect(week["from"] as? String == "2026-10-14")
            #expect(week["to"] as? String == "2026-10-20")
            #expect(week["total"] as? Int == 7 * 40)
            #expect(week["limit"] as? Int == 20)
            let ranked = try items(week)
            #expect(ranked.prefix(2).compactMap { $0["day"] as? String } == ["2026-10-20", "2026-10-19"])
            #expect(ranked.first?["viewers"] as? Int == 2_743_000)
            let viewers = ranked.compactMap { $0["viewers"] as? Int }
            #expect(viewers == viewers.sorted(by: >))

            let all = try await client.get("/audiences/top?from=2026-10-07&to=2026-10-20&limit=3").object()
            #expect(all["total"] as? Int == 14 * 40)
            let most = ServerHarness.golden.audiences.flatMap(\.records).map(\.viewers).max()
            #expect(try items(all).first?["viewers"] as? Int == most)
        }
    }
}
