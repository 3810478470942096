import Foundation
import GuideCore
import MiGuiaTV
import TestSupport
import Testing

@Suite("MiGuiaTV schedules")
struct ScheduleTests {
    let miguia = provider(FixtureTransport())

    func week(_ canonical: String, _ providerID: String) async throws -> [Programme] {
        try await miguia.schedule(for: ChannelRef(id: canonical, providerID: providerID), in: recordedWeek)
    }

    /// Every programme ends where the next begins, from the first to the last second of the week.
    func expectContiguousWeek(_ programmes: [Programme], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(programmes.first?.start == recordedWeek.start, sourceLocation: sourceLocation)
        #expect(programmes.last?.stop == recordedWeek.end, sourceLocation: sourceLocation)
        for (earlier, later) in zip(programmes, programmes.dropFirst()) where earlier.stop != later.start {
            Issue.record("gap or overlap between \(earlier.id) and \(later.id)", sourceLocation: sourceLocation)
        }
    }

    @Test("La 1: the week's grid, under the canonical id and the provider's id")
    func la1Week() async throws {
        let programmes = try await week("La1.es", "1")

        #expect(programmes.count == 105)
        expectContiguousWeek(programmes)
        #expect(programmes.allSatisfy { $0.channel == "La1.es" && $0.source == "miguiatv" })
        #expect(programmes.first?.title == "Telediario Matinal")
        #expect(programmes.first?.kind == .news)
        #expect(programmes.first?.categories == [LocalizedText("Noticias", lang: "es")])
        #expect(programmes.last?.title == "La noche en 24h")
        #expect(programmes.last?.start == madrid(2026, 10, 26, 2, 30, offset: 1))
        #expect(programmes.filter { $0.title == "Telediario 2" }.count == 5)
        #expect(programmes.first { $0.title == "El cazador" }?.kind == .programme)
        #expect(programmes.first { $0.title == "Aquí la Tierra" }?.kind == .documentary)
        #expect(programmes.first { $0.title == "Los Lunnis" }?.kind == .kids)
    }

