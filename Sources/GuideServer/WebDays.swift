import Foundation
import GuideCore

/// The days and moments the pages move through: the guide's window as local days, prime time,
/// and the times a person types (`21:30`).
enum WebDays {
    struct Link { let label: String; let href: String; let current: Bool; let day: String }

    /// Prime time, local minutes of the day: when Spanish channels air their evening's main
    /// programme. "Tonight" and the grid's jump read it.
    static let primeTime = (start: 21 * 60, end: 24 * 60)

    /// The local days the guide's window covers, first to last.
    static func guideDays(_ index: GuideIndex, in zone: TimeZone) -> [Day] {
        let window = index.snapshot.window
        guard window.to > window.from else { return [] }
        let first = Day(window.from, in: zone), last = Day(window.to.addingTimeInterval(-1), in: zone)
        return (0...max(0, last.days(since: first))).map { first.adding(days: $0) }
    }

    /// A link per day of the guide, named `Today`, `Tomorrow`, `Fri 23 Oct`.
    static func picker(_ days: [Day], current: Day?, today: Day, _ t: WebCatalogue, link: (Day) -> String) -> [Link] {
        days.map { day in
            Link(label: WebTime.relativeDay(day, today: today, t), href: link(day), current: day == current, day: day.description)
        }
    }

    /// The moment `minutes` after local midnight of `day`.
    static func moment(_ day: Day, minutes: Int, in zone: TimeZone) -> Date {
        CivilTime.instant(wallClock: CivilTime.epochSeconds(year: day.year, month: day.month, day: day.day) + minutes * 60, in: zone)
    }

    /// Local minutes since midnight of `date`.
    static func minutes(of date: Date, in zone: TimeZone) -> Int {
        let c = CivilTime.components(of: date, in: zone)
        return c.hour * 60 + c.minute
    }
}

extension WebQuery {
    /// A moment asked in `name`: what the API reads (ISO 8601, a day), and also what a person
    /// types: `21:30` (on `date`, else today) and `2026-10-21T21:30`, without seconds.
    func moment(_ name: String, now: Date) throws -> Date? {
        // Checked whenever given, as every parameter is, though only `HH:MM` reads it.
        let date = try reader.day("date")
        guard let text = reader.string(name) else { return nil }
        let bytes = Array(text.utf8)
        let digit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        if bytes.count == 5, bytes[2] == UInt8(ascii: ":"), digit(bytes[0]), digit(bytes[1]), digit(bytes[3]), digit(bytes[4]) {
            let hour = Int(text.prefix(2))!, minute = Int(text.suffix(2))!
            guard hour < 24, minute < 60 else { throw APIError.badParameter(name, "\(Quoted(text)) is not a time of day (HH:MM)") }
            let day = date ?? Day(now, in: zone)
            return WebDays.moment(day, minutes: hour * 60 + minute, in: zone)
        }
        if bytes.count == 16, bytes[10] == UInt8(ascii: "T") {
            return try QueryReader.time(text + ":00", name: name, in: zone)
        }
        return try reader.time(name, in: zone)
    }
}
