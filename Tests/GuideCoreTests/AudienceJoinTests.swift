import Foundation
import Testing
import TestSupport
@testable import GuideCore

@Suite struct AudienceJoinTests {
    typealias S = AudienceSamples

    static func time(_ text: String) -> Date { SnapshotSamples.time(text) }

    static func programme(_ channel: String, _ start: String, _ stop: String?, _ title: String) -> Programme {
        Programme(channel: channel, start: time(start), stop: stop.map(time), title: title, source: "xmltv-sample")
    }

    static func record(_ day: String, _ channel: String, _ title: String, start: String?, programme: String? = nil) -> AudienceRecord {
        AudienceRecord(day: S.day(day), title: title, channel: channel, viewers: 1_000_000, start: start.map(time), source: "formulatv", programme: programme)
    }

    /// The programme ids the records were joined to, in order.
    static func joined(_ records: [AudienceRecord], to guide: [Programme]) -> [String?] {
        let days = Dictionary(grouping: records, by: \.day).map { AudienceDay(day: $0.key, records: $0.value) }.sorted { $0.day < $1.day }
        return AudienceJoin().join(days, to: guide).days.flatMap(\.records).map(\.programme)
    }

    /// An evening on La 1 and Antena 3, Tuesday 20 October 2026 (CEST, +2).
    static let evening = [
        programme("La1.es", "2026-10-20T19:00:00Z", "2026-10-20T19:55:00Z", "Telediario 2"),
        programme("La1.es", "2026-10-20T19:55:00Z", "2026-10-20T20:00:00Z", "El tiempo"),
        programme("La1.es", "2026-10-20T20:05:00Z", "2026-10-20T21:40:00Z", "Cine: Alien, el octavo pasajero"),
        programme("La1.es", "2026-10-20T21:40:00Z", "2026-10-20T22:30:00Z", "Noticias de la noche"),
        programme("La1.es", "2026-10-20T21:48:00Z", "2026-10-20T22:30:00Z", "Noticias"),
        programme("Antena3.es", "2026-10-20T19:00:00Z", "2026-10-20T20:00:00Z", "Antena 3 Noticias 2"),
        programme("Antena3.es", "2026-10-20T20:00:00Z", "2026-10-20T21:00:00Z", "El Hormiguero 3.0"),
    ]