    @Test("La 1: films carry their TMDB id, rating and backdrop")
    func la1Films() async throws {
        let films = try await week("La1.es", "1").filter { $0.kind == .movie }

        #expect(films.map(\.title) == ["Mar adentro", "Los otros", "Volver", "Ágora", "Titanic", "Toy Story",
                                       "Parque Jurásico", "Seven", "Buscando a Nemo", "Regreso al futuro",
                                       "El silencio de los corderos"])
        let marAdentro = try #require(films.first)
        #expect(marAdentro.start == madrid(2026, 10, 20, 0, 25, offset: 2))
        #expect(marAdentro.providerIDs == ["tmdb": "1913", "miguiatv": "1913"])
        #expect(marAdentro.starRatings == [Rating(system: "MiGuiaTV", value: "7.7/10")])
        #expect(marAdentro.images == [ImageRef(url: "https://www.miguia.tv/img/backdrops/movie-1913.jpg", kind: "backdrop")])
        #expect(marAdentro.categories == [LocalizedText("Drama", lang: "es")])
        #expect(marAdentro.synopsis?.hasPrefix("Ramón Sampedro") == true)
        #expect(marAdentro.subtitle == nil && marAdentro.episode == nil)
        #expect(films.first { $0.title == "Los otros" }?.providerIDs?["tmdb"] == "1933")
    }

    @Test("La 1: series episodes are parsed from the sub-title")
    func la1Episodes() async throws {
        let programmes = try await week("La1.es", "1")
        let cuentame = programmes.filter { $0.title == "Cuéntame cómo pasó" }

        #expect(cuentame.count == 4)
        #expect(cuentame.map { $0.episode?.number } == [9, 10, 11, 12])
        let first = try #require(cuentame.first)
        #expect(first.kind == .series)
        #expect(first.episode == Episode(season: 3, number: 9, onscreen: "T3 E9"))
        #expect(first.subtitle == "El precio de la libertad")
        #expect(first.providerIDs?["tmdb"] == nil && first.providerIDs?["miguiatv"] != nil)

        let promesa = programmes.filter { $0.title == "La Promesa" }
        #expect(promesa.map { $0.episode?.number } == [712, 713, 714, 715, 716])
        #expect(promesa.first?.episode?.season == nil)
        #expect(promesa.first?.episode?.onscreen == "Capítulo 712")
        #expect(promesa.first?.subtitle == nil)
    }

    @Test("the night summer time ends: no gap or overlap, and the repeated hour airs twice on 24h")
    func dstNight() async throws {
        let la1 = try await week("La1.es", "1")
        let changeover = madrid(2026, 10, 25, 2, 30, offset: 1)
        let spanning = try #require(la1.first { $0.start <= changeover && changeover < $0.stop! })
        #expect(spanning.title == "La noche en 24h")
        #expect(spanning.start == madrid(2026, 10, 25, 2, 30, offset: 2))
        #expect(spanning.stop == madrid(2026, 10, 25, 6, 0, offset: 1))

        let news = try await week("24h.es", "7")
        #expect(news.count == 162)
        expectContiguousWeek(news)
        let twoOClock = news.filter {
            $0.start == madrid(2026, 10, 25, 2, offset: 2) || $0.start == madrid(2026, 10, 25, 2, offset: 1)
        }
        #expect(twoOClock.count == 2)
        #expect(twoOClock.allSatisfy { $0.title == "Noticias 24 horas" && $0.stop!.timeIntervalSince($0.start) == 3_600 })
        // Saturday's broadcast day, from 06:00 summer time to 06:00 winter time, lasts 25 hours.
        let saturday = DateInterval(start: madrid(2026, 10, 24, 6, offset: 2), end: madrid(2026, 10, 25, 6, offset: 1))
        let airtime = news.filter { saturday.contains($0.start) && $0.start < saturday.end }
            .reduce(0) { $0 + $1.stop!.timeIntervalSince($1.start) }
        #expect(airtime == 25 * 3_600)
    }

    @Test("themed channels: sports, kids, Catalan and Basque")
    func themedChannels() async throws {
        let sports = try await week("Teledeporte.es", "9")
        #expect(sports.count == 98)
        #expect(sports.allSatisfy { $0.kind == .sports })
        #expect(sports.contains { $0.title == "Tenis: ATP 500 Viena" && $0.subtitle == "Final" })

        let clan = try await week("Clan.es", "8")
        #expect(clan.count == 217)
        expectContiguousWeek(clan)
        let peppa = try #require(clan.first)
        #expect(peppa.title == "Peppa Pig" && peppa.kind == .kids)
        #expect(peppa.episode == Episode(season: 8, number: 1, onscreen: "Temporada 8, Episodio 1"))
        #expect(peppa.subtitle == "Charcos de barro")
        #expect(clan.filter { $0.kind == .kids }.count == 210)

        let tv3 = try await week("TV3.es", "23")
        #expect(tv3.count == 84)
        expectContiguousWeek(tv3)
        #expect(tv3.first { $0.title == "Com si fos ahir" }?.episode == Episode(number: 1650, onscreen: "Capítol 1650"))
        let films = tv3.filter { $0.kind == .movie }
        #expect(films.map(\.title) == ["Els altres", "El laberint del faune", "L'orfenat", "Mar endins", "L'impossible"])
        #expect(films.map { $0.providerIDs?["tmdb"] } == ["1933", "1417", "6537", "1913", "80278"])

        let etb = try await week("ETB1.es", "24")
        #expect(etb.count == 98)
        #expect(etb.first?.title == "Gaur Egun" && etb.first?.kind == .news)
    }

    @Test("every recorded channel covers the whole week without gaps")
    func wholeLineUp() async throws {
        var total = 0
        for id in 1...24 {
            let programmes = try await week("C\(id)", String(id))
            expectContiguousWeek(programmes)
            total += programmes.count
        }
        #expect(total == 2_696)
    }

    @Test("only programmes that overlap the window are kept")
    func windowFiltering() async throws {
        // Wednesday 21, La 1: "El cazador" 18:00, "Aquí la Tierra" 20:00, "Telediario 2" 21:00,
        // "La Revuelta" 21:55, "Cuéntame cómo pasó" 23:10.
        let ref = ChannelRef(id: "La1.es", providerID: "1")
        let cutting = DateInterval(start: madrid(2026, 10, 21, 20, 30, offset: 2), end: madrid(2026, 10, 21, 22, 0, offset: 2))
        #expect(try await miguia.schedule(for: ref, in: cutting).map(\.title) == ["Aquí la Tierra", "Telediario 2", "La Revuelta"])

        // A programme that ends where the window starts, or starts where it ends, is outside.
        let touching = DateInterval(start: madrid(2026, 10, 21, 20, 0, offset: 2), end: madrid(2026, 10, 21, 21, 55, offset: 2))
        #expect(try await miguia.schedule(for: ref, in: touching).map(\.title) == ["Aquí la Tierra", "Telediario 2"])

        let before = DateInterval(start: madrid(2026, 10, 1, 0, offset: 2), end: madrid(2026, 10, 19, 6, offset: 2))
        #expect(try await miguia.schedule(for: ref, in: before).isEmpty)
    }

    @Test("lenient shows: numeric strings, decimal commas, nulls, empty strings, data.shows")
    func lenientShows() async throws {
        let json = #"""
        {"data": {"shows": [
          {"type": "MOVIE", "showID": 1417, "channelID": "3", "inittime": "1792609200", "endtime": 1792616400.0,
           "subtype": "Fantástico", "title": "El laberinto del fauno", "subtitle": "", "text": null, "rate": "7,8", "backdrop": ""},
          {"type": "programme", "showID": null, "inittime": 1792616400, "subtype": "Informativo", "title": "Noticias"},
          {"type": "programme", "showID": "55", "inittime": 1792620000, "endtime": 1792623600, "subtype": "Deportes", "title": 1917, "rate": 8},
          {"type": "telenovela", "inittime": 1792623600, "endtime": 1792627200, "title": "  Amar es para siempre  "},
          {"inittime": 1792627200, "endtime": 1792630800, "title": "Sin tipo"}
        ]}}
        """#
        let programmes = try await provider(ScriptedTransport(json: json))
            .schedule(for: ChannelRef(id: "Antena3.es", providerID: "3"), in: recordedWeek)

        #expect(programmes.count == 5)
        let film = programmes[0]
        #expect(film.kind == .movie && film.providerIDs == ["tmdb": "1417", "miguiatv": "1417"])
        #expect(film.start == madrid(2026, 10, 21, 21, offset: 2) && film.stop == madrid(2026, 10, 21, 23, offset: 2))
        #expect(film.starRatings == [Rating(system: "MiGuiaTV", value: "7.8/10")])
        #expect(film.subtitle == nil && film.synopsis == nil && film.images == nil)

        #expect(programmes[1].kind == .news && programmes[1].stop == nil && programmes[1].providerIDs == nil)
        #expect(programmes[2].kind == .sports && programmes[2].title == "1917")
        #expect(programmes[2].starRatings == [Rating(system: "MiGuiaTV", value: "8/10")])
        #expect(programmes[3].kind == .other && programmes[3].title == "Amar es para siempre")
        #expect(programmes[4].kind == nil && programmes[4].categories == nil)
    }
}

@Suite("MiGuiaTV now on air")
struct NowOnAirTests {
    @Test("one programme per channel under MiGuiaTV's ids, all airing at Wednesday 21:00")
    func nowJSON() async throws {
        let transport = FixtureTransport()
        let programmes = try await provider(transport).nowOnAir()
        let instant = madrid(2026, 10, 21, 21, offset: 2)

        #expect(await transport.log.urls.map(\.absoluteString) == ["http://api.miguia.tv/1/es_ES/channel/now.json"])
        #expect(programmes.map(\.channel) == (1...24).map(String.init))
        #expect(programmes.allSatisfy { $0.start <= instant && instant < $0.stop! && $0.source == "miguiatv" })
        #expect(programmes.first?.title == "Telediario 2")
        #expect(programmes.first { $0.channel == "3" }?.title == "Antena 3 Noticias 2")
        let simpsons = try #require(programmes.first { $0.channel == "10" })
        #expect(simpsons.title == "Los Simpson" && simpsons.episode?.season == 29 && simpsons.subtitle == "Lisa vegetariana")
    }

    @Test("a show without channelID cannot be placed")
    func missingChannel() async throws {
        let json = #"{"data": [{"channelID": 1, "inittime": 1, "title": "A"}, {"inittime": 2, "title": "B"}]}"#
        let error = await providerError { _ = try await provider(ScriptedTransport(json: json)).nowOnAir() }
        #expect(error == .malformed("/1/es_ES/channel/now.json: data[1].channelID is missing"))
    }
}
