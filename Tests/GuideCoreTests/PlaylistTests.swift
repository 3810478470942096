import Foundation
import GuideCore
import Testing
import TestSupport

@Suite struct PlaylistTests {
    static let fixture = Fixtures.url("playlist/spain.m3u")

    @Test func readsEveryEntryWithItsAttributesDirectivesAndURL() throws {
        let playlist = try Playlist.parse(Data(contentsOf: Self.fixture))
        #expect(playlist.attributes == [.init("x-tvg-url", "http://old-epg.example/guide.xml.gz"), .init("catchup", "shift")])
        #expect(playlist.entries.map(\.name) == ["La 1 HD", "TVE 1", "Antena 3", "laSexta FHD", "TV3 HD", "La 2", "Canal Sur Andalucía", "Cine Clásico 24h"])
        let antena3 = playlist.entries[2]
        #expect(antena3.tvgName == "ES: Antena 3 FHD")
        #expect(antena3.attribute("tvg-logo") == "")
        #expect(antena3.directives == ["#EXTVLCOPT:http-user-agent=Mozilla/5.0", "#KODIPROP:inputstream=inputstream.adaptive"])
        #expect(antena3.line == 6)
        // A comma inside a quoted value is not the name's comma.
        #expect(playlist.entries[3].attribute("group-title") == "Nacionales, privadas")
        #expect(playlist.entries[1].url == "http://user:pass@iptv.example:8080/live/user/pass/101.ts")
        #expect(playlist.entries[5].duration == "0")
        #expect(playlist.entries[5].tvgID == "la2.ES")
    }

    @Test func rendersWhatItReadLineForLine() throws {
        let original = try String(contentsOf: Self.fixture, encoding: .utf8)
        let rendered = String(decoding: try Playlist.parse(Data(original.utf8)).rendered(), as: UTF8.self)
        #expect(rendered == original.replacingOccurrences(of: "\r\n", with: "\n"))
    }

