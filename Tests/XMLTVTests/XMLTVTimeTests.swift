import Foundation
import GuideCore
import Testing
import XMLTV

@Suite("XMLTV times")
struct XMLTVTimeTests {
    @Test("the two 02:30s of the night summer time ends are an hour apart")
    func dstNight() {
        #expect(XMLTVTime.parse("20261025023000 +0200") == utc("2026-10-25T00:30:00Z"))
        #expect(XMLTVTime.parse("20261025023000 +0100") == utc("2026-10-25T01:30:00Z"))
        // The programme that crosses the change: 01:30 CEST to 03:30 CET is three hours long.
        let start = XMLTVTime.parse("20261025013000 +0200")!
        let stop = XMLTVTime.parse("20261025033000 +0100")!
        #expect(stop.timeIntervalSince(start) == 3 * 3_600)
    }

    @Test("offsets, partial times and zone names", arguments: [
        ("20261019060000 +0200", "2026-10-19T04:00:00Z"),
        ("202610190600 +0200", "2026-10-19T04:00:00Z"),
        ("2026101906 +0200", "2026-10-19T04:00:00Z"),
        ("20261019", "2026-10-19T00:00:00Z"),
        ("20261019060000", "2026-10-19T06:00:00Z"),
        ("20261019060000 -0500", "2026-10-19T11:00:00Z"),
        ("20261019060000 +0530", "2026-10-19T00:30:00Z"),
        ("20261019060000 +01:00", "2026-10-19T05:00:00Z"),
        ("20261019060000 +01", "2026-10-19T05:00:00Z"),
        ("20261019060000+0200", "2026-10-19T04:00:00Z"),
        ("  20261019060000   +0000 ", "2026-10-19T06:00:00Z"),
        ("20261019060000 UTC", "2026-10-19T06:00:00Z"),
        ("20261019060000 GMT", "2026-10-19T06:00:00Z"),
        ("20261026003000 +0100", "2026-10-25T23:30:00Z"),
        ("20280229120000 +0000", "2028-02-29T12:00:00Z"),
    ])
    func parses(text: String, expected: String) {
        #expect(XMLTVTime.parse(text) == utc(expected))
    }

    @Test("what is not an XMLTV time is nil, not a guess", arguments: [
        "", "abc", "202610190", "20261019060", "2026101906000", "202610190600000",
        "20261319060000 +0200", "20261000060000 +0200", "20260230060000 +0200", "20270229120000 +0000",
        "20261019250000 +0200", "20261019066000 +0200", "20261019060000 +2500", "20261019060000 +0260",
        "20261019060000 CESTX", "20261019060000 +02000", "20261019060000 0200", "21 de octubre, 17:00",
    ])
    func rejects(text: String) {
        #expect(XMLTVTime.parse(text) == nil)
    }

    @Test("writes UTC with seconds and +0000")
    func formats() {
        #expect(XMLTVTime.format(utc("2026-10-25T00:30:00Z")) == "20261025003000 +0000")
        #expect(XMLTVTime.format(utc("1999-12-31T23:59:59Z")) == "19991231235959 +0000")
    }

    @Test("every half hour of the week survives format then parse")
    func roundTrip() {
        var date = utc("2026-10-19T04:00:00Z")
        while date < utc("2026-10-26T05:00:00Z") {
            #expect(XMLTVTime.parse(XMLTVTime.format(date)) == date)
            date += 1_800
        }
    }
}
