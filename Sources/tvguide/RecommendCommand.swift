import ArgumentParser
import Foundation
import GuideConfig
import GuideCore
import TVGuideKit

struct RecommendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recommend",
        abstract: "Recommend the day's best few programmes from a taste profile.",
        discussion: """
        Reads the latest snapshot and picks, among the day's films, series, shows and \
        documentaries (or the --kinds given), the ones most like what you saved or liked \
        (the same series, director, cast, genres), the best rated (a rating from few votes counts \
        less), premieres and last chances, the most watched where audiences were joined, and \
        your kinds and genres; then keeps the list varied. Each pick says why. Without a profile: \
        the day's best-rated films and premieres. The same snapshot, profile and day give the \
        same list. Exit status: 0 with picks, 1 with none, 2 on error.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var config: ConfigurationOptions

    @Option(help: ArgumentHelp("The snapshot folder (its latest.json is read).", valueName: "dir"))
    var snapshots: String = "snapshots"

    @Option(help: ArgumentHelp("The day, YYYY-MM-DD; default today in --tz.", valueName: "day"))
    var date: String?

    @Option(help: ArgumentHelp("The current time (ISO 8601): today's picks start from it. Default: the clock.", valueName: "time"))
    var now: TimeArgument?

    @Option(help: ArgumentHelp("The zone days and times are read and printed in.", valueName: "zone"))
    var tz: String = "Europe/Madrid"

    @Option(name: .customLong("saved"), help: ArgumentHelp("A programme or title you saved (repeatable): its like counts.", valueName: "title or id"))
    var saved: [String] = []

    @Option(name: .customLong("likes"), help: ArgumentHelp("A title, programme id or work id (movie/tmdb/98) you like (repeatable).", valueName: "title or id"))
    var likes: [String] = []

    @Option(name: .customLong("dislikes"), help: ArgumentHelp("A title, programme id or work id you do not want (repeatable).", valueName: "title or id"))
    var dislikes: [String] = []

    @Option(help: ArgumentHelp("Kinds to offer, comma-separated: movie, series, programme, documentary, news, sports, kids.", valueName: "kinds"))
    var kinds: String?

    @Option(help: ArgumentHelp("Genres you prefer, comma-separated, by id or name in any language (drama, comedia).", valueName: "genres"))
    var genres: String?

    @Option(help: ArgumentHelp("Only the channels of this line-up of providers.yaml.", valueName: "name"))
    var lineup: String?

    @Option(help: ArgumentHelp("How many picks, 1–20.", valueName: "n"))
    var limit: Int = 5

    @Option(help: ArgumentHelp("The language of the reasons: en or es.", valueName: "code"))
    var language: String = "en"

    @Option(help: "Output format.")
    var format: Format = .text

    func validate() throws {
        if let date, Day(date) == nil { throw ValidationError("--date: expected YYYY-MM-DD, got '\(date)'") }
        if TimeZone(identifier: tz) == nil { throw ValidationError("--tz: '\(tz)' is not a time zone (e.g. Europe/Madrid)") }
        if !(1...20).contains(limit) { throw ValidationError("--limit: expected 1–20, got \(limit)") }
    }

    func run() throws {
        let zone = TimeZone(identifier: tz)!
        let now = self.now?.date ?? Date()
        let today = Day(now, in: zone)
        let day = date.flatMap(Day.init) ?? today
        let split = { (text: String?) in (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        let request = Recommendations.Request(
            snapshots: snapshots, date: day, from: day == today ? now : nil, zone: zone, saved: saved, likes: likes, dislikes: dislikes,
            kinds: split(kinds), genres: split(genres), lineup: lineup, limit: limit, language: language)
        let picks = try reporting { () throws(CommandFailure) in try Recommendations.picks(request, configurationFile: config.locate()?.file) }
        switch format {
        case .text:
            guard !picks.text.isEmpty else {
                printError("nothing to recommend on \(day) on these channels")
                throw Exit.failed
            }
            print(picks.text)
        case .json:
            print(String(decoding: picks.json, as: UTF8.self))
        }
    }
}
