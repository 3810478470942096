import Foundation
import GuideCore

/// Times as the pages show them, in English with 24-hour clocks: `21:05`, `Wednesday 21 October`.
enum WebTime {
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["January", "February", "March", "April", "May", "June", "July",
                                 "August", "September", "October", "November", "December"]

    static func epoch(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

    static func date(_ epoch: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(epoch)) }

    /// The start of the minute `date` falls in.
    static func minute(_ date: Date) -> Date {
        let seconds = epoch(date)
        return self.date(seconds - floorMod(seconds, 60))
    }

    /// The last local half hour at or before `date`: the grid starts there.
    static func halfHour(before date: Date, in zone: TimeZone) -> Date {
        let offset = zone.secondsFromGMT(for: date)
        let local = epoch(date) + offset
        return self.date(local - floorMod(local, 1_800) - offset)
    }

    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        let c = CivilTime.components(of: date, in: zone)
        return pad(c.hour) + ":" + pad(c.minute)
    }

    /// `Wednesday 21 October`.
    static func longDay(_ day: Day) -> String {
        "\(weekdays[weekdayIndex(day)]) \(day.day) \(months[day.month - 1])"
    }

    /// `Wed 21 Oct`.
    static func shortDay(_ day: Day) -> String {
        "\(weekday(day)) \(day.day) \(months[day.month - 1].prefix(3))"
    }

    /// `Wed`.
    static func weekday(_ day: Day) -> String {
        String(weekdays[weekdayIndex(day)].prefix(3))
    }

    /// `35 min`, `2 h`, `1 h 20 min`; a part of a minute counts as a whole one.
    static func duration(_ seconds: TimeInterval) -> String {
        let minutes = max(1, Int((seconds / 60).rounded(.up)))
        switch (minutes / 60, minutes % 60) {
        case (0, let rest): return "\(rest) min"
        case (let hours, 0): return "\(hours) h"
        case (let hours, let rest): return "\(hours) h \(rest) min"
        }
    }

    /// 0 is Sunday; 1970-01-01 was a Thursday.
    private static func weekdayIndex(_ day: Day) -> Int {
        floorMod(CivilTime.daysFromCivil(year: day.year, month: day.month, day: day.day) + 4, 7)
    }

    private static func floorMod(_ value: Int, _ divisor: Int) -> Int {
        let rest = value % divisor
        return rest < 0 ? rest + divisor : rest
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

extension ProgrammeKind {
    /// How the pages name a kind; `programme` and `other` say nothing worth a label.
    var webLabel: String? {
        switch self {
        case .movie: "Film"
        case .series: "Series"
        case .documentary: "Documentary"
        case .news: "News"
        case .sports: "Sport"
        case .kids: "Kids"
        case .programme, .other: nil
        }
    }
}
