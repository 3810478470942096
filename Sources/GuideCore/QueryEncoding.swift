import Foundation

/// Builds request URLs whose query is percent-encoded strictly: every byte but the RFC 3986
/// unreserved characters (`A–Z a–z 0–9 - . _ ~`) is escaped. `URLComponents.queryItems` leaves
/// `+`, `'`, `:` and others as they are, and a server reads a bare `+` as a space; strict
/// encoding also gives recordings one spelling per request (docs/recording.md), which Python's
/// `urllib.parse.quote(value, safe="-._~")` reproduces.
package enum QueryEncoding {
    /// `base` + `path` (relative, no leading `/`) + `?` + the items in the order given.
    package static func url(_ base: URL, path: String, query: [(name: String, value: String)] = []) -> URL {
        var text = base.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        text += path
        if !query.isEmpty {
            text += "?" + query.map { "\(escape($0.name))=\(escape($0.value))" }.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            preconditionFailure("a URL built from an http(s) base and escaped parts is valid: \(text)")
        }
        return url
    }

    package static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped += String(format: "%%%02X", byte)
            }
        }
        return escaped
    }
}
