import Foundation
import GuideCore
import TestSupport
import Testing
import XMLTV

@Suite("XMLTV parser")
struct XMLTVParserTests {
    @Test("channels: every display-name with its language, icon and url")
    func channels() throws {
        let document = try parseFixture("features.xml")
        #expect(document.channels == [
            {
                var la1 = Channel(id: "La1.es", name: "La 1",
                                  otherNames: [LocalizedText("TVE 1", lang: "en"), LocalizedText("1")],
                                  language: "es", logo: "https://img.tvguide.example/logos/La1.es.png",
                                  url: "https://www.rtve.es/play/videos/directo/canales-lineales/la-1/")
                // The icon's size is more than `logo` says: the whole list is kept.
                la1.icons = [ImageRef(url: "https://img.tvguide.example/logos/La1.es.png", width: 200, height: 200)]
                return la1
            }(),
            Channel(id: "TV3.es", name: "TV3", language: "ca"),
        ])
        #expect(document.info == XMLTVInfo(
            date: "20261019", sourceInfoURL: "https://www.rtve.es/", sourceInfoName: "RTVE",
            sourceDataURL: "https://www.rtve.es/television/programacion/", generatorInfoName: "tvguide fixtures",
            generatorInfoURL: "https://github.com/tvguide/tvguide"))
    }

    @Test("a programme with every element")
    func everyElement() throws {
        let document = try parseFixture("features.xml")
        #expect(document.skipped.isEmpty)
        let film = try #require(document.programmes.first)

        var expected = Programme(channel: "La1.es", start: utc("2026-10-25T19:30:00Z"), stop: utc("2026-10-25T22:05:00Z"),
                                 title: "El laberinto del fauno", source: testSource)
        // The sub-title in the title's language wins over the first one.
        expected.subtitle = "Versión restaurada"
        expected.synopsis = "En 1944, Ofelia & su madre llegan a un molino del norte de España donde el capitán Vidal "
            + "combate a los maquis. Un fauno le revela que es una princesa <perdida>."
        expected.textLanguage = "es"
        expected.otherTexts = [
            ProgrammeText(field: .title, value: "Pan's Labyrinth", lang: "en"),
            ProgrammeText(field: .subtitle, value: "The Labyrinth", lang: "en"),
            ProgrammeText(field: .synopsis, value: "Spain, 1944: a girl escapes into a dark fairy tale.", lang: "en"),
        ]
        expected.kind = .movie
        expected.categories = [LocalizedText("Cine", lang: "es"), LocalizedText("Fantástico", lang: "es"),
                               LocalizedText("Movie", lang: "en")]
        expected.keywords = [LocalizedText("posguerra", lang: "es"), LocalizedText("fairy tale", lang: "en")]
        expected.date = "20061011"
        expected.year = 2006
        expected.episode = Episode(other: ["dd_progid": "MV00123456.0000"])
        expected.providerIDs = ["imdb": "tt0457430", "tmdb": "1417", "tmdb-media": "movie"]
        expected.credits = [
            Credit(role: .director, name: "Guillermo del Toro"),
            Credit(role: .actor, name: "Ivana Baquero", character: "Ofelia"),
            Credit(role: .actor, name: "Sergi López", character: "Capitán Vidal", guest: false),
            Credit(role: .actor, name: "Maribel Verdú", urls: [WebLink(url: "https://www.imdb.com/name/nm0894520/")]),
            Credit(role: .writer, name: "Guillermo del Toro"),
            Credit(role: .adapter, name: "Equipo de doblaje"),
            Credit(role: .producer, name: "Bertha Navarro"),
            Credit(role: .composer, name: "Javier Navarrete"),
            Credit(role: .editor, name: "Bernat Vilaplana"),
            Credit(role: .presenter, name: "Elena S. Sánchez"),
            Credit(role: .commentator, name: "Carlos Boyero"),
            Credit(role: .guest, name: "Ivana Baquero"),
        ]
        expected.language = "es"
        expected.originalLanguage = "es"
        expected.countries = ["ES", "MX"]
        expected.length = 119 * 60
        expected.images = [
            ImageRef(url: "https://img.tvguide.example/films/el-laberinto-del-fauno-2006.jpg", width: 500, height: 750),
            ImageRef(url: "https://img.tvguide.example/films/el-laberinto-del-fauno-poster.jpg", kind: "poster", xmltvImage: true),
        ]
        expected.urls = ["https://www.rtve.es/play/videos/somos-cine/el-laberinto-del-fauno/"]
        expected.video = VideoInfo(present: true, colour: true, aspect: "16:9", quality: "HDTV")
        expected.audio = AudioInfo(present: true, stereo: "dolby digital")
        expected.previouslyShown = PreviouslyShown(start: "20250412", channel: "La2.es")
        expected.premiere = true
        expected.lastChance = true
        expected.subtitles = [SubtitleInfo(type: "teletext", language: "es"), SubtitleInfo(type: "onscreen")]
        expected.ratings = [Rating(system: "ES", value: "+16", icon: "https://img.tvguide.example/ratings/es-16.png")]
        expected.starRatings = [Rating(system: "IMDb", value: "8.2/10"), Rating(value: "4/5")]
        var extras = XMLTVExtras()
        extras.premiereNote = LocalizedText("Estreno en abierto", lang: "es")
        extras.lastChanceNote = LocalizedText("Última emisión")
        extras.reviews = [Review(type: "text", value: "Un cuento de hadas para adultos.", source: "El País")]
        expected.xmltv = extras
        #expect(film == expected)
    }

    @Test("episode numbers: xmltv_ns counts from 0, onscreen and other systems are kept as written")
    func episodes() throws {
        let programmes = try parseFixture("features.xml").programmes
        try #require(programmes.count == 4)
        #expect(programmes[1].episode == Episode(season: 19, number: 352, episodeCount: 376, part: 1, partCount: 2,
                                                 xmltvNS: "18 . 351/376 . 0/2", onscreen: "T19 E352"))
        #expect(programmes[1].isNew == true)
        #expect(programmes[1].length == 3_600)
        #expect(programmes[1].kind == .series)
        // episode-num without a system is onscreen, as the DTD says.
        #expect(programmes[2].episode == Episode(onscreen: "Edició 14.233"))
        #expect(programmes[3].episode == Episode(number: 5, xmltvNS: ".4."))
    }

    @Test("partial times, missing offsets, missing stop, CDATA, a desc in another language")
    func oddButValid() throws {
        let programmes = try parseFixture("features.xml").programmes
        try #require(programmes.count == 4)
        let news = programmes[2]
        #expect(news.start == utc("2026-10-25T14:00:00Z"))
        #expect(news.stop == nil)
        #expect(news.title == "Telenotícies migdia")
        #expect(news.textLanguage == "ca")
        #expect(news.synopsis == "Informativo del mediodía.")
        #expect(news.otherTexts == [ProgrammeText(field: .title, value: "Telenoticias mediodía", lang: "es")])
        #expect(news.kind == .news)
        #expect(news.length == 3_300)
        let series = programmes[3]
        #expect(series.start == utc("2026-10-25T16:00:00Z"))
        #expect(series.title == "Com si fos ahir & més")
        #expect(series.kind == .series)
    }

    @Test("ISO-8859-1 as its XML declaration says")
    func latin1() throws {
        let document = try parseFixture("latin1.xml")
        #expect(document.channels.map(\.name) == ["ETB 1", "La 2"])
        #expect(document.programmes.map(\.title) == ["Saber y ganar", "Grandes documentales: La península ibérica, año cero", "Gaur egun"])
        #expect(document.programmes[0].synopsis == "Concurso de preguntas y respuestas presentado por Jordi Hurtado. ¿Quién acertará más?")
        #expect(document.programmes[1].synopsis?.contains("Señales de otoño en Doñana") == true)
        #expect(document.programmes.map(\.kind) == [.programme, .documentary, .news])
        #expect(document.programmes[2].textLanguage == "eu")
    }

    @Test("gzip: a .gz file, and gzip bytes under any name")
    func gzip() throws {
        let document = try parseFixture("small.xml.gz")
        #expect(document.channels.map(\.id) == ["Clan.es"])
        #expect(document.programmes.map(\.title) == ["Peppa Pig", "La patrulla canina"])
        #expect(document.programmes[0].episode?.season == 7)
        #expect(document.programmes.allSatisfy { $0.kind == .kids })

        let bytes = try Data(contentsOf: Fixtures.url("xmltv/small.xml.gz"))
        let renamed = try XMLTVParser(source: testSource).parse(bytes, name: "guide")
        #expect(renamed == document)
    }

    @Test("a broken gzip stream is a malformed error, not a crash")
    func brokenGzip() throws {
        let bytes = try Data(contentsOf: Fixtures.url("xmltv/small.xml.gz"))
        let cut = bytes.prefix(bytes.count / 2)
        let truncated = #expect(throws: ProviderError.self) {
            try XMLTVParser(source: testSource).parse(Data(cut), name: "cut.xml.gz")
        }
        #expect(malformedMessage(truncated)?.hasPrefix("cut.xml.gz: gzip: ") == true)

        let garbage = #expect(throws: ProviderError.self) {
            try XMLTVParser(source: testSource).parse(Data([0x1F, 0x8B, 0x08, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]), name: "junk.gz")
        }
        #expect(malformedMessage(garbage)?.hasPrefix("junk.gz: gzip: ") == true)
    }

    @Test("truncated XML is malformed, with the file, the line and libxml2's reason")
    func truncated() throws {
        let error = #expect(throws: ProviderError.self) { try parseFixture("truncated.xml") }
        let message = try #require(malformedMessage(error))
        #expect(message.hasPrefix("truncated.xml: line 12: the document ends before </tv>, as if truncated"))
    }

    @Test("bytes that are not UTF-8 in a UTF-8 file are malformed, with the line")
    func invalidUTF8() throws {
        var bytes = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tv>\n<channel id=\"a.es\"><display-name>Espa".utf8)
        bytes.append(0xF1)
        bytes.append(contentsOf: Data("a</display-name></channel></tv>\n".utf8))
        let error = #expect(throws: ProviderError.self) {
            try XMLTVParser(source: testSource).parse(bytes, name: "wrong-encoding.xml")
        }
        let message = try #require(malformedMessage(error))
        #expect(message.hasPrefix("wrong-encoding.xml: line 3: "))
        #expect(message.contains("UTF-8"))
    }

    @Test("not XMLTV at all", arguments: [
        ("", "empty.xml: line 1: "),
        ("hello", "hello.xml: line 1: "),
        ("<rss version=\"2.0\"><channel/></rss>", "rss.xml: line 1: the root element is <rss>, not <tv>"),
        ("<tv><programme start=\"20261019060000\" channel=\"a.es\"><title>x</title></tv>", "mismatch.xml: line 1: "),
    ])
    func notXMLTV(text: String, prefix: String) throws {
        let name = String(prefix.prefix { $0 != ":" })
        let error = #expect(throws: ProviderError.self) { try parseText(text, name: name) }
        #expect(malformedMessage(error)?.hasPrefix(prefix) == true, "\(String(describing: error))")
    }

    @Test("bad programmes are skipped and counted with their reason and line; good ones are kept")
    func badTimes() throws {
        let document = try parseFixture("bad-times.xml")
        // A channel without its <channel> element keeps its programme, as tv_cat and tv_sort keep it.
        #expect(document.programmes.map(\.title) == ["Noticias Cuatro", "Canal desconocido", "First Dates"])
        #expect(document.programmes.map(\.kind) == [.news, .programme, .programme])
        #expect(document.channels.map(\.id) == ["Cuatro.es", "Cuatro2.es"])
        #expect(document.channels.last == Channel(id: "Cuatro2.es", name: "Cuatro2.es"))
        #expect(document.skipped.map(\.reason) == [
            .stopBeforeStart, .unparsableStart, .unparsableStart, .unparsableStop, .missingTitle, .missingChannel,
        ])
        #expect(document.skipped.map(\.line) == [12, 15, 18, 21, 24, 27])
        #expect(document.skipped[1].start == "21 de octubre, 17:00")
        #expect(document.skippedSummary == "2 unparsable start, 1 missing channel, 1 missing title, 1 stop before start, 1 unparsable stop")
    }

    @Test("internal entities are expanded in text; character references too")
    func internalEntities() throws {
        let document = try parseFixture("entities.xml")
        #expect(document.programmes.map(\.title) == ["T text END"])
        #expect(document.programmes.first?.synopsis == "D text and text é")
        #expect(document.channels.map(\.name) == ["A & B"])
    }

    @Test("the DTD's zone names and partial times", arguments: [
        ("200007281733 BST", "2000-07-28T16:33:00Z"), ("20261125100000 CET", "2026-11-25T09:00:00Z"),
        ("20260725100000 CEST", "2026-07-25T08:00:00Z"), ("20261125100000 EST", "2026-11-25T15:00:00Z"),
        ("20261125100000 PST", "2026-11-25T18:00:00Z"), ("20261125100000 IST", "2026-11-25T04:30:00Z"),
        ("20261125100000 utc", "2026-11-25T10:00:00Z"), ("20261125100000 -0330", "2026-11-25T13:30:00Z"),
        ("2026", "2026-01-01T00:00:00Z"), ("202611", "2026-11-01T00:00:00Z"), ("20261125", "2026-11-25T00:00:00Z"),
        ("2026112510", "2026-11-25T10:00:00Z"), ("202611251030", "2026-11-25T10:30:00Z"),
    ])
    func zonesAndPartialTimes(written: String, utc: String) throws {
        #expect(XMLTVTime.parse(written).map(ISOTime.format) == utc)
    }

    @Test("what is not a time stays refused", arguments: ["20261", "2026112", "20261125 XYZ", "20261125 +25", "202613"])
    func notTimes(written: String) {
        #expect(XMLTVTime.parse(written) == nil)
    }

    @Test("a file without <channel> elements gets its channels from the programmes")
    func noChannelElements() throws {
        let document = try parseText("""
            <tv><programme start="20261019060000 +0200" channel="La1.es"><title>Telediario matinal</title></programme>
            <programme start="20261019060000 +0200" channel="La2.es"><title>That's English</title></programme></tv>
            """)
        #expect(document.channels == [Channel(id: "La1.es", name: "La1.es"), Channel(id: "La2.es", name: "La2.es")])
        #expect(document.programmes.count == 2)
        #expect(document.skipped.isEmpty)
    }

    @Test("unknown elements and attributes are passed over")
    func extensions() throws {
        let document = try parseText("""
            <?xml version="1.0"?>
            <tv xmlns:x="urn:example"><x:meta><title>not a programme title</title></x:meta>
            <channel id="La1.es" x:extra="1"><display-name>La 1</display-name><x:logo>no</x:logo></channel>
            <programme start="20261019060000 +0200" channel="La1.es" clumpidx="0/1">
              <x:rating><value>99</value></x:rating><title xml:lang="es">Telediario</title><review type="text">Bien</review>
            </programme></tv>
            """)
        #expect(document.channels.map(\.name) == ["La 1"])
        #expect(document.programmes.map(\.title) == ["Telediario"])
        #expect(document.programmes[0].ratings == nil)
        #expect(document.programmes[0].textLanguage == "es")
    }

    @Test("kinds come from the first category the table knows")
    func kinds() {
        let cases: [(String, ProgrammeKind?)] = [
            ("Cine", .movie), ("Película", .movie), ("PELÍCULAS", .movie), ("Film", .movie), ("Movie", .movie),
            ("Pel·lícula", .movie), ("Filma", .movie), ("Serie", .series), ("Series", .series), ("Sèrie", .series),
            ("Telesaila", .series), ("Noticias", .news), ("Informativos", .news), ("Notícies", .news),
            ("Albisteak", .news), ("Deportes", .sports), ("Sports", .sports), ("Esports", .sports),
            ("Infantil", .kids), ("Children's", .kids), ("Kids", .kids), ("Documental", .documentary),
            ("Documentary", .documentary), ("Dokumentala", .documentary), ("Magacín", nil), ("Concurso", nil),
        ]
        for (category, kind) in cases {
            #expect(XMLTVKinds.kind(ofCategory: category) == kind, "\(category)")
        }
        #expect(XMLTVKinds.kind(of: nil) == .programme)
        #expect(XMLTVKinds.kind(of: [LocalizedText("Concurso")]) == .programme)
        #expect(XMLTVKinds.kind(of: [LocalizedText("Drama"), LocalizedText("Infantil"), LocalizedText("Serie")]) == .kids)
    }

    @Test("xmltv_ns numbering", arguments: [
        ("0.0.", Episode(season: 1, number: 1)),
        ("2 . 9/24 . 0/2", Episode(season: 3, number: 10, episodeCount: 24, part: 1, partCount: 2)),
        ("/5.3.", Episode(seasonCount: 5, number: 4)),
        (". 711 .", Episode(number: 712)),
        ("..", Episode()),
    ])
    func xmltvNS(text: String, expected: Episode) {
        #expect(XMLTVEpisode.parse(text) == expected)
    }

    @Test("malformed xmltv_ns is rejected", arguments: ["1.2", "1.2.3.4", "a.1.", "1/.2.", "S01E02", "-1.0."])
    func badXMLTVNS(text: String) {
        #expect(XMLTVEpisode.parse(text) == nil)
    }

    @Test("the sample guide: 24 channels, a contiguous week, every kind, the DST night")
    func sample() throws {
        let document = try parseFixture("sample.xml")
        #expect(document.skipped.isEmpty)
        #expect(document.channels.count == 24)
        #expect(document.channels.first == Channel(id: "La1.es", name: "La 1", language: "es",
                                                   logo: "https://img.tvguide.example/logos/La1.es.png"))
        #expect(document.channels.first { $0.id == "TV3.es" }?.language == "ca")
        #expect(document.channels.first { $0.id == "ETB1.es" }?.language == "eu")

        let byChannel = Dictionary(grouping: document.programmes, by: \.channel)
        #expect(Set(byChannel.keys) == Set(document.channels.map(\.id)))
        for (channel, programmes) in byChannel {
            #expect(programmes.first?.start == utc("2026-10-19T04:00:00Z"), "\(channel)")
            #expect(programmes.last?.stop == utc("2026-10-26T05:00:00Z"), "\(channel)")
            for (before, after) in zip(programmes, programmes.dropFirst()) where before.stop != after.start {
                Issue.record("\(channel): gap or overlap between \(before.title) and \(after.title)")
            }
        }
        // 24h runs in real time: 02:00 CEST and 02:00 CET are both on air, an hour apart.
        let night = try #require(byChannel["24h.es"]).map(\.start)
        #expect(night.contains(XMLTVTime.parse("20261025020000 +0200")!))
        #expect(night.contains(XMLTVTime.parse("20261025020000 +0100")!))

        #expect(Set(document.programmes.compactMap(\.kind)) == [.movie, .series, .news, .programme, .documentary, .sports, .kids])
        let fauno = try #require(document.programmes.first { $0.title == "El laberinto del fauno" })
        #expect(fauno.year == 2006)
        #expect(fauno.credits?.first == Credit(role: .director, name: "Guillermo del Toro"))
        #expect(fauno.credits?.contains(Credit(role: .actor, name: "Ivana Baquero", character: "Ofelia")) == true)
        #expect(fauno.ratings == [Rating(system: "ES", value: "+16")])
        let promesa = try #require(document.programmes.first { $0.title == "La Promesa" })
        #expect(promesa.episode?.number == 712)
        #expect(promesa.episode?.onscreen == "Capítulo 712")
        #expect(document.programmes.contains { $0.previouslyShown != nil })
        #expect(document.programmes.contains { $0.premiere == true })
        #expect(byChannel["TV3.es"]?.allSatisfy { $0.textLanguage == "ca" } == true)
        #expect(byChannel["ETB1.es"]?.allSatisfy { $0.textLanguage == "eu" } == true)
        #expect(document.programmes.allSatisfy { $0.source == testSource })
    }
}
