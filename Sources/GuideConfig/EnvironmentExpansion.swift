import Foundation

/// `${VAR}` and `${VAR:-default}` in string values. Hand-written: the syntax is small and the
/// rules (what counts as missing, never echoing a value) are ours.
///
/// - `${VAR}` is the variable's value; an unset or empty variable is missing.
/// - `${VAR:-default}` is the value, or `default` when the variable is unset or empty.
/// - `$${` writes a literal `${`; any other `$` is literal.
enum EnvironmentExpansion {
    struct Result: Sendable {
        var text: String
        /// True when some part of `text` came from the environment, so it must not be shown.
        var usedEnvironment: Bool
    }

    static func expand(_ raw: String, environment: [String: String], at location: SourceLocation) throws(ConfigError) -> Result {
        guard raw.contains("$") else { return Result(text: raw, usedEnvironment: false) }
        var output = ""
        var usedEnvironment = false
        var rest = Substring(raw)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let afterDollar = rest[rest.index(after: dollar)...]
            if afterDollar.hasPrefix("${") {
                output += "${"
                rest = afterDollar.dropFirst(2)
                continue
            }
            guard afterDollar.hasPrefix("{") else {
                output += "$"
                rest = afterDollar
                continue
            }
            guard let close = afterDollar.firstIndex(of: "}") else {
                throw .invalidValue("'${' without a closing '}' in '\(raw)'", location)
            }
            let reference = try Reference(afterDollar[afterDollar.index(after: afterDollar.startIndex)..<close], in: raw, at: location)
            if let value = environment[reference.name], !value.isEmpty {
                output += value
                usedEnvironment = true
            } else if let fallback = reference.fallback {
                output += fallback
            } else {
                throw .missingEnvironment(variable: reference.name, location)
            }
            rest = afterDollar[afterDollar.index(after: close)...]
        }
        output += rest
        return Result(text: output, usedEnvironment: usedEnvironment)
    }

    /// The variables `raw` refers to, in order, and whether each has a default.
    static func references(in raw: String) -> [(name: String, hasDefault: Bool)] {
        var found: [(name: String, hasDefault: Bool)] = []
        var rest = Substring(raw)
        while let start = rest.range(of: "${") {
            let isEscaped = start.lowerBound > rest.startIndex && rest[rest.index(before: start.lowerBound)] == "$"
            rest = rest[start.upperBound...]
            guard !isEscaped, let close = rest.firstIndex(of: "}") else { continue }
            let body = rest[..<close]
            let separator = body.range(of: ":-")
            let name = separator.map { body[..<$0.lowerBound] } ?? body
            if Reference.isValidName(name) { found.append((String(name), separator != nil)) }
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    private struct Reference {
        var name: String
        var fallback: String?

        init(_ body: Substring, in raw: String, at location: SourceLocation) throws(ConfigError) {
            let name: Substring
            if let separator = body.range(of: ":-") {
                name = body[..<separator.lowerBound]
                fallback = String(body[separator.upperBound...])
            } else {
                name = body
                fallback = nil
            }
            guard Self.isValidName(name) else {
                throw .invalidValue(
                    "'${\(body)}' in '\(raw)' is not a variable reference: a name is letters, digits and '_', not starting with a digit (write $${ for a literal ${)",
                    location)
            }
            self.name = String(name)
        }

        static func isValidName(_ name: Substring) -> Bool {
            guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
                return false
            }
            return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
        }
    }
}
