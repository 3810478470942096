import Foundation

/// Puts one channel's programmes in order the way `tv_sort` does, and counts every change so the
/// run report shows what a source got wrong instead of hiding it.
public enum Normaliser {
    /// Sorts by start, fills missing stops as tv_sort does (before anything is dropped), and drops
    /// airings whose stop is before their start and exact duplicates. Everything else XMLTV allows
    /// is kept as tv_sort keeps it: airings sharing a start (clumps, numbered by
    /// `sameStartIndex`), zero-length ones, and overlaps (`overlapping(in:)` counts them). Where
    /// one airing at a time must be shown (the web grid, what is on now), `OneAtATime` resolves
    /// them.
    public static func normalise(_ programmes: [Programme], report: inout NormalisationReport) -> [Programme] {
        // Most sources are already in order: checking is a scan, while rebuilding copies every
        // programme, which is the bulk of a large build's time.
        if isInOrder(programmes) { return programmes }
        // tv_sort's order: by start, then an airing without a stop before one with, then the
        // shorter first; the sort is stable, so the source's order breaks the remaining ties.
        var sorted = programmes.sorted { a, b in
            if a.start != b.start { return a.start < b.start }
            switch (a.stop, b.stop) {
            case (nil, .some): return true
            case (let x?, let y?): return x < y
            default: return false
            }
        }
        fillStops(&sorted, report: &report)
        var result: [Programme] = []
        result.reserveCapacity(sorted.count)
        var sameStart = 0
        for var programme in sorted {
            if let stop = programme.stop, stop < programme.start {
                report.invalidDropped += 1
                continue
            }
            // Equal start and stop sort together, so a duplicate is among the last few kept.
            if result.reversed().prefix(while: { $0.start == programme.start && $0.stop == programme.stop })
                .contains(where: { $0.title == programme.title }) {
                report.duplicatesDropped += 1
                continue
            }
            sameStart = result.last?.start == programme.start ? sameStart + 1 : 0
            programme.sameStartIndex = sameStart == 0 ? nil : sameStart
            result.append(programme)
        }
        return result
    }

    /// tv_sort's rule: a missing stop is the start of the next airing that starts later, unless an
    /// airing with the same start has a stop, which it then shares; the last airing keeps none. A
    /// zero-length airing counts as a next one. `<length>` excludes adverts (xmltv.dtd), so it is
    /// never a stop.
    static func fillStops(_ sorted: inout [Programme], report: inout NormalisationReport) {
        var groupEnd = sorted.count
        // Backwards, one group of equal starts at a time: the next later start is then known.
        while groupEnd > 0 {
            let start = sorted[groupEnd - 1].start
            var groupStart = groupEnd - 1
            while groupStart > 0, sorted[groupStart - 1].start == start { groupStart -= 1 }
            let shared = sorted[groupStart..<groupEnd].compactMap(\.stop).min()
            let nextStart = groupEnd < sorted.count ? sorted[groupEnd].start : nil
            for index in groupStart..<groupEnd where sorted[index].stop == nil {
                if let stop = shared ?? nextStart {
                    sorted[index].stop = stop
                    report.stopsFilled += 1
                }
            }
            groupEnd = groupStart
        }
    }

    /// True when nothing is left to fix: every airing has a stop at or after its start, they are
    /// in tv_sort's order and numbered among those sharing their start, and no two share a start
    /// and a stop (they might be duplicates).
    static func isInOrder(_ programmes: [Programme]) -> Bool {
        // By index, reading fields in place: a copy of a programme retains every one of its fields.
        var sameStart = 0
        for index in programmes.indices {
            let start = programmes[index].start
            guard let stop = programmes[index].stop, stop >= start else { return false }
            if index > 0 {
                let previousStart = programmes[index - 1].start
                guard previousStart <= start else { return false }
                sameStart = previousStart == start ? sameStart + 1 : 0
                if sameStart > 0 {
                    guard let previousStop = programmes[index - 1].stop, previousStop < stop else { return false }
                }
            }
            guard programmes[index].sameStartIndex == (sameStart == 0 ? nil : sameStart) else { return false }
        }
        return true
    }

    /// Airings of one normalised channel that start before an earlier one ends, or with it: what
    /// the run report counts as `overlapping`.
    public static func overlapping(in programmes: [Programme]) -> Int {
        var count = 0
        var latestEnd = Date.distantPast
        var previousStart: Date?
        for programme in programmes {
            if programme.start < latestEnd || programme.start == previousStart { count += 1 }
            latestEnd = max(latestEnd, programme.stop ?? programme.start)
            previousStart = programme.start
        }
        return count
    }

    /// Keeps the airings that overlap `window`.
    public static func clip(_ programmes: [Programme], to window: TimeWindow, report: inout NormalisationReport) -> [Programme] {
        if programmes.allSatisfy({ window.overlaps(start: $0.start, stop: $0.stop) }) { return programmes }
        let kept = programmes.filter { window.overlaps(start: $0.start, stop: $0.stop) }
        report.outsideWindow += programmes.count - kept.count
        return kept
    }
}
