import Foundation
import Yams

/// A YAML value with the place it was written, detached from Yams' `Node` (which is not
/// `Sendable`) so provider options can travel with the configuration across tasks.
struct ConfigNode: Sendable {
    enum Content: Sendable {
        case scalar(String)
        /// `~`, `null` or nothing at all after the colon.
        case null
        case sequence([ConfigNode])
        case mapping([Entry])
    }

    struct Entry: Sendable {
        var key: String
        var keyLocation: SourceLocation
        var value: ConfigNode
    }

    var content: Content
    var location: SourceLocation

    /// How the value reads in an error message: `'soon'`, `a list`, `a mapping`, `nothing`.
    var shapeDescription: String {
        switch content {
        case .scalar(let text): "'\(text)'"
        case .null: "nothing"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    var entries: [Entry]? {
        if case .mapping(let entries) = content { entries } else { nil }
    }

    var items: [ConfigNode]? {
        if case .sequence(let items) = content { items } else { nil }
    }

    /// Parses one YAML document; nil when the document is empty.
    static func compose(yaml: String, file: URL) throws(ConfigError) -> ConfigNode? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw syntaxError(error, yaml: yaml, file: file)
        } catch {
            throw .syntax("YAML: \(error)", SourceLocation(file: file, line: 1, column: 1))
        }
        guard let root else { return nil }
        return try ConfigNode(root, file: file)
    }

    private init(_ node: Node, file: URL) throws(ConfigError) {
        let mark = node.mark
        location = SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
        switch node {
        case .scalar(let scalar):
            let isNull = scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
            content = isNull ? .null : .scalar(scalar.string)
        case .sequence(let sequence):
            var items: [ConfigNode] = []
            for item in sequence {
                items.append(try ConfigNode(item, file: file))
            }
            content = .sequence(items)
        case .mapping(let mapping):
            content = .mapping(try Self.entries(of: mapping, file: file))
        case .alias:
            // Yams resolves aliases while composing, so a bare alias never reaches here.
            throw .syntax("YAML: unresolved alias", location)
        }
    }

    /// The mapping's entries in file order, with YAML merge keys (`<<: *defaults`) applied:
    /// explicit keys win over merged ones, and earlier merged mappings over later ones.
    private static func entries(of mapping: Node.Mapping, file: URL) throws(ConfigError) -> [Entry] {
        var explicit: [Entry] = []
        var merged: [Entry] = []
        for (keyNode, valueNode) in mapping {
            let keyMark = keyNode.mark
            let keyLocation = SourceLocation(file: file, line: keyMark?.line ?? 1, column: keyMark?.column ?? 1)
            guard case .scalar(let keyScalar) = keyNode else {
                throw .syntax("keys must be plain text, not a list or a mapping", keyLocation)
            }
            let value = try ConfigNode(valueNode, file: file)
            if keyScalar.style == .plain, keyScalar.string == "<<" {
                let sources: [ConfigNode]
                if case .sequence(let items) = value.content { sources = items } else { sources = [value] }
                for source in sources {
                    guard let sourceEntries = source.entries else {
                        throw .invalidValue("a merge key '<<' needs a mapping or a list of mappings, got \(source.shapeDescription)", source.location)
                    }
                    merged.append(contentsOf: sourceEntries)
                }
            } else {
                explicit.append(Entry(key: keyScalar.string, keyLocation: keyLocation, value: value))
            }
        }
        var seen = Set(explicit.map(\.key))
        for entry in merged where seen.insert(entry.key).inserted {
            explicit.append(entry)
        }
        return explicit
    }

    private static func syntaxError(_ error: YamlError, yaml: String, file: URL) -> ConfigError {
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(file: file, line: mark.line, column: mark.column)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let during = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            return .syntax("YAML: \(problem)\(during)\(hint(at: mark, context: context, in: yaml))", at(mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return .syntax("YAML: key \(keys) appears more than once in the same mapping", at(context.mark))
        case .reader(let problem, let offset, _, _):
            let (line, column) = offset.map { position(ofCharacterOffset: $0, in: yaml) } ?? (1, 1)
            return .syntax("YAML: \(problem)", SourceLocation(file: file, line: line, column: column))
        default:
            return .syntax("YAML: \(error)", SourceLocation(file: file, line: 1, column: 1))
        }
    }

    /// Explains the two commonest cryptic parser errors: a tab in the indentation, and an unquoted
    /// `${VAR}` inside `{ … }`, whose braces YAML reads as flow punctuation.
    private static func hint(at mark: Mark, context: YamlError.Context?, in text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return "" }
        let scalars = Array(lines[mark.line - 1].unicodeScalars)
        if mark.column >= 1, mark.column <= scalars.count, scalars[mark.column - 1] == "\t" {
            return "; indent with spaces, YAML does not allow tabs there"
        }
        let contextLine = context.map { $0.mark.line } ?? mark.line
        let suspects = lines[max(0, min(contextLine, mark.line) - 1)..<mark.line]
        if context?.text.contains("flow") == true, suspects.contains(where: { $0.contains(": ${") || $0.contains(", ${") || $0.contains("[${") }) {
            return "; inside { … } or [ … ] write \"${VAR}\" in quotes"
        }
        return ""
    }

    /// 1-based line and column (in Unicode scalars, as libyaml counts) of a character offset.
    static func position(ofCharacterOffset offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for character in text.prefix(offset) {
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return (line, column)
    }
}
