import Foundation
import GuideCore

/// How a site writes `start` and `stop` (`time_format` in a recipe).
package enum SiteTimeFormat: Sendable, Hashable, CustomStringConvertible {
    /// `2026-10-25T21:30:00+01:00`, `Z`, `+0100`, a space for `T`, no seconds, fractions; without
    /// an offset, wall-clock time in the recipe's zone.
    case iso8601
    /// Seconds since 1970, a number or a numeric string.
    case unix
    /// Milliseconds since 1970.
    case unixMilliseconds
    /// A pattern: `yyyy-MM-dd HH:mm:ss`, `dd/MM/yyyy H.mm`, `HH:mm`, `h:mm a`, with `Z` for an
    /// offset. Without a day (`HH:mm`), times are on the page's day, in airing order.
    case pattern(SiteTimePattern)

    package init(_ text: String) throws(SiteTimePatternError) {
        switch text {
        case "iso8601": self = .iso8601
        case "unix": self = .unix
        case "unix_ms": self = .unixMilliseconds
        default: self = .pattern(try SiteTimePattern(text))
        }
    }

    package var description: String {
        switch self {
        case .iso8601: "iso8601"
        case .unix: "unix"
        case .unixMilliseconds: "unix_ms"
        case .pattern(let pattern): pattern.text
        }
    }
}

/// A date-time pattern. Letters: `yyyy` `yy` year, `MM` `M` month, `dd` `d` day, `HH` `H` hour
/// (0–23; 24–47 mean the next day), `hh` `h` hour with `a` (AM/PM), `mm` `m` minutes, `ss` `s`
/// seconds, `Z` an offset (`Z`, `+01:00`, `+0100`, `+01`). A number field reads one digit or up
/// to its letters' count (`HH` reads `6` and `06`); a space matches any run of spaces; `:` and
/// `.` match each other; anything else is a literal that must be there.
package struct SiteTimePattern: Sendable, Hashable {
    enum Piece: Sendable, Hashable {
        case year4, year2, month, day, hour24, hour12, minute, second, ampm, offset
        case space
        case literal(Unicode.Scalar)
    }

    package let text: String
    let pieces: [Piece]

    package init(_ text: String) throws(SiteTimePatternError) {
        self.text = text
        let characters = Array(text)
        var pieces: [Piece] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            var end = index + 1
            while end < characters.count, characters[end] == character { end += 1 }
            let run = String(characters[index..<end])
            switch run {
            case "yyyy": pieces.append(.year4)
            case "yy": pieces.append(.year2)
            case "MM", "M": pieces.append(.month)
            case "dd", "d": pieces.append(.day)
            case "HH", "H": pieces.append(.hour24)
            case "hh", "h": pieces.append(.hour12)
            case "mm", "m": pieces.append(.minute)
            case "ss", "s": pieces.append(.second)
            case "a": pieces.append(.ampm)
            case "Z": pieces.append(.offset)
            default:
                if character.isLetter { throw SiteTimePatternError(pattern: text, run: run, position: index + 1) }
                for literal in run.unicodeScalars { pieces.append(literal == " " ? .space : .literal(literal)) }
            }
            index = end
        }
        guard pieces.contains(.hour24) || pieces.contains(.hour12) else {
            throw SiteTimePatternError(pattern: text, run: "", position: 0)
        }
        self.pieces = pieces
        hasDay = pieces.contains(.day)
    }

    /// True when the pattern names the day (else the page's day is meant).
    package let hasDay: Bool

    struct Reading {
        var year: Int?
        var month: Int?
        var day: Int?
        var secondOfDay: Int
        var offset: Int?
    }

    /// Reads scalars, not characters: every piece is ASCII or whitespace, and times are read
    /// once per programme, where Unicode's character breaking would cost more than the rest.
    func read(_ text: String) -> Reading? {
        var scalars = Array(text.unicodeScalars)
        while let last = scalars.last, SiteProgrammeReader.isTrimmed(last) { scalars.removeLast() }
        var index = 0
        while index < scalars.count, SiteProgrammeReader.isTrimmed(scalars[index]) { index += 1 }
        var year: Int?, month: Int?, day: Int?, hour = 0, minute = 0, second = 0, pm: Bool?, offset: Int?
        func number(_ maxDigits: Int) -> Int? {
            var value = 0
            var count = 0
            while index < scalars.count, count < maxDigits, let digit = Self.digit(scalars[index]) {
                value = value * 10 + digit
                index += 1
                count += 1
            }
            return count > 0 ? value : nil
        }
        for piece in pieces {
            switch piece {
            case .year4: guard let value = number(4) else { return nil }; year = value
            case .year2: guard let value = number(2) else { return nil }; year = 2000 + value
            case .month: guard let value = number(2), (1...12).contains(value) else { return nil }; month = value
            case .day: guard let value = number(2), (1...31).contains(value) else { return nil }; day = value
            case .hour24: guard let value = number(2), value < 48 else { return nil }; hour = value
            case .hour12: guard let value = number(2), (1...12).contains(value) else { return nil }; hour = value
            case .minute: guard let value = number(2), value < 60 else { return nil }; minute = value
            case .second: guard let value = number(2), value < 61 else { return nil }; second = value
            case .ampm:
                while index < scalars.count, scalars[index] == " " { index += 1 }
                let word = String(String.UnicodeScalarView(scalars[index...].prefix(2))).lowercased()
                guard word == "am" || word == "pm" else { return nil }
                pm = word == "pm"
                index += 2
            case .offset:
                while index < scalars.count, scalars[index] == " " { index += 1 }
                guard index < scalars.count else { return nil }
                if scalars[index] == "Z" || scalars[index] == "z" {
                    offset = 0
                    index += 1
                    continue
                }
                guard scalars[index] == "+" || scalars[index] == "-" else { return nil }
                let sign = scalars[index] == "-" ? -1 : 1
                index += 1
                guard let hours = number(2) else { return nil }
                if index < scalars.count, scalars[index] == ":" { index += 1 }
                let minutes = number(2) ?? 0
                offset = sign * (hours * 3_600 + minutes * 60)
            case .space:
                guard index < scalars.count, SiteProgrammeReader.isWhitespace(scalars[index]) else { return nil }
                while index < scalars.count, SiteProgrammeReader.isWhitespace(scalars[index]) { index += 1 }
            case .literal(let literal):
                // Sites mix `12:00` and `12.00` on one page: either separator reads as the other.
                guard index < scalars.count,
                      scalars[index] == literal || (Self.isSeparator(literal) && Self.isSeparator(scalars[index]))
                else { return nil }
                index += 1
            }
        }
        // Trailing fractions of a second or text after the time are not part of the pattern.
        guard index == scalars.count || scalars[index].properties.numericType == nil else { return nil }
        if let pm {
            hour = hour % 12 + (pm ? 12 : 0)
        }
        return Reading(year: year, month: month, day: day, secondOfDay: hour * 3_600 + minute * 60 + second, offset: offset)
    }

    private static func digit(_ scalar: Unicode.Scalar) -> Int? {
        ("0"..."9").contains(scalar) ? Int(scalar.value) - 0x30 : nil
    }

    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == ":" || scalar == "."
    }
}

