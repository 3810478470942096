import Foundation
import GuideCore
import GuideServer
import Testing

/// `/channels`, `/lineups`, `/now`, `/grid`: the lists, their filters, pagination and caching.
@Suite struct APIListTests {
    static let lineups = [
        "main": ["La1.es", "La2.es", "Antena3.es", "Cuatro.es", "Telecinco.es", "LaSexta.es"],
        "basque-country": ["La1.es", "La2.es", "ETB1.es", "NotInTheGuide.es"],
    ]
    static let settings = ServerSettings(port: 0, lineups: lineups)

    @Test func channelsFilterByTypeAndLineup() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            let all = try await client.get("/channels").object()
            #expect(all["total"] as? Int == 24)
            #expect(try items(all).first?["name"] as? String == "24h")

            let regional = try await client.get("/channels?type=Regional").object()
            #expect(try items(regional).compactMap { $0["id"] as? String } == ["ETB1.es", "TV3.es"])

            // A line-up's channel the guide lacks is left out, not an error.
            let basque = try await client.get("/channels?lineup=basque-country").object()
            #expect(try items(basque).compactMap { $0["id"] as? String } == ["La1.es", "La2.es", "ETB1.es"])
            let basqueRegional = try await client.get("/channels?lineup=basque-country&type=regional").object()
            #expect(try items(basqueRegional).compactMap { $0["id"] as? String } == ["ETB1.es"])
        }
    }

    @Test func anUnknownLineupIsA404ListingTheKnownOnes() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            for path in ["/channels?lineup=catalonia", "/now?lineup=catalonia", "/upcoming?lineup=catalonia"] {
                let response = try await client.get(path)
                #expect(response.status == 404, "\(path)")
                #expect(try errorMessage(response) == "unknown line-up 'catalonia'; known: basque-country, main", "\(path)")
            }
        }
    }

    @Test func lineupsListTheConfiguredOnesByName() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            let lineups = try items(try await client.get("/lineups").object())
            #expect(lineups.compactMap { $0["name"] as? String } == ["basque-country", "main"])
            #expect(lineups.last?["channels"] as? [String] == Self.lineups["main"])
        }
    }

    @Test func nowGivesTheCurrentProgrammeWithTimeLeftAndTheNextOne() async throws {
        let now = try #require(ISOTime.parse("2026-10-21T19:20:00Z"))
        try await ServerHarness.run(now: now) { client in
            let body = try await client.get("/now?channels=La1.es,TV3.es").object()
            #expect(body["now"] as? String == "2026-10-21T19:20:00Z")
            #expect(body["total"] as? Int == 2)
            let la1 = try #require(try items(body).first)
            #expect((la1["channel"] as? [String: Any])?["name"] as? String == "La 1")
            let current = try #require(la1["current"] as? [String: Any])
            #expect(current["title"] as? String == "Telediario 2")
            #expect(current["id"] as? String == "La1.es@20261021T190000Z")
            // Time left is the fixture's stop minus now: 19:55 − 19:20.
            let airing = try #require(ServerHarness.golden.programmes.first { $0.id == "La1.es@20261021T190000Z" })
            let stop = try #require(airing.stop)
            #expect(current["remainingSeconds"] as? Int == Int(stop.timeIntervalSince(now)))
            #expect(current["remainingSeconds"] as? Int == 2_100)
            #expect(current["progress"] as? Double == 0.364)
            let next = try #require(la1["next"] as? [String: Any])
            #expect(next["title"] as? String == "El tiempo")
            #expect(next["remainingSeconds"] == nil)
            let tv3 = try #require(try items(body).last)
            #expect((tv3["current"] as? [String: Any])?["title"] as? String == "Telenotícies vespre")
        }
    }

    @Test func nowCoversEveryChannelOrALineupAndPaginates() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            let all = try await client.get("/now").object()
            #expect(all["total"] as? Int == 24)
            #expect(try items(all).count == 24)
            let main = try await client.get("/now?lineup=main").object()
            #expect(try items(main).compactMap { ($0["channel"] as? [String: Any])?["id"] as? String } == Self.lineups["main"])
            // Both narrow: the ids asked, in their order, that the line-up holds.
            let both = try await client.get("/now?lineup=main&channels=TV3.es,La2.es,La1.es").object()
            #expect(try items(both).compactMap { ($0["channel"] as? [String: Any])?["id"] as? String } == ["La2.es", "La1.es"])

            let page = try await client.get("/now?limit=5&offset=20").object()
            #expect(page["total"] as? Int == 24)
            #expect(page["offset"] as? Int == 20)
            #expect(page["limit"] as? Int == 5)
            let ids = try items(page).compactMap { ($0["channel"] as? [String: Any])?["id"] as? String }
            #expect(ids == ServerHarness.golden.channels[20...].map(\.id))
            let beyond = try await client.get("/now?offset=500").object()
            #expect(try items(beyond).isEmpty)
            #expect(beyond["total"] as? Int == 24)
        }
    }

    @Test func nowRendersTimesInTheZoneAsked() async throws {
        try await ServerHarness.run { client in
            let body = try await client.get("/now?channels=La1.es&tz=Europe/Madrid").object()
            #expect(body["now"] as? String == "2026-10-21T21:00:00+02:00")
            let current = try #require(try items(body).first?["current"] as? [String: Any])
            #expect(current["start"] as? String == "2026-10-21T21:00:00+02:00")
            #expect(current["stop"] as? String == "2026-10-21T21:55:00+02:00")
        }
    }

    @Test func gridGivesEachChannelsProgrammesOverTheSpan() async throws {
        try await ServerHarness.run { client in
            // A local time without an offset is read in `tz`: 21:00 in Madrid is 19:00Z.
            let body = try await client.get("/grid?at=2026-10-21T21:00:00&hours=1&channels=La1.es,TV3.es&tz=Europe/Madrid").object()
            #expect(body["from"] as? String == "2026-10-21T21:00:00+02:00")
            #expect(body["to"] as? String == "2026-10-21T22:00:00+02:00")
            let rows = try items(body)
            #expect(rows.compactMap { ($0["channel"] as? [String: Any])?["id"] as? String } == ["La1.es", "TV3.es"])
            let la1 = try #require(rows.first?["programmes"] as? [[String: Any]])
            #expect(la1.compactMap { $0["title"] as? String } == ["Telediario 2", "El tiempo"])

            // The default span starts now and lasts three hours.
            let byDefault = try await client.get("/grid?channels=La1.es").object()
            #expect(byDefault["from"] as? String == "2026-10-21T19:00:00Z")
            #expect(byDefault["to"] as? String == "2026-10-21T22:00:00Z")
            let all = try await client.get("/grid").object()
            #expect(all["total"] as? Int == 24)

            // Within an hour after summer time starts, the offset in force at that local time counts:
            // 01:30 on 29 March in Madrid is still CET, so 00:30Z.
            let beforeTheChange = try await client.get("/grid?at=2026-03-29T01:30:00&hours=1&channels=La1.es&tz=Europe/Madrid").object()
            #expect(beforeTheChange["from"] as? String == "2026-03-29T01:30:00+01:00")
        }
    }

    @Test func responsesCarryAnETagThatAnswers304AndACacheControl() async throws {
        try await ServerHarness.run { client in
            let first = try await client.get("/channels")
            let etag = try #require(first.headers["etag"])
            #expect(first.headers["cache-control"] == "public, max-age=300")
            let again = try await client.get("/channels", headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.headers["etag"] == etag)
            let other = try await client.get("/channels", headers: ["If-None-Match": "\"0000000000000000\""])
            #expect(other.status == 200)

            // Bodies that show time left may be kept one second.
            let now = try await client.get("/now")
            #expect(now.headers["cache-control"] == "public, max-age=1")
            let nowETag = try #require(now.headers["etag"])
            #expect(try await client.get("/now", headers: ["If-None-Match": nowETag]).status == 304)
        }
    }
}

/// The `items` of a paginated body.
func items(_ body: [String: Any]) throws -> [[String: Any]] {
    guard let items = body["items"] as? [[String: Any]] else { throw HarnessError("no items in \(body.keys.sorted())") }
    return items
}

/// The message of a JSON error body.
func errorMessage(_ response: ServerResponse) throws -> String? {
    (try response.object()["error"] as? [String: Any])?["message"] as? String
}
