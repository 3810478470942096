import Foundation

/// Keeps credentials out of logs, error messages and files: API keys travel in query strings
/// (`?api_key=…`) and user-info (`user:password@`), and both must never be written anywhere.
package enum URLRedaction {
    /// What replaces a secret value in a redacted URL.
    package static let placeholder = "REDACTED"

    /// True for query item names that carry a credential: `api_key`, `apikey`, `api-key`, `key`,
    /// `token`, `access_token`, `secret`, `password`… (case-insensitive).
    package static func isSecret(queryItemNamed name: String) -> Bool {
        let normalized = name.lowercased().filter { $0 != "_" && $0 != "-" }
        return normalized == "key" || normalized == "password" || normalized == "sig" || normalized == "signature"
            || normalized.hasSuffix("apikey") || normalized.hasSuffix("token") || normalized.hasSuffix("secret")
    }

    /// `url` as text fit for a log line or an error: secret query values replaced by
    /// `REDACTED`, user-info removed, everything else (order, encoding) unchanged.
    package static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<unparseable URL>"
        }
        components.user = nil
        components.password = nil
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                guard isSecret(queryItemNamed: item.name), item.value != nil else { return item }
                return URLQueryItem(name: item.name, value: placeholder)
            }
        }
        return components.string ?? "<unparseable URL>"
    }

    /// `url` with secret query items and user-info removed altogether: the identity under which a
    /// response is cached or recorded, so that neither holds a key and a new key keeps the cache.
    package static func withoutSecrets(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.user = nil
        components.password = nil
        if let items = components.percentEncodedQueryItems {
            let kept = items.filter { !isSecret(queryItemNamed: $0.name) }
            components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        }
        return components.string ?? url.absoluteString
    }

    /// `text` with every occurrence of the given secret values (API keys, tokens taken from the
    /// environment) replaced by the placeholder, however it is written (`SecretScrubber`).
    package static func scrub(_ text: String, removing secrets: [String]) -> String {
        SecretScrubber(secrets).scrub(text)
    }
}

/// Finds secret values in text in every form a URL, a query encoder or JSON gives them: each
/// character other than RFC 3986's unreserved ones may be written as is or percent-encoded (in
/// either case), and `/` also as JSON's `\/`; `a|b+c` is found as `a%7Cb+c` and `a%7cb%2Bc` too.
///
/// Length decides how a value is looked for. Shorter than `minimumLength` it is not looked for:
/// hiding a 2-digit PIN would mangle every number, and such a value travels only where nothing
/// is printed (TheTVDB's login body). Shorter than `wholeWordBelow` (a 4-digit PIN), only where it
/// stands alone, not inside a longer run of letters and digits, so `4711` is hidden in
/// `pin 4711` but `147112` is left alone. Longer values are found anywhere.
package struct SecretScrubber: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable once made and safe to share between threads.
    package static let minimumLength = 4
    package static let wholeWordBelow = 8

    private let short: [NSRegularExpression]
    private let long: [NSRegularExpression]

    package init(_ secrets: [String]) {
        var short: [NSRegularExpression] = []
        var long: [NSRegularExpression] = []
        for secret in Set(secrets) where secret.count >= Self.minimumLength {
            if secret.count < Self.wholeWordBelow {
                if let expression = Self.expression(secret, wholeWord: true) { short.append(expression) }
            } else if let expression = Self.expression(secret, wholeWord: false) {
                long.append(expression)
            }
        }
        // Longest first: a key that contains another is replaced whole.
        self.short = short.sorted { $0.pattern.count > $1.pattern.count }
        self.long = long.sorted { $0.pattern.count > $1.pattern.count }
    }

    package var isEmpty: Bool { short.isEmpty && long.isEmpty }

    package func scrub(_ text: String) -> String {
        (long + short).reduce(text) { text, expression in
            expression.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: URLRedaction.placeholder)
        }
    }

    /// True when `data`, read as UTF-8, holds a value of `wholeWordBelow` characters or more: a
    /// shorter one in a body (a year, a count) cannot be told from the data around it.
    package func holdsLongSecret(_ data: Data) -> Bool {
        guard !long.isEmpty else { return false }
        let text = String(decoding: data, as: UTF8.self)
        let range = NSRange(text.startIndex..., in: text)
        return long.contains { $0.firstMatch(in: text, range: range) != nil }
    }

    private static func expression(_ secret: String, wholeWord: Bool) -> NSRegularExpression? {
        var pattern = ""
        for character in secret {
            let text = String(character)
            if text.unicodeScalars.allSatisfy(isUnreserved) {
                pattern += NSRegularExpression.escapedPattern(for: text)
                continue
            }
            let encoded = text.utf8.map { String(format: "%%%02X", Int($0)) }.joined()
            var choices = [NSRegularExpression.escapedPattern(for: text), "(?i:\(encoded))"]
            if text == "/" { choices.append("\\\\/") }
            pattern += "(?:" + choices.joined(separator: "|") + ")"
        }
        if wholeWord { pattern = "(?<![A-Za-z0-9])" + pattern + "(?![A-Za-z0-9])" }
        return try? NSRegularExpression(pattern: pattern)
    }

    private static func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~".unicodeScalars.contains(scalar))
    }
}
