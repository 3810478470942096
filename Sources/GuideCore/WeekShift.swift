import Foundation

/// Moves a recorded source's times by whole weeks, so that a recording of a fixed week covers
/// the current window on any date (the offline sample, a replayed MiGuiaTV week). Whole weeks
/// keep every airing on its weekday.
public struct WeekShiftedGuideProvider: GuideProvider {
    public enum Mode: Sendable, Hashable {
        /// Shift by the number of weeks that brings the recording's first airing to the last
        /// week boundary at or before `now`, so that `now` falls inside the recorded week.
        case auto
        case weeks(Int)
    }

    public static let week: TimeInterval = 7 * 86_400

    let inner: any GuideProvider
    let mode: Mode
    let now: Date
    private let shiftsUsed = ShiftLog()

    public init(_ inner: any GuideProvider, mode: Mode, now: Date) {
        self.inner = inner
        self.mode = mode
        self.now = now
    }

    public var id: String { inner.id }

    public func channels() async throws -> [Channel] {
        try await inner.channels()
    }

    public func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        let weeks: Int
        let recorded: [Programme]
        switch mode {
        case .weeks(let fixed):
            weeks = fixed
            recorded = try await inner.schedule(for: channel, in: window.shifted(by: -Double(fixed) * Self.week))
        case .auto:
            recorded = try await inner.schedule(for: channel, in: DateInterval(start: .distantPast, end: .distantFuture))
            guard let first = recorded.map(\.start).min() else { return [] }
            weeks = Int((now.timeIntervalSince(first) / Self.week).rounded(.down))
        }
        await shiftsUsed.record(weeks)
        let offset = Double(weeks) * Self.week
        return recorded.compactMap { programme in
            var shifted = programme
            shifted.start = programme.start.addingTimeInterval(offset)
            shifted.stop = programme.stop?.addingTimeInterval(offset)
            let overlaps = shifted.start < window.end && (shifted.stop ?? shifted.start) >= window.start
            return overlaps ? shifted : nil
        }
    }

    public func reportNotes() async -> [String] {
        let weeks = await shiftsUsed.values
        let shifts = weeks.sorted().map { "\($0 >= 0 ? "+" : "")\($0) weeks" }
        var notes = await inner.reportNotes()
        if !shifts.isEmpty {
            notes.append("recorded times shifted by \(shifts.joined(separator: ", ")) to cover the window")
        }
        return notes
    }
}

private actor ShiftLog {
    var values: Set<Int> = []
    func record(_ weeks: Int) { values.insert(weeks) }
}

extension DateInterval {
    func shifted(by seconds: TimeInterval) -> DateInterval {
        DateInterval(start: start.addingTimeInterval(seconds), duration: duration)
    }
}
