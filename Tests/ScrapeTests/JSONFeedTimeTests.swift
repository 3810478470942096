import Foundation
import GuideCore
@testable import Scrape
import Testing

/// The times a json-feed recipe reads, through the site engine's zone, patterns and page times.
@Suite("JSON feed times")
struct JSONFeedTimeTests {
    private let zone = TimeZone(identifier: "Europe/Madrid")!
    private var madrid: SiteZone { SiteZone(zone) }
    private let saturday = Day(year: 2026, month: 10, day: 24)
    /// The day summer time ends: 03:00 CEST becomes 02:00 CET, so 02:00–02:59 happens twice.
    private let sunday = Day(year: 2026, month: 10, day: 25)

    private func page(_ format: SiteTimeFormat, day: Day) -> SiteDayTimes {
        SiteDayTimes(format: format, zone: zone, day: day)
    }

    private func clock(_ pattern: String, day: Day) throws -> SiteDayTimes {
        page(.pattern(try SiteTimePattern(pattern)), day: day)
    }

    @Test("clock patterns read hours, minutes and seconds", arguments: [
        ("HH:mm", "22:45", 22 * 3_600 + 45 * 60),
        ("HH:mm", " 06:05 ", 6 * 3_600 + 5 * 60),
        ("HH:mm", "6:05", 6 * 3_600 + 5 * 60),
        ("H:mm", "9:05", 9 * 3_600 + 5 * 60),
        ("HH.mm", "22.45", 22 * 3_600 + 45 * 60),
        ("HHmm", "2245", 22 * 3_600 + 45 * 60),
        ("HH:mm:ss", "22:45:30", 22 * 3_600 + 45 * 60 + 30),
        ("HH:mm", "25:30", 25 * 3_600 + 30 * 60),
    ])
    func clockPatterns(pattern: String, text: String, seconds: Int) throws {
        #expect(try SiteTimePattern(pattern).read(text)?.secondOfDay == seconds)
    }

    @Test("text that does not follow the clock pattern is not a time", arguments: [
        ("HH:mm", "2245"), ("HH:mm", "22:60"), ("HH:mm", "48:00"), ("HH:mm", ""), ("HH:mm", "22-45"),
    ])
    func clockMismatches(pattern: String, text: String) throws {
        #expect(try SiteTimePattern(pattern).read(text) == nil)
    }

    @Test("Madrid wall-clock times become instants: one as a rule, two in the repeated hour, the shifted one in the skipped hour")
    func zoneInstants() {
        #expect(madrid.instants(on: saturday, second: 22 * 3_600) == [JSONFeedTestTime.utc(2026, 10, 24, 20, 0)])
        #expect(madrid.instants(on: sunday, second: 2 * 3_600 + 30 * 60) == [JSONFeedTestTime.utc(2026, 10, 25, 0, 30), JSONFeedTestTime.utc(2026, 10, 25, 1, 30)])
        #expect(madrid.instants(on: sunday, second: 3 * 3_600) == [JSONFeedTestTime.utc(2026, 10, 25, 2, 0)])
        // Summer time starts on 29 March 2026: 02:30 never shows on the clock; it is read as 03:30 CEST.
        #expect(madrid.instants(on: Day(year: 2026, month: 3, day: 29), second: 2 * 3_600 + 30 * 60) == [JSONFeedTestTime.utc(2026, 3, 29, 1, 30)])
        #expect(Day(Date(timeIntervalSince1970: TimeInterval(JSONFeedTestTime.utc(2026, 10, 24, 22, 30))), in: zone) == sunday)
        #expect(Day(Date(timeIntervalSince1970: TimeInterval(JSONFeedTestTime.utc(2026, 10, 24, 21, 59))), in: zone) == saturday)
    }

