import Foundation
import GuideCore
import GuideTransport
import Scrape
import TestSupport
import Testing

@Suite("JSON feed guide provider")
struct JSONFeedProviderTests {
    private static let providerID = "my-server"
    private static let channels = [Channel(id: "la1", name: "La 1"), Channel(id: "antena3", name: "Antena 3")]
    private static let la1 = ChannelRef(id: "La1.es", providerID: "la1")
    private static let antena3 = ChannelRef(id: "Antena3.es", providerID: "antena3")
    /// The brief's field map, over Fixtures/json-feed/iso (and changed/, the same layout).
    private static let isoFields: [JSONFeedRecipe.Field: String] = [
        .start: "begin", .stop: "end", .title: "name", .description: "info.text", .category: "genre",
    ]
    /// Saturday 24 and Sunday 25 October 2026 in Madrid, the day summer time ends.
    private static let weekend = DateInterval(start: JSONFeedTestTime.madrid(2026, 10, 24, 0, offset: 2), end: JSONFeedTestTime.madrid(2026, 10, 26, 0, offset: 1))

    private static func provider(
        _ url: String, items: String = "data.programmes", fields: [JSONFeedRecipe.Field: String] = isoFields,
        timeFormat: JSONFeedRecipe.TimeFormat = .iso8601, channels: [Channel] = channels, transport: any HTTPTransport
    ) throws -> JSONFeedGuideProvider {
        let recipe = JSONFeedRecipe(url: try SiteTemplate(shorthandURL: url), items: items, fields: fields, timeFormat: timeFormat)
        return JSONFeedGuideProvider(id: providerID, recipe: recipe, channels: channels, transport: transport)
    }

    /// A server answering from Fixtures/json-feed, and a transport that asks it once per request.
    private static func withFixtureServer<T: Sendable>(log: RequestLog? = nil, _ body: (URL, LiveTransport) async throws -> T) async throws -> T {
        try await LoopbackServer.run(log: log, LoopbackServer.serving(directory: Fixtures.url("json-feed"))) { root in
            try await body(root, LiveTransport(policy: .loopbackExact))
        }
    }

