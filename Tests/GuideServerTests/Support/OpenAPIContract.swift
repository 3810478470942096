import Foundation
import OpenAPIKit
import Yams

/// `/openapi.yaml` read by OpenAPIKit, and what it promises about an answer: a documented status,
/// a documented content type, and a body of that type (JSON bodies against their schema).
struct OpenAPIContract {
    let document: OpenAPI.Document
    let dereferenced: DereferencedDocument

    init(yaml: String) throws {
        document = try YAMLDecoder().decode(OpenAPI.Document.self, from: yaml)
        dereferenced = try document.locallyDereferenced()
    }

    /// Every operation as `GET /channels/{id}/schedule`, the form `GuideServer.routes` lists.
    var operations: [(route: String, path: String, operation: DereferencedOperation)] {
        dereferenced.routes.flatMap { route in
            route.pathItem.endpoints.map { endpoint in
                (route: "\(endpoint.method.rawValue.uppercased()) \(route.path.rawValue)", path: route.path.rawValue, operation: endpoint.operation)
            }
        }
    }

    /// What is wrong with `response` as an answer of `operation`; empty when nothing is.
    static func violations(of response: ServerResponse, to operation: DereferencedOperation) -> [String] {
        let status = response.status
        guard status < 500 else { return ["status \(status): \(response.text.prefix(200))"] }
        let documented = operation.responses[.status(code: status)]
            ?? operation.responses[.range(range(of: status))] ?? operation.responses[.default]
        guard let documented else { return ["status \(status) is not documented"] }
        let mediaType = response.headers["content-type"].map(Self.mediaType)
        guard !documented.content.isEmpty else {
            return response.body.isEmpty ? [] : ["status \(status) has no documented body, got \(response.body.count) bytes of \(mediaType ?? "no type")"]
        }
        guard let mediaType else { return ["status \(status): no Content-Type"] }
        guard let content = documented.content.first(where: { $0.key.typeAndSubtype.lowercased() == mediaType })?.value else {
            return ["status \(status): content type \(mediaType) is not documented (\(documented.content.keys.map(\.typeAndSubtype)))"]
        }
        return BodyCheck.violations(of: response.body, as: mediaType, schema: content.schema).map { "status \(status): \($0)" }
    }

    private static func range(of status: Int) -> OpenAPI.Response.StatusCode.Range {
        switch status {
        case 100..<200: .information
        case 200..<300: .success
        case 300..<400: .redirect
        case 400..<500: .clientError
        default: .serverError
        }
    }

    /// `text/html; charset=utf-8` → `text/html`.
    static func mediaType(_ header: String) -> String {
        header.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }
}

/// Whether a body is what its media type says: JSON checked against its schema, the other types
/// by the signature every answer of that type starts (or ends) with.
enum BodyCheck {
    static func violations(of body: Data, as mediaType: String, schema: DereferencedJSONSchema?) -> [String] {
        switch mediaType {
        case "application/json":
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: body) else {
                return ["not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))"]
            }
            return schema.map { SchemaConformance.violations(of: value, against: $0) } ?? []
        case "text/html":
            return body.starts(with: Data("<!doctype html>".utf8)) ? [] : ["not an HTML page"]
        case "text/calendar":
            return body.starts(with: Data("BEGIN:VCALENDAR\r\n".utf8)) && body.suffix(15) == Data("END:VCALENDAR\r\n".utf8) ? [] : ["not an iCalendar object"]
        case "application/xml":
            return body.starts(with: Data("<?xml".utf8)) ? [] : ["not XML"]
        case "application/gzip":
            return body.starts(with: [0x1F, 0x8B]) ? [] : ["not gzip"]
        case "application/yaml":
            return (try? Yams.load(yaml: String(decoding: body, as: UTF8.self))) is [String: Any] ? [] : ["not a YAML mapping"]
        case "image/vnd.microsoft.icon":
            return body.starts(with: [0, 0, 1, 0]) ? [] : ["not an ICO file"]
        case "audio/x-mpegurl":
            return body.starts(with: Data("#EXTM3U".utf8)) ? [] : ["not an M3U playlist"]
        case "text/plain", "text/css", "text/javascript":
            return String(validating: body, as: UTF8.self) != nil && !body.isEmpty ? [] : ["empty, or not UTF-8 text"]
        default:
            return ["no check for \(mediaType)"]
        }
    }
}

/// A JSON value with its type kept: `true` is not `1`, `1` is not `1.0`'s string.
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): value.debugDescription
        case .array(let values): "array of \(values.count)"
        case .object(let fields): "object with \(fields.keys.sorted())"
        }
    }
}

/// JSON Schema (2020-12, as OpenAPI 3.1 uses it) for the keywords openapi.yaml uses, with one rule
/// stricter than JSON Schema: an object may hold only the properties its schema names (or
/// `additionalProperties` allows), so that a field the server adds without documenting it fails.
enum SchemaConformance {
    static func violations(of value: JSONValue, against schema: DereferencedJSONSchema, at path: String = "$") -> [String] {
        check(value, schema, path, closed: true)
    }

