import Foundation

/// How a field's text becomes a value (`parse:` in a recipe). Every parser works on the text with
/// its whitespace already collapsed, and fails (nil) rather than guess.
package enum ValueParser: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Any non-empty text, as it is.
    case text
    /// Digits, optionally grouped by thousands with `.` or a space (`1.234`), optionally followed
    /// by an ordinal mark as ranks are written (`1º`, `1ª`, `1.`).
    case integer
    /// A Spanish number: `.` groups thousands and `,` is the decimal mark (`1.234.000`,
    /// `1.234,5`); a single `.` not followed by exactly three digits is a decimal point (`2.1 M`).
    /// A multiplier may follow: `M`, `mill.`, `millones`, `millón` (×1,000,000), `mil`, `k` (×1,000).
    case number
    /// A percentage with either decimal mark and an optional `%`: `12,5%`, `12.5 %`, `12,5`.
    case percent
    /// A time of day as minutes after midnight: `22:45`, `22.45`, `22h45`, optionally followed by
    /// `h`. Hours up to 47: `25:30` is 1:30 the next day (1,530 minutes), as broadcasters write it.
    case time

    package var description: String { rawValue }

    /// Parses `text` (whitespace is collapsed first, as extraction does).
    package func parse(_ text: String) -> ScrapedValue? {
        var collapsed = CollapsedText()
        collapsed.append(text)
        return collapsed.bytes.withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// Parses collapsed UTF-8 text.
    func parse(bytes: UnsafeBufferPointer<UInt8>) -> ScrapedValue? {
        switch self {
        case .text: bytes.isEmpty ? nil : .text(String(decoding: bytes, as: UTF8.self))
        case .integer: NumberText.integer(bytes).map(ScrapedValue.integer)
        case .number: NumberText.number(bytes).map(ScrapedValue.number)
        case .percent: NumberText.percent(bytes).map(ScrapedValue.percent)
        case .time: NumberText.minutes(bytes).map(ScrapedValue.time(minutes:))
        }
    }

    /// What a value failing this parser is not, for messages: `'—' is not a number`.
    var expectation: String {
        switch self {
        case .text: "text"
        case .integer: "an integer"
        case .number: "a number"
        case .percent: "a percentage"
        case .time: "a time"
        }
    }
}

/// A parsed field value.
package enum ScrapedValue: Sendable, Hashable {
    case text(String)
    case integer(Int)
    case number(Double)
    /// In percent: `12,5%` is 12.5.
    case percent(Double)
    /// Minutes after midnight of the page's day; 1,440 or more is the next day.
    case time(minutes: Int)
}

/// Byte-level parsers for `ValueParser`, allocation-free on the way to a value.
enum NumberText {
    /// The digits of a number and where its decimal mark is, after its grouping was checked.
    private struct Mantissa {
        var whole = 0
        var fraction = 0
        var fractionDigits = 0
        /// The index after the mantissa.
        var end = 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Reads digits separated by single `.`, `,` or spaces from the start of `bytes` and decides
    /// which separator is the decimal mark; nil when the grouping is inconsistent (`1.23.4`,
    /// `1,234,567`, `12 34`) or there are more than 18 digits.
    private static func mantissa(_ bytes: UnsafeBufferPointer<UInt8>, allowDecimal: Bool) -> Mantissa? {
        guard let first = bytes.first, isDigit(first) else { return nil }
        // One pass to find the groups: lengths of digit runs and the separator before each.
        var i = 0
        var firstGroup = 0
        var separators = 0
        var commas = 0, dots = 0, spaces = 0
        var lastSeparator: UInt8 = 0
        var lastSeparatorIndex = -1
        var innerGroupsOfThree = true   // every group after the first except the last
        var lastGroup = 0
        var groupLength = 0
        while i < bytes.count {
            let byte = bytes[i]
            if isDigit(byte) {
                groupLength += 1
                i += 1
                continue
            }
            let isSeparator = byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") || byte == 0x20
            guard isSeparator, i + 1 < bytes.count, isDigit(bytes[i + 1]) else { break }
            if separators == 0 { firstGroup = groupLength } else if groupLength != 3 { innerGroupsOfThree = false }
            separators += 1
            switch byte {
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: ","): commas += 1
            default: spaces += 1
            }
            lastSeparator = byte
            lastSeparatorIndex = i
            groupLength = 0
            i += 1
        }
        if separators == 0 { firstGroup = groupLength } else { lastGroup = groupLength }
        let end = i

