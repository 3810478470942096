import Foundation
import GuideCore

/// A position in a configuration file, 1-based as editors show it.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    package var file: URL
    package var line: Int
    package var column: Int

    package init(file: URL, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `providers.yaml:12:15`, the form editors and terminals turn into a jump to the spot.
    package var description: String { "\(Self.displayPath(of: file)):\(line):\(column)" }

    /// The path as the user gave it when it was relative, so messages stay short.
    static func displayPath(of file: URL) -> String {
        file.isFileURL ? file.relativePath : file.absoluteString
    }
}

/// Everything that can be wrong with a configuration. Each message names the file, line and
/// column, and never contains the value of an environment variable.
package enum ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read or is not UTF-8 text.
    case unreadable(file: URL, reason: String)
    /// The YAML itself is malformed (as reported by the YAML parser).
    case syntax(String, SourceLocation)
    /// A value of the wrong shape: the message says what was expected and what was found.
    case invalidValue(String, SourceLocation)
    /// A key nobody reads, most often a typo. `section` is "the top level", "window", "channel 'La1.es'"…
    case unknownKey(key: String, section: String, known: [String], SourceLocation)
    /// A required key is absent from `section`; the location is the section's own.
    case missingKey(key: String, section: String, SourceLocation)
    /// `guide`, `metadata` or `audience` names a provider that `providers` does not define.
    case unknownProvider(name: String, listedIn: String, known: [String], SourceLocation)
    /// The same name twice where names must be unique; `first` is where it appeared first.
    case duplicate(what: String, name: String, first: SourceLocation, SourceLocation)
    case unsupportedVersion(found: String, supported: [Int], SourceLocation)
    /// A provider option refers to `${variable}`, which is unset or empty. For provider options
    /// this is the cue to report the provider as not configured rather than to stop.
    case missingEnvironment(variable: String, SourceLocation)
    /// Thrown by whoever owns the catalogue of provider types (the CLI) for a `type:` it does not know.
    case unknownType(type: String, provider: String, known: [String], SourceLocation)
    /// A provider entry carries an option its type does not read.
    case unknownOption(option: String, provider: String, type: String, known: [String], SourceLocation)

    /// Where the problem is; nil only when the file itself could not be read.
    package var location: SourceLocation? {
        switch self {
        case .unreadable: nil
        case .syntax(_, let location), .invalidValue(_, let location),
             .unknownKey(_, _, _, let location), .missingKey(_, _, let location),
             .unknownProvider(_, _, _, let location), .duplicate(_, _, _, let location),
             .unsupportedVersion(_, _, let location), .missingEnvironment(_, let location),
             .unknownType(_, _, _, let location), .unknownOption(_, _, _, _, let location):
            location
        }
    }

    /// The message without its location.
    package var message: String {
        switch self {
        case .unreadable(_, let reason):
            return reason
        case .syntax(let message, _), .invalidValue(let message, _):
            return message
        case .unknownKey(let key, let section, let known, _):
            return "unknown key '\(key)' in \(section); known keys: \(known.joined(separator: ", "))"
                + Suggestion.didYouMean(key, among: known)
        case .missingKey(let key, let section, _):
            return "\(section) has no '\(key)', which is required"
        case .unknownProvider(let name, let listedIn, let known, _):
            let list = known.isEmpty ? "none" : known.sorted().joined(separator: ", ")
            return "\(listedIn) lists '\(name)', which is not in providers; known: \(list)"
                + Suggestion.didYouMean(name, among: known)
        case .duplicate(let what, let name, let first, _):
            return "duplicate \(what) '\(name)'; first defined at line \(first.line), column \(first.column)"
        case .unsupportedVersion(let found, let supported, _):
            let list = supported.map(String.init).joined(separator: ", ")
            return "unsupported version '\(found)'; this tvguide reads version \(list)"
        case .missingEnvironment(let variable, _):
            return "environment variable \(variable) is not set (or is empty)"
        case .unknownType(let type, let provider, let known, _):
            return "unknown provider type '\(type)' for '\(provider)'; known types: \(known.sorted().joined(separator: ", "))"
                + Suggestion.didYouMean(type, among: known)
        case .unknownOption(let option, let provider, let type, let known, _):
            return "unknown option '\(option)' for provider '\(provider)' (type \(type)); known options: \(known.joined(separator: ", "))"
                + Suggestion.didYouMean(option, among: known)
        }
    }

    /// `file:line:column: message`, or `file: message` when the file could not be read at all.
    package var description: String {
        if case .unreadable(let file, let reason) = self {
            return "\(SourceLocation.displayPath(of: file)): \(reason)"
        }
        return "\(location.map(String.init(describing:)) ?? ""): \(message)"
    }
}
