import Foundation
import GuideCore
import TestSupport
import Testing
import XMLTV

@Suite("XMLTV writer")
struct XMLTVWriterTests {
    @Test("import → export → import gives the same channels and programmes", arguments: ["sample.xml", "features.xml"])
    func roundTrip(fixture: String) throws {
        let imported = try parseFixture(fixture)
        let exported = try XMLTVWriter.write(channels: imported.channels, programmes: imported.programmes, info: imported.info)
        let reimported = try XMLTVParser(source: testSource).parse(exported, name: "exported.xml")
        #expect(reimported.skipped.isEmpty)
        #expect(reimported.info == imported.info)
        #expect(reimported.channels == imported.channels.sorted { $0.id < $1.id })
        let expected = imported.programmes.canonicallySorted
        #expect(reimported.programmes.count == expected.count)
        for (got, want) in zip(reimported.programmes, expected) where got != want {
            Issue.record("\(want.id) changed in the round trip:\n\(got)\nvs\n\(want)")
        }
    }

    @Test("the export passes tv_validate_file from xmltv-util", arguments: ["sample.xml", "features.xml"])
    func validates(fixture: String) async throws {
        let imported = try parseFixture(fixture)
        let exported = try XMLTVWriter.write(channels: imported.channels, programmes: imported.programmes)
        let result = try await TVValidateFile.run(on: exported)
        #expect(result.status == 0, "tv_validate_file rejected the export of \(fixture):\n\(result.output)")
        #expect(result.output.contains("Validated ok"))
    }

