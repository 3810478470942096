import Foundation
import GuideCore

/// A URL, header or body of a site recipe with placeholders:
/// - `{channel}`: the channel's site id; `{channel.NAME}`: one part of a composite id, named
///   by the recipe's `channel_parts` (`Sydney#ABC1` with `[region, id]`: `{channel.region}`),
///   or else an attribute of the channel's entry in its channel list (`{channel.lang}`);
/// - `{date:FORMAT}`, `{date+N:FORMAT}`, `{date-N:FORMAT}`: the day asked (N days later or
///   earlier) in the recipe's time zone, written with `yyyy`, `yy`, `MM`, `M`, `dd`, `d`, `EEE`
///   (Mon), `EEEE` (Monday, or the recipe's `day_names`), `Z` (+0200), `ZZ` (+02:00) and literal
///   separators, or as `{date:unix}` / `{date:unix_ms}`, the day's first instant;
/// - `{page}`: one of the recipe's `pages`; `{key}`: the item's key (programme details);
///   `{steps.NAME}`: the value the recipe's step NAME gave (a token), `{steps.NAME.FIELD}` one
///   field of it when it gave an object; `{session}` and `{session.FIELD}` are the step named
///   `session`; `{days_ahead}`: days from the run's today to the day asked (0 today, 1
///   tomorrow), and `{day_word}` the recipe's `day_words` entry for it, for sites that name days
///   that way.
///
/// `{{` and `}}` write a literal brace (a JSON body: `{{"channel": "{channel}"}}`). In a URL
/// every value is percent-encoded as one path segment or query value, unless its placeholder
/// ends in `:raw` (`{channel:raw}`, `{channel.NAME:raw}`, `{key:raw}`: a value that is already
/// a path or a whole URL); in a header or a body it is written as is. The template's own text
/// and raw values keep every character a URL may hold, `%XX` included; only what no URL can
/// hold (a space, `[`, `|`, non-ASCII) is percent-encoded, since Foundation's `URL` and the
/// HTTP client cannot carry it. A template is checked when read, with the position of a fault.
package struct SiteTemplate: Sendable, Hashable, CustomStringConvertible {
    enum Part: Sendable, Hashable {
        case literal(String)
        /// The site id, or one named part of it; `raw`: written as it is, never percent-encoded.
        case channel(part: String?, raw: Bool)
        /// `{channel.NAME}` for a NAME that is not a part: the channel list's attribute.
        case channelAttribute(String, raw: Bool)
        case date(offset: Int, format: DateFormat)
        case page
        /// The item's key (programme details); `raw`: a path or a whole URL, written as it is.
        case key(raw: Bool)
        /// `{steps.NAME}` (`{session}`), or one field of its value (`{steps.NAME.FIELD}`);
        /// `raw`: a path or a URL part, written as it is.
        case step(String, field: String?, raw: Bool)
        /// `{days_ahead}`: days from the run's today to the day asked (0 today, 1 tomorrow).
        case daysAhead
        /// `{day_word}`: the recipe's `day_words` entry for `days_ahead`.
        case dayWord
    }

    enum DateFormat: Sendable, Hashable {
        case pattern([DatePiece])
        case unixSeconds, unixMilliseconds
    }

    enum DatePiece: Sendable, Hashable {
        case literal(String)
        case year4, year2, month2, month1, day2, day1
        /// `EEE` (Mon) and `EEEE` (Monday, or the recipe's `day_names`).
        case weekdayShort, weekdayLong
        /// `Z` (+0200) and `ZZ` (+02:00): the zone's offset at the day's start.
        case offset, offsetColon
    }

    /// What fills a template in.
    package struct Values: Sendable {
        package var channel: String
        package var channelParts: [String: String]
        /// The channel list's attributes of the channel (`lang`, `name`, `xmltv_id`, …).
        package var channelAttributes: [String: String]
        package var day: Day
        package var zone: TimeZone
        package var page: String?
        package var key: String?
        /// The values the recipe's steps gave so far, by step name.
        package var steps: [String: JSONValue]
        /// Monday first; nil: English.
        package var dayNames: [String]?
        /// Today's, tomorrow's… names, for `{day_word}`.
        package var dayWords: [String]
        /// The run's day, for `{days_ahead}`.
        package var today: Day?

        package init(
            channel: String, channelParts: [String: String] = [:], channelAttributes: [String: String] = [:], day: Day, zone: TimeZone,
            page: String? = nil, key: String? = nil, steps: [String: JSONValue] = [:], dayNames: [String]? = nil, dayWords: [String] = [],
            today: Day? = nil
        ) {
            self.channel = channel
            self.channelParts = channelParts
            self.channelAttributes = channelAttributes
            self.day = day
            self.zone = zone
            self.page = page
            self.key = key
            self.steps = steps
            self.dayNames = dayNames
            self.dayWords = dayWords
            self.today = today
        }

        var daysAhead: Int { day.days(since: today ?? day) }
    }

    package let description: String
    let parts: [Part]
    /// Each placeholder as written (`date:yyyy-MM-dd`) and the position of its `{`, in the
    /// order of `parts`' placeholders, for messages about them.
    let placeholders: [Placeholder]

    struct Placeholder: Sendable, Hashable {
        var name: String
        var position: Int
    }

    package init(_ text: String, channelParts: [String] = []) throws(SiteTemplateError) {
        description = text
        (parts, placeholders) = try Self.parse(Array(text), channelParts: channelParts)
    }

    package var usesDate: Bool { parts.contains { if case .date = $0 { true } else { false } } }
    package var usesChannel: Bool { parts.contains { if case .channel = $0 { true } else { false } } }
    package var usesPage: Bool { parts.contains(.page) }
    package var usesKey: Bool { parts.contains { if case .key = $0 { true } else { false } } }
    /// The steps whose values the template reads.
    package var stepNames: Set<String> {
        Set(parts.compactMap { if case .step(let name, _, _) = $0 { name } else { nil } })
    }
    /// The channel list attributes the template reads (`{channel.lang}`).
    package var channelAttributes: Set<String> {
        Set(parts.compactMap { if case .channelAttribute(let name, _) = $0 { name } else { nil } })
    }
    package var usesDayWord: Bool { parts.contains(.dayWord) }

    /// The text for `values`; `escaping` (URLs) percent-encodes each value, and what no URL can hold.
    package func render(_ values: Values, escaping: Bool) -> String {
        var out = ""
        func value(_ text: String) {
            out += escaping ? QueryEncoding.escape(text) : text
        }
        func raw(_ text: String) {
            out += text
        }
        for part in parts {
            switch part {
            case .literal(let text): raw(text)
            case .channel(let name, let isRaw):
                let text = name.map { values.channelParts[$0] ?? "" } ?? values.channel
                if isRaw { raw(text) } else { value(text) }
            case .channelAttribute(let name, let isRaw):
                let text = values.channelAttributes[name] ?? ""
                if isRaw { raw(text) } else { value(text) }
            case .daysAhead: out += String(values.daysAhead)
            case .dayWord:
                let index = values.daysAhead
                value(values.dayWords.indices.contains(index) ? values.dayWords[index] : "")
            case .step(let name, let field, let isRaw):
                let stepValue = values.steps[name]
                let text = (field.map { stepValue?[$0] } ?? stepValue).flatMap(Self.text) ?? ""
                if isRaw { raw(text) } else { value(text) }
            case .page: value(values.page ?? "")
            case .key(let isRaw): if isRaw { raw(values.key ?? "") } else { value(values.key ?? "") }
            case .date(let offset, let format):
                let day = values.day.adding(days: offset)
                switch format {
                case .unixSeconds: out += String(Self.midnight(day, values.zone))
                case .unixMilliseconds: out += String(Self.midnight(day, values.zone) * 1_000)
                case .pattern(let pieces):
                    for piece in pieces {
                        switch piece {
                        case .literal(let text): out += text
                        case .year4: out += Self.padded(day.year, 4)
                        case .year2: out += Self.padded(((day.year % 100) + 100) % 100, 2)
                        case .month2: out += Self.padded(day.month, 2)
                        case .month1: out += String(day.month)
                        case .day2: out += Self.padded(day.day, 2)
                        case .day1: out += String(day.day)
                        case .weekdayShort: out += String(Self.englishDays[day.weekdayFromMonday].prefix(3))
                        case .weekdayLong: out += (values.dayNames ?? Self.englishDays)[day.weekdayFromMonday]
                        case .offset, .offsetColon:
                            let seconds = values.zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(Self.midnight(day, values.zone))))
                            // In a URL a bare `+` reads as a space: the sign is encoded as any value is.
                            let sign = seconds < 0 ? "-" : escaping ? "%2B" : "+"
                            let hours = Self.padded(abs(seconds) / 3_600, 2), minutes = Self.padded(abs(seconds) % 3_600 / 60, 2)
                            out += sign + hours + (piece == .offsetColon ? ":" : "") + minutes
                        }
                    }
                }
            }
        }
        return escaping ? Self.urlSafe(out) : out
    }

    /// The day's first instant in `zone`, in seconds since 1970.
    static func midnight(_ day: Day, _ zone: TimeZone) -> Int {
        SiteZone(zone).instants(on: day, second: 0).first ?? CivilTime.epochSeconds(year: day.year, month: day.month, day: day.day)
    }

    static let englishDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// A step's value as template text: a string as it is, a number or boolean as JSON writes it.
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number, .bool: value.jsonText
        default: nil
        }
    }

    /// `url` with what no URL can hold percent-encoded (a space, `[`, `|`, `"`, non-ASCII, a
    /// `%` that starts no escape), and everything else, `%XX` escapes and an IPv6 host's
    /// brackets included, as written. Escaped values hold neither, so this runs on the whole URL.
    package static func urlSafe(_ url: String) -> String {
        let bytes = Array(url.utf8)
        // The authority runs from `://` to the next `/`, `?` or `#`: its brackets are an IPv6 host's.
        var authority = 0..<0
        if let scheme = url.range(of: "://") {
            let start = url.utf8.distance(from: url.startIndex, to: scheme.upperBound)
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            authority = start..<end
        }
        var out = ""
        out.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            let isEscape = byte == UInt8(ascii: "%") && index + 2 < bytes.count && bytes[index + 1].isHexDigit && bytes[index + 2].isHexDigit
            let isHostBracket = authority.contains(index) && (byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]"))
            if isEscape || isHostBracket || (byte != UInt8(ascii: "%") && byte.isURLCharacter) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func parse(_ characters: [Character], channelParts: [String]) throws(SiteTemplateError) -> ([Part], [Placeholder]) {
        var parts: [Part] = []
        var placeholders: [Placeholder] = []
        var literal = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            // `{{` and `}}` are literal braces, for JSON bodies.
            if character == "{" || character == "}", index + 1 < characters.count, characters[index + 1] == character {
                literal.append(character)
                index += 2
                continue
            }
            if character == "}" { throw .strayClosingBrace(position: index + 1) }
            guard character == "{" else {
                literal.append(character)
                index += 1
                continue
            }
            guard let close = characters[(index + 1)...].firstIndex(where: { $0 == "}" || $0 == "{" }), characters[close] == "}" else {
                throw .unclosedBrace(position: index + 1)
            }
            if !literal.isEmpty {
                parts.append(.literal(literal))
                literal = ""
            }
            let name = String(characters[(index + 1)..<close])
            parts.append(try placeholder(name, position: index + 1, channelParts: channelParts))
            placeholders.append(Placeholder(name: name, position: index + 1))
            index = close + 1
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return (parts, placeholders)
    }

    private static func placeholder(_ name: String, position: Int, channelParts: [String]) throws(SiteTemplateError) -> Part {
        switch name {
        case "channel": return .channel(part: nil, raw: false)
        case "channel:raw": return .channel(part: nil, raw: true)
        case "page": return .page
        case "key": return .key(raw: false)
        case "key:raw": return .key(raw: true)
        case "session": return .step("session", field: nil, raw: false)
        case "days_ahead": return .daysAhead
        case "day_word": return .dayWord
        default: break
        }
        if name.hasPrefix("session.") {
            return .step("session", field: String(name.dropFirst("session.".count)), raw: false)
        }
        if name.hasPrefix("steps.") {
            var reference = Substring(name.dropFirst("steps.".count))
            let raw = reference.hasSuffix(":raw")
            if raw { reference = reference.dropLast(":raw".count) }
            let path = reference.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let step = path.first, !step.isEmpty, path.count == 1 || !path[1].isEmpty, !reference.contains(":") else {
                throw .unknownPlaceholder(name: name, position: position)
            }
            return .step(step, field: path.count > 1 ? path[1] : nil, raw: raw)
        }
        if name.hasPrefix("channel.") {
            var part = String(name.dropFirst("channel.".count))
            let raw = part.hasSuffix(":raw")
            if raw { part.removeLast(":raw".count) }
            guard !part.isEmpty, !part.contains(":") else { throw .unknownPlaceholder(name: name, position: position) }
            return channelParts.contains(part) ? .channel(part: part, raw: raw) : .channelAttribute(part, raw: raw)
        }
        guard name.hasPrefix("date") else { throw .unknownPlaceholder(name: name, position: position) }
        var rest = Substring(name.dropFirst(4))
        var offset = 0
        if let sign = rest.first, sign == "+" || sign == "-" {
            let digits = rest.dropFirst().prefix { $0.isNumber }
            guard let value = Int(digits) else { throw .unknownPlaceholder(name: name, position: position) }
            offset = sign == "-" ? -value : value
            rest = rest.dropFirst(1 + digits.count)
        }
        guard rest.hasPrefix(":"), rest.count > 1 else { throw .missingDateFormat(position: position) }
        let format = rest.dropFirst()
        switch format {
        case "unix": return .date(offset: offset, format: .unixSeconds)
        case "unix_ms": return .date(offset: offset, format: .unixMilliseconds)
        default:
            let formatStart = position + name.count - format.count + 1
            return .date(offset: offset, format: .pattern(try datePieces(Array(format), startingAt: formatStart)))
        }
    }

    private static func datePieces(_ format: [Character], startingAt position: Int) throws(SiteTemplateError) -> [DatePiece] {
        var pieces: [DatePiece] = []
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
            switch String(format[index..<end]) {
            case "yyyy": pieces.append(.year4)
            case "yy": pieces.append(.year2)
            case "MM": pieces.append(.month2)
            case "M": pieces.append(.month1)
            case "dd": pieces.append(.day2)
            case "d": pieces.append(.day1)
            case "EEE": pieces.append(.weekdayShort)
            case "EEEE": pieces.append(.weekdayLong)
            case "Z": pieces.append(.offset)
            case "ZZ": pieces.append(.offsetColon)
            default: throw .unknownDatePattern(pattern: String(format[index..<end]), position: position + index)
            }
            index = end
        }
        return pieces
    }
}

