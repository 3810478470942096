import ArgumentParser
import Foundation
import GuideConfig
import GuideCore
import Logging
import TVGuideKit

@main
struct TVGuide: AsyncParsableCommand {
    /// Printed by `--version` and `grab --version`, and written as the XMLTV generator's version.
    static let version = "1.0.0"

    static let configuration = CommandConfiguration(
        commandName: "tvguide",
        abstract: "Aggregate a TV guide from pluggable sources, snapshot it, diff it and export it.",
        discussion: """
        Providers, their priority and the channel list come from providers.yaml \
        (see docs/configuration.md). `tvguide build` runs the chains and writes a snapshot; \
        the other commands read snapshots, and `tvguide serve` serves the guide over HTTP.
        """,
        version: TVGuide.version,
        subcommands: [BuildCommand.self, ValidateCommand.self, DiffCommand.self, ExportCommand.self, AudiencesCommand.self, RecommendCommand.self, ServeCommand.self, SourcesCommand.self,
                      GrabCommand.self],
        defaultSubcommand: nil
    )
}

/// `--config`, shared by the commands that read providers.yaml, and the search for one when it
/// is not given (`ConfigurationSearch`).
struct ConfigOption: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("""
        The provider registry. Default: $TVGUIDE_CONFIG, else the first of ./providers.yaml, \
        $XDG_CONFIG_HOME/tvguide/providers.yaml (~/.config/tvguide/), /etc/tvguide/providers.yaml \
        and the installed PREFIX/share/tvguide/providers.yaml.
        """, valueName: "path"))
    var config: String?

    /// The file to read; nil when none was named and none was found.
    func locate() -> ConfigurationLocation? {
        ConfigurationSearch().locate(named: config)
    }

    /// The file to read; exits with status 2, naming the places searched, when there is none.
    func located() throws -> ConfigurationLocation {
        guard let location = locate() else {
            printError("error: \(ConfigurationSearch().notFound)")
            throw Exit.invalid
        }
        return location
    }

    /// The configuration, read from the file `locate` gives; `announce` says on standard error
    /// which file that is when it was not named. Exits with status 2, saying why, when there is
    /// none or it is invalid.
    func load(announce: Bool = true) throws -> GuideConfiguration {
        try load(try located(), announce: announce)
    }

    func load(_ location: ConfigurationLocation, announce: Bool = true) throws -> GuideConfiguration {
        if announce && location.origin != "--config" {
            printError("Configuration: \(location.file.path) (\(location.origin))")
        }
        do {
            return try GuideConfiguration.load(from: location.file)
        } catch {
            printError("error: \(error)")
            throw Exit.invalid
        }
    }

    /// How commands name the file in what they print: as given, else its path.
    var shownName: String {
        config ?? locate()?.file.path ?? "providers.yaml"
    }
}

/// `--verbose`: debug logging of fetches, retries and cache decisions on standard error.
struct LoggingOption: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Log every fetch, retry and cache decision.")
    var verbose = false

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical; overrides --verbose.", valueName: "level"))
    var logLevel: Logger.Level?

    /// - Parameter defaultLevel: without `--verbose` or `--log-level`; a service logs its start and refreshes at info.
    func bootstrap(defaultLevel: Logger.Level = .warning) {
        let level: Logger.Level = logLevel ?? (verbose ? .debug : defaultLevel)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return RedactingLogHandler(handler)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Times on the command line: `2026-10-21T20:00:00Z`, with an offset (`+02:00`), or a day
/// (`2026-10-21`, midnight UTC).
struct TimeArgument: ExpressibleByArgument {
    var date: Date

    init?(argument: String) {
        if let date = ISOTime.parse(argument) {
            self.date = date
        } else if let day = Day(argument), argument.count == 10 {
            self.date = Date(timeIntervalSince1970: TimeInterval(CivilTime.epochSeconds(year: day.year, month: day.month, day: day.day)))
        } else {
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Exit statuses shared by the commands.
enum Exit {
    /// The run could not produce what was asked (no provider served anything).
    static let failed = ExitCode(1)
    /// Invalid input: a bad configuration, an unreadable snapshot, a bad argument.
    static let invalid = ExitCode(2)
}
