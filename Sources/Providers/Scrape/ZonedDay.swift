import Foundation
import GuideCore

/// Wall-clock arithmetic in one time zone without `Calendar`: a page's day plus a time of day
/// to an instant, and an instant to its day.
struct ZonedDay: Sendable {
    let timeZone: TimeZone

    /// `minutes` after midnight of `day` on the zone's clock; 1,440 or more falls on the next day.
    /// In the hour a clock skips, the time before the change's offset applies.
    func date(_ day: Day, minutes: Int) -> Date {
        let wallClock = CivilTime.epochSeconds(year: day.year, month: day.month, day: day.day) + minutes * 60
        // The offset at the wall-clock time read as UTC is the right one except within hours of a
        // change; asking again at the instant it gives settles those.
        let guess = wallClock - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wallClock)))
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess)))
        return Date(timeIntervalSince1970: TimeInterval(wallClock - offset))
    }

    /// The day `date` falls on in the zone.
    func day(of date: Date) -> Day {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
        let c = CivilTime.components(epochSeconds: seconds)
        return Day(year: c.year, month: c.month, day: c.day)
    }

    /// The day after `day`.
    static func next(_ day: Day) -> Day {
        let c = CivilTime.components(epochSeconds: (CivilTime.daysFromCivil(year: day.year, month: day.month, day: day.day) + 1) * 86_400)
        return Day(year: c.year, month: c.month, day: c.day)
    }
}
