import Foundation

/// Reads a `Retry-After` header: delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
enum RetryAfter {
    /// Seconds to wait from `now`, never negative; nil when the value is neither form.
    static func seconds(from value: String, now: Date) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) {
            return seconds.isFinite ? max(0, seconds) : nil
        }
        guard let date = httpDate(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// IMF-fixdate, then the two obsolete forms RFC 9110 still asks recipients to accept.
    /// A formatter per call: 429s are rare and DateFormatter is not Sendable, so it cannot be shared.
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
