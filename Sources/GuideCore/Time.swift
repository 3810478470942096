import Foundation

/// Calendar arithmetic on UTC civil time without `DateFormatter` or `Calendar`, which are far too
/// slow for the hot loops that parse and write tens of thousands of programme times.
/// The day-count algorithms are Howard Hinnant's `days_from_civil` / `civil_from_days`.
package enum CivilTime {
    /// Seconds since 1970-01-01T00:00:00Z of a UTC civil time.
    @inlinable
    package static func epochSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int {
        daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    @inlinable
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The days of `month` (1…12) in `year` of the Gregorian calendar.
    package static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    package struct Components: Sendable, Hashable {
        package var year, month, day, hour, minute, second: Int

        @inlinable
        package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
        }
    }

    @inlinable
    package static func components(epochSeconds: Int) -> Components {
        var days = epochSeconds / 86_400
        var rest = epochSeconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return Components(year: year, month: month, day: day, hour: rest / 3_600, minute: rest % 3_600 / 60, second: rest % 60)
    }

    /// The civil time the clock of `timeZone` shows at `date`.
    package static func components(of date: Date, in timeZone: TimeZone) -> Components {
        components(epochSeconds: Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date))
    }

    /// The instant at which the clock of `timeZone` shows `wallClock` (a civil time written as
    /// seconds since 1970, as if it were UTC). In the hour a clock skips, the offset before the
    /// change applies, so 02:30 on the day summer time starts is 03:30 summer time.
    package static func instant(wallClock: Int, in timeZone: TimeZone) -> Date {
        // The offset at the wall-clock time read as UTC is right except within hours of a
        // change; asking again at the instant it gives settles those.
        let guess = wallClock - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wallClock)))
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess)))
        return Date(timeIntervalSince1970: TimeInterval(wallClock - offset))
    }
}

/// ISO 8601 in UTC with whole seconds (`2026-10-25T20:30:00Z`), the one time format of snapshots.
package enum ISOTime {
    package static func format(_ date: Date) -> String {
        let c = CivilTime.components(epochSeconds: Int(date.timeIntervalSince1970.rounded(.down)))
        var out = [UInt8]()
        out.reserveCapacity(20)
        appendDigits(c.year, 4, &out); out.append(0x2D)
        appendDigits(c.month, 2, &out); out.append(0x2D)
        appendDigits(c.day, 2, &out); out.append(0x54)
        appendDigits(c.hour, 2, &out); out.append(0x3A)
        appendDigits(c.minute, 2, &out); out.append(0x3A)
        appendDigits(c.second, 2, &out); out.append(0x5A)
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS` followed by `Z` or `±HH:MM`; fractions of a second are ignored.
    /// Every field must be in RFC 3339's range: a day of its month, seconds up to 59, offsets up to
    /// 23:59. Out-of-range values are refused rather than carried over (`02-31` is not 3 March).
    package static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x20,
              b[13] == 0x3A, b[16] == 0x3A,
              let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
              let hour = number(b, 11, 2), let minute = number(b, 14, 2), let second = number(b, 17, 2),
              (1...12).contains(month), (1...CivilTime.days(inMonth: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var i = 19
        if i < b.count, b[i] == 0x2E {
            i += 1
            while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
        }
        var offset = 0
        if i < b.count {
            if b[i] == 0x5A, i + 1 == b.count {
                offset = 0
            } else if (b[i] == 0x2B || b[i] == 0x2D), b.count == i + 6, b[i + 3] == 0x3A,
                      let oh = number(b, i + 1, 2), let om = number(b, i + 4, 2), oh < 24, om < 60 {
                offset = (oh * 3_600 + om * 60) * (b[i] == 0x2D ? -1 : 1)
            } else {
                return nil
            }
        }
        let seconds = CivilTime.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second) - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    static func number(_ b: [UInt8], _ from: Int, _ count: Int) -> Int? {
        var value = 0
        for i in from..<(from + count) {
            let d = Int(b[i]) - 0x30
            guard d >= 0, d <= 9 else { return nil }
            value = value * 10 + d
        }
        return value
    }

    @inline(__always)
    static func appendDigits(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var v = value
        while divisor > 0 {
            out.append(UInt8(0x30 + (v / divisor) % 10))
            v %= divisor
            divisor /= 10
        }
    }
}

/// `20261025T203000Z`: the time part of programme ids, safe in URLs and file names.
package enum CompactTime {
    package static func format(_ date: Date) -> String {
        let c = CivilTime.components(epochSeconds: Int(date.timeIntervalSince1970.rounded(.down)))
        var out = [UInt8]()
        out.reserveCapacity(16)
        ISOTime.appendDigits(c.year, 4, &out)
        ISOTime.appendDigits(c.month, 2, &out)
        ISOTime.appendDigits(c.day, 2, &out)
        out.append(0x54)
        ISOTime.appendDigits(c.hour, 2, &out)
        ISOTime.appendDigits(c.minute, 2, &out)
        ISOTime.appendDigits(c.second, 2, &out)
        out.append(0x5A)
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads what `format` writes (`20261025T203000Z`), to the second.
    package static func parse(_ text: Substring) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 16, b[8] == 0x54, b[15] == 0x5A,
              let year = ISOTime.number(b, 0, 4), let month = ISOTime.number(b, 4, 2), let day = ISOTime.number(b, 6, 2),
              let hour = ISOTime.number(b, 9, 2), let minute = ISOTime.number(b, 11, 2), let second = ISOTime.number(b, 13, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(CivilTime.epochSeconds(year: year, month: month, day: day,
                                                                               hour: hour, minute: minute, second: second)))
    }
}
