import Foundation

/// A `DecodingError` as one line that names where the document is wrong (`data[3].inittime: …`,
/// `results[0].id is missing`), for a provider's `ProviderError.malformed`.
package struct DecodingErrorDescription: CustomStringConvertible {
    package let error: DecodingError

    package init(_ error: DecodingError) { self.error = error }

    package var description: String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return context.underlyingError.map { "not valid JSON (\($0))" } ?? "not valid JSON"
        case .dataCorrupted(let context):
            return "\(Self.path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(Self.path(context.codingPath + [key])) is missing"
        case .valueNotFound(_, let context):
            return "\(Self.path(context.codingPath)) is null or empty"
        case .typeMismatch(_, let context):
            return "\(Self.path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }

    /// `data[3].name`: array positions in brackets, names after dots. A key with both a name and a
    /// position (a named field of a positional array) is shown by its name.
    static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the document" }
        var out = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == String(index) || key.stringValue == "Index \(index)" {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out
    }
}
