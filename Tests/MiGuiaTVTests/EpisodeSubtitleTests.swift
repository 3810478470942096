import GuideCore
@testable import MiGuiaTV
import Testing

@Suite("MiGuiaTV episode sub-titles")
struct EpisodeSubtitleTests {
    @Test("numbering is parsed and the rest is the episode title", arguments: [
        ("T3 E12 · Los novios", 3, 12, "T3 E12", "Los novios"),
        ("T3E12", 3, 12, "T3E12", nil),
        ("t03 e012 - La huelga", 3, 12, "t03 e012", "La huelga"),
        ("Temporada 3, Episodio 12", 3, 12, "Temporada 3, Episodio 12", nil),
        ("Temporada 3, Episodio 12: Noche de reyes", 3, 12, "Temporada 3, Episodio 12", "Noche de reyes"),
        ("Temporada 2 Capítulo 5 — El regreso", 2, 5, "Temporada 2 Capítulo 5", "El regreso"),
        ("Temporada 1, Capítol 7", 1, 7, "Temporada 1, Capítol 7", nil),
    ] as [(String, Int, Int, String, String?)])
    func seasonAndEpisode(subtitle: String, season: Int, number: Int, onscreen: String, title: String?) throws {
        let parsed = try #require(EpisodeSubtitle(subtitle))
        #expect(parsed.episode == Episode(season: season, number: number, onscreen: onscreen))
        #expect(parsed.title == title)
    }

    @Test("an episode number without a season", arguments: [
        ("Capítulo 452", 452, "Capítulo 452", nil),
        ("Capítol 1650", 1650, "Capítol 1650", nil),
        ("Episodio 7: La cena", 7, "Episodio 7", "La cena"),
    ] as [(String, Int, String, String?)])
    func episodeOnly(subtitle: String, number: Int, onscreen: String, title: String?) throws {
        let parsed = try #require(EpisodeSubtitle(subtitle))
        #expect(parsed.episode == Episode(number: number, onscreen: onscreen))
        #expect(parsed.title == title)
    }

    @Test("sub-titles that only look like numbering stay plain", arguments: [
        "Tenis: ATP 500 Viena", "T3 Especial Navidad", "Temporada de setas", "Joventut Badalona - Unicaja",
        "El capítulo final", "T3 E12b", "Capítulos 1 y 2",
    ])
    func plain(subtitle: String) {
        #expect(EpisodeSubtitle(subtitle) == nil)
    }

    @Test("kinds from type and genre")
    func kinds() {
        #expect(MiGuiaTVShowMapping.kind(type: "movie", subtype: "Deportes") == .movie)
        #expect(MiGuiaTVShowMapping.kind(type: "Series", subtype: nil) == .series)
        #expect(MiGuiaTVShowMapping.kind(type: "documentary", subtype: "Naturaleza") == .documentary)
        #expect(MiGuiaTVShowMapping.kind(type: "programme", subtype: "Informativos") == .news)
        #expect(MiGuiaTVShowMapping.kind(type: "programme", subtype: "INFORMACIÓN") == .news)
        #expect(MiGuiaTVShowMapping.kind(type: "programme", subtype: "deportes") == .sports)
        #expect(MiGuiaTVShowMapping.kind(type: "programme", subtype: "Infantil") == .kids)
        #expect(MiGuiaTVShowMapping.kind(type: "programme", subtype: "Concurso") == .programme)
        #expect(MiGuiaTVShowMapping.kind(type: "programme", subtype: nil) == .programme)
        #expect(MiGuiaTVShowMapping.kind(type: "reality", subtype: nil) == .other)
        #expect(MiGuiaTVShowMapping.kind(type: nil, subtype: "Noticias") == nil)
    }
}
