import Foundation
import GuideCore

/// XMLTV's `xmltv_ns` episode numbering: `season[/seasons] . episode[/episodes] . part[/parts]`,
/// each number counting from 0 and any of them left empty (`.4.`, `2.11/24.0/2`).
package enum XMLTVEpisode {
    /// The numbers as an `Episode` counting from 1 (its other fields left empty); nil when `text`
    /// is not three dot-separated fields of the form `[n][/total]`. Reads bytes, not Characters:
    /// it runs for most programmes of a big guide.
    package static func parse(_ text: String) -> Episode? {
        var fields: [(Int?, Int?)] = []
        fields.reserveCapacity(3)
        var index: Int?
        var total: Int?
        var inTotal = false
        var totalDigits = 0
        var digitsEnded = false

        func closeField() -> Bool {
            if inTotal, totalDigits == 0 { return false }
            fields.append((index.map { $0 + 1 }, total))
            index = nil
            total = nil
            inTotal = false
            totalDigits = 0
            digitsEnded = false
            return true
        }

        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                // Digits separated by spaces (`1 2`) are not one number.
                if digitsEnded { return nil }
                let digit = Int(byte &- 0x30)
                if inTotal {
                    guard totalDigits < 9 else { return nil }
                    total = (total ?? 0) * 10 + digit
                    totalDigits += 1
                } else {
                    guard (index ?? 0) < 100_000_000 else { return nil }
                    index = (index ?? 0) * 10 + digit
                }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if inTotal ? totalDigits > 0 : index != nil { digitsEnded = true }
            case UInt8(ascii: "/"):
                guard !inTotal else { return nil }
                inTotal = true
                digitsEnded = false
            case UInt8(ascii: "."):
                guard fields.count < 2, closeField() else { return nil }
            default:
                return nil
            }
        }
        guard fields.count == 2, closeField() else { return nil }
        return Episode(season: fields[0].0, seasonCount: fields[0].1, number: fields[1].0,
                       episodeCount: fields[1].1, part: fields[2].0, partCount: fields[2].1)
    }

    /// The `xmltv_ns` text for an episode's numbers, or nil when it has none to write.
    package static func format(_ episode: Episode) -> String? {
        let (season, seasonCount, number) = (episode.season, episode.seasonCount, episode.number)
        let (episodeCount, part, partCount) = (episode.episodeCount, episode.part, episode.partCount)
        guard [season, seasonCount, number, episodeCount, part, partCount].contains(where: { $0 != nil }) else { return nil }
        func field(_ value: Int?, _ total: Int?) -> String {
            (value.map { String(max($0 - 1, 0)) } ?? "") + (total.map { "/\($0)" } ?? "")
        }
        return "\(field(season, seasonCount)).\(field(number, episodeCount)).\(field(part, partCount))"
    }
}
