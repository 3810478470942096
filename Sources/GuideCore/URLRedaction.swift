import Foundation

/// Keeps credentials out of logs, error messages and files: API keys travel in query strings
/// (`?api_key=…`) and user-info (`user:password@`), and both must never be written anywhere.
public enum URLRedaction {
    /// What replaces a secret value in a redacted URL.
    public static let placeholder = "REDACTED"

    /// True for query item names that carry a credential: `api_key`, `apikey`, `api-key`, `key`,
    /// `token`, `access_token`, `secret`, `password`… (case-insensitive).
    public static func isSecret(queryItemNamed name: String) -> Bool {
        let normalized = name.lowercased().filter { $0 != "_" && $0 != "-" }
        return normalized == "key" || normalized == "password" || normalized == "sig" || normalized == "signature"
            || normalized.hasSuffix("apikey") || normalized.hasSuffix("token") || normalized.hasSuffix("secret")
    }

    /// `url` as text fit for a log line or an error: secret query values replaced by
    /// `REDACTED`, user-info removed, everything else (order, encoding) unchanged.
    public static func redacted(_ url: URL) -> String {
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
    public static func withoutSecrets(_ url: URL) -> String {
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
    /// environment) replaced by the placeholder. Values shorter than 4 characters are left
    /// alone: hiding them would mangle ordinary text and they protect nothing.
    public static func scrub(_ text: String, removing secrets: [String]) -> String {
        secrets.reduce(text) { text, secret in
            secret.count < 4 ? text : text.replacingOccurrences(of: secret, with: placeholder)
        }
    }
}