    @Test func aRecordJoinsTheProgrammeStartingAtItsTimeOnItsChannel() {
        #expect(Self.joined([Self.record("2026-10-20", "La1.es", "TELEDIARIO 2", start: "2026-10-20T19:00:00Z")], to: Self.evening)
                == ["La1.es@20261020T190000Z"])
    }

    @Test func aStartWithinTenMinutesJoinsAndOneFurtherAwayDoesNot() {
        let records = [
            // Ten minutes late: still the programme.
            Self.record("2026-10-20", "Antena3.es", "El hormiguero 3.0", start: "2026-10-20T20:10:00Z"),
            // Ten minutes early.
            Self.record("2026-10-20", "La1.es", "Cine: Alien, el octavo pasajero", start: "2026-10-20T19:55:00Z"),
            // Eleven minutes early, before the programme airs.
            Self.record("2026-10-20", "La1.es", "Noticias de la noche", start: "2026-10-20T21:29:00Z"),
        ]
        #expect(Self.joined(records, to: Self.evening) == ["Antena3.es@20261020T200000Z", "La1.es@20261020T200500Z", nil])
    }

    @Test func aStartInsideAProgrammeJoinsItWhenTheTitlesAgree() {
        // Half an hour into the film; the audience site drops the guide's "Cine:" prefix.
        let records = [Self.record("2026-10-20", "La1.es", "Alien, el octavo pasajero", start: "2026-10-20T20:35:00Z")]
        #expect(Self.joined(records, to: Self.evening) == ["La1.es@20261020T200500Z"])
    }

    @Test func theTitleChoosesAmongProgrammesAiringThenAndAnEqualTitleBeatsAContainedOne() {
        let records = [
            // At 19:54 both the news (airing) and the weather (a minute later) are candidates.
            Self.record("2026-10-20", "La1.es", "El Tiempo", start: "2026-10-20T19:54:00Z"),
            // "Noticias" is in "Noticias de la noche" (nearer), but it is all of "Noticias".
            Self.record("2026-10-20", "La1.es", "Noticias", start: "2026-10-20T21:40:00Z"),
        ]
        #expect(Self.joined(records, to: Self.evening) == ["La1.es@20261020T195500Z", "La1.es@20261020T214800Z"])
    }

    @Test func noJoinOnAnotherChannelOrWithAnotherTitle() {
        let records = [
            Self.record("2026-10-20", "La2.es", "Telediario 2", start: "2026-10-20T19:00:00Z"),
            Self.record("2026-10-20", "La1.es", "Fútbol: Liga de Campeones", start: "2026-10-20T19:00:00Z"),
            // Words in another order are another title.
            Self.record("2026-10-20", "Antena3.es", "Noticias Antena 3", start: "2026-10-20T19:00:00Z"),
        ]
        let days = [AudienceDay(day: S.day("2026-10-20"), records: records)]
        let result = AudienceJoin().join(days, to: Self.evening + [Self.programme("La2.es", "2026-10-20T19:00:00Z", nil, "Documental")])
        #expect(result.days[0].records.map(\.programme) == [nil, nil, nil])
        #expect(result.joined == 0)
        #expect(result.unjoined == 3)
    }

    @Test func withoutAStartTheTitleIsLookedForOnTheChannelsDayAndTwoAiringsMatchNeither() {
        let guide = Self.evening + [Self.programme("La1.es", "2026-10-21T19:00:00Z", "2026-10-21T19:55:00Z", "Telediario 2"),
                                    Self.programme("La1.es", "2026-10-20T11:00:00Z", "2026-10-20T11:30:00Z", "El tiempo")]
        let records = [
            Self.record("2026-10-20", "La1.es", "Telediario 2", start: nil),
            Self.record("2026-10-21", "La1.es", "Telediario 2", start: nil),
            // Aired twice on the 20th: no telling which.
            Self.record("2026-10-20", "La1.es", "El tiempo", start: nil),
        ]
        #expect(Self.joined(records, to: guide) == ["La1.es@20261020T190000Z", nil, "La1.es@20261021T190000Z"])
    }

    /// Sunday 25 October 2026 in Madrid runs from 00:00 CEST (22:00Z the day before) to 24:00 CET
    /// (23:00Z): neither the UTC day nor one fixed offset gives those bounds.
    @Test func theDayTheClocksGoBackHasTwentyFiveHours() {
        let guide = [
            Self.programme("La1.es", "2026-10-24T22:15:00Z", "2026-10-24T23:45:00Z", "Noche de cine"),    // 00:15 CEST on the 25th
            Self.programme("La1.es", "2026-10-25T19:00:00Z", "2026-10-25T20:00:00Z", "Cine de la tarde"),  // 20:00 CET
            Self.programme("La1.es", "2026-10-25T20:00:00Z", "2026-10-25T20:40:00Z", "Telediario 2"),      // 21:00 CET
            Self.programme("La1.es", "2026-10-25T22:40:00Z", "2026-10-25T23:15:00Z", "Última hora"),       // 23:40 CET on the 25th
            Self.programme("La1.es", "2026-10-25T23:15:00Z", "2026-10-26T00:45:00Z", "Noche de cine"),    // 00:15 CET on the 26th
        ]
        let records = [
            Self.record("2026-10-25", "La1.es", "Noche de cine", start: nil),
            Self.record("2026-10-25", "La1.es", "Última hora", start: nil),
            // 21:00 local is 20:00Z after the change, not 19:00Z.
            Self.record("2026-10-25", "La1.es", "Telediario 2", start: "2026-10-25T20:00:00Z"),
        ]
        #expect(Self.joined(records, to: guide) == ["La1.es@20261024T221500Z", "La1.es@20261025T224000Z", "La1.es@20261025T200000Z"])
    }

    @Test func aRecordTheGuideDoesNotCoverKeepsItsEarlierJoinAndOneItCoversIsJoinedAfresh() {
        let earlier = "La1.es@20261012T190000Z"
        let records = [
            // Twelve days ago: this week's guide does not reach back there.
            Self.record("2026-10-12", "La1.es", "Telediario 2", start: "2026-10-12T19:00:00Z", programme: earlier),
            // Within the guide, whose programme at that time is another now.
            Self.record("2026-10-20", "Antena3.es", "El peliculón", start: "2026-10-20T20:00:00Z", programme: "Antena3.es@20261020T200000Z"),
        ]
        let days = [AudienceDay(day: S.day("2026-10-12"), records: [records[0]]), AudienceDay(day: S.day("2026-10-20"), records: [records[1]])]
        let result = AudienceJoin().join(days, to: Self.evening)
        #expect(result.days.flatMap(\.records).map(\.programme) == [earlier, nil])
        #expect(result.joined == 1)
        #expect(result.unjoined == 1)
    }

    @Test func theStoreJoinsWhatItKeeps() async {
        let day = S.day("2026-10-20")
        let rows = [
            AudienceRecord(day: day, title: "Telediario 2", channel: "La1.es", viewers: 2_100_000, start: Self.time("2026-10-20T19:00:00Z")),
            AudienceRecord(day: day, title: "El hormiguero 3.0", channel: "Antena3.es", viewers: 1_900_000, start: Self.time("2026-10-20T20:00:00Z")),
            AudienceRecord(day: day, title: "Masterchef", channel: "La1.es", viewers: 1_800_000, start: Self.time("2026-10-20T20:00:00Z")),
        ]
        let site = FakeAudienceProvider("formulatv", answers: [day: .success(rows)])
        let update = await AudienceStore(keepDays: 1).update(
            previous: [], today: S.day("2026-10-21"), chain: AudienceChain(members: [AudienceChainMember(provider: site, type: "scrape")]),
            programmes: Self.evening)

        #expect(update.audiences.first?.records.map(\.programme) == ["La1.es@20261020T190000Z", "Antena3.es@20261020T200000Z", nil])
        #expect(update.report.joined == 2)
        #expect(update.report.records == 3)
    }
}
