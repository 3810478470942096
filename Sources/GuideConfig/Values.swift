import Foundation

/// How a recording's times move to cover the current window: by as many whole weeks as it takes
/// (`auto`, worked out by the provider from its data), or by a fixed number (0 leaves times alone).
package enum WeekShift: Sendable, Hashable, CustomStringConvertible {
    case auto
    case weeks(Int)

    package var description: String {
        switch self {
        case .auto: "auto"
        case .weeks(let count): String(count)
        }
    }
}

/// Durations as the configuration writes them: `500ms`, `10s`, `90m`, `2h`, `1d`, `1w`, combined
/// from the largest unit down (`1h30m`, `1d 12h`), or a bare number of seconds.
package enum DurationText {
    private static let units: [(suffix: String, seconds: Double)] = [
        ("w", 604_800), ("d", 86_400), ("h", 3_600), ("ms", 0.001), ("m", 60), ("s", 1),
    ]
    /// Units from the largest down, the only order a combination may use.
    private static let order = ["w", "d", "h", "m", "s", "ms"]

    package static func parse(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.allSatisfy(isNumberCharacter), let seconds = Double(trimmed) {
            return seconds
        }
        var total: Double = 0
        var lastUnitRank = -1
        var rest = Substring(trimmed)
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix(while: isNumberCharacter)
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }),
                  let rank = order.firstIndex(of: unit.suffix), rank > lastUnitRank else { return nil }
            lastUnitRank = rank
            total += value * unit.seconds
            rest = rest.dropFirst(unit.suffix.count).drop { $0 == " " }
        }
        return total
    }

    private static func isNumberCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isNumber || character == ".")
    }
}

/// A scalar after `${VAR}` expansion, with what an error message may show of it.
struct ExpandedText: Sendable {
    var text: String
    var raw: String
    var usedEnvironment: Bool
    var location: SourceLocation

    /// `'soon'`, or for a value that came from the environment only the reference that produced it.
    var shown: String { usedEnvironment ? "the value of '\(raw)'" : "'\(text)'" }
}

/// Reads typed values out of `ConfigNode`s: shared by the top-level sections and by provider options.
struct ValueReader: Sendable {
    /// Only the variables the configuration refers to, so no other part of the environment is kept.
    var environment: [String: String]
    var directory: URL

    /// The scalar's text after expansion, or nil for `null`; a list or a mapping is an error.
    func scalar(_ node: ConfigNode, expected: String) throws(ConfigError) -> ExpandedText? {
        switch node.content {
        case .null:
            return nil
        case .scalar(let raw):
            let expanded = try EnvironmentExpansion.expand(raw, environment: environment, at: node.location)
            return ExpandedText(text: expanded.text, raw: raw, usedEnvironment: expanded.usedEnvironment, location: node.location)
        case .sequence, .mapping:
            throw .invalidValue("expected \(expected), got \(node.shapeDescription)", node.location)
        }
    }

    func required(_ node: ConfigNode, expected: String) throws(ConfigError) -> ExpandedText {
        guard let value = try scalar(node, expected: expected) else {
            throw .invalidValue("expected \(expected), got nothing", node.location)
        }
        return value
    }

    func string(_ node: ConfigNode) throws(ConfigError) -> String {
        try required(node, expected: "text").text
    }

    func int(_ node: ConfigNode, in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int {
        let expected = range.map { "a whole number from \($0.lowerBound) to \($0.upperBound)" } ?? "a whole number"
        let value = try required(node, expected: expected)
        guard let number = Int(value.text.trimmingCharacters(in: .whitespaces)), range?.contains(number) ?? true else {
            throw .invalidValue("expected \(expected), got \(value.shown)", value.location)
        }
        return number
    }

    func bool(_ node: ConfigNode) throws(ConfigError) -> Bool {
        let value = try required(node, expected: "true or false")
        switch value.text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw .invalidValue("expected true or false, got \(value.shown)", value.location)
        }
    }

    func duration(_ node: ConfigNode) throws(ConfigError) -> TimeInterval {
        let expected = "a duration like 2h"
        let value = try required(node, expected: expected)
        guard let seconds = DurationText.parse(value.text) else {
            throw .invalidValue("expected \(expected), got \(value.shown) (units: ms, s, m, h, d, w; combined like 1h30m)", value.location)
        }
        return seconds
    }

    func weekShift(_ node: ConfigNode) throws(ConfigError) -> WeekShift {
        let expected = "'auto' or a whole number of weeks"
        let value = try required(node, expected: expected)
        let text = value.text.trimmingCharacters(in: .whitespaces)
        if text.lowercased() == "auto" { return .auto }
        guard let weeks = Int(text) else {
            throw .invalidValue("expected \(expected), got \(value.shown)", value.location)
        }
        return .weeks(weeks)
    }

    /// An `http`, `https` or `file` URL, or a path resolved against the configuration's folder.
    func url(_ node: ConfigNode) throws(ConfigError) -> URL {
        let expected = "an http(s) or file URL or a path"
        let value = try required(node, expected: expected)
        guard let schemeEnd = value.text.range(of: "://") else {
            return try path(value)
        }
        let scheme = value.text[..<schemeEnd.lowerBound].lowercased()
        // Schemes are case-insensitive (RFC 3986): HTTP:// is http://.
        let text = scheme + value.text[schemeEnd.lowerBound...]
        switch scheme {
        case "http", "https":
            guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
                throw .invalidValue("expected \(expected), got \(value.shown), which is not a valid \(scheme) URL", value.location)
            }
            return url
        case "file":
            guard let url = URL(string: text), url.isFileURL, !url.path.isEmpty else {
                throw .invalidValue("expected \(expected), got \(value.shown), which is not a valid file URL", value.location)
            }
            // file://host/path names another machine's file, which this one cannot read.
            if let host = url.host, !host.isEmpty, host.lowercased() != "localhost" {
                throw .invalidValue("expected \(expected), got \(value.shown): a file URL on host '\(host)' is another machine's file; "
                    + "write file:///path (or the path) for a file of this machine", value.location)
            }
            return url.standardizedFileURL
        default:
            throw .invalidValue("expected \(expected), got \(value.shown) (scheme '\(scheme)' is not supported)", value.location)
        }
    }

    func path(_ node: ConfigNode) throws(ConfigError) -> URL {
        try path(try required(node, expected: "a path"))
    }

    private func path(_ value: ExpandedText) throws(ConfigError) -> URL {
        guard !value.text.isEmpty else {
            throw .invalidValue("expected a path, got ''", value.location)
        }
        return resolvePath(value.text)
    }

    /// An absolute path as is; a relative one against the folder of the configuration file.
    func resolvePath(_ path: String) -> URL {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        return url.standardizedFileURL
    }

    func stringList(_ node: ConfigNode) throws(ConfigError) -> [String] {
        guard case .sequence(let items) = node.content else {
            throw .invalidValue("expected a list like [a, b], got \(node.shapeDescription)", node.location)
        }
        var strings: [String] = []
        for item in items {
            strings.append(try required(item, expected: "text in the list").text)
        }
        return strings
    }

    func stringMap(_ node: ConfigNode) throws(ConfigError) -> [String: String] {
        guard let entries = node.entries else {
            throw .invalidValue("expected a mapping like { key: value }, got \(node.shapeDescription)", node.location)
        }
        var map: [String: String] = [:]
        for entry in entries {
            map[entry.key] = try required(entry.value, expected: "text for '\(entry.key)'").text
        }
        return map
    }
}
