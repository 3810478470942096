import ArgumentParser
import Foundation
import TVGuideKit

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Fetch the guide from the configured providers and write a snapshot.",
        discussion: """
        Asks the guide providers in priority order, merges their answers per channel, keeps the \
        last good programmes of channels nobody served (marked stale), and writes \
        <snapshots>/latest.json plus a dated copy. Prints a report per provider.

        Exit status: 0 when a snapshot was written (even with fallbacks), 1 when no provider \
        served any channel (nothing is written), 2 when the configuration is invalid.
        """
    )

    @OptionGroup var config: ConfigurationOptions
    @OptionGroup var logging: LoggingOption

    @Option(help: ArgumentHelp("Write snapshots here instead of the configured snapshots.dir.", valueName: "dir"))
    var snapshots: String?

    @Option(help: ArgumentHelp("Start of the window (ISO 8601 time or YYYY-MM-DD), instead of now minus window.past.", valueName: "time"))
    var from: TimeArgument?

    @Option(help: ArgumentHelp("End of the window (ISO 8601 time or YYYY-MM-DD), instead of now plus window.days.", valueName: "time"))
    var to: TimeArgument?

    @Option(help: ArgumentHelp("Fix the clock for a reproducible build (also $TVGUIDE_NOW).", valueName: "time"))
    var now: TimeArgument?

    @Flag(help: "Fetch every audience day again, even those the last snapshot already has.")
    var refreshAudiences = false

    @Flag(name: .shortAndLong, help: "Print only warnings and errors.")
    var quiet = false

    func run() async throws {
        logging.bootstrap()
        let clock = try reporting { () throws(CommandFailure) in try resolvedNow(now) }
        let configuration = try config.load(announce: !quiet)
        let display = ProgressDisplay(quiet: quiet)
        let directory = snapshots.map { URL(fileURLWithPath: $0) }
        let store = try reporting { () throws(CommandFailure) in try SnapshotStores.forCommand(configuration, directory: directory) }
        let request = BuildRequest(now: clock, from: from?.date, to: to?.date, snapshotDirectory: directory,
                                   refreshAudiences: refreshAudiences, store: store)
        // The report of a run that served nothing is printed even with --quiet: it says why.
        let summary = try await reporting { () async throws(CommandFailure) in
            try await GuideBuilder.run(configuration, request, progress: { display.handle($0) }) { summary, served in
                if served && quiet { return }
                print(summary.text())
            }
        }
        Self.guideLeftToExit = summary
    }

    /// The guide just written, left for the process's exit to take back at once: freed an airing
    /// at a time, it was the last twentieth of a build.
    nonisolated(unsafe) private static var guideLeftToExit: RunSummary?
}

/// `--now`, else `$TVGUIDE_NOW`, else the wall clock.
func resolvedNow(_ option: TimeArgument?) throws(CommandFailure) -> Date {
    if let option { return option.date }
    if let text = ProcessInfo.processInfo.environment["TVGUIDE_NOW"], !text.isEmpty {
        guard let parsed = TimeArgument(argument: text) else {
            throw CommandFailure(.invalid, "TVGUIDE_NOW='\(text)' is not an ISO 8601 time or YYYY-MM-DD")
        }
        return parsed.date
    }
    return Date()
}
