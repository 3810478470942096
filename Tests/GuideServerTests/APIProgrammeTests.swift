import Foundation
import GuideCore
import GuideServer
import Testing

/// `/channels/{id}/schedule`, `/programmes/{id}` and `/programmes/{id}/airings`.
@Suite struct APIProgrammeTests {
    @Test func aChannelsDayMarksTheProgrammeOnAirWithItsTimeLeft() async throws {
        try await ServerHarness.run { client in
            let response = try await client.get("/channels/La1.es/schedule")
            #expect(response.status == 200)
            #expect(response.headers["cache-control"] == "public, max-age=1")
            let day = try response.object()
            #expect(day["date"] as? String == "2026-10-21")
            #expect(day["timeZone"] as? String == "GMT")
            #expect(day["from"] as? String == "2026-10-21T00:00:00Z")
            #expect(day["to"] as? String == "2026-10-22T00:00:00Z")
            let programmes = try #require(day["programmes"] as? [[String: Any]])
            let (midnight, nextMidnight) = (try #require(ISOTime.parse("2026-10-21T00:00:00Z")), try #require(ISOTime.parse("2026-10-22T00:00:00Z")))
            let expected = ServerHarness.golden.programmes.filter {
                $0.channel == "La1.es" && $0.start < nextMidnight && ($0.stop ?? $0.start) > midnight
            }
            #expect(programmes.compactMap { $0["id"] as? String } == expected.map(\.id))
            let current = programmes.filter { $0["current"] as? Bool == true }
            #expect(current.count == 1)
            #expect(current.first?["title"] as? String == "Telediario 2")
            #expect(current.first?["remainingSeconds"] as? Int == 55 * 60)
            #expect(programmes.filter { $0["current"] as? Bool == false }.count == programmes.count - 1)
        }
    }

    @Test func theDayTheClocksGoBackInMadridLasts25Hours() async throws {
        try await ServerHarness.run { client in
            let day = try await client.get("/channels/La1.es/schedule?date=2026-10-25&tz=Europe/Madrid").object()
            let from = try #require((day["from"] as? String).flatMap(ISOTime.parse))
            let to = try #require((day["to"] as? String).flatMap(ISOTime.parse))
            #expect(day["from"] as? String == "2026-10-25T00:00:00+02:00")
            #expect(day["to"] as? String == "2026-10-26T00:00:00+01:00")
            #expect(to.timeIntervalSince(from) == 25 * 3_600)
            let programmes = try #require(day["programmes"] as? [[String: Any]])
            let starts = programmes.compactMap { $0["start"] as? String }
            // Summer time until 03:00 local, winter time after.
            #expect(starts.first == "2026-10-24T22:00:00+02:00")
            #expect(starts.contains("2026-10-25T02:45:00+02:00"))
            #expect(starts.contains("2026-10-25T06:00:00+01:00"))
            #expect(programmes.count == 15)
            #expect(programmes.allSatisfy { $0["current"] as? Bool == false })
        }
    }

    @Test func programmeDetailMergesTheWorksMetadataWithProvenance() async throws {
        try await ServerHarness.run { client in
            // `@` sent percent-encoded finds the same programme.
            let response = try await client.get("/programmes/BeMad.es%4020261021T200000Z?tz=Europe/Madrid")
            #expect(response.status == 200)
            let detail = try response.object()
            #expect(detail["id"] as? String == "BeMad.es@20261021T200000Z")
            #expect(detail["title"] as? String == "Matrix")
            #expect((detail["channel"] as? [String: Any])?["name"] as? String == "Be Mad")
            #expect(detail["tagline"] as? String == "Bienvenido al mundo real.")
            #expect(detail["poster"] as? String == "https://image.tmdb.org/t/p/w500/ibD1tmHmM675RoTAq8S6YFJd8g6.jpg")
            #expect(detail["genres"] as? [String] == ["Acción", "Ciencia ficción"])
            #expect(detail["year"] as? Int == 1999)
            #expect(detail["budget"] as? Int == 63_000_000)
            let trailer = try #require(detail["trailer"] as? [String: Any])
            #expect(trailer["url"] as? String == "https://www.youtube.com/watch?v=G5fJHFPYbJE")
            let ratings = try #require(detail["ratings"] as? [String: Any])
            #expect(ratings["voteAverage"] as? Double == 8.2)
            #expect(ratings["voteCount"] as? Int == 26_600)
            #expect((ratings["programme"] as? [[String: Any]])?.first?["system"] as? String == "ES")
            let cast = try #require(detail["cast"] as? [[String: Any]])
            #expect(cast.isEmpty == false)
            let work = try #require(detail["work"] as? [String: Any])
            #expect(work["id"] as? String == "movie/tmdb/603")
            #expect(work["originalTitle"] as? String == "The Matrix")
            let provenance = try #require(detail["provenance"] as? [String: Any])
            #expect(provenance["programme"] as? String == "xmltv-sample")
            #expect((provenance["work"] as? [String: String])?["overview"] == "tmdb-recorded")
            let match = (provenance["matches"] as? [String: Any])?["tmdb-recorded"] as? [String: Any]
            #expect(match?["method"] as? String == "exact")
            #expect(match?["providerID"] as? String == "603")
            // Every field of the airing, in the zone asked.
            let programme = try #require(detail["programme"] as? [String: Any])
            #expect(programme["start"] as? String == "2026-10-21T22:00:00+02:00")
            #expect(programme["length"] as? Int == 8_160)
            #expect(programme["source"] as? String == "xmltv-sample")
            #expect((detail["audiences"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func programmeDetailCarriesTheAudienceJoinedToIt() async throws {
        try await ServerHarness.run { client in
            let detail = try await client.get("/programmes/Antena3.es@20261020T194500Z").object()
            #expect(detail["title"] as? String == "El hormiguero 3.0")
            let audiences = try #require(detail["audiences"] as? [[String: Any]])
            #expect(audiences.count == 1)
            #expect(audiences.first?["viewers"] as? Int == 2_100_000)
            #expect(audiences.first?["day"] as? String == "2026-10-20")
            #expect(audiences.first?["rank"] as? Int == 2)
        }
    }

    @Test func otherAiringsOfTheSameWorkFromNowOn() async throws {
        try await ServerHarness.run { client in
            let airings = try await client.get("/programmes/BeMad.es@20261021T200000Z/airings").object()
            #expect(airings["total"] as? Int == 2)
            #expect(try items(airings).compactMap { $0["id"] as? String } == ["LaSexta.es@20261021T203000Z", "Antena3.es@20261025T210000Z"])
            let paged = try await client.get("/programmes/BeMad.es@20261021T200000Z/airings?limit=1&offset=1").object()
            #expect(try items(paged).compactMap { $0["id"] as? String } == ["Antena3.es@20261025T210000Z"])
        }
    }

    @Test func otherAiringsWithoutAWorkAreThoseOfTheSameTitle() async throws {
        try await ServerHarness.run { client in
            let body = try await client.get("/programmes/TV3.es@20261021T190000Z/airings").object()
            let expected = ServerHarness.golden.programmes
                .filter { $0.title == "Telenotícies vespre" && $0.start >= ServerHarness.goldenNow && $0.id != "TV3.es@20261021T190000Z" }
                .sorted { $0.start < $1.start }
            #expect(expected.isEmpty == false)
            #expect(try items(body).compactMap { $0["id"] as? String } == expected.map(\.id))
        }
    }
}
