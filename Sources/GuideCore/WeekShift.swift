import Foundation

/// Moves a recorded source's times by whole weeks, so that a recording of a fixed week covers
/// the current window on any date (the offline sample, a replayed MiGuiaTV week). Whole weeks
/// keep every airing on its weekday.
package struct WeekShiftedGuideProvider: GuideProvider {
    package enum Mode: Sendable, Hashable {
        /// Repeat the recorded week as often as the window needs: each copy, shifted by whole
        /// weeks, keeps the airings that start within its own week of the recording, so the
        /// copies tile the window without overlapping.
        case auto
        /// Shift every airing by this many weeks.
        case weeks(Int)
    }

    package static let week: TimeInterval = 7 * 86_400

    let inner: any GuideProvider
    let mode: Mode
    let now: Date
    private let shiftsUsed = ShiftLog()

    package init(_ inner: any GuideProvider, mode: Mode, now: Date) {
        self.inner = inner
        self.mode = mode
        self.now = now
    }

    package var id: String { inner.id }

    package func channels() async throws -> [Channel] {
        try await inner.channels()
    }

    package func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        switch mode {
        case .weeks(let weeks):
            let recorded = try await inner.schedule(for: channel, in: window.shifted(by: -Double(weeks) * Self.week))
            await shiftsUsed.record([weeks])
            return Self.shift(recorded, byWeeks: weeks, keepingStartsIn: nil, within: window)
        case .auto:
            let recorded = try await inner.schedule(for: channel, in: DateInterval(start: .distantPast, end: .distantFuture))
            guard let first = recorded.map(\.start).min() else { return [] }
            // The copies whose week [first + k weeks, first + k + 1 weeks) meets the window.
            let lowest = Int((window.start.timeIntervalSince(first) / Self.week).rounded(.down))
            let highest = Int((window.end.timeIntervalSince(first) / Self.week).rounded(.up)) - 1
            guard lowest <= highest else { return [] }
            let week = DateInterval(start: first, duration: Self.week)
            let copies = (lowest...highest).map { ($0, Self.shift(recorded, byWeeks: $0, keepingStartsIn: week, within: window)) }
            await shiftsUsed.record(copies.filter { !$0.1.isEmpty }.map(\.0))
            return copies.flatMap(\.1)
        }
    }

    /// `recorded` moved by `weeks`, limited to airings that start inside `copy` (before the
    /// move) and that overlap `window` (after it).
    private static func shift(_ recorded: [Programme], byWeeks weeks: Int, keepingStartsIn copy: DateInterval?, within window: DateInterval) -> [Programme] {
        let offset = Double(weeks) * week
        return recorded.compactMap { programme in
            if let copy, !(programme.start >= copy.start && programme.start < copy.end) { return nil }
            var shifted = programme
            shifted.start = programme.start.addingTimeInterval(offset)
            shifted.stop = programme.stop?.addingTimeInterval(offset)
            let overlaps = shifted.start < window.end && (shifted.stop ?? shifted.start) >= window.start
            return overlaps ? shifted : nil
        }
    }

    package func reportNotes() async -> [String] {
        let weeks = await shiftsUsed.values
        let shifts = weeks.sorted().map { "\($0 >= 0 ? "+" : "")\($0)" }
        var notes = await inner.reportNotes()
        if !shifts.isEmpty {
            notes.append("recorded week shifted by \(shifts.joined(separator: ", ")) week(s) to cover the window")
        }
        return notes
    }
}

private actor ShiftLog {
    var values: Set<Int> = []
    func record(_ weeks: [Int]) { values.formUnion(weeks) }
}

extension DateInterval {
    func shifted(by seconds: TimeInterval) -> DateInterval {
        DateInterval(start: start.addingTimeInterval(seconds), duration: duration)
    }
}

/// The audience counterpart of `WeekShiftedGuideProvider`: a day's ranking is taken from the
/// recording of the same weekday some whole weeks earlier, its times moved forward by those
/// weeks, so recorded audiences keep joining the week-shifted recorded guide on any date.
package struct WeekShiftedAudienceProvider: AudienceProvider {
    package enum Mode: Sendable, Hashable {
        /// The nearest recorded day on the same weekday: the day itself, else one week earlier,
        /// one week later, two weeks earlier…, up to `maxWeeks` away, stepping over days without
        /// a recording.
        case auto(maxWeeks: Int)
        case weeks(Int)
    }

    let inner: any AudienceProvider
    let mode: Mode
    private let shiftsUsed = ShiftLog()

    package init(_ inner: any AudienceProvider, mode: Mode) {
        self.inner = inner
        self.mode = mode
    }

    package var id: String { inner.id }

    package func audiences(on day: Day) async throws -> [AudienceRecord] {
        switch mode {
        case .weeks(let weeks):
            return try await shifted(day, byWeeks: weeks)
        case .auto(let maxWeeks):
            let nearestFirst = [0] + (1...max(1, maxWeeks)).flatMap { [$0, -$0] }
            for weeks in nearestFirst {
                do {
                    return try await shifted(day, byWeeks: weeks)
                } catch ProviderError.notFound {
                    continue  // nothing recorded that week: try the next nearest
                }
            }
            throw ProviderError.notFound("nothing recorded for \(day)'s weekday within \(maxWeeks) weeks of it")
        }
    }

    package func reportNotes() async -> [String] {
        let weeks = await shiftsUsed.values.sorted()
        let note = weeks.isEmpty || weeks == [0] ? [] : ["recorded days shifted by " + weeks.map { "\($0 >= 0 ? "+" : "")\($0)" }.joined(separator: ", ") + " week(s)"]
        return await inner.reportNotes() + note
    }

    private func shifted(_ day: Day, byWeeks weeks: Int) async throws -> [AudienceRecord] {
        let records = try await inner.audiences(on: day.adding(days: -7 * weeks))
        await shiftsUsed.record([weeks])
        return records.map { record in
            var moved = record
            moved.day = day
            moved.start = record.start.map { $0.addingTimeInterval(Double(weeks) * WeekShiftedGuideProvider.week) }
            return moved
        }
    }
}
