import Foundation

/// Puts one channel's programmes in order the way `tv_sort` does, and counts every change so the
/// run report shows what a source got wrong instead of hiding it.
public enum Normaliser {
    /// Sorts by start, fills missing stops as tv_sort does (before anything is dropped), drops
    /// airings whose stop is before their start and exact duplicates, and resolves overlaps: an
    /// airing that starts inside the previous one cuts that one short, or is dropped if the
    /// previous one contains it entirely or starts at the same time (one airing per start: the
    /// grid shows one; tv_sort keeps both and warns, docs/configuration.md "xmltv"). A zero-length
    /// airing is kept, as XMLTV allows.
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
        sorted.removeAll { programme in
            guard let stop = programme.stop, stop < programme.start else { return false }
            report.invalidDropped += 1
            return true
        }
        var result: [Programme] = []
        result.reserveCapacity(sorted.count)
        // The last airing kept that covers time: a zero-length one (a marker) overlaps nothing,
        // so what follows it is checked against the airing before it.
        var lastTimed: Int?
        for programme in sorted {
            if programme.stop == programme.start {
                if let last = result.last, last.start == programme.start, last.stop == programme.stop, last.title == programme.title {
                    report.duplicatesDropped += 1
                } else {
                    result.append(programme)
                }
                continue
            }
            guard let index = lastTimed else {
                lastTimed = result.count
                result.append(programme)
                continue
            }
            var previous = result[index]
            if previous.start == programme.start {
                if previous.title == programme.title && previous.stop == programme.stop {
                    report.duplicatesDropped += 1
                } else {
                    report.overlapsDropped += 1
                }
                continue
            }
            if let stop = previous.stop, stop > programme.start {
                if let ownStop = programme.stop, ownStop <= stop {
                    report.overlapsDropped += 1
                    continue
                }
                previous.stop = programme.start
                report.overlapsTrimmed += 1
                result[index] = previous
            }
            lastTimed = result.count
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

    /// True when nothing is left to fix: every airing has a stop at or after its start, starts
    /// after the previous one and ends at or before the next one starts.
    static func isInOrder(_ programmes: [Programme]) -> Bool {
        var previousStart = Date.distantPast
        var previousStop = Date.distantPast
        for programme in programmes {
            guard programme.start >= previousStop, programme.start > previousStart || previousStart == .distantPast,
                  let stop = programme.stop, stop >= programme.start else { return false }
            previousStart = programme.start
            previousStop = stop
        }
        return true
    }

    /// Keeps the airings that overlap `window`.
    public static func clip(_ programmes: [Programme], to window: TimeWindow, report: inout NormalisationReport) -> [Programme] {
        if programmes.allSatisfy({ window.overlaps(start: $0.start, stop: $0.stop) }) { return programmes }
        let kept = programmes.filter { window.overlaps(start: $0.start, stop: $0.stop) }
        report.outsideWindow += programmes.count - kept.count
        return kept
    }
}
