import Foundation
import GuideCore

/// Stable JSON: sorted keys, times in ISO 8601 in the zone the client asked for.
enum JSONRendering {
    static func encode(_ value: some Encodable, timeZone: TimeZone) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ZonedTime.format(date, in: timeZone))
        }
        return try encoder.encode(value)
    }
}

/// ISO 8601 times in a zone: `2026-10-25T22:30:00+01:00`, or `…Z` in UTC.
enum ZonedTime {
    static func format(_ date: Date, in timeZone: TimeZone) -> String {
        let offset = timeZone.secondsFromGMT(for: date)
        let c = CivilTime.components(of: date, in: timeZone)
        var text = "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second))"
        if offset == 0 && timeZone.identifier == TimeZone.gmt.identifier {
            text += "Z"
        } else {
            let sign = offset < 0 ? "-" : "+"
            let magnitude = abs(offset)
            text += "\(sign)\(pad(magnitude / 3600)):\(pad(magnitude % 3600 / 60))"
        }
        return text
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