    @Test("tv_validate_file does reject an invalid guide, so a pass means something")
    func validatorRejects() async throws {
        let invalid = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <tv><programme start="20261019060000 +0000" channel="La1.es"><desc>x</desc><title>t</title></programme></tv>
            """.utf8)
        #expect(try await TVValidateFile.run(on: invalid).status != 0)
    }

    @Test("times in UTC, channels by id, programmes by channel then start; the same guide gives the same bytes")
    func canonicalOrder() throws {
        let la2 = Programme(channel: "La2.es", start: XMLTVTime.parse("20261025023000 +0100")!, title: "Documenta2", source: "s")
        var la1Late = Programme(channel: "La1.es", start: XMLTVTime.parse("20261025023000 +0200")!, title: "Noticias 24 horas", source: "s")
        la1Late.stop = XMLTVTime.parse("20261025023000 +0100")
        let la1Early = Programme(channel: "La1.es", start: utc("2026-10-24T22:00:00Z"), title: "La noche en 24h", source: "s")
        let channels = [Channel(id: "La2.es", name: "La 2"), Channel(id: "La1.es", name: "La 1")]

        let data = try XMLTVWriter.write(channels: channels, programmes: [la2, la1Late, la1Early])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#"<programme start="20261025003000 +0000" stop="20261025013000 +0000" channel="La1.es">"#))
        #expect(text.contains(#"<programme start="20261025013000 +0000" channel="La2.es">"#))
        let order = ["<channel id=\"La1.es\">", "<channel id=\"La2.es\">", "La noche en 24h", "Noticias 24 horas", "Documenta2"]
            .map { text.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())

        let again = try XMLTVWriter.write(channels: channels.reversed(), programmes: [la1Early, la2, la1Late])
        #expect(again == data)
    }

    @Test("special characters are escaped and characters XML forbids are dropped")
    func escaping() throws {
        var programme = Programme(channel: "La1.es", start: utc("2026-10-19T18:00:00Z"),
                                  title: "Tom & Jerry <3 \u{1}\"Spike\" y 'Tyke'", source: "s")
        programme.synopsis = "Línea 1\nLínea 2 \u{FFFE}]]> fin"
        programme.credits = [Credit(role: .actor, name: "Tom", character: "El \"gato\" & <cía>")]
        let data = try XMLTVWriter.write(channels: [Channel(id: "La1.es", name: "La 1 & más")], programmes: [programme])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("Tom &amp; Jerry &lt;3"))
        #expect(!text.contains("\u{1}"))

        let back = try XMLTVParser(source: "s").parse(data, name: "escaped.xml")
        #expect(back.channels.first?.name == "La 1 & más")
        #expect(back.programmes.first?.title == "Tom & Jerry <3 \"Spike\" y 'Tyke'")
        #expect(back.programmes.first?.synopsis == "Línea 1\nLínea 2 ]]> fin")
        #expect(back.programmes.first?.credits == [Credit(role: .actor, name: "Tom", character: "El \"gato\" & <cía>")])
    }

    @Test("DEL and C1 controls are dropped on the way in and out; a title of controls only is no title")
    func controlCharacters() async throws {
        let document = try parseText("""
            <tv><channel id="La1.es"><display-name>La 1\u{85}</display-name></channel>
            <programme start="20261019060000 +0000" channel="La1.es"><title>Cine\u{7F} de \u{9B}barrio</title><desc>\u{85}fin</desc></programme>
            <programme start="20261019070000 +0000" channel="La1.es"><title>\u{9B}\u{85}\u{7F}</title></programme></tv>
            """)
        #expect(document.channels.map(\.name) == ["La 1"])
        #expect(document.programmes.map(\.title) == ["Cine de barrio"])
        #expect(document.programmes.first?.synopsis == "fin")
        #expect(document.skipped.map(\.reason) == [.missingTitle])

        // From another source: the writer cleans them too, and leaves out what is left with no title.
        let dirty = Programme(channel: "La1.es", start: utc("2026-10-19T06:00:00Z"), title: "A\u{7F}\u{85}B", source: "s")
        let blank = Programme(channel: "La1.es", start: utc("2026-10-19T07:00:00Z"), title: "\u{1B}\u{9B}", source: "s")
        let channels = [Channel(id: "La1.es", name: "La 1"), Channel(id: "La 2", name: "La 2")]
        let exported = try XMLTVWriter.write(channels: channels, programmes: [dirty, blank])
        let text = String(decoding: exported, as: UTF8.self)
        #expect(text.contains("<title>AB</title>"))
        #expect(!text.contains("La 2"))
        #expect(text.components(separatedBy: "<programme ").count == 2)
        let validation = try await TVValidateFile.run(on: exported)
        #expect(validation.status == 0, "\(validation.output)")
        #expect(XMLTVWriter.validityNotes(channels: channels, programmes: [dirty, blank]) == [
            "1 programme(s) whose title is empty once control characters are removed are left out",
            "1 channel(s) without programmes are left out, as XMLTV wants: 'La 2'",
            "1 channel id(s) are not name.domain of letters, digits and '-', which tv_validate_file wants (players read them all the same): 'La 2'",
        ])
        #expect(XMLTVWriter.validityNotes(channels: [channels[0]], programmes: [dirty]).isEmpty)
    }

    @Test("a kind that no category names is written as a category, so it survives the trip")
    func kindsSurvive() throws {
        var film = Programme(channel: "La1.es", start: utc("2026-10-19T20:00:00Z"), title: "Volver", source: "s")
        film.kind = .movie
        var series = Programme(channel: "La1.es", start: utc("2026-10-19T22:00:00Z"), title: "Cuéntame cómo pasó", source: "s")
        series.kind = .series
        series.categories = [LocalizedText("Drama", lang: "es")]
        var show = Programme(channel: "La1.es", start: utc("2026-10-19T23:00:00Z"), title: "La Revuelta", source: "s")
        show.kind = .programme

        let data = try XMLTVWriter.write(channels: [Channel(id: "La1.es", name: "La 1")], programmes: [film, series, show])
        let back = try XMLTVParser(source: "s").parse(data, name: "kinds.xml").programmes
        #expect(back.map(\.kind) == [.movie, .series, .programme])
        #expect(back[0].categories == [LocalizedText("movie", lang: "en")])
        #expect(back[1].categories == [LocalizedText("Drama", lang: "es"), LocalizedText("series", lang: "en")])
        #expect(back[2].categories == nil)
    }

    @Test("episode numbers from another source are written as xmltv_ns")
    func episodeNumbers() throws {
        var programme = Programme(channel: "La1.es", start: utc("2026-10-19T21:00:00Z"), title: "Aída", source: "s")
        programme.episode = Episode(season: 3, number: 10, episodeCount: 24, other: ["dd_progid": "EP00123456.0003"])
        let data = try XMLTVWriter.write(channels: [Channel(id: "La1.es", name: "La 1")], programmes: [programme])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#"<episode-num system="xmltv_ns">2.9/24.</episode-num>"#))
        let back = try XMLTVParser(source: "s").parse(data, name: "episodes.xml").programmes
        #expect(back.first?.episode == Episode(season: 3, number: 10, episodeCount: 24, xmltvNS: "2.9/24.",
                                               other: ["dd_progid": "EP00123456.0003"]))
    }

    @Test("metadata database ids are written in the systems xmltv.dtd proposes and read back as provider ids")
    func databaseIDs() throws {
        var film = Programme(channel: "La1.es", start: utc("2026-10-19T21:00:00Z"), title: "Alien", source: "s")
        film.kind = .movie
        film.providerIDs = ["tmdb": "348", "imdb": "tt0078748", "miguiatv": "77"]
        var series = Programme(channel: "La1.es", start: utc("2026-10-19T23:00:00Z"), title: "Aída", source: "s")
        series.kind = .series
        series.providerIDs = ["tmdb": "1417", "thetvdb": "79349"]
        let data = try XMLTVWriter.write(channels: [Channel(id: "La1.es", name: "La 1")], programmes: [film, series])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#"<episode-num system="themoviedb.org">movie/348</episode-num>"#))
        #expect(text.contains(#"<episode-num system="imdb.com">title/tt0078748</episode-num>"#))
        #expect(text.contains(#"<episode-num system="themoviedb.org">tv/1417</episode-num>"#))
        #expect(text.contains(#"<episode-num system="thetvdb.com">series/79349</episode-num>"#))
        #expect(!text.contains("miguiatv"))
        let back = try XMLTVParser(source: "s").parse(data, name: "ids.xml").programmes
        #expect(back.map(\.providerIDs) == [["tmdb": "348", "tmdb-media": "movie", "imdb": "tt0078748"],
                                            ["tmdb": "1417", "tmdb-media": "tv", "thetvdb": "79349"]])
        #expect(back.allSatisfy { $0.episode == nil })
    }

    @Test("a TMDB film id stays a film id whatever the programme's kind: movie/603 and tv/603 are different records")
    func tmdbMediaSurvives() throws {
        let imported = try parseText("""
            <tv><programme start="20261019060000 +0000" channel="La1.es"><title>Matrix (making of)</title>
            <category>Documental</category><episode-num system="themoviedb.org">movie/603</episode-num></programme></tv>
            """)
        let programme = try #require(imported.programmes.first)
        #expect(programme.kind != .movie)
        #expect(programme.providerIDs == ["tmdb": "603", "tmdb-media": "movie"])
        let text = String(decoding: try XMLTVWriter.write(channels: imported.channels, programmes: imported.programmes), as: UTF8.self)
        #expect(text.contains(#"<episode-num system="themoviedb.org">movie/603</episode-num>"#))
        #expect(!text.contains("tv/603"))
    }
}

/// Debian's `tv_validate_file` (package xmltv-util), run on a file, with the DTD it ships.
enum TVValidateFile {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "tv_validate_file was not found on PATH: install Debian's xmltv-util (apt-get install xmltv-util); "
                + "the XMLTV export is checked against it"
        }
    }

    static func run(on data: Data) async throws -> (status: Int32, output: String) {
        guard let tool = executable("tv_validate_file") else {
            Issue.record(Comment(rawValue: Missing().description))
            throw Missing()
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xmltv-validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("guide.xml")
        try data.write(to: file)

        var environment = ProcessInfo.processInfo.environment
        environment["XMLTV_SUPPLEMENT"] = "/usr/share/xmltv"
        let result = try await Subprocess.run(tool, [file.path], environment: environment)
        return (result.status, result.stdout + result.stderr)
    }

    private static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
