import Foundation
import GuideCore

/// XMLTV times (`20261025023000 +0200`) parsed and written by hand on `CivilTime`: a
/// `DateFormatter` per time is far too slow for 50,000 programmes, and the offset written in the
/// file, not a time-zone database, is what says which of a DST night's two 02:30s is meant.
package enum XMLTVTime {
    /// Parses `YYYYMMDDhhmmss ±hhmm`. Any trailing units may be left off (a day counts as its first
    /// second, a month as its first day); the offset may be left off (UTC), written `±hh:mm` or
    /// `±hh`, or be a zone name the xmltv tools know (`BST`, `CET`, `EST`, `UTC`…, `zoneOffsets`).
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// Seconds since 1970 of an XMLTV time held as UTF-8 bytes (an attribute value straight
    /// from the parser, without making a `String`).
    package static func epochSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        let digitsStart = i
        while i < n, bytes[i] &- 0x30 < 10 { i += 1 }
        let digitCount = i - digitsStart
        // The DTD lets a time stop at any unit: 2000, 200007, 20000728, 2000072817…
        guard digitCount >= 4, digitCount <= 14, digitCount % 2 == 0 else { return nil }

        func number(_ at: Int, _ width: Int) -> Int {
            var value = 0
            for k in (digitsStart + at)..<(digitsStart + at + width) { value = value * 10 + Int(bytes[k] &- 0x30) }
            return value
        }
        let year = number(0, 4)
        let month = digitCount >= 6 ? number(4, 2) : 1
        let day = digitCount >= 8 ? number(6, 2) : 1
        let hour = digitCount >= 10 ? number(8, 2) : 0
        let minute = digitCount >= 12 ? number(10, 2) : 0
        let second = digitCount >= 14 ? number(12, 2) : 0
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second <= 60 else { return nil }

        while i < n, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        var end = n
        while end > i, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        guard let offset = offsetSeconds(bytes, from: i, to: end) else { return nil }
        return CivilTime.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second) - offset
    }

    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        epochSeconds(bytes).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// `20261025003000 +0000`: always UTC, always with seconds.
    package static func format(_ date: Date) -> String {
        var out = [UInt8]()
        out.reserveCapacity(20)
        append(date, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static let utcSuffix: [UInt8] = Array(" +0000".utf8)

    static func append(_ date: Date, to out: inout [UInt8]) {
        let c = CivilTime.components(epochSeconds: Int(date.timeIntervalSince1970.rounded(.down)))
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(0x30 + (value / divisor) % 10))
                divisor /= 10
            }
        }
        digits(c.year, 4); digits(c.month, 2); digits(c.day, 2)
        digits(c.hour, 2); digits(c.minute, 2); digits(c.second, 2)
        out.append(contentsOf: utcSuffix)
    }

    /// The zone part, from `from` to `to`: nothing (UTC), `±hhmm`, `±hh:mm`, `±hh`, `UTC`, `GMT`, `Z`.
    private static func offsetSeconds(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        let count = to - from
        if count == 0 { return 0 }
        let sign = b[from]
        guard sign == 0x2B || sign == 0x2D else {
            let name = String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self)
            return zoneOffsets[name.uppercased()]
        }
        func digit(_ k: Int) -> Int? {
            let d = b[k] &- 0x30
            return d < 10 ? Int(d) : nil
        }
        let minutesAt: Int?
        switch count {
        case 3: minutesAt = nil
        case 5: minutesAt = from + 3
        case 6 where b[from + 3] == 0x3A: minutesAt = from + 4
        default: return nil
        }
        guard let h1 = digit(from + 1), let h2 = digit(from + 2) else { return nil }
        var minutes = 0
        if let m = minutesAt {
            guard let m1 = digit(m), let m2 = digit(m + 1) else { return nil }
            minutes = m1 * 10 + m2
        }
        let hours = h1 * 10 + h2
        guard hours <= 14, minutes < 60 else { return nil }
        return (hours * 3_600 + minutes * 60) * (sign == 0x2D ? -1 : 1)
    }

    /// Zone abbreviations as the xmltv tools read them (Date::Manip), seconds east of UTC: the
    /// DTD's own example is `200007281733 BST`. Each has one offset whatever the date, where
    /// Date::Manip 6 refuses a summer abbreviation in winter (BST in January) and reads CST and
    /// PST in July as China's and the Philippines' (docs/configuration.md, "xmltv").
    static let zoneOffsets: [String: Int] = {
        let hours: [String: Double] = [
            "UTC": 0, "UT": 0, "GMT": 0, "Z": 0, "WET": 0, "WEST": 1, "BST": 1, "IST": 5.5,
            "CET": 1, "CEST": 2, "MET": 1, "MEST": 2, "MEZ": 1, "MESZ": 2, "EET": 2, "EEST": 3, "MSK": 3,
            "AST": -4, "ADT": -3, "NST": -3.5, "NDT": -2.5, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
            "MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "AKST": -9, "AKDT": -8, "HST": -10,
            "AWST": 8, "ACST": 9.5, "ACDT": 10.5, "AEST": 10, "AEDT": 11, "JST": 9, "KST": 9, "NZST": 12, "NZDT": 13,
        ]
        return hours.mapValues { Int($0 * 3_600) }
    }()

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
