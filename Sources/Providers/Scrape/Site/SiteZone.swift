import Foundation
import GuideCore

/// Wall-clock time in one time zone, turned into instants without `Calendar` or `DateFormatter`:
/// civil arithmetic from `CivilTime` and the zone's UTC offsets.
struct SiteZone: Sendable {
    let zone: TimeZone

    init(_ zone: TimeZone) {
        self.zone = zone
    }

    /// Seconds since 1970 of every instant at which this zone's clock reads `second` seconds into
    /// `day`, earliest first: one as a rule, two in the hour repeated when summer time ends. A time
    /// skipped when summer time starts (02:30 on the last Sunday of March in Madrid) has none; it
    /// is read with the offset in force before the jump, which lands as far after the jump as it
    /// was written after the skipped hour began (02:30 → 03:30 CEST), as most guides mean it.
    func instants(on day: Day, second: Int) -> [Int] {
        let wall = CivilTime.epochSeconds(year: day.year, month: day.month, day: day.day) + second
        let before = offset(at: wall - 86_400)
        let after = offset(at: wall + 86_400)
        let candidates = Set([before, after]).map { wall - $0 }.filter { offset(at: $0) == wall - $0 }.sorted()
        return candidates.isEmpty ? [wall - before] : candidates
    }

    private func offset(at seconds: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// `YYYY-MM-DD` `T`|`t`|space `HH:MM[:SS[.fraction]]` then `Z`, `±HH:MM`, `±HHMM`, `±HH` or
    /// nothing (wall-clock time in this zone). Fractions of a second are dropped.
    func iso8601(_ text: String) -> Date? {
        let b = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 16, b[4] == 0x2D, b[7] == 0x2D, [0x54, 0x74, 0x20].contains(b[10]), b[13] == 0x3A,
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60
        else { return nil }
        var i = 16
        var second = 0
        if i < b.count, b[i] == 0x3A {
            guard let value = digits(i + 1, 2), value < 61 else { return nil }
            second = value
            i += 3
            if i < b.count, b[i] == 0x2E || b[i] == 0x2C {
                i += 1
                let fractionStart = i
                while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
                guard i > fractionStart else { return nil }
            }
        }
        let wall = CivilTime.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        if i == b.count {
            let local = Day(year: year, month: month, day: day)
            return Date(timeIntervalSince1970: TimeInterval(instants(on: local, second: hour * 3_600 + minute * 60 + second)[0]))
        }
        if (b[i] == 0x5A || b[i] == 0x7A), i + 1 == b.count {
            return Date(timeIntervalSince1970: TimeInterval(wall))
        }
        guard b[i] == 0x2B || b[i] == 0x2D, let offsetHours = digits(i + 1, 2) else { return nil }
        var offsetMinutes = 0
        switch b.count - (i + 3) {
        case 0: break
        case 2: guard let minutes = digits(i + 3, 2) else { return nil }; offsetMinutes = minutes
        case 3: guard b[i + 3] == 0x3A, let minutes = digits(i + 4, 2) else { return nil }; offsetMinutes = minutes
        default: return nil
        }
        guard offsetHours < 24, offsetMinutes < 60 else { return nil }
        let offset = (offsetHours * 3_600 + offsetMinutes * 60) * (b[i] == 0x2D ? -1 : 1)
        return Date(timeIntervalSince1970: TimeInterval(wall - offset))
    }
}
