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

/// IPTV Simple's catch-up attributes read from a playlist, and its placeholders filled.
@Suite struct PlaylistCatchupTests {
    /// Telediario 2 on 2026-10-21, 19:00–19:55 UTC (21:00 in Madrid), asked for the next day at noon.
    static let start = ISOTime.parse("2026-10-21T19:00:00Z")!
    static let end = ISOTime.parse("2026-10-21T19:55:00Z")!
    static let now = ISOTime.parse("2026-10-22T12:00:00Z")!
    static let madrid = TimeZone(identifier: "Europe/Madrid")!

    static func fill(_ template: String, zone: TimeZone = .gmt) -> String? {
        PlaylistCatchup(mode: .default, template: template).url(start: start, end: end, now: now, timeZone: zone)
    }

    @Test(arguments: [
        ("{utc}", "1792609200"), ("${start}", "1792609200"), ("{start}", "1792609200"),
        ("{utcend}", "1792612500"), ("${end}", "1792612500"), ("{end}", "1792612500"),
        ("{lutc}", "1792670400"), ("${now}", "1792670400"), ("${timestamp}", "1792670400"),
        ("{duration}", "3300"), ("${duration}", "3300"), ("{duration:60}", "55"), ("{duration:3600}", "0"),
        ("{offset}", "61200"), ("${offset}", "61200"), ("{offset:60}", "1020"), ("{offset:1}", "61200"),
        ("{Y}-{m}-{d}T{H}:{M}:{S}", "2026-10-21T19:00:00"),
        ("{utc:YmdHMS}", "20261021190000"), ("${start:Ymd-H}", "20261021-19"), ("{utcend:HM}", "1955"), ("{lutc:Y/m/d}", "2026/10/22"),
    ])
    func eachPlaceholderIsFilled(placeholder: String, value: String) {
        #expect(Self.fill("https://tv.example/a?x=\(placeholder)&y=1") == "https://tv.example/a?x=\(value)&y=1")
    }

    @Test func dateFieldsReadTheClockOfTheReadersZone() {
        #expect(Self.fill("https://tv.example/{Y}{m}{d}/{H}{M}.ts", zone: Self.madrid) == "https://tv.example/20261021/2100.ts")
        #expect(Self.fill("https://tv.example/{utc:H}/{utc}", zone: Self.madrid) == "https://tv.example/21/1792609200")
    }

    @Test(arguments: ["{catchup-id}", "{utc", "{duration:0}", "{duration:x}", "{Y:m}", "{utc:}", "${(b)yyyyMMddHHmmss}"])
    func aPlaceholderItCannotFillGivesNoURL(template: String) {
        #expect(Self.fill("https://tv.example/a?t=" + template) == nil)
    }