    private static func check(_ value: JSONValue, _ schema: DereferencedJSONSchema, _ path: String, closed: Bool) -> [String] {
        if value == .null {
            switch schema {
            case .null, .fragment: return []
            default: return schema.nullable ? [] : ["\(path): null where the schema does not allow it"]
            }
        }
        var problems: [String] = []
        if let allowed = schema.allowedValues, !allowed.contains(where: { matches($0.value, value) }) {
            problems.append("\(path): \(value) is not one of \(allowed.map { "\($0.value)" })")
        }
        func mismatch(_ type: String) -> [String] { ["\(path): \(value) is not \(type)"] }
        switch schema {
        case .null:
            return mismatch("null")
        case .boolean:
            guard case .bool = value else { return mismatch("a boolean") }
        case .integer(_, let context):
            guard case .int(let number) = value else { return mismatch("an integer") }
            if let minimum = context.minimum, number < minimum.value || (minimum.exclusive && number == minimum.value) {
                problems.append("\(path): \(number) is below \(minimum.value)")
            }
            if let maximum = context.maximum, number > maximum.value || (maximum.exclusive && number == maximum.value) {
                problems.append("\(path): \(number) is above \(maximum.value)")
            }
        case .number(_, let context):
            let number: Double
            switch value {
            case .int(let integer): number = Double(integer)
            case .double(let double): number = double
            default: return mismatch("a number")
            }
            if let minimum = context.minimum, number < minimum.value { problems.append("\(path): \(number) is below \(minimum.value)") }
            if let maximum = context.maximum, number > maximum.value { problems.append("\(path): \(number) is above \(maximum.value)") }
        case .string(let core, let context):
            guard case .string(let text) = value else { return mismatch("a string") }
            let length = text.unicodeScalars.count
            if length < context.minLength { problems.append("\(path): shorter than \(context.minLength)") }
            if let maxLength = context.maxLength, length > maxLength { problems.append("\(path): longer than \(maxLength)") }
            if let pattern = context.pattern, text.range(of: pattern, options: .regularExpression) == nil {
                problems.append("\(path): \(value) does not match \(pattern)")
            }
            if let format = core.formatString, let problem = formatProblem(text, format) { problems.append("\(path): \(problem)") }
        case .array(_, let context):
            guard case .array(let items) = value else { return mismatch("an array") }
            if items.count < context.minItems { problems.append("\(path): fewer than \(context.minItems) items") }
            if let maxItems = context.maxItems, items.count > maxItems { problems.append("\(path): more than \(maxItems) items") }
            if let itemSchema = context.items {
                for (index, item) in items.enumerated() { problems += check(item, itemSchema, "\(path)[\(index)]", closed: true) }
            }
        case .object(_, let context):
            guard case .object(let fields) = value else { return mismatch("an object") }
            for name in context.requiredProperties where fields[name] == nil { problems.append("\(path): required field '\(name)' missing") }
            for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
                if let property = context.properties[name] {
                    problems += check(field, property, "\(path).\(name)", closed: true)
                } else if case .b(let additional) = context.additionalProperties {
                    problems += check(field, additional, "\(path).\(name)", closed: true)
                } else if case .a(false) = context.additionalProperties {
                    problems.append("\(path): field '\(name)' is not allowed")
                } else if closed, context.additionalProperties == nil {
                    problems.append("\(path): field '\(name)' is not documented")
                }
            }
        case .all(let parts, _):
            for part in parts { problems += check(value, part, path, closed: false) }
            if closed, case .object(let fields) = value {
                let documented = Set(parts.flatMap(propertyNames))
                for name in fields.keys.sorted() where !documented.contains(name) {
                    problems.append("\(path): field '\(name)' is not documented")
                }
            }
        case .one(let options, _):
            let passing = options.filter { check(value, $0, path, closed: closed).isEmpty }.count
            if passing != 1 { problems.append("\(path): \(value) matches \(passing) of the oneOf schemas, not 1") }
        case .any(let options, _):
            if !options.contains(where: { check(value, $0, path, closed: closed).isEmpty }) {
                problems.append("\(path): \(value) matches none of the anyOf schemas")
            }
        case .not(let excluded, _):
            if check(value, excluded, path, closed: false).isEmpty { problems.append("\(path): \(value) matches a schema it must not") }
        case .fragment:
            break
        }
        return problems
    }

    private static func propertyNames(_ schema: DereferencedJSONSchema) -> [String] {
        switch schema {
        case .object(_, let context): Array(context.properties.keys)
        case .all(let parts, _): parts.flatMap(propertyNames)
        default: []
        }
    }

    private static func matches(_ allowed: Any, _ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): (allowed as? String) == text
        case .int(let number): (allowed as? Int) == number
        case .bool(let flag): (allowed as? Bool) == flag
        default: false
        }
    }

    /// The formats openapi.yaml names: RFC 3339 date-time (an offset required) and full-date, and
    /// an absolute URI.
    private static func formatProblem(_ text: String, _ format: String) -> String? {
        switch format {
        case "date-time":
            let pattern = #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"#
            return text.range(of: pattern, options: .regularExpression) == nil ? "\(text.debugDescription) is not an RFC 3339 date-time" : nil
        case "date":
            return text.range(of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"#, options: .regularExpression) == nil ? "\(text.debugDescription) is not a full-date" : nil
        case "uri":
            return URL(string: text)?.scheme == nil ? "\(text.debugDescription) is not an absolute URI" : nil
        default:
            return nil
        }
    }
}