/// Why a template was refused. Positions count characters from 1.
package enum SiteTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownPlaceholder(name: String, position: Int)
    case unknownDatePattern(pattern: String, position: Int)
    case missingDateFormat(position: Int)
    case unclosedBrace(position: Int)
    case strayClosingBrace(position: Int)

    package var description: String {
        description(
            placeholders: "{channel}, {channel:raw}, {channel.PART}, {channel.PART:raw}, {channel.ATTRIBUTE}, {date:FORMAT}, {date+N:FORMAT}, {page}, {key}, {key:raw}, {steps.NAME}, {steps.NAME.FIELD}, {steps.NAME:raw}, {session}, {session.FIELD}, {days_ahead}, {day_word}",
            datePatterns: "yyyy, yy, MM, M, dd, d, EEE, EEEE, Z, ZZ; or unix, unix_ms")
    }

    /// The message, naming what the template language at hand knows (the shorthand URLs of
    /// json-feed and scrape know less).
    package func description(placeholders: String, datePatterns: String) -> String {
        switch self {
        case .unknownPlaceholder(let name, let position):
            "unknown placeholder {\(name)} at position \(position) (known: \(placeholders))"
        case .unknownDatePattern(let pattern, let position):
            "unknown date pattern '\(pattern)' at position \(position) (known: \(datePatterns))"
        case .missingDateFormat(let position):
            "{date} at position \(position) needs a format, as in {date:yyyy-MM-dd}"
        case .unclosedBrace(let position):
            "the { at position \(position) is not closed"
        case .strayClosingBrace(let position):
            "the } at position \(position) closes no placeholder"
        }
    }
}

extension Day {
    /// 0 for Monday … 6 for Sunday.
    var weekdayFromMonday: Int {
        let days = CivilTime.epochSeconds(year: year, month: month, day: day) / 86_400
        // 1 January 1970 was a Thursday (3).
        return ((days + 3) % 7 + 7) % 7
    }
}

extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }

    /// RFC 3986's unreserved and reserved characters, less `[` and `]` (an IPv6 host's only).
    var isURLCharacter: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~:/?#@!$&'()*+,;=".utf8.contains(self)
        }
    }
}
