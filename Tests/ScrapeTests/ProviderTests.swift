import Foundation
import GuideCore
import GuideTransport
import Scrape
import TestSupport
import Testing

@Suite("Scrape providers over HTTP")
struct ProviderTests {
    let monday = Day(year: 2026, month: 10, day: 19)

    @Test("an audience provider reads each day's page from a real server and maps channel names")
    func audiences() async throws {
        let log = RequestLog()
        try await LoopbackServer.run(log: log, LoopbackServer.serving(directory: Fixtures.url("scrape-cases"))) { root in
            let provider = try ScrapeAudienceProvider(
                id: "teleaudiencias", recipe: audienceRecipe(base: root), transport: LiveTransport(policy: .loopbackExact),
                resolveChannel: resolveChannel)

            let ranking = try await provider.audiences(on: monday)
            #expect(ranking.map(\.title) == ["El Hormiguero", "Telediario 2", "Pasapalabra", "La Revuelta", "Informativos Telecinco"])
            // `TVE1` is an alias of La 1; Telemadrid is not in the channel map.
            #expect(ranking.map(\.channel) == ["Antena3.es", "La1.es", "Antena3.es", "La1.es", "Telecinco.es"])
            #expect(ranking.first == AudienceRecord(
                day: monday, rank: 1, title: "El Hormiguero", channel: "Antena3.es", viewers: 2_526_000, share: 23,
                start: madrid(2026, 10, 19, 21, 45, offset: 2), source: "teleaudiencias"))
            #expect(ranking[3].share == nil)
            #expect(ranking[3].start == madrid(2026, 10, 19, 22, 0, offset: 2))

            let tuesday = try await provider.audiences(on: Day(year: 2026, month: 10, day: 20))
            #expect(tuesday.map(\.title) == ["La Pasión Turca", "España Directo", "El Niño y la Señal"])

