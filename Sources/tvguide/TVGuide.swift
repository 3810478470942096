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

/// `--config`: every command that reads providers.yaml finds and loads it here, through
/// `ConfigurationSearch` when it is not named and `ConfigurationLoading` once found.
struct ConfigurationOptions: ParsableArguments {
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

    /// The configuration, read from the file `locate` gives; `announce` says on standard error
    /// which file that is when it was not named. Exits with status 2, saying why, when there is
    /// none or it is invalid.
    func load(announce: Bool = true) throws -> GuideConfiguration {
        guard let location = locate() else {
            printError("error: \(ConfigurationSearch().notFound)")
            throw Exit.invalid
        }
        return try load(location, announce: announce)
    }

    /// The configuration when there is one; nil when none was named and none was found. Exits
    /// with status 2 when the one found is invalid.
    func loadIfFound(announce: Bool = true) throws -> GuideConfiguration? {
        guard let location = locate() else { return nil }
        return try load(location, announce: announce)
    }

    private func load(_ location: ConfigurationLocation, announce: Bool) throws -> GuideConfiguration {
        if announce && location.origin != "--config" {
            printError("Configuration: \(location.file.path) (\(location.origin))")
        }
        return try reporting { () throws(CommandFailure) in try ConfigurationLoading.load(location.file) }
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

/// Runs a TVGuideKit call for a command: its failure is printed as `error: …` on standard error
/// and ends the process with the failure's status (a usage error as ArgumentParser reports one).
func reporting<Value>(_ body: () throws(CommandFailure) -> Value) throws -> Value {
    do {
        return try body()
    } catch {
        throw exit(for: error)
    }
}

/// `reporting` for an asynchronous call.
func reporting<Value>(_ body: () async throws(CommandFailure) -> Value) async throws -> Value {
    do {
        return try await body()
    } catch {
        throw exit(for: error)
    }
}

private func exit(for failure: CommandFailure) -> any Error {
    switch failure.status {
    case .usage:
        return ValidationError(failure.description)
    case .failed:
        printError("error: \(failure)")
        return Exit.failed
    case .invalid:
        printError("error: \(failure)")
        return Exit.invalid
    }
}
