import Foundation

/// The span of time the guide covers: how far back and how far ahead of `now`.
public struct TimeWindow: Codable, Sendable, Hashable {
    public var from: Date
    public var to: Date

    public init(from: Date, to: Date) {
        self.from = from
        self.to = to
    }

    public var interval: DateInterval { DateInterval(start: from, end: max(from, to)) }

    /// True when an airing from `start` to `stop` overlaps the window.
    public func overlaps(start: Date, stop: Date?) -> Bool {
        start < to && (stop ?? start) > from || (stop == nil && start >= from && start < to)
    }
}
