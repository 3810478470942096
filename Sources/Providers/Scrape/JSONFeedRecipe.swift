import Foundation
import GuideCore

/// How to read a guide from a JSON API: which URL to fetch, where the array of programmes is and
/// where each field sits in an item. providers.yaml writes it as
/// ```yaml
/// my-server:
///   type: json-feed
///   url: "http://127.0.0.1:8080/guide/{channel}/{date:yyyy-MM-dd}.json"
///   items: "data.programmes"
///   fields: { start: "begin", stop: "end", title: "name", description: "info.text", category: "genre" }
///   time_format: iso8601
///   timezone: Europe/Madrid
/// ```
/// Paths are keys joined with dots, with `[n]` to pick an array element (`result[0].events`,
/// `genres[0]`); `$` alone is the whole response in `items` (a feed that is a bare array) and the
/// item itself in a field's path (an item that is a bare string).
///
/// It is shorthand for a site recipe: `compile()` writes the field map as one jq filter that
/// finds the items and maps each to a programme object, and the site engine reads the rest.
package struct JSONFeedRecipe: Sendable, Hashable {
    /// What an item can give a programme.
    package enum Field: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The start time (required).
        case start
        /// The stop time.
        case stop
        /// The title (required).
        case title
        case subtitle
        /// The synopsis.
        case description
        /// A string or an array of strings.
        case category
        /// `S02E05`, `2x05`, a number (the episode number), or an object with `season` and
        /// `episode` (or `number`).
        case episode

        package var isRequired: Bool { self == .start || self == .title }
        package var description: String { rawValue }
    }

    /// How times are written.
    package enum TimeFormat: Sendable, Hashable, CustomStringConvertible {
        /// `2026-10-25T21:30:00+01:00` (also `Z`, `+0100`, `+01`, a space for `T`, no seconds,
        /// fractions); a time without an offset is wall-clock time in the recipe's `timezone`.
        case iso8601
        /// Seconds since 1970 as a number or a numeric string.
        case unix
        /// A wall-clock pattern such as `HH:mm`, `H.mm` or `HHmm` (`H` hours, `m` minutes, `s`
        /// seconds, anything else literal) on the day of the URL in the recipe's `timezone`.
        /// Items must come in airing order: a time earlier than the previous item's continues
        /// into the next day, and hours 24–47 (`25:30`) are the next day's.
        case clock(String)

        /// `iso8601`, `unix`, or else a clock pattern (which `validate()` checks).
        package init(_ text: String) {
            switch text {
            case "iso8601": self = .iso8601
            case "unix": self = .unix
            default: self = .clock(text)
            }
        }

        package var description: String {
            switch self {
            case .iso8601: "iso8601"
            case .unix: "unix"
            case .clock(let pattern): pattern
            }
        }
    }

    package static let defaultTimeZone = "Europe/Madrid"

    /// A shorthand URL (`SiteTemplate(shorthandURL:)`).
    package var url: SiteTemplate
    /// The path to the array of items.
    package var items: String
    /// The path of each field inside an item.
    package var fields: [Field: String]
    package var timeFormat: TimeFormat
    /// An IANA time zone id for clock times and ISO times without an offset; also the zone whose
    /// calendar days the URL's `{date:…}` names.
    package var timezone: String

    package init(url: SiteTemplate, items: String, fields: [Field: String], timeFormat: TimeFormat = .iso8601,
                timezone: String = JSONFeedRecipe.defaultTimeZone) {
        self.url = url
        self.items = items
        self.fields = fields
        self.timeFormat = timeFormat
        self.timezone = timezone
    }

    /// Checks everything that can be checked without fetching: the required fields are mapped,
    /// every path is well formed, the time format and the time zone are known, and a clock time
    /// format has a `{date:…}` in the URL to say which day it is.
    package func validate() throws(JSONFeedRecipeError) {
        _ = try compile()
    }

    /// The site recipe this one is shorthand for. Its items filter gives one programme object per
    /// item, with the recipe's own keys beside the programme's (`_place` names the item in
    /// messages, `_found` and `_unreadable` say which optional fields it had), and stops with the
    /// filter's own json-feed messages when the layout does not fit the paths.
    package func compile() throws(JSONFeedRecipeError) -> SiteRecipe {
        let itemSteps: [JSONValue]
        do {
            itemSteps = try Self.steps(of: items)
        } catch {
            throw .badPath(key: "items", path: items, reason: error.reason)
        }
        var mapped: [(Field, [JSONValue])] = []
        for field in Field.allCases {
            guard let text = fields[field] else {
                if field.isRequired { throw .missingField(field) }
                continue
            }
            do {
                mapped.append((field, try Self.steps(of: text)))
            } catch {
                throw .badPath(key: "fields.\(field)", path: text, reason: error.reason)
            }
        }
        guard let zone = TimeZone(identifier: timezone) else { throw .unknownTimeZone(timezone) }
        let times: SiteTimeFormat
        switch timeFormat {
        case .iso8601: times = .iso8601
        case .unix: times = .unix
        case .clock(let pattern):
            do {
                try Self.checkClock(pattern)
                times = .pattern(try SiteTimePattern(pattern))
            } catch let error as JSONFeedSyntaxError {
                throw .badTimeFormat(pattern, reason: error.reason)
            } catch {
                throw .badTimeFormat(pattern, reason: "\(error)")
            }
            guard url.usesDate else { throw .clockWithoutDate(pattern) }
        }
        let filter: JQFilter
        do {
            filter = try JQFilter(JSONFeedFilter.source(items: items, steps: itemSteps, fields: mapped.map { ($0.0, fields[$0.0]!, $0.1) }),
                                  variables: SiteRecipe.variables)
        } catch {
            preconditionFailure("the generated json-feed filter does not compile: \(error)")
        }
        // An empty array is an empty day, however many days are empty.
        return SiteRecipe(site: "json-feed", format: .json, request: SiteRequest(url: url), items: .jq(filter), programme: nil,
                          times: times, timezone: zone, empty: SiteRecipe.EmptyAnswers(noItems: true))
    }

    /// A path's steps as jq reads them: a key is a string, an index a number; none for `$`.
    static func steps(of text: String) throws(JSONFeedSyntaxError) -> [JSONValue] {
        if text == "$" { return [] }
        let body = text.hasPrefix("$.") ? Substring(text.dropFirst(2)) : text.hasPrefix("$[") ? text.dropFirst() : Substring(text)
        guard !body.isEmpty else { throw JSONFeedSyntaxError(reason: "it is empty") }
        var steps: [JSONValue] = []
        var key = ""
        var afterIndex = false
        var characters = body.makeIterator()
        while let character = characters.next() {
            switch character {
            case ".":
                if key.isEmpty && !afterIndex { throw JSONFeedSyntaxError(reason: "an empty key before a '.'") }
                if !key.isEmpty { steps.append(.string(key)) }
                key = ""
                afterIndex = false
            case "[":
                if !key.isEmpty { steps.append(.string(key)) }
                key = ""
                var digits = ""
                var closed = false
                while let next = characters.next() {
                    if next == "]" { closed = true; break }
                    digits.append(next)
                }
                guard closed else { throw JSONFeedSyntaxError(reason: "a '[' without its ']'") }
                guard let index = Int(digits), index >= 0, digits.allSatisfy(\.isASCII) else {
                    throw JSONFeedSyntaxError(reason: "'[\(digits)]' is not an array index such as [0]")
                }
                steps.append(.number(Double(index)))
                afterIndex = true
            case "]":
                throw JSONFeedSyntaxError(reason: "a ']' without its '['")
            default:
                if afterIndex { throw JSONFeedSyntaxError(reason: "a key right after ']' needs a '.' before it") }
                key.append(character)
            }
        }
        if !key.isEmpty {
            steps.append(.string(key))
        } else if !afterIndex {
            throw JSONFeedSyntaxError(reason: "it ends with '.'")
        }
        return steps
    }

    /// json-feed's clock patterns are a narrower language than site recipes' (`H`, `m` and `s`,
    /// the hour and minutes once each), and say so in its own words.
    static func checkClock(_ text: String) throws(JSONFeedSyntaxError) {
        let characters = Array(text)
        var counts: [Character: Int] = [:]
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character.isLetter else {
                index += 1
                continue
            }
            var end = index + 1
            while end < characters.count, characters[end] == character { end += 1 }
            guard "Hms".contains(character) else {
                throw JSONFeedSyntaxError(reason: "unknown letter '\(character)' (H hours, m minutes, s seconds)")
            }
            guard end - index <= 2 else { throw JSONFeedSyntaxError(reason: "'\(String(characters[index..<end]))' has too many letters") }
            counts[character, default: 0] += 1
            index = end
        }
        for letter in ["H", "m"] as [Character] where counts[letter, default: 0] != 1 {
            throw JSONFeedSyntaxError(reason: "it needs '\(letter)' exactly once")
        }
        if counts["s", default: 0] > 1 { throw JSONFeedSyntaxError(reason: "it has 's' more than once") }
    }
}

/// Why a path or a clock pattern of a recipe is not well formed.
struct JSONFeedSyntaxError: Error {
    var reason: String
}

/// Why a json-feed recipe cannot run, named with its providers.yaml keys.
package enum JSONFeedRecipeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `start` or `title` has no path.
    case missingField(JSONFeedRecipe.Field)
    /// `key` is `items` or `fields.NAME`.
    case badPath(key: String, path: String, reason: String)
    case badTimeFormat(String, reason: String)
    case unknownTimeZone(String)
    /// A clock time format needs the day from the URL.
    case clockWithoutDate(String)

    package var description: String {
        switch self {
        case .missingField(let field):
            "fields: '\(field)' is required (the path to each item's \(field))"
        case .badPath(let key, let path, let reason):
            "\(key): '\(path)' is not a path: \(reason)"
        case .badTimeFormat(let text, let reason):
            "time_format: '\(text)' is not iso8601, unix or a clock pattern such as HH:mm: \(reason)"
        case .unknownTimeZone(let id):
            "timezone: '\(id)' is not a known time zone (an IANA id such as Europe/Madrid)"
        case .clockWithoutDate(let pattern):
            "time_format '\(pattern)' gives times of day only: the url needs a {date:…} placeholder to say which day"
        }
    }
}
