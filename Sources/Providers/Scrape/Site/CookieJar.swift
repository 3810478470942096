import Foundation

/// The cookies a site sets during one run, sent back as a browser would: to the host (or the
/// domain) that set them, under their path. A session that the site keeps in cookies (a login,
/// a CSRF pair) then works without the recipe copying them by hand. Expiry dates are not kept:
/// a run lasts minutes, and a cookie deleted with `Max-Age=0` or a past `Expires` is removed.
actor CookieJar {
    private struct Cookie {
        var name: String
        var value: String
        /// The host that set it, or the `Domain` it names (then its subdomains too).
        var domain: String
        var hostOnly: Bool
        var path: String

        func matches(_ url: URL) -> Bool {
            guard let host = url.host?.lowercased() else { return false }
            let domainMatches = host == domain || (!hostOnly && host.hasSuffix("." + domain))
            let requestPath = url.path.isEmpty ? "/" : url.path
            return domainMatches && (requestPath == path || requestPath.hasPrefix(path.hasSuffix("/") ? path : path + "/"))
        }
    }

    private var cookies: [Cookie] = []

    /// Reads `Set-Cookie` (several joined by newlines, as the transports give them).
    func store(_ setCookie: String?, from url: URL) {
        guard let setCookie, let host = url.host?.lowercased() else { return }
        for line in setCookie.split(separator: "\n") {
            let pieces = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = pieces.first, let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { continue }
            var cookie = Cookie(name: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...]), domain: host, hostOnly: true, path: "/")
            var expired = false
            for attribute in pieces.dropFirst() {
                let parts = attribute.split(separator: "=", maxSplits: 1).map(String.init)
                let value = parts.count > 1 ? parts[1] : ""
                switch parts[0].lowercased() {
                case "domain" where !value.isEmpty:
                    cookie.domain = value.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
                    cookie.hostOnly = false
                case "path" where value.hasPrefix("/"):
                    cookie.path = value
                case "max-age":
                    expired = Int(value).map { $0 <= 0 } ?? false
                case "expires":
                    expired = expired || HTTPCookieDate.isPast(value)
                default:
                    break
                }
            }
            cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
            if !expired { cookies.append(cookie) }
        }
    }

    /// The `Cookie` header for `url`, longer paths first as RFC 6265 orders them; nil when none.
    func header(for url: URL) -> String? {
        // Among equal paths, the order they were set in.
        let matching = cookies.enumerated().filter { $0.element.matches(url) }
            .sorted { ($0.element.path.count, $1.offset) > ($1.element.path.count, $0.offset) }.map(\.element)
        return matching.isEmpty ? nil : matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The cookies sent to `url`, by name.
    func values(for url: URL) -> [String: String] {
        Dictionary(cookies.filter { $0.matches(url) }.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}

/// `Expires` dates as sites write them (`Thu, 01 Jan 1970 00:00:00 GMT`, or with dashes).
enum HTTPCookieDate {
    static func isPast(_ text: String, now: Date = Date()) -> Bool {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for pattern in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz"] {
            formatter.dateFormat = pattern
            if let date = formatter.date(from: text) { return date <= now }
        }
        return false
    }
}
