import ArgumentParser
import Foundation
import Logging
import TVGuideKit

/// `tvguide grab`: the options of an XMLTV grabber (`Grabber` does the work).
struct GrabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grab",
        abstract: "Act as an XMLTV grabber (tv_grab_*): write the guide of the coming days as XMLTV.",
        discussion: """
        Follows the XMLTV grabber conventions (baseline, manualconfig, cache, preferredmethod), so \
        Tvheadend, MythTV and tv_validate_grabber run it like any tv_grab_* program; `make install` \
        installs it as tv_grab_tvguide too. Each run builds the guide from providers.yaml (as \
        `tvguide build` does, writing a snapshot) and writes the programmes that start in the days \
        asked, in local time, on the chosen channels, as XMLTV on standard output.

        `--configure` writes the grabber's configuration (default ~/.xmltv/tv_grab_tvguide.conf): \
        XMLTV-style `key=value` lines, `config=` the providers.yaml to use, `snapshots=` where \
        snapshots go, `cache=` the HTTP cache (folders the user can write), and a `channel=ID` \
        line per channel grabbed (`channel!ID` for one left out; no channel line at all grabs \
        every channel). It asks on a terminal, starting from an existing file's choices, and \
        takes the defaults otherwise.

        Exit status: 0 on success, 1 when no provider served anything, 2 for a bad configuration.
        """
    )

    @Flag(help: "Print what this grabber covers, in one line.")
    var description = false

    @Flag(help: "Print the XMLTV capabilities this grabber supports, one per line.")
    var capabilities = false

    @Flag(help: "Print the version.")
    var version = false

    @Flag(help: "Print the preferred way of being run (allatonce: every day in one run).")
    var preferredmethod = false

    @Flag(help: "Write the configuration file: asks on a terminal, takes the defaults otherwise.")
    var configure = false

    @Option(help: ArgumentHelp("The grabber's configuration (default ~/.xmltv/tv_grab_tvguide.conf).", valueName: "file"))
    var configFile: String?

    @Flag(help: "Print every channel available as XMLTV <channel> elements.")
    var listChannels = false

    @Option(help: ArgumentHelp("Grab this many days (default: providers.yaml's window.days).", valueName: "n"))
    var days: Int?

    @Option(help: ArgumentHelp("Start this many days from today (0 is today, local time).", valueName: "n"))
    var offset = 0

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the XMLTV here instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Print nothing on standard error but errors that stop the run.")
    var quiet = false

    @Option(help: ArgumentHelp("Keep the HTTP cache in this folder instead of providers.yaml's cache.dir.", valueName: "dir"))
    var cache: String?

    @Option(help: ArgumentHelp("Fix the clock for a reproducible grab (also $TVGUIDE_NOW).", valueName: "time"))
    var now: TimeArgument?

    @OptionGroup var logging: LoggingOption

    func validate() throws {
        if let days, !(1...366).contains(days) { throw ValidationError("--days must be between 1 and 366, got \(days)") }
        if !(-366...366).contains(offset) { throw ValidationError("--offset must be between -366 and 366, got \(offset)") }
    }

    func run() async throws {
        logging.bootstrap(defaultLevel: quiet ? .critical : .warning)
        let grabber = Grabber(configFile: configFile, cache: cache, generator: "tvguide/\(TVGuide.version)")
        // Standard output is the XMLTV: the report goes to standard error, and nowhere with --quiet.
        let build = Grabber.Build(now: { () throws(CommandFailure) in try resolvedNow(now) },
                                  report: { summary in if !quiet { printError(summary.text()) } })
        if description {
            print("tvguide: the sources providers.yaml configures (guide sites, XMLTV feeds, APIs)")
        } else if capabilities {
            print(Grabber.capabilityNames.joined(separator: "\n"))
        } else if version {
            print("tvguide \(TVGuide.version)")
        } else if preferredmethod {
            print("allatonce")
        } else if configure {
            let ask: ((String, String) -> String)? = isatty(STDIN_FILENO) == 1 ? { Self.ask($0, default: $1) } : nil
            let written = try reporting { () throws(CommandFailure) -> String in try grabber.configure(ask: ask) }
            printError(written)
        } else if listChannels {
            let xml: Data = try await reporting { () async throws(CommandFailure) -> Data in try await grabber.listChannels(build) }
            try emit(xml)
        } else {
            let xml: Data = try await reporting { () async throws(CommandFailure) -> Data in try await grabber.grab(days: days, offset: offset, build) }
            try emit(xml)
        }
    }

    /// A question on standard error, answered on standard input; an empty answer takes the default.
    private static func ask(_ question: String, default fallback: String) -> String {
        FileHandle.standardError.write(Data("\(question) [\(fallback)]: ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
        return answer.isEmpty ? fallback : answer
    }

    private func emit(_ xml: Data) throws {
        guard let output else {
            FileHandle.standardOutput.write(xml)
            return
        }
        do {
            try xml.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            printError("error: cannot write \(output): \((error as NSError).localizedDescription)")
            throw Exit.failed
        }
    }
}
