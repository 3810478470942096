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
        ("/audiences/top?from=2026-10-20&to=2026-10-07", "parameter 'from': 2026-10-20 is after 'to', 2026-10-07"),
        ("/audiences/top?from=2025-01-01&to=2026-10-20", "parameter 'to': at most 365 days after 'from' (366 days at most)"),
        // Only `from` sent: the error names it, not the `to` the client never gave.
        ("/audiences/top?from=2000-01-01", "parameter 'from': more than 365 days before the last day with audiences, 2026-10-20 (366 days at most)"),
        ("/audiences/top?from=2030-01-01", "parameter 'from': 2030-01-01 is after the last day with audiences, 2026-10-20"),
        ("/search?q=" + String(repeating: "a", count: 201), "parameter 'q': 201 characters, at most 200 are allowed"),
        // Counted as openapi.yaml's maxLength counts (code points), before trimming.
        ("/search?q=%20" + String(repeating: "a", count: 200), "parameter 'q': 201 characters, at most 200 are allowed"),
        ("/search?q=" + String(repeating: "e%CC%81", count: 101), "parameter 'q': 202 characters, at most 200 are allowed"),
    ] + outOfRangeTimes + emptyValues

    static let outOfRange = "has a field out of range (RFC 3339: a day of its month, hours up to 23, minutes and seconds up to 59, an offset from -23:59 to +23:59)"

    /// Values a date-time's own arithmetic used to carry over (to 3 March, four days earlier,
    /// the next minute): each a 400.
    static let outOfRangeTimes: [(String, String)] = [
        ("/grid?at=2026-02-31T12:00:00Z", "parameter 'at': '2026-02-31T12:00:00Z' \(outOfRange)"),
        ("/upcoming?from=2026-02-29T12:00:00Z", "parameter 'from': '2026-02-29T12:00:00Z' \(outOfRange)"),
        ("/grid?at=2026-04-31T12:00:00", "parameter 'at': '2026-04-31T12:00:00' \(outOfRange)"),
        ("/grid?at=2026-11-29T12:00:00%2B99:99", "parameter 'at': '2026-11-29T12:00:00+99:99' \(outOfRange)"),
        ("/grid?at=2026-11-29T12:00:00%2B24:00", "parameter 'at': '2026-11-29T12:00:00+24:00' \(outOfRange)"),
        ("/grid?at=2026-11-29T12:00:00%2B14:60", "parameter 'at': '2026-11-29T12:00:00+14:60' \(outOfRange)"),
        ("/grid?at=2026-11-29T12:00:00-99:59", "parameter 'at': '2026-11-29T12:00:00-99:59' \(outOfRange)"),
        ("/grid?at=2026-11-29T12:00:60Z", "parameter 'at': '2026-11-29T12:00:60Z' \(outOfRange)"),
        ("/recommendations?from=2026-11-29T24:00:00Z", "parameter 'from': '2026-11-29T24:00:00Z' \(outOfRange)"),
    ]

    /// An empty value is a 400 like any malformed one, not the parameter left out.
    static let emptyValues: [(String, String)] = [
        ("tz", "/now?tz="), ("date", "/audiences?date="), ("at", "/grid?at="), ("from", "/upcoming?from="), ("offset", "/channels?offset="),
        ("limit", "/channels?limit="), ("lineup", "/xmltv.xml?lineup="), ("channels", "/now?channels="), ("programme", "/reminders.ics?programme="),
        ("date", "/channel/La1.es?date="), ("genre", "/calendar.ics?genre="),
    ].map { name, path in (path, "parameter '\(name)': empty; give a value or leave the parameter out") } + listItems

    static func repeated(_ item: String, _ count: Int, _ separator: String) -> String {
        Array(repeating: item, count: count).joined(separator: separator)
    }

    /// A list with an empty item, or more items than allowed (counted as sent, repeats too, as
    /// openapi.yaml's maxItems counts).
    static let listItems: [(String, String)] = [
        ("/grid?channels=,,,", "parameter 'channels': an empty item in the list; separate the values with single commas"),
        ("/reminders.ics?programme=La1.es@20261021T190000Z,", "parameter 'programme': an empty item in the list; separate the values with single commas"),
        ("/reminders.ics?" + repeated("series=Noticias", 21, "&"), "parameter 'series': 21 titles, at most 20 are allowed"),
        ("/reminders.ics?programme=" + repeated("La1.es@20261021T190000Z", 101, ","), "parameter 'programme': 101 ids, at most 100 are allowed"),
        ("/recommendations?" + repeated("likes=x", 101, "&"), "parameter 'likes': at most 100 items"),
    ]

    @Test func badParametersAre400sNamingTheParameter() async throws {
        try await ServerHarness.run { client in
            // At the bound, the search text is fine.
            #expect(try await client.get("/search?q=" + String(repeating: "a", count: 200)).status == 200)
            for (path, message) in Self.badParameters {
                let response = try await client.get(path)
                #expect(response.status == 400, "\(path)")
                if path.hasPrefix("/channel/") {
                    #expect(response.text.contains(message.replacingOccurrences(of: "'", with: "&#39;")), "\(path)")
                    continue
                }
                #expect(response.headers["content-type"] == "application/json; charset=utf-8", "\(path)")
                #expect(try errorMessage(response) == message, "\(path)")
                #expect((try response.object()["error"] as? [String: Any])?["status"] as? Int == 400, "\(path)")
            }
        }
    }

    /// The web guide reads a time a person types the same way; the form choices that mean "any"
    /// are the only empty values taken.
    @Test func webPagesReadTimesAndEmptyChoicesByTheSameRule() async throws {
        try await ServerHarness.run { client in
            for path in ["/?at=2026-02-31T12:00", "/?at=2026-10-21T12:00:00%2B24:00", "/?at=", "/coming-up?kind=", "/?date=1900-00-00"] {
                #expect(try await client.get(path).status == 400, "\(path)")
            }
            for path in ["/coming-up?genre=", "/?at=2026-10-21T21:00", "/?at=2026-10-21T21:00:00%2B23:59"] {
                #expect(try await client.get(path).status == 200, "\(path)")
            }
            #expect(try await client.get("/channel/%EF%BB%BFLa1.es").status == 404)
            let save = try await client.get("/my-channels/save?lineup=&back=/")
            #expect(save.status == 303)
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
        // Ids are exact: a leading U+FEFF (a byte order mark) is part of the id asked for.
        ("/channels/%EF%BB%BFLa1.es/schedule", "unknown channel '\u{FEFF}La1.es'"),
        ("/programmes/%EF%BB%BFLa1.es@20261021T190000Z", "unknown programme '\u{FEFF}La1.es@20261021T190000Z'"),
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
