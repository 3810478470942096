import ArgumentParser
import Foundation
import GuideConfig
import Logging
import TVGuideKit

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the guide over HTTP: JSON API, web guide, iCalendar feeds, XMLTV, metrics.",
        discussion: """
        Loads <snapshots>/latest.json before listening, so it answers at once (offline too), then \
        rebuilds the guide in the background every cache.ttl (or --refresh-interval) and swaps it \
        in whole. A failed rebuild keeps the last good guide and shows in /health. Stops cleanly \
        on SIGTERM or SIGINT. Routes: GET /openapi.yaml; docs/server.md.

        Exit status: 0 after a clean shutdown, 1 when it cannot listen or read the snapshot, 2 \
        when the configuration or an argument is invalid.
        """
    )

    @OptionGroup var config: ConfigurationOptions
    @OptionGroup var logging: LoggingOption

    @Option(help: ArgumentHelp("Read and write snapshots here instead of the configured snapshots.dir.", valueName: "dir"))
    var snapshots: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one and prints it).")
    var port = 8080

    @Option(help: ArgumentHelp("Rebuild the guide this often (2h, 30m, 90s), instead of cache.ttl; 0 never.", valueName: "duration"))
    var refreshInterval: String?

    @Flag(help: "Serve the loaded guide without rebuilding it.")
    var noRefresh = false

    @Option(help: ArgumentHelp("Minutes before an airing that calendar reminders go off.", valueName: "minutes"))
    var reminderMinutes = 5

    @Option(name: .customLong("cors-origin"),
            help: ArgumentHelp("Let web pages from this origin read the JSON API and feeds (CORS); repeat for more, * for any. Replaces server.cors_origins.",
                               valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(help: ArgumentHelp("Fix the clock (also $TVGUIDE_NOW), for demos and screenshots of a recorded guide.", valueName: "time"))
    var now: TimeArgument?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (0...10_080).contains(reminderMinutes) else { throw ValidationError("--reminder-minutes must be between 0 and 10080 (a week)") }
        if let origin = corsOrigins.first(where: { !ServerOptions.isOrigin($0) }) {
            throw ValidationError("--cors-origin '\(origin)' is not an origin like https://app.example or http://localhost:3000 (no path), nor *")
        }
        if let refreshInterval, DurationText.parse(refreshInterval) == nil {
            throw ValidationError("--refresh-interval '\(refreshInterval)' is not a duration like 2h, 30m or 90s")
        }
    }

    func run() async throws {
        logging.bootstrap(defaultLevel: .info)
        let fixed = try now?.date ?? fixedNowFromEnvironment()
        let clock: @Sendable () -> Date
        if let fixed { clock = { fixed } } else { clock = { Date() } }
        let configuration: GuideConfiguration
        if let found = try config.loadIfFound() {
            configuration = found
        } else if let snapshots {
            // Serving a snapshot needs no provider: without a configuration, the guide in hand is served as it is.
            printError("Configuration: none found; serving the snapshots in \(snapshots) without rebuilding them")
            configuration = .snapshotOnly(directory: URL(fileURLWithPath: snapshots).standardizedFileURL)
        } else {
            printError("error: \(ConfigurationSearch().notFound); or give --snapshots DIR to serve a snapshot folder")
            throw Exit.invalid
        }
        let request = ServeRequest(host: host, port: port, snapshotDirectory: snapshots.map { URL(fileURLWithPath: $0) },
                                   refreshInterval: refreshInterval.flatMap(DurationText.parse), refresh: !noRefresh,
                                   reminderMinutes: reminderMinutes, corsOrigins: corsOrigins)
        let host = self.host
        try await reporting { () async throws(CommandFailure) in
            try await ServeSetup.serve(configuration: configuration, request: request, clock: clock) { port in
                // One line on standard output, which scripts wait for to learn the port.
                FileHandle.standardOutput.write(Data("Serving the guide on http://\(host):\(port)/\n".utf8))
                if ServeSetup.isLoopback(host) {
                    printError("Only this machine can reach it; to open the guide from a phone or another computer on the network, "
                               + "serve with --host 0.0.0.0 (then http://THIS-MACHINE'S-ADDRESS:\(port)/).")
                }
            }
        }
    }

    /// `$TVGUIDE_NOW` fixes the clock; unset, the wall clock runs.
    private func fixedNowFromEnvironment() throws -> Date? {
        guard let text = ProcessInfo.processInfo.environment["TVGUIDE_NOW"], !text.isEmpty else { return nil }
        return try reporting { () throws(CommandFailure) in try resolvedNow(nil) }
    }
}
