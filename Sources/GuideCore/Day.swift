import Foundation

/// A calendar day (`2026-10-25`), the unit of audience rankings.
public struct Day: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var description: String {
        var out = [UInt8]()
        ISOTime.appendDigits(year, 4, &out); out.append(0x2D)
        ISOTime.appendDigits(month, 2, &out); out.append(0x2D)
        ISOTime.appendDigits(day, 2, &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = Day(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a day: \(text)"))
        }
        self = day
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Calendar arithmetic, for providers that turn a day into requests and times.
extension Day {
    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> Day {
        let c = CivilTime.components(epochSeconds: (CivilTime.daysFromCivil(year: year, month: month, day: self.day) + days) * 86_400)
        return Day(year: c.year, month: c.month, day: c.day)
    }

    /// Whole days from `other` to this day.
    public func days(since other: Day) -> Int {
        CivilTime.daysFromCivil(year: year, month: month, day: day) - CivilTime.daysFromCivil(year: other.year, month: other.month, day: other.day)
    }

    /// The day on the calendar of `timeZone` at `date`: what "today" is for a run at `date`.
    public init(_ date: Date, in timeZone: TimeZone) {
        let c = CivilTime.components(of: date, in: timeZone)
        self.init(year: c.year, month: c.month, day: c.day)
    }

    /// `minutes` after midnight of this day on the clock of `timeZone`; 1,440 or more falls on the
    /// next day. In the hour a clock skips, the offset before the change applies.
    public func instant(atMinute minutes: Int, in timeZone: TimeZone) -> Date {
        CivilTime.instant(wallClock: CivilTime.epochSeconds(year: year, month: month, day: day) + minutes * 60, in: timeZone)
    }

    /// From midnight to midnight in `timeZone`: 23 or 25 hours on the days the clocks change.
    public func interval(in timeZone: TimeZone) -> DateInterval {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func midnight(_ day: Day) -> Date {
            calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))
                ?? Date(timeIntervalSince1970: TimeInterval(CivilTime.epochSeconds(year: day.year, month: day.month, day: day.day)))
        }
        return DateInterval(start: midnight(self), end: midnight(adding(days: 1)))
    }
}
