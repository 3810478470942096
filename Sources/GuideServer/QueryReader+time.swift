import Foundation
import GuideCore

/// The query's times, days and zones: read once here for every route, within the years the guide serves.
extension QueryReader {
    /// `tz`: an IANA zone (`Europe/Madrid`) for rendering times; UTC when absent.
    func timeZone() throws -> TimeZone {
        guard let name = string("tz") else { return .gmt }
        return try Self.zone(named: name)
    }

    /// The zone `tz` names, when it is one of `zoneNames`.
    static func zone(named name: String) throws -> TimeZone {
        guard zoneNames.contains(name), let zone = TimeZone(identifier: name) else {
            throw APIError.badParameter("tz", "\(Quoted(name)) is not a known time zone (e.g. Europe/Madrid)")
        }
        return zone
    }

    /// The names `tz` takes, the `TimeZoneName` enumeration of openapi.yaml: Foundation's canonical
    /// zones and `UTC`. `TimeZone(identifier:)` alone also takes aliases, abbreviations (`EST`)
    /// and offsets (`GMT+1`), which no document could list.
    static let zoneNames = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"])

    /// A moment: an ISO 8601 time (`2026-10-25T20:00:00Z`, `…+01:00`), or a local time or day
    /// without an offset, read in `timeZone`.
    func time(_ name: String, in timeZone: TimeZone) throws -> Date? {
        guard let text = string(name) else { return nil }
        return try Self.time(text, name: name, in: timeZone)
    }

    /// `text` read as `time(_:in:)` reads parameter `name`.
    static func time(_ text: String, name: String, in timeZone: TimeZone) throws -> Date {
        // `ISOTime.parse` reads a time without an offset as UTC; here that is a local time.
        let hasOffset = text.hasSuffix("Z") || text.dropFirst(19).contains { $0 == "+" || $0 == "-" }
        if text.utf8.count == 10 { return try checkedDay(text, name: name).interval(in: timeZone).start }
        let moment: Date
        if hasOffset, let date = ISOTime.parse(text) {
            moment = date
        } else if let local = ISOTime.parse(text + "Z") {
            moment = CivilTime.instant(wallClock: Int(local.timeIntervalSince1970), in: timeZone)
        } else if Self.isShapedAsTime(text) {
            // Refused rather than carried over: `02-31` is not 3 March, `+99:99` not four days.
            throw APIError.badParameter(name, "\(Quoted(text)) has a field out of range (RFC 3339: a day of its month, "
                                        + "hours up to 23, minutes and seconds up to 59, an offset from -23:59 to +23:59)")
        } else {
            throw APIError.badParameter(name, "\(Quoted(text)) is not an ISO 8601 time or YYYY-MM-DD")
        }
        guard years.contains(CivilTime.components(epochSeconds: Int(moment.timeIntervalSince1970)).year) else {
            throw APIError.badParameter(name, "\(Quoted(text)) is outside the years \(years.lowerBound)–\(years.upperBound) the guide serves")
        }
        return moment
    }

    /// Whether `text` starts as `YYYY-MM-DDTHH:MM:SS` does, digits where digits go: a time with a
    /// value out of range rather than not a time at all.
    private static func isShapedAsTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(19))
        let shape = Array("dddd-dd-ddTdd:dd:dd".utf8)
        guard bytes.count == shape.count else { return false }
        return zip(bytes, shape).allSatisfy { byte, expected in
            switch expected {
            case UInt8(ascii: "d"): (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            case UInt8(ascii: "T"): byte == UInt8(ascii: "T") || byte == UInt8(ascii: " ")
            default: byte == expected
            }
        }
    }

    /// A day of the calendar (`2026-02-30` is not one), in the years the API serves.
    func day(_ name: String) throws -> Day? {
        guard let text = string(name) else { return nil }
        return try Self.checkedDay(text, name: name)
    }

    /// The years a date or time parameter may name. Outside them Foundation's calendar switches to
    /// the Julian one (before 1583, a day would end before it starts) or day arithmetic overflows;
    /// a guide has nothing to say about them anyway. Checked once, here, for every route.
    static let years = 1900...2199

    static func checkedDay(_ text: String, name: String) throws -> Day {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element) }),
              let day = Day(text)
        else { throw APIError.badParameter(name, "\(Quoted(text)) is not a date (YYYY-MM-DD)") }
        guard years.contains(day.year) else {
            throw APIError.badParameter(name, "\(day) is outside the years \(years.lowerBound)–\(years.upperBound) the guide serves")
        }
        guard day.adding(days: 0) == day else { throw APIError.badParameter(name, "\(day) is not a day of the calendar") }
        return day
    }
}
