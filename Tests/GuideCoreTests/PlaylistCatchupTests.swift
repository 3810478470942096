import Foundation
import GuideCore
import Testing
import TestSupport

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