package struct SiteTimePatternError: Error, Sendable, Hashable, CustomStringConvertible {
    package var pattern: String
    package var run: String
    package var position: Int

    package var description: String {
        if run.isEmpty {
            return "time_format '\(pattern)' has no hour (H or h): use iso8601, unix, unix_ms or a pattern such as yyyy-MM-dd HH:mm"
        }
        return "time_format '\(pattern)': unknown letters '\(run)' at position \(position) (known: yyyy yy MM M dd d HH H hh h mm m ss s a Z)"
    }
}

/// The times of one answer's items, read in airing order for one page day. A pattern without a
/// day places each start at the first instant at or after the previous start at which the zone's
/// clock shows that time, so `23:30` then `00:15` crosses midnight.
struct SiteDayTimes {
    let format: SiteTimeFormat
    let zone: SiteZone
    let day: Day
    private var previousStart: Int?
    /// Days past the page's day that the listing has reached, so a long page keeps rolling over.
    private var carried = 0

    init(format: SiteTimeFormat, zone: TimeZone, day: Day) {
        self.format = format
        self.zone = SiteZone(zone)
        self.day = day
    }

    mutating func start(_ value: JSONValue) -> Date? {
        guard let (seconds, carry) = instant(value, notBefore: previousStart) else { return nil }
        previousStart = seconds
        carried = carry
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    func stop(_ value: JSONValue, after start: Date) -> Date? {
        let startSeconds = Int(start.timeIntervalSince1970)
        return instant(value, notBefore: startSeconds + 1).map { Date(timeIntervalSince1970: TimeInterval($0.seconds)) }
    }

    /// The instant and, for a time of day, how many days past the page's day it fell on.
    private func instant(_ value: JSONValue, notBefore floor: Int?) -> (seconds: Int, carry: Int)? {
        switch format {
        case .unix, .unixMilliseconds:
            let number: Double?
            switch value {
            case .number(let value): number = value
            case .string(let text): number = Double(text.trimmingCharacters(in: .whitespaces))
            default: number = nil
            }
            guard let number, number.isFinite, abs(number) < 1e16 else { return nil }
            return (Int((format == .unix ? number : number / 1_000).rounded(.down)), carried)
        case .iso8601:
            guard let text = value.string else { return nil }
            return zone.iso8601(text).map { (Int($0.timeIntervalSince1970), carried) }
        case .pattern(let pattern):
            guard let text = value.string, let reading = pattern.read(text) else { return nil }
            if pattern.hasDay {
                let on = Day(year: reading.year ?? day.year, month: reading.month ?? day.month, day: reading.day ?? day.day)
                if let offset = reading.offset {
                    return (CivilTime.epochSeconds(year: on.year, month: on.month, day: on.day) + reading.secondOfDay - offset, carried)
                }
                let extra = reading.secondOfDay / 86_400
                return zone.instants(on: on.adding(days: extra), second: reading.secondOfDay % 86_400).first.map { ($0, carried) }
            }
            // From the day the listing has reached: the same day, or once the clock went back, the next.
            for carry in carried..<(carried + 3) {
                let on = day.adding(days: carry + reading.secondOfDay / 86_400)
                let candidates = zone.instants(on: on, second: reading.secondOfDay % 86_400)
                if let chosen = candidates.first(where: { $0 >= floor ?? Int.min }) { return (chosen, carry) }
            }
            return nil
        }
    }
}
