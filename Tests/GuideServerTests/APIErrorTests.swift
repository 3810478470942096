import Foundation
import GuideCore
import GuideServer
import Testing

/// Bad parameters are 400s naming the parameter; unknown ids are 404s naming the id; both JSON.
/// Each test asks one server every case of its table: a server per case would make the suite slow.
@Suite struct APIErrorTests {
    static let badParameters = [
        ("/now?tz=Mars/Olympus_Mons", "parameter 'tz': 'Mars/Olympus_Mons' is not a known time zone (e.g. Europe/Madrid)"),
        ("/grid?hours=1000", "parameter 'hours': 1000 is out of range 1…24"),
        ("/grid?hours=0", "parameter 'hours': 0 is out of range 1…24"),
        ("/grid?at=yesterday", "parameter 'at': 'yesterday' is not an ISO 8601 time or YYYY-MM-DD"),
        ("/channels?limit=0", "parameter 'limit': 0 is out of range 1…1000"),
        ("/now?limit=1001", "parameter 'limit': 1001 is out of range 1…1000"),
        ("/search?q=x&offset=-1", "parameter 'offset': -1 is out of range 0…2147483647"),
        ("/upcoming?kind=spaceship", "parameter 'kind': 'spaceship' is not one of movie, series, programme, documentary, news, sports, kids, other"),
        ("/upcoming?year_from=2000&year_to=1990", "parameter 'year_from': 2000 is after year_to (1990)"),
        ("/upcoming?year_from=nineteen", "parameter 'year_from': 'nineteen' is not a whole number"),
        ("/channels/La1.es/schedule?date=2026-13-45", "parameter 'date': '2026-13-45' is not a date (YYYY-MM-DD)"),
        ("/channels/La1.es/schedule?date=2026-02-30", "parameter 'date': 2026-02-30 is not a day of the calendar"),
        ("/channels/La1.es/schedule?date=2026-02-31", "parameter 'date': 2026-02-31 is not a day of the calendar"),
        // Before 1583 Foundation's calendar is Julian and the day ended before it started (a trap);
        // a 12-digit year overflowed the day arithmetic (a trap): both crashed the server.
        ("/channels/La1.es/schedule?date=1582-10-14", "parameter 'date': 1582-10-14 is outside the years 1900–2199 the guide serves"),
        ("/channels/La1.es/schedule?date=999999999999-01-01", "parameter 'date': '999999999999-01-01' is not a date (YYYY-MM-DD)"),
        ("/channels/La1.es/schedule?date=9999-12-31", "parameter 'date': 9999-12-31 is outside the years 1900–2199 the guide serves"),
        ("/channels/La1.es/schedule?date=0001-01-01", "parameter 'date': 0001-01-01 is outside the years 1900–2199 the guide serves"),
        ("/audiences/top?from=1582-10-04&to=1582-10-15", "parameter 'to': 1582-10-15 is outside the years 1900–2199 the guide serves"),
        ("/grid?at=1582-10-14", "parameter 'at': 1582-10-14 is outside the years 1900–2199 the guide serves"),
        ("/grid?at=1582-10-14T10:00:00Z", "parameter 'at': '1582-10-14T10:00:00Z' is outside the years 1900–2199 the guide serves"),
        ("/search", "parameter 'q': the text to search for is required"),
        ("/search?q=%20%20", "parameter 'q': the text to search for is required"),
        ("/audiences?date=20-10-2026", "parameter 'date': '20-10-2026' is not a date (YYYY-MM-DD)"),
        ("/audiences/top?from=2026-10-20&to=2026-10-07", "parameter 'from': 2026-10-20 is after 'to' (2026-10-07)"),
        ("/audiences/top?from=2025-01-01&to=2026-10-20", "parameter 'to': at most 365 days after 'from' (366 days)"),
        ("/search?q=" + String(repeating: "a", count: 201), "parameter 'q': at most 200 characters"),
    ]

    @Test func badParametersAre400sNamingTheParameter() async throws {
        try await ServerHarness.run { client in
            // At the bound, the search text is fine.
            #expect(try await client.get("/search?q=" + String(repeating: "a", count: 200)).status == 200)
            for (path, message) in Self.badParameters {
                let response = try await client.get(path)
                #expect(response.status == 400, "\(path)")
                #expect(response.headers["content-type"] == "application/json; charset=utf-8", "\(path)")
                #expect(try errorMessage(response) == message, "\(path)")
                #expect((try response.object()["error"] as? [String: Any])?["status"] as? Int == 400, "\(path)")
            }
        }
    }

    static let unknownIDs = [
        ("/channels/Nope.es/schedule", "unknown channel 'Nope.es'"),
        ("/programmes/La1.es@20300101T000000Z", "unknown programme 'La1.es@20300101T000000Z'"),
        ("/programmes/nope/airings", "unknown programme 'nope'"),
        ("/now?channels=La1.es,Nope.es", "unknown channel 'Nope.es'"),
        ("/grid?channels=Nope.es", "unknown channel 'Nope.es'"),
        ("/upcoming?channels=Nope.es", "unknown channel 'Nope.es'"),
        ("/channels?lineup=nope", "unknown line-up 'nope'; known: none"),
        // A huge id is cut short in the message.
        ("/programmes/" + String(repeating: "x", count: 5_000), "unknown programme '\(String(repeating: "x", count: 100))…'"),
    ]

    @Test func unknownIdsAre404sNamingTheId() async throws {
        try await ServerHarness.run { client in
            for (path, message) in Self.unknownIDs {
                let response = try await client.get(path)
                #expect(response.status == 404, "\(path)")
                #expect(try errorMessage(response) == message, "\(path)")
            }
        }
    }

    @Test func pathTraversalFindsNothing() async throws {
        try await ServerHarness.run { client in
            for path in ["/channels/..%2F..%2Fetc%2Fpasswd/schedule", "/programmes/../../etc/passwd", "/programmes/..%2F..%2Fetc%2Fpasswd"] {
                let response = try await client.get(path)
                #expect(response.status == 404, "\(path)")
                #expect(response.headers["content-type"] == "application/json; charset=utf-8", "\(path)")
                #expect(try errorMessage(response) != nil, "\(path)")
                #expect(!response.text.contains("root:"), "\(path)")
            }
        }
    }
}