            let moved = await providerError { _ = try await provider.audiences(on: Day(year: 2026, month: 10, day: 22)) }
            #expect(moved?.malformedDetail == root.absoluteString + "audiencias/22-10-2026: rows selector "
                + "'//table[@class='audiencias']//tr[td]' matched no rows (has the page layout changed?)")

            let missing = await providerError { _ = try await provider.audiences(on: Day(year: 2026, month: 10, day: 23)) }
            #expect(missing == .http(status: 404, url: root.absoluteString + "audiencias/23-10-2026"))

            #expect(await provider.reportNotes() == [
                "scraped 2 page(s): 9 row(s); 1 advert row(s) and 1 empty row(s) skipped",
                "field 'share' missing or unparsable in 1 row(s), kept without it",
                "1 row(s) dropped, channel not in the channel map: Telemadrid (1)",
            ])
        }
        #expect(await log.requests.map(\.path) == [
            "/audiencias/19-10-2026", "/audiencias/20-10-2026", "/audiencias/22-10-2026", "/audiencias/23-10-2026",
        ])
    }

    @Test("a start past 24:00 is the next day's early hours")
    func startPastMidnight() async throws {
        try await LoopbackServer.run(LoopbackServer.serving(directory: Fixtures.url("scrape-cases"))) { root in
            let provider = try ScrapeAudienceProvider(
                id: "teleaudiencias", recipe: audienceRecipe(base: root), transport: LiveTransport(policy: .loopbackExact),
                resolveChannel: { $0 == "Telemadrid" ? "Telemadrid.es" : nil })
            let ranking = try await provider.audiences(on: monday)
            #expect(ranking.map(\.title) == ["Cine de madrugada"])
            #expect(ranking.first?.start == madrid(2026, 10, 20, 1, 30, offset: 2))
        }
    }

    @Test("start times take the offset of their own day: summer time ends on 25 October 2026 and starts on 28 March 2027")
    func startsAcrossSummerTime() async throws {
        let page = rankingPage("""
        <tr><td>1</td><td>Telediario 2</td><td>La 1</td><td>2.000.000</td><td>15%</td><td>21:00</td></tr>
        <tr><td>2</td><td>La noche en 24h</td><td>La 1</td><td>100.000</td><td>3%</td><td>01:30</td></tr>
        <tr><td>3</td><td>Madrugada</td><td>La 1</td><td>50.000</td><td>2%</td><td>03:30</td></tr>
        """)
        let provider = try ScrapeAudienceProvider(
            id: "teleaudiencias", recipe: audienceRecipe(), transport: PageTransport(page: page), resolveChannel: resolveChannel)
        let autumn = try await provider.audiences(on: Day(year: 2026, month: 10, day: 25)).map(\.start)
        #expect(autumn == [madrid(2026, 10, 25, 21, offset: 1), madrid(2026, 10, 25, 1, 30, offset: 2), madrid(2026, 10, 25, 3, 30, offset: 1)])
        let spring = try await provider.audiences(on: Day(year: 2027, month: 3, day: 28)).map(\.start)
        #expect(spring == [madrid(2027, 3, 28, 21, offset: 2), madrid(2027, 3, 28, 1, 30, offset: 1), madrid(2027, 3, 28, 3, 30, offset: 2)])
    }

    @Test("a ranking whose channels are all unknown is malformed, never an empty day")
    func noKnownChannel() async throws {
        try await LoopbackServer.run(LoopbackServer.serving(directory: Fixtures.url("scrape-cases"))) { root in
            let provider = try ScrapeAudienceProvider(
                id: "teleaudiencias", recipe: audienceRecipe(base: root), transport: LiveTransport(policy: .loopbackExact),
                resolveChannel: { _ in nil })
            let error = await providerError { _ = try await provider.audiences(on: Day(year: 2026, month: 10, day: 20)) }
            #expect(error?.malformedDetail == root.absoluteString
                + "audiencias/20-10-2026: none of the 3 row(s) names a channel of the channel map ('Antena 3', 'La 1', 'laSexta')")
        }
    }

    @Test("the Content-Type header's charset decodes the page")
    func headerCharset() async throws {
        let handler = LoopbackServer.serving(
            directory: Fixtures.url("scrape-cases"), headers: ["content-type": "text/html; charset=ISO-8859-1"])
        try await LoopbackServer.run(handler) { root in
            var recipe = audienceRecipe(base: root)
            recipe.url = root.absoluteString + "audiencias/21-10-2026"   // Windows-1252 bytes, declared in <meta>
            let provider = try ScrapeAudienceProvider(
                id: "teleaudiencias", recipe: recipe, transport: LiveTransport(policy: .loopbackExact), resolveChannel: resolveChannel)
            // ISO-8859-1 is decoded as Windows-1252, as browsers do, so the header agrees with the bytes.
            let titles = try await provider.audiences(on: monday).map(\.title)
            #expect(titles == ["“Quién quiere ser millonario” – 1.000.000 €", "Águila Roja"])
        }
    }

    @Test("an invalid recipe fails when the provider is made, before any request")
    func invalidRecipe() {
        var recipe = audienceRecipe()
        recipe.fields["title"]?.xpath = "td[2"
        let error = recipeError {
            _ = try ScrapeAudienceProvider(id: "x", recipe: recipe, transport: GuardTransport(), resolveChannel: resolveChannel)
        }
        #expect(error?.key == "fields.title.xpath")
    }

    @Test("a guide provider fetches one page per day and channel, and the listing ends where the site's pages do")
    func guide() async throws {
        let log = RequestLog()
        try await LoopbackServer.run(log: log, LoopbackServer.serving(directory: Fixtures.url("scrape-cases"))) { root in
            let la1 = Channel(id: "la1", name: "La 1")
            let provider = try ScrapeGuideProvider(
                id: "parrilla", recipe: guideRecipe(base: root), channels: [la1], transport: LiveTransport(policy: .loopbackExact))
            #expect(try await provider.channels() == [la1])

            let ref = ChannelRef(id: "La1.es", providerID: "la1")
            let twoDays = DateInterval(start: madrid(2026, 10, 19, 6, offset: 2), end: madrid(2026, 10, 21, 6, offset: 2))
            let programmes = try await provider.schedule(for: ref, in: twoDays)
            #expect(programmes.map(\.title) == [
                "Telediario Matinal", "La Hora de La 1", "Telediario 2", "Cine", "La noche en 24h",
                "Telediario Matinal", "Telediario 2", "Masterchef",
            ])
            #expect(programmes.map(\.start) == [
                madrid(2026, 10, 19, 6, offset: 2), madrid(2026, 10, 19, 8, 30, offset: 2), madrid(2026, 10, 19, 21, offset: 2),
                madrid(2026, 10, 19, 23, 30, offset: 2), madrid(2026, 10, 20, 1, 15, offset: 2),
                madrid(2026, 10, 20, 6, offset: 2), madrid(2026, 10, 20, 21, offset: 2), madrid(2026, 10, 20, 22, offset: 2),
            ])
            #expect(programmes.map(\.stop) == [
                madrid(2026, 10, 19, 8, 30, offset: 2), nil, madrid(2026, 10, 19, 21, 40, offset: 2), nil,
                madrid(2026, 10, 20, 2, 30, offset: 2), madrid(2026, 10, 20, 8, 30, offset: 2),
                madrid(2026, 10, 20, 21, 40, offset: 2), madrid(2026, 10, 21, 1, offset: 2),
            ])
            #expect(programmes.allSatisfy { $0.channel == "La1.es" && $0.source == "parrilla" })
            let cine = programmes[3]
            #expect(cine.subtitle == "Los santos inocentes")
            #expect(cine.categories == [LocalizedText("Cine")])
            #expect(programmes[1].synopsis == "Magacín de actualidad.")
            #expect(programmes[4].categories == nil)

            // An evening to the next morning: two pages; programmes outside the window are left out.
            let evening = DateInterval(start: madrid(2026, 10, 19, 20, offset: 2), end: madrid(2026, 10, 20, 7, offset: 2))
            let night = try await provider.schedule(for: ref, in: evening)
            #expect(night.map(\.title) == ["Telediario 2", "Cine", "La noche en 24h", "Telediario Matinal"])

            #expect(await provider.reportNotes() == [
                "scraped 4 page(s): 16 row(s)",
                "channel la1: no page from 2026-10-21 on (HTTP 404 from \(root.absoluteString)guia/la1/2026-10-21), the listing ends there",
            ])
        }
        #expect(await log.requests.map(\.path) == [
            "/guia/la1/2026-10-19", "/guia/la1/2026-10-20", "/guia/la1/2026-10-21", "/guia/la1/2026-10-19", "/guia/la1/2026-10-20",
        ])
    }

    @Test("a guide whose first page is missing fails; a window of all time is refused before any request")
    func guideErrors() async throws {
        let log = RequestLog()
        try await LoopbackServer.run(log: log, LoopbackServer.serving(directory: Fixtures.url("scrape-cases"))) { root in
            let provider = try ScrapeGuideProvider(
                id: "parrilla", recipe: guideRecipe(base: root), channels: [], transport: LiveTransport(policy: .loopbackExact))
            let ref = ChannelRef(id: "La1.es", providerID: "la1")
            let tomorrow = DateInterval(start: madrid(2026, 10, 21, 6, offset: 2), duration: 86_400)
            let missing = await providerError { _ = try await provider.schedule(for: ref, in: tomorrow) }
            #expect(missing == .http(status: 404, url: root.absoluteString + "guia/la1/2026-10-21"))

            let allTime = DateInterval(start: .distantPast, end: .distantFuture)
            let refused = await providerError { _ = try await provider.schedule(for: ref, in: allTime) }
            #expect(refused == .notConfigured("parrilla: a scrape guide fetches one page per day, and the window asked spans more than 62 days"))
        }
        #expect(await log.count == 1)
    }

    @Test("schedules of the same provider run concurrently")
    func concurrentSchedules() async throws {
        try await LoopbackServer.run(LoopbackServer.serving(directory: Fixtures.url("scrape-cases"))) { root in
            let provider = try ScrapeGuideProvider(
                id: "parrilla", recipe: guideRecipe(base: root), channels: [], transport: LiveTransport(policy: .loopbackExact))
            let ref = ChannelRef(id: "La1.es", providerID: "la1")
            let day = DateInterval(start: madrid(2026, 10, 19, 6, offset: 2), duration: 86_400)
            let schedules = try await withThrowingTaskGroup(of: [Programme].self) { group in
                for _ in 0..<8 { group.addTask { try await provider.schedule(for: ref, in: day) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(schedules.count == 8)
            #expect(schedules.allSatisfy { $0.map(\.title) == ["Telediario Matinal", "La Hora de La 1", "Telediario 2", "Cine", "La noche en 24h"] })
        }
    }

    @Test("a guide page without a date in its URL is fetched and read once, not once per day of the window")
    func datelessPage() async throws {
        let log = RequestLog()
        try await LoopbackServer.run(log: log, LoopbackServer.serving(directory: Fixtures.url("scrape-cases"))) { root in
            var recipe = guideRecipe(base: root)
            recipe.url = root.absoluteString + "guia/{channel}/2026-10-19"
            let provider = try ScrapeGuideProvider(id: "parrilla", recipe: recipe, channels: [], transport: LiveTransport(policy: .loopbackExact))
            let week = DateInterval(start: madrid(2026, 10, 19, 6, offset: 2), duration: 7 * 86_400)
            let programmes = try await provider.schedule(for: ChannelRef(id: "La1.es", providerID: "la1"), in: week)
            #expect(programmes.map(\.title) == ["Telediario Matinal", "La Hora de La 1", "Telediario 2", "Cine", "La noche en 24h"])
        }
        #expect(await log.count == 1)
    }

    @Test("adverts: keep reads the rows whose cell count differs, which skip leaves out")
    func advertsKept() async throws {
        try await LoopbackServer.run(LoopbackServer.serving(directory: Fixtures.url("scrape-cases"))) { root in
            var recipe = audienceRecipe(base: root)
            let skipping = try ScrapeAudienceProvider(id: "a", recipe: recipe, transport: LiveTransport(policy: .loopbackExact), resolveChannel: resolveChannel)
            recipe.skipsAdverts = false
            let keeping = try ScrapeAudienceProvider(id: "a", recipe: recipe, transport: LiveTransport(policy: .loopbackExact), resolveChannel: resolveChannel)
            let skipped = await providerError { _ = try await skipping.audiences(on: monday) }
            #expect(skipped == nil)
            // The advert row has no rank cell of its own: kept, it cannot be read as a ranking row.
            let kept = await providerError { _ = try await keeping.audiences(on: monday) }
            #expect(kept?.malformedDetail?.contains("row") == true, "\(String(describing: kept))")
        }
    }
}

/// Answers every request with the same page.
struct PageTransport: GetOnlyTransport {
    let page: Data

    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        TransportResponse(status: 200, body: page, url: url)
    }
}

/// A transport for tests that must not fetch: any request is an error the test would see.
struct GuardTransport: GetOnlyTransport {
    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        throw ProviderError.notConfigured("unexpected request for \(url)")
    }

}
