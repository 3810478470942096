import Foundation
import Testing
import TestSupport
@testable import GuideCore

@Suite struct AudienceStoreTests {
    typealias S = AudienceSamples

    static func chain(_ providers: FakeAudienceProvider...) -> AudienceChain {
        AudienceChain(members: providers.map { AudienceChainMember(provider: $0, type: "scrape") })
    }

    @Test func theWindowIsTheLastFourteenDaysUpToYesterday() {
        let store = AudienceStore()
        #expect(store.window(today: S.day("2026-10-26")) == S.days("2026-10-12", through: "2026-10-25"))
        // Across a month's end, and a shorter window.
        #expect(AudienceStore(keepDays: 3).window(today: S.day("2026-11-02")) == [S.day("2026-10-30"), S.day("2026-10-31"), S.day("2026-11-01")])
        #expect(AudienceStore(keepDays: 0).window(today: S.day("2026-03-01")) == [S.day("2026-02-28")])
    }

    @Test func aFirstRunFetchesFourteenDaysAndRanksEachByViewers() async throws {
        let days = S.days("2026-10-12", through: "2026-10-25")
        let site = FakeAudienceProvider("formulatv", serving: S.days("2026-10-01", through: "2026-10-31"))

        let update = await AudienceStore().update(previous: [], today: S.day("2026-10-26"), chain: Self.chain(site), programmes: [])

        #expect(await Set(site.asked) == Set(days))
        #expect(update.audiences.map(\.day) == days)
        let first = try #require(update.audiences.first)
        #expect(first.records.map(\.title) == ["Telediario 2", "El hormiguero", "La Revuelta"])
        #expect(first.records.map(\.rank) == [1, 2, 3])
        #expect(first.records.allSatisfy { $0.day == first.day && $0.source == "formulatv" })
        #expect(update.report == AudienceReport(
            providers: [AudienceProviderReport(id: "formulatv", type: "scrape", status: .served, served: days, records: 42)],
            days: 14, records: 42, joined: 0, fetched: days))
    }

    @Test func storedDaysAreNotFetchedAgainAndDaysOutOfTheWindowAreDropped() async {
        let site = FakeAudienceProvider("formulatv", serving: S.days("2026-10-01", through: "2026-10-31"))
        let store = AudienceStore()
        let first = await store.update(previous: [], today: S.day("2026-10-26"), chain: Self.chain(site), programmes: [])
        let second = FakeAudienceProvider("formulatv", serving: S.days("2026-10-01", through: "2026-10-31"))

        let next = await store.update(previous: first.audiences, today: S.day("2026-10-28"), chain: Self.chain(second), programmes: [])

        #expect(await second.asked.sorted() == [S.day("2026-10-26"), S.day("2026-10-27")])
        #expect(next.audiences.map(\.day) == S.days("2026-10-14", through: "2026-10-27"))
        #expect(next.report.fetched == [S.day("2026-10-26"), S.day("2026-10-27")])
        #expect(next.report.providers.first?.served == [S.day("2026-10-26"), S.day("2026-10-27")])
        #expect(next.report.providers.first?.kept == S.days("2026-10-14", through: "2026-10-25"))
        #expect(next.report.days == 14)
        // The days kept are the first run's, unchanged.
        #expect(Array(next.audiences.prefix(12)) == Array(first.audiences.suffix(12)))
    }

    @Test func aRefreshFetchesTheWholeWindowAgain() async {
        let days = S.days("2026-10-12", through: "2026-10-25")
        let store = AudienceStore()
        let first = await store.update(previous: [], today: S.day("2026-10-26"), chain: Self.chain(FakeAudienceProvider("formulatv", serving: days)), programmes: [])
        let again = FakeAudienceProvider("formulatv", serving: days)

        #expect(store.daysToFetch(previous: first.audiences, today: S.day("2026-10-26")) == [])
        let refreshed = await store.update(previous: first.audiences, today: S.day("2026-10-26"), refresh: true, chain: Self.chain(again), programmes: [])

        #expect(await again.asked.sorted() == days)
        #expect(refreshed.report.fetched == days)
        #expect(refreshed.report.providers.first?.kept == [])
    }

    @Test func aDayWhoseFetchFailsKeepsThePreviousRowsAndIsMarkedStale() async throws {
        let days = S.days("2026-10-12", through: "2026-10-25")
        let store = AudienceStore()
        let first = await store.update(previous: [], today: S.day("2026-10-26"), chain: Self.chain(FakeAudienceProvider("formulatv", serving: days)), programmes: [])
        // Refreshed the next day: the site's layout changed for the 20th, and the 26th is on no page at all.
        var answers = Dictionary(uniqueKeysWithValues: days.map { ($0, Result<[AudienceRecord], ProviderError>.success(S.ranking($0))) })
        answers[S.day("2026-10-20")] = .failure(S.layoutChanged)
        let site = FakeAudienceProvider("formulatv", answers: answers)

        let update = await store.update(previous: first.audiences, today: S.day("2026-10-27"), refresh: true, chain: Self.chain(site), programmes: [])

        let twentieth = try #require(update.audiences.first { $0.day == S.day("2026-10-20") })
        #expect(twentieth == first.audiences.first { $0.day == S.day("2026-10-20") })
        #expect(update.audiences.map(\.day) == S.days("2026-10-13", through: "2026-10-25"))
        #expect(update.report.failed == [S.day("2026-10-20"), S.day("2026-10-26")])
        #expect(update.report.stale == [S.day("2026-10-20")])
        #expect(update.report.days == 13)
        let report = try #require(update.report.providers.first)
        #expect(report.failed == [S.day("2026-10-20"), S.day("2026-10-26")])
        #expect(report.kept == [S.day("2026-10-20")])
        #expect(report.errors.map(\.day) == [S.day("2026-10-20"), S.day("2026-10-26")])
    }

    @Test func previousRowsOfAnotherProviderAreKeptUnderItsName() {
        let day = S.day("2026-10-25")
        let previous = [AudienceDay(day: day, records: S.ranking(day).map { var r = $0; r.source = "formulatv-archive"; return r })]
        let fetched = AudienceChainResult(asked: [], served: [:], failed: [], providers: [
            AudienceProviderReport(id: "formulatv", type: "scrape", status: .skipped),
            AudienceProviderReport(id: "formulatv-archive", type: "scrape", status: .skipped),
        ])

        let merged = AudienceStore().merge(previous: previous, fetched: fetched, today: S.day("2026-10-26"))

        #expect(merged.report.providers.map(\.kept) == [[], [day]])
        #expect(merged.audiences.first?.records.map(\.rank) == [1, 2, 3])
    }

    @Test func rankingOrderIsViewersThenChannelThenTitle() {
        let day = S.day("2026-10-25")
        let rows = [
            AudienceRecord(day: day, rank: 1, title: "B", channel: "La1.es", viewers: 1_000_000),
            AudienceRecord(day: day, rank: 2, title: "A", channel: "La1.es", viewers: 1_000_000),
            AudienceRecord(day: day, rank: 3, title: "Z", channel: "Antena3.es", viewers: 1_000_000),
            AudienceRecord(day: day, rank: 4, title: "Top", channel: "TV3.es", viewers: 1_200_000),
        ]
        let ranked = AudienceStore.ranked(rows)
        #expect(ranked.map(\.title) == ["Top", "Z", "A", "B"])
        #expect(ranked.map(\.rank) == [1, 2, 3, 4])
        #expect(AudienceStore.ranked(rows.reversed()) == ranked)
    }

    @Test func todayIsTheCalendarDayInTheGivenTimeZone() throws {
        let madrid = try #require(TimeZone(identifier: "Europe/Madrid"))
        // 23:30Z on the 25th is already the 26th in Madrid (CET, +1).
        #expect(Day(SnapshotSamples.time("2026-10-25T23:30:00Z"), in: madrid) == S.day("2026-10-26"))
        #expect(Day(SnapshotSamples.time("2026-10-25T22:30:00Z"), in: madrid) == S.day("2026-10-25"))
        // The day the clocks go back lasts 25 hours.
        let interval = S.day("2026-10-25").interval(in: madrid)
        #expect(interval.start == SnapshotSamples.time("2026-10-24T22:00:00Z"))
        #expect(interval.duration == 25 * 3_600)
        #expect(S.day("2026-03-29").interval(in: madrid).duration == 23 * 3_600)
    }

    @Test func aTimeOfDayOnTheZonesClockBecomesItsInstantAcrossClockChanges() throws {
        let madrid = try #require(TimeZone(identifier: "Europe/Madrid"))
        #expect(S.day("2026-10-24").instant(atMinute: 22 * 60, in: madrid) == SnapshotSamples.time("2026-10-24T20:00:00Z"))
        // 01:30 CET, half an hour before summer time starts, and 03:30 CEST just after it.
        #expect(S.day("2026-03-29").instant(atMinute: 90, in: madrid) == SnapshotSamples.time("2026-03-29T00:30:00Z"))
        #expect(S.day("2026-03-29").instant(atMinute: 210, in: madrid) == SnapshotSamples.time("2026-03-29T01:30:00Z"))
        // 02:30 never shows on the clock that day: it is read with the offset before the change, as 03:30 CEST.
        #expect(S.day("2026-03-29").instant(atMinute: 150, in: madrid) == SnapshotSamples.time("2026-03-29T01:30:00Z"))
        // 24:45 is the next day's 00:45.
        #expect(S.day("2026-10-24").instant(atMinute: 1_485, in: madrid) == SnapshotSamples.time("2026-10-24T22:45:00Z"))
        #expect(S.day("2026-10-26").days(since: S.day("2026-10-24")) == 2)
    }
}
