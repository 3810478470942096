import Foundation
import GuideCore

package enum AudienceSamples {
    package static func day(_ text: String) -> Day {
        guard let day = Day(text) else { fatalError("bad sample day \(text)") }
        return day
    }

    /// Days from `first` through `last`.
    package static func days(_ first: String, through last: String) -> [Day] {
        var days = [day(first)]
        while days[days.count - 1] < day(last) { days.append(days[days.count - 1].adding(days: 1)) }
        return days
    }

    /// Three rows as a scraper gives them: source's rank, no `source`, not in ranking order.
    package static func ranking(_ day: Day) -> [AudienceRecord] {
        [
            AudienceRecord(day: day, rank: 2, title: "El hormiguero", channel: "Antena3.es", viewers: 1_900_000, share: 14.1),
            AudienceRecord(day: day, rank: 1, title: "Telediario 2", channel: "La1.es", viewers: 2_100_000, share: 16.4),
            AudienceRecord(day: day, rank: 3, title: "La Revuelta", channel: "La1.es", viewers: 1_500_000, share: 11.0),
        ]
    }

    package static let layoutChanged = ProviderError.malformed("field 'viewers' (xpath td[4], parse number): '—' is not a number")
}
