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

    package var url: URLTemplate
    /// The path to the array of items.
    package var items: String
    /// The path of each field inside an item.
    package var fields: [Field: String]
    package var timeFormat: TimeFormat
    /// An IANA time zone id for clock times and ISO times without an offset; also the zone whose
    /// calendar days the URL's `{date:…}` names.
    package var timezone: String

    package init(url: URLTemplate, items: String, fields: [Field: String], timeFormat: TimeFormat = .iso8601,
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
    package func validate() throws {
        _ = try compile()
    }

    func compile() throws(JSONFeedRecipeError) -> CompiledJSONFeedRecipe {
        let itemsPath: FeedPath
        do {
            itemsPath = try FeedPath(items)
        } catch {
            throw .badPath(key: "items", path: items, reason: error.reason)
        }
        var paths: [(Field, FeedPath)] = []
        for field in Field.allCases {
            guard let text = fields[field] else {
                if field.isRequired { throw .missingField(field) }
                continue
            }
            do {
                paths.append((field, try FeedPath(text)))
            } catch {
                throw .badPath(key: "fields.\(field)", path: text, reason: error.reason)
            }
        }
        guard let zone = TimeZone(identifier: timezone) else { throw .unknownTimeZone(timezone) }
        let times: FeedTimeParser.Format
        switch timeFormat {
        case .iso8601: times = .iso8601
        case .unix: times = .unix
        case .clock(let pattern):
            do {
                times = .clock(try FeedClockPattern(pattern))
            } catch {
                throw .badTimeFormat(pattern, reason: error.reason)
            }
            guard url.usesDate else { throw .clockWithoutDate(pattern) }
        }
        return CompiledJSONFeedRecipe(items: itemsPath, fields: paths, times: FeedTimeParser(format: times, zone: FeedZone(zone)))
    }
}

/// A recipe with its paths parsed and its time zone loaded, ready to read responses.
struct CompiledJSONFeedRecipe: Sendable {
    var items: FeedPath
    /// The mapped fields in `Field.allCases` order.
    var fields: [(JSONFeedRecipe.Field, FeedPath)]
    var times: FeedTimeParser
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
