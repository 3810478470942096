import Foundation
import GuideCore

/// An RFC 5545 calendar of airings, written by hand: none of the Swift packages this project may
/// use writes iCalendar, and the little it needs (text escaping, line folding, UTC times) is
/// below. The output is deterministic: the same guide and request give the same bytes, so ETags
/// hold and a subscribed phone gets 304s until the guide changes.
struct ICalendar: Sendable {
    struct Event: Sendable {
        /// Stable across refreshes, so that a calendar updates an event instead of adding a copy.
        var uid: String
        var stamp: Date
        var start: Date
        /// Nil for an airing without a stop: an event without DTEND lasts no time (§3.6.1).
        var end: Date?
        var summary: String
        var location: String?
        var description: String?
        var categories: [String]
        /// The airing's page in the web guide, when the server knows the address it is reached by.
        var url: String?
        /// How long before `start` the reminder goes off.
        var alarmLead: Duration
        var alarmDescription: String
    }

    /// `X-WR-CALNAME`: the name calendar apps show for a subscription.
    var name: String?
    /// For a subscribed feed: how often a client should fetch it again (RFC 7986
    /// `REFRESH-INTERVAL`, and Outlook's `X-PUBLISHED-TTL`).
    var refreshInterval: Duration?
    var events: [Event]

    /// The calendar's bytes: UTF-8, CRLF line ends, lines folded at 75 octets.
    func render() -> [UInt8] {
        var lines = ContentLines()
        lines.add("BEGIN:VCALENDAR")
        lines.add("VERSION:2.0")
        lines.add("PRODID:-//tvguide//tvguide serve//EN")
        lines.add("CALSCALE:GREGORIAN")
        lines.add("METHOD:PUBLISH")
        if let name { lines.add("X-WR-CALNAME:" + Self.escape(name)) }
        if let refreshInterval {
            let duration = Self.duration(refreshInterval)
            lines.add("REFRESH-INTERVAL;VALUE=DURATION:" + duration)
            lines.add("X-PUBLISHED-TTL:" + duration)
        }
        for event in events {
            lines.add("BEGIN:VEVENT")
            lines.add("UID:" + Self.escape(event.uid))
            lines.add("DTSTAMP:" + CompactTime.format(event.stamp))
            lines.add("DTSTART:" + CompactTime.format(event.start))
            if let end = event.end { lines.add("DTEND:" + CompactTime.format(end)) }
            lines.add("SUMMARY:" + Self.escape(event.summary))
            if let location = event.location { lines.add("LOCATION:" + Self.escape(location)) }
            if let description = event.description { lines.add("DESCRIPTION:" + Self.escape(description)) }
            if !event.categories.isEmpty { lines.add("CATEGORIES:" + event.categories.map(Self.escape).joined(separator: ",")) }
            if let url = event.url { lines.add("URL:" + url) }
            lines.add("BEGIN:VALARM")
            lines.add("ACTION:DISPLAY")
            lines.add("DESCRIPTION:" + Self.escape(event.alarmDescription))
            lines.add("TRIGGER:" + (event.alarmLead > .zero ? "-" : "") + Self.duration(event.alarmLead))
            lines.add("END:VALARM")
            lines.add("END:VEVENT")
        }
        lines.add("END:VCALENDAR")
        return lines.bytes
    }

    /// A TEXT value escaped as §3.3.11 asks: backslash, semicolon and comma get a backslash,
    /// a line break becomes `\n`. Other control characters are not allowed in TEXT and are dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            // CRLF is one line break, already written at its CR.
            case "\n": if !previousWasCR { out += "\\n" }
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A §3.3.6 duration in whole minutes when it is one (`PT5M`), else in seconds; the sign is
    /// the caller's.
    static func duration(_ duration: Duration) -> String {
        let seconds = abs(duration.components.seconds)
        if seconds == 0 { return "PT0S" }
        if seconds % 3600 == 0 { return "PT\(seconds / 3600)H" }
        if seconds % 60 == 0 { return "PT\(seconds / 60)M" }
        return "PT\(seconds)S"
    }
}

/// Content lines joined with CRLF and folded as §3.1 asks: no line longer than 75 octets, a
/// continuation starting with one space, and never a UTF-8 character split across two lines.
private struct ContentLines {
    static let limit = 75
    private(set) var bytes: [UInt8] = []

    mutating func add(_ line: String) {
        var length = 0
        for scalar in line.unicodeScalars {
            let width = UTF8.width(scalar)
            if length + width > Self.limit {
                bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
                length = 1
            }
            UTF8.encode(scalar) { bytes.append($0) }
            length += width
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
    }
}
