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
        guard text.count <= APILimits.queryText else {
            throw APIError.badParameter(name, "\(text.count) characters, at most \(APILimits.queryText) are allowed")
        }
        return text
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
