import Foundation
import GuideCore

/// Wall-clock time in one time zone, turned into instants without `Calendar` or `DateFormatter`:
/// civil arithmetic from `CivilTime` and the zone's UTC offsets.
struct FeedZone: Sendable {
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
}

/// A wall-clock pattern such as `HH:mm`: `H` hours, `m` minutes, `s` seconds (one letter: one or
/// two digits; two letters: two digits, except that `HH` also reads `6:05`), anything else a
/// literal that must be there.
struct FeedClockPattern: Sendable, Hashable {
    enum Piece: Sendable, Hashable {
        case literal(Character)
        /// `exact`: exactly two digits.
        case hour(exact: Bool), minute(exact: Bool), second(exact: Bool)
    }

    let pieces: [Piece]

    init(_ text: String) throws(FeedSyntaxError) {
        let characters = Array(text)
        var pieces: [Piece] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character.isLetter else {
                pieces.append(.literal(character))
                index += 1
                continue
            }
            var end = index + 1
            while end < characters.count, characters[end] == character { end += 1 }
            let length = end - index
            guard "Hms".contains(character) else {
                throw FeedSyntaxError(reason: "unknown letter '\(character)' (H hours, m minutes, s seconds)")
            }
            guard length <= 2 else { throw FeedSyntaxError(reason: "'\(String(characters[index..<end]))' has too many letters") }
            let nextIsNumber = end < characters.count && "Hms".contains(characters[end])
            // `mm` and `ss` always take two digits; `HH` takes one as well (`6:05`) unless a
            // number follows without a separator (`HHmm`).
            let exact = length == 2 && (character != "H" || nextIsNumber)
            pieces.append(character == "H" ? .hour(exact: exact) : character == "m" ? .minute(exact: exact) : .second(exact: exact))
            index = end
        }
        for (letter, isPiece) in [("H", Self.isHour), ("m", Self.isMinute)] where pieces.filter(isPiece).count != 1 {
            throw FeedSyntaxError(reason: "it needs '\(letter)' exactly once")
        }
        if pieces.filter(Self.isSecond).count > 1 { throw FeedSyntaxError(reason: "it has 's' more than once") }
        self.pieces = pieces
    }

    private static func isHour(_ piece: Piece) -> Bool { if case .hour = piece { true } else { false } }
    private static func isMinute(_ piece: Piece) -> Bool { if case .minute = piece { true } else { false } }
    private static func isSecond(_ piece: Piece) -> Bool { if case .second = piece { true } else { false } }

    /// Seconds after midnight of `text` (surrounding spaces ignored); hours 24–47 give the next
    /// day's times (more than 86,400). Nil when `text` does not follow the pattern.
    func secondsAfterMidnight(_ text: String) -> Int? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var position = 0
        var hour = 0, minute = 0, second = 0
        func number(exact: Bool) -> Int? {
            var value = 0, digits = 0
            while digits < 2, position < bytes.count, (0x30...0x39).contains(bytes[position]) {
                value = value * 10 + Int(bytes[position] - 0x30)
                position += 1
                digits += 1
            }
            return digits == 0 || (exact && digits != 2) ? nil : value
        }
        for piece in pieces {
            switch piece {
            case .literal(let character):
                for byte in character.utf8 {
                    guard position < bytes.count, bytes[position] == byte else { return nil }
                    position += 1
                }
            case .hour(let exact):
                guard let value = number(exact: exact), value < 48 else { return nil }
                hour = value
            case .minute(let exact):
                guard let value = number(exact: exact), value < 60 else { return nil }
                minute = value
            case .second(let exact):
                guard let value = number(exact: exact), value < 61 else { return nil }
                second = value
            }
        }
        guard position == bytes.count else { return nil }
        return hour * 3_600 + minute * 60 + second
    }
}

/// Reads the times of a recipe's `time_format`.
struct FeedTimeParser: Sendable {
    enum Format: Sendable {
        case iso8601, unix
        case clock(FeedClockPattern)
    }

