import Foundation

/// Finds the guide programme an audience record measures and sets the record's `programme` to
/// its id (`Programme.id`).
///
/// A record with a start time is matched among the programmes of its channel airing then: those
/// starting within `tolerance` of it, and the one it falls inside. A record without one is matched
/// among its channel's programmes starting on its day (midnight to midnight in `timeZone`). Either
/// way a candidate's title must be the record's, compared as `TitleKey`s (case, accents and
/// punctuation do not count), or one's words must appear in a row in the other's (`Telediario 2`
/// and `Telediario 2 Fin de semana`). An equal title beats a contained one; then, with a start
/// time, the nearest start wins. Without a start time, two equally good candidates (a title aired
/// twice that day) match neither: a wrong programme is worse than none.
///
/// Only a guide that covers the record can say it has no programme for it: a record whose time
/// (or day) lies outside everything the guide has for its channel keeps the `programme` an
/// earlier run found, when its guide was there.
package struct AudienceJoin: Sendable {
    /// Spain's, whose television the audience sites measure.
    package static let defaultTimeZone = TimeZone(identifier: "Europe/Madrid") ?? TimeZone(secondsFromGMT: 3_600)!

    /// Where a day starts and ends, for records without a start time.
    package var timeZone: TimeZone
    /// How far a programme's start may be from the record's start, either way.
    package var tolerance: TimeInterval

    package init(timeZone: TimeZone = AudienceJoin.defaultTimeZone, tolerance: TimeInterval = 600) {
        self.timeZone = timeZone
        self.tolerance = tolerance
    }

    /// `days` with each record's `programme` set, and how many records have one.
    package func join(_ days: [AudienceDay], to programmes: [Programme]) -> AudienceJoinResult {
        let guide = ChannelTimelines(programmes)
        let titles = TitleKeys()
        var joined = 0
        var result = days
        for dayIndex in result.indices {
            let interval = result[dayIndex].day.interval(in: timeZone)
            for recordIndex in result[dayIndex].records.indices {
                let record = result[dayIndex].records[recordIndex]
                guard let timeline = guide.timeline(record.channel),
                      record.start.map(timeline.covers) ?? timeline.covers(interval) else {
                    if record.programme != nil { joined += 1 }
                    continue
                }
                let found = if let start = record.start {
                    match(record.title, at: start, in: timeline, titles: titles)
                } else {
                    match(record.title, during: interval, in: timeline, titles: titles)
                }
                result[dayIndex].records[recordIndex].programme = found?.id
                if found != nil { joined += 1 }
            }
        }
        let records = days.reduce(0) { $0 + $1.records.count }
        return AudienceJoinResult(days: result, joined: joined, unjoined: records - joined)
    }

    /// The programme airing at `start` whose title is like `title`.
    func match(_ title: String, at start: Date, in timeline: Timeline, titles: TitleKeys) -> Programme? {
        var candidates = timeline.starting(from: start.addingTimeInterval(-tolerance), through: start.addingTimeInterval(tolerance))
        if let airing = timeline.airing(at: start), !candidates.contains(where: { $0.start == airing.start }) {
            candidates.append(airing)
        }
        let wanted = titles.key(title)
        let scored = candidates.compactMap { programme -> (programme: Programme, likeness: TitleLikeness)? in
            TitleLikeness(wanted, titles.key(programme.title)).map { (programme, $0) }
        }
        return scored.min { a, b in
            if a.likeness != b.likeness { return a.likeness < b.likeness }
            let distanceA = abs(a.programme.start.timeIntervalSince(start)), distanceB = abs(b.programme.start.timeIntervalSince(start))
            if distanceA != distanceB { return distanceA < distanceB }
            return a.programme.start < b.programme.start
        }?.programme
    }

    /// The one programme starting during `interval` whose title is most like `title`; nil when
    /// none is, or several are equally.
    func match(_ title: String, during interval: DateInterval, in timeline: Timeline, titles: TitleKeys) -> Programme? {
        let wanted = titles.key(title)
        let scored = timeline.starting(from: interval.start, before: interval.end).compactMap { programme -> (programme: Programme, likeness: TitleLikeness)? in
            TitleLikeness(wanted, titles.key(programme.title)).map { (programme, $0) }
        }
        guard let best = scored.map(\.likeness).min() else { return nil }
        let tied = scored.filter { $0.likeness == best }
        return tied.count == 1 ? tied[0].programme : nil
    }
}

