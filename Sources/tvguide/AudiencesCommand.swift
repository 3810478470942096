import ArgumentParser
import Foundation
import GuideCore
import TVGuideKit

struct AudiencesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiences",
        abstract: "Print the audience ranking kept in the latest snapshot.",
        discussion: """
        Programmes ranked by viewers: by default the most recent day in the snapshot; --date one \
        day; --days N the N most recent days together, as the original app showed the last two \
        weeks. Exit status: 0 when something was printed, 1 when the selection is empty, 2 on \
        error.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: ArgumentHelp("The snapshot folder (its latest.json is read).", valueName: "dir"))
    var snapshots: String = "snapshots"

    @Option(help: ArgumentHelp("One day, YYYY-MM-DD.", valueName: "day"))
    var date: String?

    @Option(help: ArgumentHelp("The N most recent days in the snapshot.", valueName: "n"))
    var days: Int?

    @Option(help: ArgumentHelp("Only this channel (canonical id, e.g. La1.es).", valueName: "id"))
    var channel: String?

    @Option(help: "Output format.")
    var format: Format = .text

    func validate() throws {
        if date != nil && days != nil { throw ValidationError("give --date or --days, not both") }
        if let date, Day(date) == nil { throw ValidationError("--date: expected YYYY-MM-DD, got '\(date)'") }
        if let days, days < 1 { throw ValidationError("--days: expected 1 or more, got \(days)") }
    }

    func run() throws {
        let snapshot = try reporting { () throws(CommandFailure) in try SnapshotFiles.latest(in: snapshots) }
        let stored = snapshot.audiences.sorted { $0.day > $1.day }
        let chosen: [AudienceDay] = if let date, let day = Day(date) {
            stored.filter { $0.day == day }
        } else {
            Array(stored.prefix(days ?? 1))
        }
        let ranking = chosen.flatMap(\.records)
            .filter { channel == nil || $0.channel == channel }
            .sorted { ($1.viewers, $0.day, $0.channel, $0.title) < ($0.viewers, $1.day, $1.channel, $1.title) }
        guard !ranking.isEmpty else {
            let have = stored.map(\.day.description)
            printError("no audiences for that selection; the snapshot has \(have.isEmpty ? "none" : "\(have.last!) … \(have.first!)")")
            throw Exit.failed
        }
        switch format {
        case .text: print(Self.table(ranking, days: chosen.count))
        case .json: print(try Self.json(ranking))
        }
    }

    static func table(_ ranking: [AudienceRecord], days: Int) -> String {
        let names = ranking.map(\.title)
        let titleWidth = min(max(names.map(\.count).max() ?? 0, 9), 48)
        let channelWidth = max(ranking.map(\.channel.count).max() ?? 0, 7)
        var lines = ["   #  " + (days > 1 ? "day         " : "") + "start  " + pad("programme", titleWidth) + "  " + pad("channel", channelWidth) + "     viewers   share"]
        let clock = DateFormatter()
        clock.locale = Locale(identifier: "en_US_POSIX")
        clock.timeZone = TimeZone(identifier: "Europe/Madrid")
        clock.dateFormat = "HH:mm"
        for (index, record) in ranking.enumerated() {
            var line = String(format: "%4d  ", index + 1)
            if days > 1 { line += record.day.description + "  " }
            line += (record.start.map(clock.string(from:)) ?? "  -  ") + "  "
            line += pad(record.title.count > titleWidth ? String(record.title.prefix(titleWidth - 1)) + "…" : record.title, titleWidth) + "  "
            line += pad(record.channel, channelWidth) + "  "
            line += String(format: "%10d", record.viewers) + "  "
            line += record.share.map { String(format: "%5.1f%%", $0) } ?? "     -"
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ ranking: [AudienceRecord]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISOTime.format(date))
        }
        return String(decoding: try encoder.encode(ranking), as: UTF8.self)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