    let format: Format
    let zone: FeedZone

    /// Starts reading one response's items, in order, for `day` (the URL's day; nil when the
    /// URL has none, which only absolute formats allow).
    func page(day: Day?) -> FeedPageTimes {
        FeedPageTimes(parser: self, day: day)
    }

    /// An absolute time (`iso8601`, `unix`); nil for clock formats, which need a day.
    func absolute(_ value: FeedJSON) -> Date? {
        switch format {
        case .iso8601:
            guard case .string(let text) = value else { return nil }
            return iso8601(text)
        case .unix:
            let seconds: Double?
            switch value {
            case .number(let number): seconds = number
            case .string(let text): seconds = Double(text.trimmingCharacters(in: .whitespaces))
            default: seconds = nil
            }
            guard let seconds, seconds.isFinite else { return nil }
            return Date(timeIntervalSince1970: seconds.rounded(.down))
        case .clock:
            return nil
        }
    }

    /// `YYYY-MM-DD` `T`|`t`|space `HH:MM[:SS[.fraction]]` then `Z`, `±HH:MM`, `±HHMM`, `±HH` or
    /// nothing (wall-clock time in the zone). Fractions of a second are dropped.
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
            let instants = zone.instants(on: local, second: hour * 3_600 + minute * 60 + second)
            return Date(timeIntervalSince1970: TimeInterval(instants[0]))
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

/// The times of one response's items, read in order. Clock times need the order: each start is
/// the first instant at or after the previous start at which the zone's clock shows that time,
/// on the page's day or, once the clock has gone back, the day after (so `23:30` then `00:15`
/// crosses midnight, and in the hour repeated when summer time ends `02:45` then `02:15` is the
/// second `02:15`).
struct FeedPageTimes {
    let parser: FeedTimeParser
    let day: Day?
    /// Days the listing has moved past the page's day.
    private var carry = 0
    private var previousStart: Int?
    private var previousStartDay: Day?

    init(parser: FeedTimeParser, day: Day?) {
        self.parser = parser
        self.day = day
    }

    /// The next item's start; nil when `value` is not a time in the recipe's format.
    mutating func start(_ value: FeedJSON) -> Date? {
        guard case .clock(let pattern) = parser.format else { return parser.absolute(value) }
        guard let day, let text = value.text, let seconds = pattern.secondsAfterMidnight(text) else { return nil }
        // A time earlier than the previous start is the next day's; one move is enough unless the
        // previous start was itself written past midnight (`25:30`).
        for _ in 0..<3 {
            let onDay = day.adding(days: carry + seconds / 86_400)
            let candidates = parser.zone.instants(on: onDay, second: seconds % 86_400)
            if let chosen = candidates.first(where: { $0 >= previousStart ?? Int.min }) {
                previousStart = chosen
                previousStartDay = onDay
                return Date(timeIntervalSince1970: TimeInterval(chosen))
            }
            carry += 1
        }
        return nil
    }

    /// The stop of the item whose start was just read: for clock times, the first instant after
    /// `start` at which the clock shows `value`, on the start's day or the next.
    func stop(_ value: FeedJSON, after start: Date) -> Date? {
        guard case .clock(let pattern) = parser.format else {
            return parser.absolute(value).flatMap { $0 > start ? $0 : nil }
        }
        guard let startDay = previousStartDay, let text = value.text, let seconds = pattern.secondsAfterMidnight(text) else { return nil }
        let startSeconds = Int(start.timeIntervalSince1970)
        for extra in 0..<2 {
            let onDay = startDay.adding(days: extra + seconds / 86_400)
            if let chosen = parser.zone.instants(on: onDay, second: seconds % 86_400).first(where: { $0 > startSeconds }) {
                return Date(timeIntervalSince1970: TimeInterval(chosen))
            }
        }
        return nil
    }
}