    @Test("ISO times with offsets: one page per day and channel, an airing listed on both days kept once")
    func isoFeed() async throws {
        let log = RequestLog()
        let (la1, antena3, notes) = try await Self.withFixtureServer(log: log) { root, transport in
            let feed = try Self.provider(root.absoluteString + "iso/guide/{channel}/{date:yyyy-MM-dd}.json", transport: transport)
            #expect(try await feed.channels() == Self.channels)
            let la1 = try await feed.schedule(for: Self.la1, in: Self.weekend)
            let antena3 = try await feed.schedule(for: Self.antena3, in: Self.weekend)
            return (la1, antena3, await feed.reportNotes())
        }

        #expect(Set(await log.requests.map(\.path)) == [
            "/iso/guide/la1/2026-10-24.json", "/iso/guide/la1/2026-10-25.json",
            "/iso/guide/antena3/2026-10-24.json", "/iso/guide/antena3/2026-10-25.json",
        ])
        // 14 airings start each day; Sunday's page repeats Saturday's 22:00 film.
        #expect(la1.count == 28)
        #expect(la1.filter { $0.title == "Ocho apellidos vascos" }.count == 1)
        #expect(la1.map(\.start) == la1.map(\.start).sorted())
        #expect(la1.allSatisfy { $0.channel == "La1.es" && $0.source == Self.providerID })
        #expect(la1.first?.title == "La noche en 24h")
        #expect(la1.first?.start == JSONFeedTestTime.utc(2026, 10, 23, 22, 45))

        let film = try #require(la1.first { $0.title == "Cadena perpetua" })
        #expect(film.start == JSONFeedTestTime.utc(2026, 10, 24, 22, 15))
        #expect(film.stop == JSONFeedTestTime.utc(2026, 10, 25, 0, 45))
        #expect(film.synopsis?.hasPrefix("Condenado por el asesinato de su esposa") == true)
        #expect(film.categories == [LocalizedText("Cine")])
        #expect(la1.first { $0.title == "Aquí la Tierra" }?.synopsis == nil)

        // Antena 3's page is written in UTC: the same instants as the +02:00/+01:00 of La 1's.
        #expect(antena3.count == 26)
        let origen = try #require(antena3.first { $0.title == "Origen" })
        #expect(origen.start == JSONFeedTestTime.utc(2026, 10, 24, 20, 0) && origen.stop == JSONFeedTestTime.utc(2026, 10, 24, 22, 30))
        let lastNight = try #require(antena3.last { $0.title == "Teletienda" })
        #expect(lastNight.start == JSONFeedTestTime.utc(2026, 10, 25, 0, 30) && lastNight.stop == JSONFeedTestTime.utc(2026, 10, 25, 5, 0))

        #expect(notes == ["fetched 4 page(s), read 55 item(s)"])
    }

    @Test("Unix seconds, both days in one response per channel, clipped to the window")
    func unixFeed() async throws {
        let log = RequestLog()
        let window = DateInterval(start: JSONFeedTestTime.madrid(2026, 10, 24, 12, offset: 2), end: JSONFeedTestTime.madrid(2026, 10, 25, 12, offset: 1))
        let (la1, antena3, notes) = try await Self.withFixtureServer(log: log) { root, transport in
            let feed = try Self.provider(
                root.absoluteString + "unix/epg/{channel}.json", items: "result[0].events",
                fields: [.start: "t0", .stop: "t1", .title: "title", .category: "genres", .episode: "ep"],
                timeFormat: .unix, transport: transport)
            return (try await feed.schedule(for: Self.la1, in: window), try await feed.schedule(for: Self.antena3, in: window),
                    await feed.reportNotes())
        }

        #expect(await log.requests.map(\.path) == ["/unix/epg/la1.json", "/unix/epg/antena3.json"])
        #expect(la1.allSatisfy { $0.start < window.end && ($0.stop ?? $0.start) > window.start })
        // 11:10–12:10 on both days: the first overlaps the window's start, the second its end.
        #expect(la1.count == 15)
        #expect(la1.first?.title == "Cocina al punto con Peña y Tamara" && la1.first?.start == JSONFeedTestTime.utc(2026, 10, 24, 9, 10))
        #expect(la1.last?.title == "Cocina al punto con Peña y Tamara" && la1.last?.start == JSONFeedTestTime.utc(2026, 10, 25, 10, 10))
        #expect(la1.last?.stop == JSONFeedTestTime.utc(2026, 10, 25, 11, 10))
        #expect(la1.first?.episode == Episode(season: 2, number: 5, onscreen: "S02E05"))
        #expect(la1.first { $0.title == "Lo imposible" }?.categories == [LocalizedText("Cine"), LocalizedText("Drama")])

        #expect(antena3.first?.title == "Los más" && antena3.first?.episode == Episode(season: 4, number: 11))
        #expect(antena3.first { $0.title == "La ruleta de la suerte" }?.episode == Episode(number: 1520))
        #expect(antena3.first { $0.title == "Centímetros cúbicos" }?.episode == Episode(season: 3, number: 7, onscreen: "3x07"))
        #expect(notes == ["fetched 2 page(s), read 54 item(s)"])
    }

    @Test("HH:mm times on the URL's day: past midnight, across the repeated hour, the same airings as the ISO feed")
    func clockFeed() async throws {
        let window = DateInterval(start: JSONFeedTestTime.madrid(2026, 10, 24, 6, offset: 2), end: JSONFeedTestTime.madrid(2026, 10, 26, 0, offset: 1))
        let (clockLa1, clockAntena3, isoAntena3) = try await Self.withFixtureServer { root, transport in
            let clock = try Self.provider(
                root.absoluteString + "clock/programacion/{date:dd-MM-yyyy}/{channel}.json", items: "$",
                fields: [.start: "hora", .stop: "fin", .title: "titulo", .category: "tipo"],
                timeFormat: .clock("HH:mm"), transport: transport)
            let iso = try Self.provider(root.absoluteString + "iso/guide/{channel}/{date:yyyy-MM-dd}.json", transport: transport)
            return (try await clock.schedule(for: Self.la1, in: window), try await clock.schedule(for: Self.antena3, in: window),
                    try await iso.schedule(for: Self.antena3, in: window))
        }

        // La 1's Sunday page writes the news across the change as the clock shows it:
        // 02:45–02:15 (CEST to CET), then 02:15–06:00 (CET).
        let news = clockLa1.filter { $0.title == "Noticias 24 horas" && $0.start >= JSONFeedTestTime.utc(2026, 10, 25, 0, 0) }
        #expect(news.map(\.start) == [JSONFeedTestTime.utc(2026, 10, 25, 0, 45), JSONFeedTestTime.utc(2026, 10, 25, 1, 15), JSONFeedTestTime.utc(2026, 10, 25, 5, 0)])
        #expect(news.map(\.stop) == [JSONFeedTestTime.utc(2026, 10, 25, 1, 15), JSONFeedTestTime.utc(2026, 10, 25, 5, 0), JSONFeedTestTime.utc(2026, 10, 25, 8, 0)])
        // Saturday's 22:00 film ends at 00:15 on Sunday.
        let film = try #require(clockLa1.first { $0.title == "Ocho apellidos vascos" })
        #expect(film.start == JSONFeedTestTime.utc(2026, 10, 24, 20, 0) && film.stop == JSONFeedTestTime.utc(2026, 10, 24, 22, 15))

        // Antena 3's pages run 06:00 to 06:00: Saturday's ends with Sunday's small hours, in CEST
        // until the change, and every airing matches the ISO feed's.
        #expect(clockAntena3.count == 24)
        #expect(clockAntena3.map(Airing.init) == isoAntena3.map(Airing.init))
        #expect(clockAntena3.allSatisfy { $0.categories?.count == 1 })
    }

    @Test("a renamed field or a moved array fails that day as malformed, naming the path and the item; the other days are kept")
    func changedLayout() async throws {
        let (la1, antena3, notes, saturday) = try await Self.withFixtureServer { root, transport in
            let feed = try Self.provider(root.absoluteString + "changed/guide/{channel}/{date:yyyy-MM-dd}.json", transport: transport)
            let la1 = try await feed.schedule(for: Self.la1, in: Self.weekend)
            let antena3 = try await feed.schedule(for: Self.antena3, in: Self.weekend)
            let notes = await feed.reportNotes()
            let saturdayOnly = DateInterval(start: JSONFeedTestTime.madrid(2026, 10, 24, 0, offset: 2), end: JSONFeedTestTime.madrid(2026, 10, 25, 0, offset: 2))
            return (la1, antena3, notes, try await feed.schedule(for: Self.la1, in: saturdayOnly))
        }
        // Saturday's pages kept the old layout; Sunday's changed, and its gap is left to the next provider.
        #expect(saturday.count == 14)
        #expect(la1.map(\.start) == saturday.map(\.start))
        #expect(antena3.allSatisfy { $0.start < JSONFeedTestTime.madrid(2026, 10, 25, 6, offset: 1) })
        #expect(notes.contains(
            "2 day(s) failed, their gaps left to the next provider: la1 malformed response: 2026-10-25: data.programmes[0]: field 'title' (path 'name') is missing: the item has no key 'name' (its keys: begin, end, genre, info, titulo); "
                + "antena3 malformed response: 2026-10-25: items 'data.programmes' not found: 'data' has no key 'programmes' (its keys: schedule)"), "\(notes)")
    }

    @Test("a layout changed on every day fails the channel as malformed, naming the day, the path and the item")
    func changedLayoutEveryDay() async throws {
        let sundayOnly = DateInterval(start: JSONFeedTestTime.madrid(2026, 10, 25, 0, offset: 2), end: JSONFeedTestTime.madrid(2026, 10, 26, 0, offset: 1))
        let (la1, antena3) = try await Self.withFixtureServer { root, transport in
            let feed = try Self.provider(root.absoluteString + "changed/guide/{channel}/{date:yyyy-MM-dd}.json", transport: transport)
            return (await providerError { _ = try await feed.schedule(for: Self.la1, in: sundayOnly) },
                    await providerError { _ = try await feed.schedule(for: Self.antena3, in: sundayOnly) })
        }
        #expect(la1 == .malformed(
            "2026-10-25: data.programmes[0]: field 'title' (path 'name') is missing: the item has no key 'name' (its keys: begin, end, genre, info, titulo)"))
        #expect(antena3 == .malformed("2026-10-25: items 'data.programmes' not found: 'data' has no key 'programmes' (its keys: schedule)"))
    }

    @Test("items that cannot be read are malformed, naming the day, the item and the field", arguments: [
        (#"{"data": {"programmes": [{"begin": "2026-10-24T20:00:00+02:00", "name": "A"}, {"begin": "mañana", "name": "B"}]}}"#,
         #"2026-10-24: data.programmes[1]: field 'start' (path 'begin', time_format iso8601): "mañana" is not a time"#),
        (#"{"data": {"programmes": [{"begin": "2026-10-24T20:00:00+02:00", "name": null}]}}"#,
         "2026-10-24: data.programmes[0]: field 'title' (path 'name') is null"),
        (#"{"data": {"programmes": [{"begin": "2026-10-24T20:00:00+02:00", "name": "  "}]}}"#,
         #"2026-10-24: data.programmes[0]: field 'title' (path 'name') is "  ""#),
        (#"{"data": {"programmes": [{"begin": "2026-10-24T20:00:00+02:00", "name": {"es": "A"}}]}}"#,
         "2026-10-24: data.programmes[0]: field 'title' (path 'name'): an object is not text"),
        (#"{"data": {"programmes": ["Telediario"]}}"#,
         "2026-10-24: data.programmes[0]: field 'start' (path 'begin') is missing: the item is a string, not an object with key 'begin'"),
        (#"{"data": {"programmes": {"begin": "2026-10-24T20:00:00+02:00"}}}"#,
         "2026-10-24: items 'data.programmes' is an object, not an array"),
        (#"{"data": null}"#,
         "2026-10-24: items 'data.programmes' not found: 'data' is null, not an object with key 'programmes'"),
        (#"{"programmes": []}"#,
         "2026-10-24: items 'data.programmes' not found: the response has no key 'data' (its keys: programmes)"),
    ])
    func malformedItems(body: String, message: String) async throws {
        let feed = try Self.provider("http://feed.test/guide/{channel}/{date:yyyy-MM-dd}.json", transport: StaticTransport(body))
        let error = await providerError { _ = try await feed.schedule(for: Self.la1, in: Self.saturday) }
        #expect(error == .malformed(message))
    }

    @Test("a body that is not JSON is malformed")
    func notJSON() async throws {
        let feed = try Self.provider("http://feed.test/guide/{channel}/{date:yyyy-MM-dd}.json", transport: StaticTransport("<html><body>Mantenimiento</body></html>"))
        let error = await providerError { _ = try await feed.schedule(for: Self.la1, in: Self.saturday) }
        guard case .malformed(let detail)? = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
        #expect(detail == "2026-10-24: expected JSON, got an HTML page")
    }

    @Test("a day with no items is an empty day, not an error, and the report counts it")
    func emptyDay() async throws {
        let feed = try Self.provider("http://feed.test/guide/{channel}/{date:yyyy-MM-dd}.json", transport: StaticTransport(#"{"data": {"programmes": []}}"#))
        #expect(try await feed.schedule(for: Self.la1, in: Self.saturday).isEmpty)
        #expect(await feed.reportNotes() == ["fetched 1 page(s), read 0 item(s); 1 page(s) had no items"])
    }

    @Test("an optional field that cannot be read is left out; a mapped field found in no item is reported")
    func optionalFields() async throws {
        let body = #"""
        {"data": {"programmes": [
          {"begin": "2026-10-24T20:00:00+02:00", "end": "luego", "name": "Telediario", "genre": true, "ep": "Especial"},
          {"begin": "2026-10-24T21:00:00+02:00", "end": "2026-10-24T22:00:00+02:00", "name": " El\n tiempo ", "genre": ["Información", 3]}
        ]}}
        """#
        let feed = try Self.provider(
            "http://feed.test/guide/{channel}/{date:yyyy-MM-dd}.json",
            fields: [.start: "begin", .stop: "end", .title: "name", .subtitle: "info.subtitle", .category: "genre", .episode: "ep"],
            transport: StaticTransport(body))
        let programmes = try await feed.schedule(for: Self.la1, in: Self.saturday)

        #expect(programmes.map(\.title) == ["Telediario", "El tiempo"])
        #expect(programmes.map(\.stop) == [nil, JSONFeedTestTime.utc(2026, 10, 24, 20, 0)])
        #expect(programmes.map(\.categories) == [nil, [LocalizedText("Información"), LocalizedText("3")]])
        #expect(programmes.map(\.episode) == [Episode(onscreen: "Especial"), nil])
        #expect(await feed.reportNotes() == [
            "fetched 1 page(s), read 2 item(s)",
            "field 'subtitle' (path 'info.subtitle') was in none of the 2 item(s): renamed in the feed?",
        ])
    }

    @Test("a stop at or before its start is left out, as an unreadable optional field")
    func stopNotAfterStart() async throws {
        let body = #"""
        {"data": {"programmes": [
          {"begin": "2026-10-24T20:00:00+02:00", "end": "2026-10-24T20:00:00+02:00", "name": "A"},
          {"begin": "2026-10-24T21:00:00+02:00", "end": "2026-10-24T20:30:00+02:00", "name": "B"}
        ]}}
        """#
        let feed = try Self.provider("http://feed.test/guide/{channel}/{date:yyyy-MM-dd}.json", transport: StaticTransport(body))
        let programmes = try await feed.schedule(for: Self.la1, in: Self.saturday)
        #expect(programmes.map(\.title) == ["A", "B"])
        #expect(programmes.map(\.stop) == [nil, nil])
    }

    @Test("a day the server does not have (404) leaves its gap and keeps the other days; every day missing is the transport's HTTP error")
    func missingDay() async throws {
        let log = RequestLog()
        let throughMonday = DateInterval(start: Self.weekend.start, end: JSONFeedTestTime.madrid(2026, 10, 27, 0, offset: 1))
        let mondayOnly = DateInterval(start: JSONFeedTestTime.madrid(2026, 10, 26, 0, offset: 1), end: JSONFeedTestTime.madrid(2026, 10, 27, 0, offset: 1))
        let (programmes, notes, error, root) = try await Self.withFixtureServer(log: log) { root, transport in
            let feed = try Self.provider(root.absoluteString + "iso/guide/{channel}/{date:yyyy-MM-dd}.json", transport: transport)
            let programmes = try await feed.schedule(for: Self.la1, in: throughMonday)
            let notes = await feed.reportNotes()
            return (programmes, notes, await providerError { _ = try await feed.schedule(for: Self.la1, in: mondayOnly) }, root)
        }
        #expect(!programmes.isEmpty && programmes.allSatisfy { $0.start < JSONFeedTestTime.madrid(2026, 10, 26, 6, offset: 1) })
        #expect(notes.last == "1 day(s) failed, their gaps left to the next provider: la1 2026-10-26: HTTP 404 from \(root.absoluteString)iso/guide/la1/2026-10-26.json", "\(notes)")
        #expect(error == .http(status: 404, url: root.absoluteString + "iso/guide/la1/2026-10-26.json"))
        #expect(await log.count == 4)
    }

    @Test("a field found but never readable (an object where text was expected) says so, not 'renamed'")
    func foundButUnreadable() async throws {
        let transport = StaticTransport(#"{"data": {"programmes": [{"begin": "2026-10-24T20:00:00+02:00", "name": "A", "genre": {"name": "Cine"}}]}}"#)
        let feed = JSONFeedGuideProvider(
            id: "feed", recipe: JSONFeedRecipe(url: try SiteTemplate(shorthandURL: "http://feed.test/{date:yyyy-MM-dd}/{channel}"), items: "data.programmes",
                                               fields: [.start: "begin", .title: "name", .category: "genre"]),
            channels: [], transport: transport)
        _ = try await feed.schedule(for: Self.la1, in: Self.saturday)
        #expect(await feed.reportNotes().last == "field 'category' (path 'genre') holds an object in 1 item(s), never a value it can read: point the path at a text inside it")
    }

    @Test("pages are the days the window touches in the recipe's time zone")
    func pageDays() async throws {
        let transport = StaticTransport(#"{"data": {"programmes": []}}"#)
        let feed = try Self.provider("http://feed.test/{date:yyyy-MM-dd}/{channel}", transport: transport)

        // 23:00Z on the 24th is 01:00 on Sunday in Madrid; the end, midnight CET, is exclusive.
        _ = try await feed.schedule(for: Self.la1, in: DateInterval(start: JSONFeedTestTime.utc(2026, 10, 24, 23, 0), end: JSONFeedTestTime.madrid(2026, 10, 26, 0, offset: 1)))
        #expect(await transport.log.urls.map(\.absoluteString) == ["http://feed.test/2026-10-25/la1"])

        // 21:59Z is still Saturday in Madrid.
        _ = try await feed.schedule(for: Self.la1, in: DateInterval(start: JSONFeedTestTime.utc(2026, 10, 24, 21, 59), end: JSONFeedTestTime.utc(2026, 10, 24, 23, 0)))
        #expect(await transport.log.urls.dropFirst().map(\.absoluteString).sorted() == ["http://feed.test/2026-10-24/la1", "http://feed.test/2026-10-25/la1"])
    }

    @Test("{channel} reaches the server escaped as one path segment")
    func channelOnTheWire() async throws {
        let log = RequestLog()
        let canalSur = Channel(id: "Canal Sur/Andalucía", name: "Canal Sur")
        let programmes = try await LoopbackServer.run(log: log, { _ in .json(#"{"data": {"programmes": []}}"#) }) { root in
            let feed = try Self.provider(root.absoluteString + "guide/{channel}/{date:yyyy-MM-dd}.json", channels: [canalSur],
                                         transport: LiveTransport(policy: .loopbackExact))
            return try await feed.schedule(for: ChannelRef(id: "CanalSur.es", providerID: canalSur.id), in: Self.saturday)
        }
        #expect(programmes.isEmpty)
        #expect(await log.requests.map(\.path) == ["/guide/Canal%20Sur%2FAndaluc%C3%ADa/2026-10-24.json"])
    }

    @Test("a recipe that cannot run, or a window too long to fetch day by day, fails before any request")
    func notConfigured() async throws {
        let transport = StaticTransport(#"{"data": {"programmes": []}}"#)
        let noTitle = try Self.provider("http://feed.test/{channel}/{date:yyyy-MM-dd}", fields: [.start: "begin"], transport: transport)
        #expect(await providerError { _ = try await noTitle.schedule(for: Self.la1, in: Self.saturday) }
            == .notConfigured("json-feed my-server: fields: 'title' is required (the path to each item's title)"))

        let oneURL = try Self.provider("http://feed.test/all/{date:yyyy-MM-dd}.json", transport: transport)
        #expect(await providerError { _ = try await oneURL.schedule(for: Self.la1, in: Self.saturday) }
            == .notConfigured("json-feed my-server: the url has no {channel} placeholder, so it cannot tell 2 channels apart"))

        let daily = try Self.provider("http://feed.test/{channel}/{date:yyyy-MM-dd}", transport: transport)
        let forever = DateInterval(start: .distantPast, end: .distantFuture)
        let tooLong = await providerError { _ = try await daily.schedule(for: Self.la1, in: forever) }
        #expect(tooLong?.kind == "notConfigured")
        #expect(tooLong?.description.contains("more than the \(JSONFeedGuideProvider.maximumDays) fetched day by day") == true)

        #expect(await transport.log.urls.isEmpty)
        #expect(await noTitle.reportNotes().isEmpty)
    }

    private static let saturday = DateInterval(start: JSONFeedTestTime.madrid(2026, 10, 24, 0, offset: 2), end: JSONFeedTestTime.madrid(2026, 10, 25, 0, offset: 2))
}

/// What a guide shows of an airing, to compare two feeds.
private struct Airing: Hashable {
    var start: Date
    var stop: Date?
    var title: String

    init(_ programme: Programme) {
        start = programme.start
        stop = programme.stop
        title = programme.title
    }
}

/// Answers every GET with `body`, remembering the URLs asked.
private struct StaticTransport: GetOnlyTransport {
    let body: String
    let log = URLs()

    init(_ body: String) {
        self.body = body
    }

    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        await log.append(url)
        return TransportResponse(status: 200, body: Data(body.utf8), url: url)
    }

    actor URLs {
        private(set) var urls: [URL] = []
        func append(_ url: URL) { urls.append(url) }
    }
}

private enum JSONFeedTestTime {
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(CivilTime.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute)))
    }

    /// A Madrid wall-clock time with its UTC offset in hours (+2 summer, +1 winter).
    static func madrid(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, offset: Int) -> Date {
        utc(year, month, day, hour, minute).addingTimeInterval(TimeInterval(-offset * 3_600))
    }
}