/// The joined rankings.
package struct AudienceJoinResult: Sendable {
    package var days: [AudienceDay]
    /// Records with a `programme`, found now or kept from an earlier run.
    package var joined: Int
    package var unjoined: Int
}

/// Titles normalised once per join: a guide repeats its titles, and a record's day is searched
/// programme by programme.
final class TitleKeys {
    private var keys: [String: TitleKey] = [:]

    func key(_ title: String) -> TitleKey {
        if let known = keys[title] { return known }
        let key = TitleKey(title)
        keys[title] = key
        return key
    }
}

/// How alike two titles are; nil when not alike enough to join. Smaller is closer.
enum TitleLikeness: Int, Comparable {
    /// The same words.
    case equal
    /// One title's words appear in a row in the other's.
    case contained

    init?(_ a: TitleKey, _ b: TitleKey) {
        guard !a.words.isEmpty, !b.words.isEmpty else { return nil }
        if a.words == b.words {
            self = .equal
        } else if Self.appears(a.words, in: b.words) || Self.appears(b.words, in: a.words) {
            self = .contained
        } else {
            return nil
        }
    }

    static func < (lhs: TitleLikeness, rhs: TitleLikeness) -> Bool { lhs.rawValue < rhs.rawValue }

    private static func appears(_ needle: [String], in haystack: [String]) -> Bool {
        guard needle.count < haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { offset in
            haystack[offset..<(offset + needle.count)].elementsEqual(needle)
        }
    }
}

/// The guide's programmes by channel, each channel's sorted by start. Holds indices into the
/// guide, not copies of its programmes.
struct ChannelTimelines {
    private let byChannel: [String: Timeline]

    init(_ programmes: [Programme]) {
        var indices: [String: [Int]] = [:]
        for index in programmes.indices { indices[programmes[index].channel, default: []].append(index) }
        byChannel = indices.mapValues { Timeline(programmes, indices: $0) }
    }

    func timeline(_ channel: String) -> Timeline? { byChannel[channel] }
}

/// One channel's programmes, sorted by start.
struct Timeline {
    private let guide: [Programme]
    /// Indices into `guide`, by start.
    private let order: [Int]
    private let starts: [Date]
    /// From the first start to the last stop (or start).
    private let first: Date
    private let last: Date

    init(_ guide: [Programme], indices: [Int]) {
        let inOrder = indices.indices.dropFirst().allSatisfy { guide[indices[$0 - 1]].start <= guide[indices[$0]].start }
        self.guide = guide
        order = inOrder ? indices : indices.sorted { guide[$0].start < guide[$1].start }
        starts = order.map { guide[$0].start }
        first = starts.first ?? .distantPast
        last = order.lazy.map { guide[$0].stop ?? guide[$0].start }.max() ?? first
    }

    /// Whether the guide has this channel at `time`: what it lacks there, it does not know.
    func covers(_ time: Date) -> Bool {
        first <= time && time <= last
    }

    /// Whether the guide has this channel during any of `interval`.
    func covers(_ interval: DateInterval) -> Bool {
        first < interval.end && interval.start <= last
    }

    /// Programmes starting in `from...through`.
    func starting(from: Date, through: Date) -> [Programme] {
        let low = partition { $0 >= from }, high = partition { $0 > through }
        return (low..<max(low, high)).map { guide[order[$0]] }
    }

    /// Programmes starting in `from..<before`.
    func starting(from: Date, before: Date) -> [Programme] {
        let low = partition { $0 >= from }, high = partition { $0 >= before }
        return (low..<max(low, high)).map { guide[order[$0]] }
    }

    /// The programme that started at or before `time` and has not stopped.
    func airing(at time: Date) -> Programme? {
        let after = partition { $0 > time }
        guard after > 0 else { return nil }
        let programme = guide[order[after - 1]]
        guard let stop = programme.stop, stop > time else { return nil }
        return programme
    }

    /// The first index whose start satisfies `isAfter`, which must be false and then true along `starts`.
    private func partition(_ isAfter: (Date) -> Bool) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if isAfter(starts[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
