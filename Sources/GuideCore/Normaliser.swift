import Foundation

/// Puts one channel's programmes in order the way `tv_sort` does, and counts every change so the
/// run report shows what a source got wrong instead of hiding it.
public enum Normaliser {
    /// Sorts by start, drops airings whose stop is not after their start and exact duplicates,
    /// fills a missing stop from the next start, and resolves overlaps: an airing that starts
    /// inside the previous one cuts that one short, or is dropped if the previous one contains
    /// it entirely or starts at the same time.
    public static func normalise(_ programmes: [Programme], report: inout NormalisationReport) -> [Programme] {
        // Most sources are already in order: checking is a scan, while rebuilding copies every
        // programme, which is the bulk of a large build's time.
        if isInOrder(programmes) { return programmes }
        var sorted = programmes.sorted { $0.start < $1.start }
        sorted.removeAll { programme in
            guard let stop = programme.stop, stop <= programme.start else { return false }
            report.invalidDropped += 1
            return true
        }
        var result: [Programme] = []
        result.reserveCapacity(sorted.count)
        for var programme in sorted {
            guard var previous = result.last else {
                result.append(programme)
                continue
            }
            if previous.start == programme.start {
                if previous.title == programme.title {
                    report.duplicatesDropped += 1
                } else {
                    report.overlapsDropped += 1
                }
                if previous.stop == nil, let stop = programme.stop {
                    previous.stop = stop
                    result[result.count - 1] = previous
                }
                continue
            }
            switch previous.stop {
            case nil:
                previous.stop = programme.start
                report.stopsFilled += 1
            case let stop? where stop > programme.start:
                if let ownStop = programme.stop, ownStop <= stop {
                    report.overlapsDropped += 1
                    continue
                }
                previous.stop = programme.start
                report.overlapsTrimmed += 1
            default:
                break
            }
            if programme.stop == nil, let length = programme.length, length > 0 {
                programme.stop = programme.start.addingTimeInterval(TimeInterval(length))
            }
            result[result.count - 1] = previous
            result.append(programme)
        }
        if var last = result.last, last.stop == nil, let length = last.length, length > 0 {
            last.stop = last.start.addingTimeInterval(TimeInterval(length))
            result[result.count - 1] = last
        }
        return result
    }

    /// True when nothing is left to fix: every airing has a stop after its start and ends at or
    /// before the next one starts.
    static func isInOrder(_ programmes: [Programme]) -> Bool {
        var previousStop = Date.distantPast
        for programme in programmes {
            guard programme.start >= previousStop, let stop = programme.stop, stop > programme.start else { return false }
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