        // Which separator, if any, is the decimal mark.
        var decimalIndex = -1
        if separators > 0 {
            let groupingKinds = (dots > 0 ? 1 : 0) + (spaces > 0 ? 1 : 0)
            if commas == 1, lastSeparator == UInt8(ascii: ",") {
                // `1.234,5`: the comma is decimal; what comes before must group by thousands.
                guard groupingKinds <= 1, separators == 1 || (firstGroup <= 3 && innerGroupsOfThree) else { return nil }
                decimalIndex = lastSeparatorIndex
            } else if commas == 0, groupingKinds == 1, firstGroup <= 3, innerGroupsOfThree, lastGroup == 3 {
                decimalIndex = -1   // `1.234.000`, `1 234`: thousands only
            } else if commas == 0, dots == 1, spaces == 0 {
                decimalIndex = lastSeparatorIndex   // `2.1`, `12.50`
            } else {
                return nil
            }
        }
        guard allowDecimal || decimalIndex < 0 else { return nil }

        var result = Mantissa(end: end)
        var digits = 0
        for index in 0..<end {
            let byte = bytes[index]
            guard isDigit(byte) else { continue }
            digits += 1
            guard digits <= 18 else { return nil }
            let digit = Int(byte &- 0x30)
            if decimalIndex >= 0, index > decimalIndex {
                result.fraction = result.fraction * 10 + digit
                result.fractionDigits += 1
            } else {
                result.whole = result.whole * 10 + digit
            }
        }
        return result
    }

    private static let powersOfTen: [Double] = (0...18).map { pow(10, Double($0)) }

    /// The bytes after `index`, skipping one space.
    private static func rest(_ bytes: UnsafeBufferPointer<UInt8>, after index: Int) -> UnsafeBufferPointer<UInt8> {
        var start = index
        if start < bytes.count, bytes[start] == 0x20 { start += 1 }
        return UnsafeBufferPointer(rebasing: bytes[start...])
    }

    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let m = mantissa(bytes, allowDecimal: true) else { return nil }
        guard let multiplier = multiplier(rest(bytes, after: m.end)) else { return nil }
        // Scaled integers keep `2,1 M` exactly 2,100,000 (2.1 × 1e6 would not be).
        let scaled = Double(m.whole) * powersOfTen[m.fractionDigits] + Double(m.fraction)
        return scaled * multiplier / powersOfTen[m.fractionDigits]
    }

    /// The multiplier a suffix names, 1 for none; nil for any other text.
    private static func multiplier(_ suffix: UnsafeBufferPointer<UInt8>) -> Double? {
        if suffix.isEmpty { return 1 }
        guard suffix.count <= 9 else { return nil }
        var lower = [UInt8]()
        lower.reserveCapacity(suffix.count)
        for byte in suffix { lower.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
        if let accent = lower.firstIndex(of: 0x93), accent > 0, lower[accent - 1] == 0xC3 { lower[accent] = 0xB3 }   // Ó → ó
        switch lower {
        case Array("m".utf8), Array("mill".utf8), Array("mill.".utf8), Array("millones".utf8),
             Array("millón".utf8), Array("millon".utf8):
            return 1_000_000
        case Array("mil".utf8), Array("k".utf8):
            return 1_000
        default:
            return nil
        }
    }

    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let m = mantissa(bytes, allowDecimal: false) else { return nil }
        let suffix = UnsafeBufferPointer(rebasing: bytes[m.end...])
        switch Array(suffix) {
        case [], [UInt8(ascii: ".")], [0xC2, 0xBA], [0xC2, 0xAA]:   // "", ".", º, ª
            return m.whole
        default:
            return nil
        }
    }

    static func percent(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        var whole = 0
        var fraction = 0
        var fractionDigits = 0
        while i < bytes.count, isDigit(bytes[i]), i < 9 {
            whole = whole * 10 + Int(bytes[i] &- 0x30)
            i += 1
        }
        guard i > 0 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: ",") || bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.count, isDigit(bytes[i]), fractionDigits < 9 {
                fraction = fraction * 10 + Int(bytes[i] &- 0x30)
                fractionDigits += 1
                i += 1
            }
            guard fractionDigits > 0 else { return nil }
        }
        let suffix = rest(bytes, after: i)
        guard suffix.isEmpty || (suffix.count == 1 && suffix[0] == UInt8(ascii: "%")) else { return nil }
        return (Double(whole) * powersOfTen[fractionDigits] + Double(fraction)) / powersOfTen[fractionDigits]
    }

    static func minutes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        var hours = 0
        while i < bytes.count, i < 2, isDigit(bytes[i]) {
            hours = hours * 10 + Int(bytes[i] &- 0x30)
            i += 1
        }
        guard i > 0, i + 3 <= bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "h"), UInt8(ascii: "H"): break
        default: return nil
        }
        guard isDigit(bytes[i + 1]), isDigit(bytes[i + 2]) else { return nil }
        let minutes = Int(bytes[i + 1] &- 0x30) * 10 + Int(bytes[i + 2] &- 0x30)
        let suffix = rest(bytes, after: i + 3)
        guard suffix.isEmpty || (suffix.count == 1 && (suffix[0] | 0x20) == UInt8(ascii: "h")) else { return nil }
        guard hours < 48, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }
}
