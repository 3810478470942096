import Foundation

/// Which days of audience rankings a snapshot keeps, and how a run adds to the previous
/// snapshot's: the last `keepDays` days up to yesterday (today's figures are not out yet). A day
/// the previous snapshot has is not fetched again unless a refresh is asked; fetched days are
/// added; days outside the window are dropped; a day whose fetch failed keeps the previous
/// snapshot's rows, if it had any, and is reported as stale. The rankings live in the snapshot
/// (`Snapshot.audiences`), not in a file of their own.
package struct AudienceStore: Sendable {
    package static let defaultKeepDays = 14

    /// Days kept; below 1 counts as 1.
    package let keepDays: Int

    package init(keepDays: Int = AudienceStore.defaultKeepDays) {
        self.keepDays = max(1, keepDays)
    }

    /// The days kept on `today`: the `keepDays` days ending yesterday, oldest first.
    package func window(today: Day) -> [Day] {
        (1...keepDays).reversed().map { today.adding(days: -$0) }
    }

    /// The days of the window to ask the chain for: those `previous` lacks, or all of them with
    /// `refresh`. Oldest first.
    package func daysToFetch(previous: [AudienceDay], today: Day, refresh: Bool = false) -> [Day] {
        let window = self.window(today: today)
        guard !refresh else { return window }
        let stored = Set(previous.filter { !$0.records.isEmpty }.map(\.day))
        return window.filter { !stored.contains($0) }
    }

    /// `previous` with what the chain fetched: the window's days sorted, each day ranked (by
    /// viewers, `rank` set from 1), and the report (`joined` left at 0; `AudienceJoin` counts).
    package func merge(previous: [AudienceDay], fetched: AudienceChainResult, today: Day) -> AudienceUpdate {
        let window = Set(self.window(today: today))
        var byDay: [Day: [AudienceRecord]] = [:]
        for stored in previous where window.contains(stored.day) && !stored.records.isEmpty && byDay[stored.day] == nil {
            byDay[stored.day] = stored.records
        }
        let previousDays = Set(byDay.keys)
        for (day, records) in fetched.served where window.contains(day) {
            byDay[day] = records
        }
        let failed = fetched.failed.filter(window.contains)
        let stale = failed.filter(previousDays.contains)

        let days = byDay.keys.sorted().map { day in
            AudienceDay(day: day, records: Self.ranked(byDay[day] ?? []))
        }

        // A stored day that was not served this run was served by an earlier run: its provider kept it.
        let servedNow = Set(fetched.served.keys)
        var kept: [String: [Day]] = [:]
        for day in days where !servedNow.contains(day.day) {
            for source in Set(day.records.map(\.source)) {
                kept[source, default: []].append(day.day)
            }
        }
        var providers = fetched.providers
        for index in providers.indices {
            providers[index].kept = kept[providers[index].id] ?? []
        }

        let report = AudienceReport(
            providers: providers, days: days.count, records: days.reduce(0) { $0 + $1.records.count }, joined: 0,
            fetched: fetched.asked.filter(window.contains), failed: failed, stale: stale)
        return AudienceUpdate(audiences: days, report: report)
    }

    /// The whole pipeline for one run: decides the days to fetch, fetches them through `chain`,
    /// merges them into `previous` (the previous snapshot's `audiences`) and joins every record
    /// to `programmes` (the new snapshot's guide).
    package func update(previous: [AudienceDay], today: Day, refresh: Bool = false, chain: AudienceChain,
                       programmes: [Programme], join: AudienceJoin = AudienceJoin()) async -> AudienceUpdate {
        let fetched = await chain.fetch(daysToFetch(previous: previous, today: today, refresh: refresh))
        var update = merge(previous: previous, fetched: fetched, today: today)
        let joined = join.join(update.audiences, to: programmes)
        update.audiences = joined.days
        update.report.joined = joined.joined
        return update
    }

    /// A day's rows in ranking order, `rank` their position from 1.
    static func ranked(_ records: [AudienceRecord]) -> [AudienceRecord] {
        var sorted = records.sorted(by: AudienceRecord.ranksBefore)
        for index in sorted.indices { sorted[index].rank = index + 1 }
        return sorted
    }
}

/// The rankings a snapshot keeps, and how they came about.
package struct AudienceUpdate: Sendable {
    /// For `Snapshot.audiences`.
    package var audiences: [AudienceDay]
    /// For `RunReport.audience`.
    package var report: AudienceReport
}
