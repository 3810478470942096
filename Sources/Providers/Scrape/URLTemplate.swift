import Foundation
import GuideCore

/// A URL with placeholders, as recipes in providers.yaml write it:
/// `https://www.formulatv.com/audiencias/{date:dd-MM-yyyy}/` or
/// `http://127.0.0.1:8080/guide/{channel}/{date:yyyy-MM-dd}.json`.
///
/// - `{date:FORMAT}`: the day asked, written with `yyyy` (2026), `yy` (26), `MM` (03), `M` (3),
///   `dd` (07), `d` (7); any other character that is not a letter is a literal separator
///   (`{date:yyyy/MM/dd}` gives path segments). Several date placeholders may appear.
/// - `{channel}`: the provider's own channel id, escaped strictly as one path segment (every
///   byte but `A–Z a–z 0–9 - . _ ~`, so `/`, `+` and spaces too), as `QueryEncoding.escape` does.
///
/// Everything else is copied as written. The template is checked once, when it is made: a bad
/// placeholder is a `URLTemplateError` naming it and its position, never a failure at fetch time.
/// Filling it in is plain string building, with no `DateFormatter` involved.
public struct URLTemplate: Sendable, Hashable, CustomStringConvertible {
    enum Part: Sendable, Hashable {
        case literal(String)
        case channel
        case date([DatePart])
    }

    enum DatePart: Sendable, Hashable {
        case literal(String)
        case year4, year2, month2, month1, day2, day1
    }

    /// The template as written.
    public let description: String
    let parts: [Part]

    /// Parses `text`; throws a `URLTemplateError` for an unknown placeholder or date pattern, a
    /// brace without its partner, or a text that does not make an http(s) URL.
    public init(_ text: String) throws {
        description = text
        parts = try Self.parse(text)
        // One sample is enough: the placeholders only ever produce unreserved characters and the
        // literal separators, so a valid sample means every filled-in URL is valid.
        let sample = Self.render(parts, day: Day(year: 2026, month: 10, day: 25), channel: "channel")
        guard let url = URL(string: sample), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { throw URLTemplateError.notAURL(text) }
    }

    /// True when the template has a `{channel}` placeholder.
    public var usesChannel: Bool {
        parts.contains(.channel)
    }

    /// True when the template has at least one `{date:…}` placeholder, so each day has its own URL.
    public var usesDate: Bool {
        parts.contains { if case .date = $0 { true } else { false } }
    }

    /// The URL for `day` and `channel`; nil when the template has `{channel}` and `channel` is nil.
    public func url(day: Day, channel: String?) -> URL? {
        if usesChannel && channel == nil { return nil }
        return URL(string: Self.render(parts, day: day, channel: channel ?? ""))
    }

    static func render(_ parts: [Part], day: Day, channel: String) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .channel: out += QueryEncoding.escape(channel)
            case .date(let pattern):
                for piece in pattern {
                    switch piece {
                    case .literal(let text): out += text
                    case .year4: out += padded(day.year, 4)
                    case .year2: out += padded(((day.year % 100) + 100) % 100, 2)
                    case .month2: out += padded(day.month, 2)
                    case .month1: out += String(day.month)
                    case .day2: out += padded(day.day, 2)
                    case .day1: out += String(day.day)
                    }
                }
            }
        }
        return out
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func parse(_ text: String) throws(URLTemplateError) -> [Part] {
        let characters = Array(text)
        var parts: [Part] = []
        var literal = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "}" { throw .strayClosingBrace(position: index + 1) }
            guard character == "{" else {
                literal.append(character)
                index += 1
                continue
            }
            // A `{` before the closing `}` means this one was never closed.
            guard let close = characters[(index + 1)...].firstIndex(where: { $0 == "}" || $0 == "{" }),
                  characters[close] == "}"
            else { throw .unclosedBrace(position: index + 1) }
            if !literal.isEmpty {
                parts.append(.literal(literal))
                literal = ""
            }
            let name = String(characters[(index + 1)..<close])
            if name == "channel" {
                parts.append(.channel)
            } else if name == "date" || name == "date:" {
                throw .missingDateFormat(position: index + 1)
            } else if name.hasPrefix("date:") {
                // The format starts after `{date:`, 6 characters after the brace.
                parts.append(.date(try parseDate(Array(name.dropFirst(5)), startingAt: index + 7)))
            } else {
                throw .unknownPlaceholder(name: name, position: index + 1)
            }
            index = close + 1
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    /// - Parameter position: the 1-based position of `format[0]` in the whole template.
    private static func parseDate(_ format: [Character], startingAt position: Int) throws(URLTemplateError) -> [DatePart] {
        var pieces: [DatePart] = []
        var index = 0
        while index < format.count {
            let character = format[index]
            guard character.isLetter else {
                if case .literal(let text)? = pieces.last {
                    pieces[pieces.count - 1] = .literal(text + String(character))
                } else {
                    pieces.append(.literal(String(character)))
                }
                index += 1
                continue
            }
            var end = index + 1
            while end < format.count, format[end] == character { end += 1 }
            let run = String(format[index..<end])
            switch run {
            case "yyyy": pieces.append(.year4)
            case "yy": pieces.append(.year2)
            case "MM": pieces.append(.month2)
            case "M": pieces.append(.month1)
            case "dd": pieces.append(.day2)
            case "d": pieces.append(.day1)
            default: throw .unknownDatePattern(pattern: run, position: position + index)
            }
            index = end
        }
        return pieces
    }
}

/// Why a URL template was refused. Positions count characters from 1.
public enum URLTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `{name}` is neither `{channel}` nor `{date:FORMAT}`; `position` is that of its `{`.
    case unknownPlaceholder(name: String, position: Int)
    /// A run of letters in a date format that is not `yyyy`, `yy`, `MM`, `M`, `dd` or `d`
    /// (`MMM`, `HH`, `Y`); `position` is that of its first letter.
    case unknownDatePattern(pattern: String, position: Int)
    /// `{date}` or `{date:}` without a format.
    case missingDateFormat(position: Int)
    /// A `{` with no `}` before the next `{` or the end.
    case unclosedBrace(position: Int)
    /// A `}` that closes nothing.
    case strayClosingBrace(position: Int)
    /// The template, filled in, is not an http(s) URL with a host.
    case notAURL(String)

    public var description: String {
        switch self {
        case .unknownPlaceholder(let name, let position):
            "unknown placeholder {\(name)} at position \(position) (known: {channel}, {date:FORMAT})"
        case .unknownDatePattern(let pattern, let position):
            "unknown date pattern '\(pattern)' at position \(position) (known: yyyy, yy, MM, M, dd, d)"
        case .missingDateFormat(let position):
            "{date} at position \(position) needs a format, as in {date:yyyy-MM-dd}"
        case .unclosedBrace(let position):
            "the { at position \(position) is not closed"
        case .strayClosingBrace(let position):
            "the } at position \(position) closes no placeholder"
        case .notAURL(let text):
            "'\(text)' does not make an http(s) URL with a host"
        }
    }
}