    @Test func anAiringStillOnIsCutAtNowAndTheCorrectionMovesTheStart() {
        let catchup = PlaylistCatchup(mode: .default, template: "https://tv.example/{utc}/{duration}", correction: 3_600)
        #expect(catchup.url(start: Self.start, end: Self.end, now: Self.start.addingTimeInterval(600), timeZone: .gmt)
            == "https://tv.example/1792605600/600")
    }

    @Test func keptFromTheEndUntilCatchupDaysAfterTheStart() {
        let catchup = PlaylistCatchup(mode: .default, template: "https://tv.example/{utc}", days: 2)
        #expect(!catchup.keeps(start: Self.start, end: Self.end, at: Self.start.addingTimeInterval(600)), "still on air")
        #expect(catchup.keeps(start: Self.start, end: Self.end, at: Self.end))
        #expect(catchup.keeps(start: Self.start, end: Self.end, at: Self.start.addingTimeInterval(2 * 86_400)))
        #expect(!catchup.keeps(start: Self.start, end: Self.end, at: Self.start.addingTimeInterval(2 * 86_400 + 1)))
    }

    static func entry(_ attributes: [(String, String)], url: String = "https://streams.example/live/la1.m3u8") -> Playlist.Entry {
        Playlist.Entry(attributes: attributes.map { Playlist.Attribute($0.0, $0.1) }, name: "La 1", url: url, line: 2)
    }

    @Test func defaultModeTakesTheSourceWholeAndAppendModeAfterTheStream() throws {
        let full = try #require(PlaylistCatchup(Self.entry([("catchup", "default"), ("catchup-source", "https://archive.example/{utc}.m3u8"), ("catchup-days", "7")]), header: []))
        #expect(full == PlaylistCatchup(mode: .default, template: "https://archive.example/{utc}.m3u8", days: 7))
        let appended = try #require(PlaylistCatchup(Self.entry([("catchup", "append"), ("catchup-source", "?utc={utc}&lutc={lutc}")]), header: []))
        #expect(appended.template == "https://streams.example/live/la1.m3u8?utc={utc}&lutc={lutc}")
        #expect(appended.days == PlaylistCatchup.defaultDays)
        #expect(appended.url(start: Self.start, end: Self.end, now: Self.now, timeZone: .gmt)
            == "https://streams.example/live/la1.m3u8?utc=1792609200&lutc=1792670400")
    }

    @Test func shiftModeAddsUtcAndLutcToTheStreamsQuery() throws {
        let plain = try #require(PlaylistCatchup(Self.entry([("catchup", "shift")]), header: []))
        #expect(plain.template == "https://streams.example/live/la1.m3u8?utc={utc}&lutc={lutc}")
        let queried = try #require(PlaylistCatchup(Self.entry([("CATCHUP-TYPE", "Shift")], url: "https://s.example/a.ts?auth=x"), header: []))
        #expect(queried.template == "https://s.example/a.ts?auth=x&utc={utc}&lutc={lutc}")
        // SIPTV's older spelling: shift, kept that many days.
        let siptv = try #require(PlaylistCatchup(Self.entry([("timeshift", "4")]), header: []))
        #expect(siptv == PlaylistCatchup(mode: .shift, template: "https://streams.example/live/la1.m3u8?utc={utc}&lutc={lutc}", days: 4))
    }

    @Test func theHeaderGivesDefaultsAndTheEntryWins() throws {
        let header = [Playlist.Attribute("catchup", "append"), Playlist.Attribute("catchup-source", "?start={utc}"),
                      Playlist.Attribute("catchup-days", "3"), Playlist.Attribute("catchup-correction", "-1.5")]
        let inherited = try #require(PlaylistCatchup(Self.entry([]), header: header))
        #expect(inherited == PlaylistCatchup(mode: .append, template: "https://streams.example/live/la1.m3u8?start={utc}", days: 3, correction: -5_400))
        let own = try #require(PlaylistCatchup(Self.entry([("catchup-days", "0"), ("catchup", "shift")]), header: header))
        #expect(own.mode == .shift)
        #expect(PlaylistCatchup(Self.entry([("catchup-type", "shift")]), header: header)?.mode == .shift, "the entry's catchup-type before the header's catchup")
        // As in IPTV Simple, a catchup-days of its own that is not a number of days is the default.
        #expect(own.days == PlaylistCatchup.defaultDays)
    }

    @Test func kodisRequestOptionsAreNotPartOfALink() throws {
        let catchup = try #require(PlaylistCatchup(Self.entry([("catchup", "append"), ("catchup-source", "?t={utc}")], url: "https://s.example/la2.m3u8|user-agent=Kodi"), header: []))
        #expect(catchup.template == "https://s.example/la2.m3u8?t={utc}")
    }

    @Test func modesItDoesNotBuildAndStreamsThatAreNotWebURLsGiveNone() {
        for mode in ["flussonic", "flussonic-ts", "fs", "xc", "vod", "nonsense"] {
            #expect(PlaylistCatchup(Self.entry([("catchup", mode), ("catchup-source", "https://a.example/{utc}")]), header: []) == nil, "\(mode)")
        }
        // Without a source, IPTV Simple appends a query from its own settings.
        #expect(PlaylistCatchup(Self.entry([("catchup", "default")]), header: []) == nil)
        #expect(PlaylistCatchup(Self.entry([("catchup", "append")]), header: []) == nil)
        #expect(PlaylistCatchup(Self.entry([("catchup", "shift")], url: "rtp://239.0.0.3:5000"), header: []) == nil)
        #expect(PlaylistCatchup(Self.entry([("catchup", "default"), ("catchup-source", "javascript:alert({utc})")]), header: []) == nil)
        #expect(PlaylistCatchup(Self.entry([("tvg-id", "La1.es")]), header: []) == nil)
    }

    @Test func theCatchupAttributesComeBackAsTheyWereReadInOrder() throws {
        let playlist = try Playlist.parse(Data(contentsOf: Fixtures.url("playlist/catchup.m3u")))
        let matcher = PlaylistMatcher(candidates: [.init(id: "La1.es", names: ["La 1"]), .init(id: "La2.es", names: ["La 2"])])
        let text = String(decoding: matcher.annotated(playlist).rendered(), as: UTF8.self)
        let original = try String(contentsOf: Fixtures.url("playlist/catchup.m3u"), encoding: .utf8)
        #expect(text == original, "every attribute, catch-up ones included, where it was")
    }
}
