import Foundation
import GuideCore

/// Times as the pages show them, with 24-hour clocks (`21:05`) and days in the page's language
/// (`Wednesday 21 October`, `miércoles 21 de octubre`).
enum WebTime {
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

    /// `Wednesday 21 October`, `miércoles 21 de octubre`.
    static func longDay(_ day: Day, _ t: WebCatalogue) -> String {
        t.text("longDay", ["weekday": t.weekdays[weekdayIndex(day)], "day": String(day.day), "month": t.months[day.month - 1]])
    }

    /// `Wed 21 Oct`, `mié 21 oct`.
    static func shortDay(_ day: Day, _ t: WebCatalogue) -> String {
        t.text("shortDay", ["weekday": weekday(day, t), "day": String(day.day), "month": t.monthsShort[day.month - 1]])
    }

    /// `Wed`, `mié`.
    static func weekday(_ day: Day, _ t: WebCatalogue) -> String {
        t.weekdaysShort[weekdayIndex(day)]
    }

    /// `Today`, `Tomorrow`, else the short day: how a day picker names a day.
    static func relativeDay(_ day: Day, today: Day, _ t: WebCatalogue) -> String {
        switch day.days(since: today) {
        case 0: t["today"]
        case 1: t["tomorrow"]
        default: shortDay(day, t)
        }
    }

    /// `35 min`, `2 h`, `1 h 20 min`; a part of a minute counts as a whole one.
    static func duration(_ seconds: TimeInterval, _ t: WebCatalogue) -> String {
        let minutes = max(1, Int((seconds / 60).rounded(.up)))
        switch (minutes / 60, minutes % 60) {
        case (0, let rest): return t.text("durationMinutes", ["minutes": String(rest)])
        case (let hours, 0): return t.text("durationHours", ["hours": String(hours)])
        case (let hours, let rest): return t.text("durationHoursMinutes", ["hours": String(hours), "minutes": String(rest)])
        }
    }

    /// 0 is Sunday, 1 Monday; 1970-01-01 was a Thursday.
    static func weekdayIndex(_ day: Day) -> Int {
        floorMod(CivilTime.daysFromCivil(year: day.year, month: day.month, day: day.day) + 4, 7)
    }
    private static func floorMod(_ value: Int, _ divisor: Int) -> Int {
        let rest = value % divisor
        return rest < 0 ? rest + divisor : rest
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

extension ProgrammeKind {
    /// How the pages name a kind (`Film`, `Película`); `programme` and `other` say nothing worth a label.
    func webLabel(_ t: WebCatalogue) -> String? {
        switch self {
        case .programme, .other: nil
        default: t["kind." + rawValue]
        }
    }
}
