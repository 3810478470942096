import Foundation
import Hummingbird

/// Typed access to a request's query: each reader either returns a valid value or throws a 400
/// that names the parameter and what was wrong with it.
struct QueryReader {
    let parameters: Parameters

    init(_ request: Request) {
        parameters = request.uri.queryParameters
    }

    func string(_ name: String) -> String? {
        parameters[name[...]].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A free text parameter (a type, a genre): at most `APILimits.queryText` characters.
    func text(_ name: String) throws -> String? {
        guard let text = string(name) else { return nil }
        try Self.checkLength(text, name, atMost: APILimits.queryText)
        return text
    }

    /// A text to search or match, without surrounding white space: nil when absent or blank. At
    /// most `maximum` characters as sent.
    func trimmedText(_ name: String, atMost maximum: Int) throws -> String? {
        guard let text = string(name) else { return nil }
        try Self.checkLength(text, name, atMost: maximum)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Refuses a value longer than `maximum` characters counted as openapi.yaml's `maxLength`
    /// counts them (code points, white space included), so that the document and the server
    /// draw the line at the same place.
    static func checkLength(_ text: some StringProtocol, _ name: String, atMost maximum: Int) throws {
        let length = text.unicodeScalars.count
        guard length <= maximum else { throw APIError.badParameter(name, "\(length) characters, at most \(maximum) are allowed") }
    }

    /// Every value of a repeated parameter, in order.
    func all(_ name: String) -> [String] {
        parameters.getAll(name).map { String($0) }.filter { !$0.isEmpty }
    }

    /// A comma-separated list, also given by repeating the parameter.
    func list(_ name: String) -> [String]? {
        let values = all(name).flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        return values.isEmpty ? nil : values
    }

    func int(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws -> Int {
        try int(name, in: range) ?? fallback
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else { throw APIError.badParameter(name, "\(Quoted(text)) is not a whole number") }
        guard range.contains(value) else {
            throw APIError.badParameter(name, "\(value) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }
}
