import Foundation

/// A JSON document as plain values, so that paths chosen at run time can walk it.
enum FeedJSON: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([FeedJSON])
    case object([String: FeedJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([FeedJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: FeedJSON].self))
        }
    }

    /// What kind of value this is, for messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A short rendering for messages: strings quoted, containers summarised.
    var excerpt: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number: text ?? "a number"
        case .string(let value): "\"" + (value.count > 40 ? String(value.prefix(40)) + "…" : value) + "\""
        case .array(let values): "an array of \(values.count)"
        case .object: "an object"
        }
    }

    /// A string, or a number written as people write it (`24`, not `24.0`); nil otherwise.
    var text: String? {
        switch self {
        case .string(let value):
            return value
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        default:
            return nil
        }
    }

    /// The keys of an object, sorted, for messages that say what a changed layout has instead.
    var keys: [String] {
        if case .object(let members) = self { return members.keys.sorted() }
        return []
    }
}

/// A path into a JSON document: keys joined with dots and `[n]` array indexes
/// (`data.programmes`, `result[0].events`, `[2].title`), or `$` for the document itself.
struct FeedPath: Sendable, Hashable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// Where a path could not be followed: the part that was found, the value there, and what
    /// the next step wanted of it.
    struct Miss: Error {
        enum Problem: Hashable {
            case noKey(String)
            case noElement(Int, count: Int)
            /// `kind` is what the value is; `wanted` what the step needed.
            case wrongKind(String, wanted: String)
        }

        /// The path up to the value that lacked the next step (`data`), empty for the document.
        var reached: String
        var value: FeedJSON
        var problem: Problem

        /// One sentence about the miss; `document` names the value the path started from (`the
        /// response`, `the item`). A missing key lists the keys there are, so a renamed one can
        /// be put right in the recipe from the message alone.
        func sentence(document: String) -> String {
            let subject = reached.isEmpty ? document : "'\(reached)'"
            switch problem {
            case .noKey(let key):
                let keys = value.keys
                let listed = keys.isEmpty ? "" : " (its keys: \(keys.prefix(12).joined(separator: ", "))\(keys.count > 12 ? ", …" : ""))"
                return "\(subject) has no key '\(key)'\(listed)"
            case .noElement(let index, let count):
                return "\(subject) has no element [\(index)] (an array of \(count))"
            case .wrongKind(let kind, let wanted):
                return "\(subject) is \(kind), not \(wanted)"
            }
        }
    }

    let description: String
    let steps: [Step]

    init(_ text: String) throws(FeedSyntaxError) {
        description = text
        if text == "$" {
            steps = []
            return
        }
        let body = text.hasPrefix("$.") ? Substring(text.dropFirst(2)) : text.hasPrefix("$[") ? text.dropFirst() : Substring(text)
        guard !body.isEmpty else { throw FeedSyntaxError(reason: "it is empty") }
        var steps: [Step] = []
        var key = ""
        var afterIndex = false
        var characters = body.makeIterator()
        while let character = characters.next() {
            switch character {
            case ".":
                if key.isEmpty && !afterIndex { throw FeedSyntaxError(reason: "an empty key before a '.'") }
                if !key.isEmpty { steps.append(.key(key)) }
                key = ""
                afterIndex = false
            case "[":
                if !key.isEmpty { steps.append(.key(key)) }
                key = ""
                var digits = ""
                var closed = false
                while let next = characters.next() {
                    if next == "]" { closed = true; break }
                    digits.append(next)
                }
                guard closed else { throw FeedSyntaxError(reason: "a '[' without its ']'") }
                guard let index = Int(digits), index >= 0, digits.allSatisfy(\.isASCII) else {
                    throw FeedSyntaxError(reason: "'[\(digits)]' is not an array index such as [0]")
                }
                steps.append(.index(index))
                afterIndex = true
            case "]":
                throw FeedSyntaxError(reason: "a ']' without its '['")
            default:
                if afterIndex { throw FeedSyntaxError(reason: "a key right after ']' needs a '.' before it") }
                key.append(character)
            }
        }
        if !key.isEmpty {
            steps.append(.key(key))
        } else if !afterIndex {
            throw FeedSyntaxError(reason: "it ends with '.'")
        }
        self.steps = steps
    }

    /// The value at this path in `root`, or where and why the path could not be followed.
    func resolve(in root: FeedJSON) -> Result<FeedJSON, Miss> {
        var value = root
        var reached = ""
        for step in steps {
            switch (step, value) {
            case (.key(let key), .object(let members)):
                guard let next = members[key] else {
                    return .failure(Miss(reached: reached, value: value, problem: .noKey(key)))
                }
                value = next
                reached += reached.isEmpty ? key : "." + key
            case (.index(let index), .array(let elements)):
                guard index < elements.count else {
                    return .failure(Miss(reached: reached, value: value, problem: .noElement(index, count: elements.count)))
                }
                value = elements[index]
                reached += "[\(index)]"
            case (.key(let key), _):
                return .failure(Miss(reached: reached, value: value, problem: .wrongKind(value.kind, wanted: "an object with key '\(key)'")))
            case (.index(let index), _):
                return .failure(Miss(reached: reached, value: value, problem: .wrongKind(value.kind, wanted: "an array to take [\(index)] from")))
            }
        }
        return .success(value)
    }
}

/// Why a path or a clock pattern of a recipe is not well formed.
struct FeedSyntaxError: Error {
    var reason: String
}
