import Foundation
import GuideCore

/// A URL, header or body of a site recipe with placeholders:
/// - `{channel}`: the channel's site id; `{channel.NAME}`: one part of a composite id, named
///   by the recipe's `channel_parts` (`Sydney#ABC1` with `[region, id]`: `{channel.region}`);
/// - `{date:FORMAT}`, `{date+N:FORMAT}`, `{date-N:FORMAT}`: the day asked (N days later or
///   earlier) in the recipe's time zone, written with `yyyy`, `yy`, `MM`, `M`, `dd`, `d`, `EEE`
///   (Mon), `EEEE` (Monday, or the recipe's `day_names`), `Z` (+0200), `ZZ` (+02:00) and literal
///   separators, or as `{date:unix}` / `{date:unix_ms}`, the day's first instant;
/// - `{page}`: one of the recipe's `pages`; `{key}`: the item's key (programme details);
///   `{session}`: the value the recipe's `session` request gave (a token), `{session.NAME}` one
///   field of it when it gave an object; `{days_ahead}`: days from the run's today to the day
///   asked (0 today, 1 tomorrow), for sites that name days that way.
///
/// `{{` and `}}` write a literal brace (a JSON body: `{{"channel": "{channel}"}}`). In a URL
/// every value is percent-encoded as one path segment or query value, unless its placeholder
/// ends in `:raw` (`{channel:raw}`, `{channel.NAME:raw}`, `{key:raw}`: a value that is already
/// a path or a whole URL); in a header or a body it is written as is. A template is checked
/// when read, with the position of a fault.
package struct SiteTemplate: Sendable, Hashable, CustomStringConvertible {
    enum Part: Sendable, Hashable {
        case literal(String)
        /// The site id, or one named part of it; `raw`: written as it is, never percent-encoded.
        case channel(part: String?, raw: Bool)
        case date(offset: Int, format: DateFormat)
        case page
        /// The item's key (programme details); `raw`: a path or a whole URL, written as it is.
        case key(raw: Bool)
        case session
        /// `{session.NAME}`: one field of the session's value.
        case sessionField(String)
        /// `{days_ahead}`: days from the run's today to the day asked (0 today, 1 tomorrow).
        case daysAhead
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
        package var day: Day
        package var zone: TimeZone
        package var page: String?
        package var key: String?
        package var session: String?
        package var sessionFields: [String: String]
        /// Monday first; nil: English.
        package var dayNames: [String]?
        /// The run's day, for `{days_ahead}`.
        package var today: Day?

        package init(
            channel: String, channelParts: [String: String] = [:], day: Day, zone: TimeZone, page: String? = nil, key: String? = nil,
            session: String? = nil, sessionFields: [String: String] = [:], dayNames: [String]? = nil, today: Day? = nil
        ) {
            self.channel = channel
            self.channelParts = channelParts
            self.day = day
            self.zone = zone
            self.page = page
            self.key = key
            self.session = session
            self.sessionFields = sessionFields
            self.dayNames = dayNames
            self.today = today
        }
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
    package var usesSession: Bool { parts.contains { if case .session = $0 { true } else if case .sessionField = $0 { true } else { false } } }

    /// The text for `values`; `escaping` percent-encodes each value (URLs).
    package func render(_ values: Values, escaping: Bool) -> String {
        var out = ""
        func value(_ text: String) {
            out += escaping ? QueryEncoding.escape(text) : text
        }
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .channel(let name, let raw):
                let text = name.map { values.channelParts[$0] ?? "" } ?? values.channel
                if raw { out += text } else { value(text) }
            case .daysAhead: out += String(values.day.days(since: values.today ?? values.day))
            case .sessionField(let name): value(values.sessionFields[name] ?? "")
            case .page: value(values.page ?? "")
            case .key(let raw): if raw { out += values.key ?? "" } else { value(values.key ?? "") }
            case .session: value(values.session ?? "")
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
                            let sign = seconds < 0 ? "-" : "+"
                            let hours = Self.padded(abs(seconds) / 3_600, 2), minutes = Self.padded(abs(seconds) % 3_600 / 60, 2)
                            out += sign + hours + (piece == .offsetColon ? ":" : "") + minutes
                        }
                    }
                }
            }
        }
        return out
    }

    /// The day's first instant in `zone`, in seconds since 1970.
    static func midnight(_ day: Day, _ zone: TimeZone) -> Int {
        FeedZone(zone).instants(on: day, second: 0).first ?? CivilTime.epochSeconds(year: day.year, month: day.month, day: day.day)
    }

    static let englishDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

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
        case "session": return .session
        case "days_ahead": return .daysAhead
        default: break
        }
        if name.hasPrefix("session.") {
            return .sessionField(String(name.dropFirst("session.".count)))
        }
        if name.hasPrefix("channel.") {
            var part = String(name.dropFirst("channel.".count))
            let raw = part.hasSuffix(":raw")
            if raw { part.removeLast(":raw".count) }
            guard channelParts.contains(part) else {
                throw .unknownChannelPart(part, position: position, known: channelParts)
            }
            return .channel(part: part, raw: raw)
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
    case unknownChannelPart(String, position: Int, known: [String])
    case unknownDatePattern(pattern: String, position: Int)
    case missingDateFormat(position: Int)
    case unclosedBrace(position: Int)
    case strayClosingBrace(position: Int)

    package var description: String {
        switch self {
        case .unknownPlaceholder(let name, let position):
            "unknown placeholder {\(name)} at position \(position) (known: {channel}, {channel:raw}, {channel.PART}, {channel.PART:raw}, {date:FORMAT}, {date+N:FORMAT}, {page}, {key}, {key:raw}, {session}, {session.NAME}, {days_ahead})"
        case .unknownChannelPart(let part, let position, let known):
            "{channel.\(part)} at position \(position) names no part of channel_parts (\(known.isEmpty ? "none are declared" : known.joined(separator: ", ")))"
        case .unknownDatePattern(let pattern, let position):
            "unknown date pattern '\(pattern)' at position \(position) (known: yyyy, yy, MM, M, dd, d, EEE, EEEE, Z, ZZ; or unix, unix_ms)"
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