    @Test("clock starts follow the listing's order across the repeated hour of the DST change")
    func clockAcrossDST() throws {
        var page = try clock("HH:mm", day: sunday)
        let starts = ["01:30", "02:15", "02:45", "02:15", "03:00"].map { page.start(.string($0)) }
        #expect(starts == [JSONFeedTestTime.utc(2026, 10, 24, 23, 30), JSONFeedTestTime.utc(2026, 10, 25, 0, 15), JSONFeedTestTime.utc(2026, 10, 25, 0, 45),
                           JSONFeedTestTime.utc(2026, 10, 25, 1, 15), JSONFeedTestTime.utc(2026, 10, 25, 2, 0)].map(JSONFeedTestTime.date))
    }

    @Test("a clock time earlier than the previous start is the next day; 24:00 and later too")
    func clockPastMidnight() throws {
        var page = try clock("HH:mm", day: saturday)
        #expect(page.start(.string("22:00")) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 24, 20, 0)))
        #expect(page.start(.string("23:30")) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 24, 21, 30)))
        #expect(page.start(.string("00:15")) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 24, 22, 15)))
        #expect(page.start(.string("02:30")) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 25, 0, 30)))

        var late = try clock("HH:mm", day: saturday)
        #expect(late.start(.string("23:00")) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 24, 21, 0)))
        #expect(late.start(.string("25:30")) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 24, 23, 30)))
        #expect(late.start(.string("26:00")) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 25, 0, 0)))
    }

    @Test("a clock stop is the first time after the start that the clock shows it")
    func clockStops() throws {
        var page = try clock("HH:mm", day: sunday)
        let read = page.start(.string("02:45"))
        let start = try #require(read)
        #expect(start == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 25, 0, 45)))
        // 02:15 CEST is before the start; 02:15 CET, an hour later on the clock's second pass, is the stop.
        #expect(page.stop(.string("02:15"), after: start) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 25, 1, 15)))
        #expect(page.stop(.string("06:00"), after: start) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 25, 5, 0)))

        var evening = try clock("HH:mm", day: saturday)
        let readFilm = evening.start(.string("22:00"))
        let film = try #require(readFilm)
        #expect(evening.stop(.string("00:15"), after: film) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 24, 22, 15)))
        #expect(evening.stop(.string("tarde"), after: film) == nil)
    }

    @Test("ISO 8601 with every offset notation; no offset means the recipe's time zone", arguments: [
        ("2026-10-25T21:30:00+01:00", JSONFeedTestTime.utc(2026, 10, 25, 20, 30)),
        ("2026-10-25T21:30:00+0100", JSONFeedTestTime.utc(2026, 10, 25, 20, 30)),
        ("2026-10-25T21:30+01", JSONFeedTestTime.utc(2026, 10, 25, 20, 30)),
        ("2026-10-25 21:30:00+01:00", JSONFeedTestTime.utc(2026, 10, 25, 20, 30)),
        ("2026-10-25T20:30:00Z", JSONFeedTestTime.utc(2026, 10, 25, 20, 30)),
        ("2026-10-25T20:30:00.250Z", JSONFeedTestTime.utc(2026, 10, 25, 20, 30)),
        ("2026-10-25T16:30:00-04:00", JSONFeedTestTime.utc(2026, 10, 25, 20, 30)),
        ("2026-10-25T21:30:00", JSONFeedTestTime.utc(2026, 10, 25, 20, 30)),
        ("2026-07-01T21:30", JSONFeedTestTime.utc(2026, 7, 1, 19, 30)),
    ])
    func iso8601(text: String, expected: Int) {
        #expect(madrid.iso8601(text) == JSONFeedTestTime.date(expected))
    }

    @Test("text that is not ISO 8601 is not a time", arguments: [
        "25/10/2026 21:30", "2026-10-25", "2026-10-25T21:30:00+1", "2026-13-01T00:00Z", "2026-10-25T24:00Z",
        "2026-10-25T21:30:00Zulu", "2026-10-25T21:30:00.Z", "",
    ])
    func notISO8601(text: String) {
        #expect(madrid.iso8601(text) == nil)
    }

    @Test("Unix seconds as numbers or numeric strings")
    func unixSeconds() {
        func unix(_ value: JSONValue) -> Date? {
            var times = page(.unix, day: sunday)
            return times.start(value)
        }
        #expect(unix(.number(1_792_960_200)) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 25, 20, 30)))
        #expect(unix(.string("1792960200")) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 25, 20, 30)))
        #expect(unix(.string(" 1792960200.9 ")) == JSONFeedTestTime.date(JSONFeedTestTime.utc(2026, 10, 25, 20, 30)))
        #expect(unix(.string("ayer")) == nil)
        #expect(unix(.bool(true)) == nil)
        #expect(unix(.null) == nil)
    }
}

private enum JSONFeedTestTime {
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Int {
        CivilTime.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute)
    }

    static func date(_ seconds: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