    @Test func refusesWhatIsNotAPlaylist() {
        #expect(throws: PlaylistError.notM3U(firstLine: "<html>")) { try Playlist.parse(Data("<html>\n<body>".utf8)) }
        #expect(throws: PlaylistError.notM3U(firstLine: "")) { try Playlist.parse(Data()) }
        #expect(throws: PlaylistError.empty) { try Playlist.parse(Data("#EXTM3U\n#EXTINF:-1,Nothing after\n".utf8)) }
        #expect(throws: PlaylistError.notText) { try Playlist.parse(Data([0x23, 0x45, 0x58, 0xFF, 0xFE])) }
        #expect(throws: PlaylistError.tooLarge(bytes: Playlist.maximumBytes + 1)) {
            try Playlist.parse(Data(count: Playlist.maximumBytes + 1))
        }
        let unclosed = "#EXTM3U\n#EXTINF:-1 tvg-id=\"La1.es,La 1\nhttp://a\n"
        #expect(throws: PlaylistError.brokenAttributes(line: 2, reason: "the value of \"tvg-id\" has no closing quote")) {
            try Playlist.parse(Data(unclosed.utf8))
        }
        #expect(throws: PlaylistError.brokenAttributes(line: 2, reason: "no comma before the display name")) {
            try Playlist.parse(Data("#EXTM3U\n#EXTINF:-1 tvg-id=\"La1.es\"\nhttp://a\n".utf8))
        }
        #expect(throws: PlaylistError.self) { try Playlist.parse(Data("#EXTM3U\n#EXTINF:live,La 1\nhttp://a\n".utf8)) }
    }

    @Test(arguments: [
        ("ES: La 1 HD", "la1"), ("Antena 3 FHD", "antena3"), ("laSexta", "lasexta"), ("Cuatro +1", "cuatro1"),
        ("Telecinco 4K", "telecinco"), ("TV3 HD", "tv3"), ("ES | Clan", "clan"), ("Energy UHD HEVC", "energy"), ("HD", "hd"),
        ("Televisión Española", "televisionespanola"), ("ETB 1", "etb1"),
    ])
    func nameKeysIgnoreCaseAccentsPrefixesAndQuality(name: String, key: String) {
        #expect(PlaylistMatcher.nameKey(name) == key)
    }

    static let matcher = PlaylistMatcher(candidates: [
        .init(id: "La1.es", names: ["La 1"], aliases: ["TVE1"], logo: "https://logos.example/la1.png"),
        .init(id: "La2.es", names: ["La 2"]),
        .init(id: "Antena3.es", names: ["Antena 3"], logo: "https://logos.example/a3.png"),
        .init(id: "LaSexta.es", names: ["laSexta"]),
        .init(id: "TV3.es", names: ["TV3"]),
        .init(id: "TV3Cat.es", names: ["TV3"]),
    ])

    @Test func matchesByTvgIDAliasNameAndSaysWhenItCannot() throws {
        let playlist = try Playlist.parse(Data(contentsOf: Self.fixture))
        let report = Self.matcher.report(playlist, source: "spain.m3u")
        #expect(report.entries == 8)
        #expect(report.matched == [
            .init(entry: "La 1 HD", channel: "La1.es", by: .tvgID),
            .init(entry: "TVE 1", channel: "La1.es", by: .tvgID),
            .init(entry: "Antena 3", channel: "Antena3.es", by: .tvgName),
            .init(entry: "laSexta FHD", channel: "LaSexta.es", by: .name),
            .init(entry: "La 2", channel: "La2.es", by: .tvgID),
        ])
        #expect(report.ambiguous == [.init(entry: "TV3 HD", candidates: ["TV3.es", "TV3Cat.es"])])
        #expect(report.unmatched == [.init(entry: "Canal Sur Andalucía", tvgID: "CanalSur.es"), .init(entry: "Cine Clásico 24h", tvgID: nil)])
        #expect(report.channelIDs == ["La1.es", "Antena3.es", "LaSexta.es", "La2.es"])
    }

    @Test func annotatedPlaylistFillsIDsAndLogosAndKeepsEverythingElse() throws {
        let playlist = try Playlist.parse(Data(contentsOf: Self.fixture))
        let annotated = Self.matcher.annotated(playlist)
        #expect(annotated.entries.count == playlist.entries.count)
        #expect(annotated.entries.map(\.url) == playlist.entries.map(\.url))
        #expect(annotated.entries.map { $0.attribute("tvg-id") } == ["La1.es", "La1.es", "Antena3.es", "LaSexta.es", nil, "La2.es", "CanalSur.es", nil])
        // An empty tvg-logo is filled; a logo the entry has is kept.
        #expect(annotated.entries[2].attribute("tvg-logo") == "https://logos.example/a3.png")
        #expect(annotated.entries[4].attribute("tvg-logo") == "https://logos.example/tv3.png")
        #expect(annotated.entries[2].directives == playlist.entries[2].directives)

        let lineup = Self.matcher.annotated(playlist, keep: ["La1.es", "Antena3.es"])
        #expect(lineup.entries.map(\.name) == ["La 1 HD", "TVE 1", "Antena 3"])
    }
}

@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownNotObeyed() {
        #expect(TerminalText.escaped("\u{1B}[2J\u{1B}[31mTitle") == "\\u{1B}[2J\\u{1B}[31mTitle")
        #expect(TerminalText.escaped("a\nb\tc\u{9B}d\u{7F}") == "a\\nb\\tc\\u{9B}d\\u{7F}")
        #expect(TerminalText.escaped("Telediario 1 — Año") == "Telediario 1 — Año")
    }

    @Test func longValuesAreCut() {
        #expect(TerminalText.escaped(String(repeating: "x", count: 500)) == String(repeating: "x", count: 400) + "… (100 more characters)")
        #expect(TerminalText.escaped("abcdef", limit: 5) == "abcde… (1 more character)")
    }
}
