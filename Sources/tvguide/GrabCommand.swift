import ArgumentParser
import Foundation
import GuideConfig
import GuideCore
import GuideStorage
import Logging
import TVGuideKit
import XMLTV

/// `tvguide grab`: an XMLTV grabber as the xmltv project's capabilities conventions define one
/// (http://wiki.xmltv.org/index.php/XmltvCapabilities), so that Tvheadend, MythTV and
/// `tv_validate_grabber` can run tvguide as they run any `tv_grab_*`.
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

    static let capabilityNames = ["baseline", "manualconfig", "cache", "preferredmethod"]

    func validate() throws {
        if let days, !(1...366).contains(days) { throw ValidationError("--days must be between 1 and 366, got \(days)") }
        if !(-366...366).contains(offset) { throw ValidationError("--offset must be between -366 and 366, got \(offset)") }
    }

    func run() async throws {
        logging.bootstrap(defaultLevel: quiet ? .critical : .warning)
        if description {
            print("tvguide: the sources providers.yaml configures (guide sites, XMLTV feeds, APIs)")
        } else if capabilities {
            print(Self.capabilityNames.joined(separator: "\n"))
        } else if version {
            print("tvguide \(TVGuide.version)")
        } else if preferredmethod {
            print("allatonce")
        } else if configure {
            try configureFile()
        } else if listChannels {
            try await listAvailableChannels()
        } else {
            try await grab()
        }
    }

    private var configURL: URL {
        if let configFile { return URL(fileURLWithPath: configFile) }
        let home = ProcessInfo.processInfo.environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".xmltv/tv_grab_tvguide.conf")
    }

    // MARK: --configure

    private func configureFile() throws {
        let interactive = isatty(STDIN_FILENO) == 1
        // Configuring again starts from the choices already made; a channel new since then is in.
        let existing = try GrabberConfig.load(configURL, required: false)
        var providers = existing?.providers ?? GrabberConfig.defaultProviders()
        if interactive {
            providers = URL(fileURLWithPath: ask("providers.yaml to build the guide from", default: providers.path)).standardizedFileURL
        }
        let configuration = try loadConfiguration(providers)
        let channels = availableChannels(configuration)
        let leftOut = Set(existing?.channels.filter { !$0.selected }.map(\.id) ?? [])
        var selected = Set(channels.map(\.id)).subtracting(leftOut)
        if interactive, !channels.isEmpty, !yes("Grab all \(channels.count) channel(s)?", default: leftOut.isEmpty) {
            selected = Set(channels.filter { yes("  \($0.name) (\($0.id))?", default: !leftOut.contains($0.id)) }.map(\.id))
        }
        // The player runs the grabber as its own user (hts, mythtv): folders it cannot write
        // move under the configuration file's folder.
        let own = configURL.deletingLastPathComponent().appendingPathComponent("tvguide", isDirectory: true)
        var config = GrabberConfig(providers: providers,
                                   snapshots: GrabberConfig.writable(configuration.snapshots.directory) ?? own.appendingPathComponent("snapshots"))
        config.cache = GrabberConfig.writable(configuration.cache.directory) ?? own.appendingPathComponent("cache")
        config.channels = channels.map { ($0.id, selected.contains($0.id)) }
        do {
            try FileManager.default.createDirectory(at: configURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(config.text.utf8).write(to: configURL, options: .atomic)
        } catch {
            printError("error: cannot write \(configURL.path): \((error as NSError).localizedDescription)")
            throw Exit.failed
        }
        printError("Wrote \(configURL.path): \(selected.count) of \(channels.count) channel(s)\(channels.isEmpty ? " (the guide's every channel)" : "").")
    }

    private func ask(_ question: String, default fallback: String) -> String {
        FileHandle.standardError.write(Data("\(question) [\(fallback)]: ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
        return answer.isEmpty ? fallback : answer
    }

    private func yes(_ question: String, default fallback: Bool) -> Bool {
        ask(question, default: fallback ? "yes" : "no").lowercased().hasPrefix("y")
    }

    /// The channel map of providers.yaml, else the channels of its last snapshot.
    private func availableChannels(_ configuration: GuideConfiguration) -> [Channel] {
        if !configuration.channels.isEmpty {
            return configuration.channels.map { Channel(id: $0.id, name: $0.name ?? $0.id, language: $0.language, logo: $0.logo) }
        }
        let store = SnapshotStore(directory: configuration.snapshots.directory, keep: configuration.snapshots.keep)
        return ((try? store.loadLatest())?.channels ?? []).sorted { $0.id < $1.id }
    }

    // MARK: --list-channels

    private func listAvailableChannels() async throws {
        let config = try GrabberConfig.load(configURL, required: false)
        let configuration = try loadConfiguration(config?.providers ?? GrabberConfig.defaultProviders(), config: config)
        var channels = availableChannels(configuration)
        if channels.isEmpty {
            channels = try await build(configuration, window: configuration.timeWindow(now: try resolvedNow(now))).channels
        }
        try emit(XMLTVWriter.write(channels: channels, programmes: [], info: Self.xmltvInfo, everyChannel: true))
    }

    // MARK: grabbing

    private func grab() async throws {
        guard let config = try GrabberConfig.load(configURL, required: true) else { return }
        var configuration = try loadConfiguration(config.providers, config: config)
        let chosen = config.selectedChannels
        if let chosen, !configuration.channels.isEmpty {
            configuration.channels.removeAll { !chosen.contains($0.id) }
        }
        let clock = try resolvedNow(now)
        let days = days ?? max(1, Int((configuration.window.ahead / 86_400).rounded(.up)))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let today = calendar.startOfDay(for: clock)
        guard let from = calendar.date(byAdding: .day, value: offset, to: today),
              let to = calendar.date(byAdding: .day, value: days, to: from) else {
            throw ValidationError("--offset \(offset) --days \(days) is outside the calendar")
        }
        // A day past the last asked: an airing that the next day's first one starts inside is cut
        // here as a grab of that next day sees it, so that grabs of adjacent days concatenate.
        let snapshot = try await build(configuration, window: TimeWindow(from: from, to: to.addingTimeInterval(86_400)))
        let programmes = Self.oneAtATime(snapshot.programmes)
            .filter { $0.start >= from && $0.start < to && chosen?.contains($0.channel) ?? true }
        // The writer leaves out a channel without programmes in these days: tv_validate_file counts it as an error.
        try emit(XMLTVWriter.write(channels: snapshot.channels, programmes: programmes, info: Self.xmltvInfo))
    }

    /// A grab feeds a player's grid, and tv_validate_grabber's tv_sort step refuses overlapping
    /// airings (the guide keeps them, as XMLTV allows): each channel one airing at a time, as the
    /// web grid shows it, resolved over the whole guide so that grabs of adjacent days agree.
    static func oneAtATime(_ programmes: [Programme]) -> [Programme] {
        var result: [Programme] = []
        result.reserveCapacity(programmes.count)
        var start = programmes.startIndex
        while start < programmes.endIndex {
            let channel = programmes[start].channel
            let end = programmes[start...].firstIndex { $0.channel != channel } ?? programmes.endIndex
            for shown in OneAtATime.resolve(programmes[start..<end]) {
                var programme = shown.programme
                if programme.stop != nil { programme.stop = shown.end }
                result.append(programme)
            }
            start = end
        }
        return result
    }

    /// No date on `<tv>`: two grabs of the same days give the same bytes, which is what lets
    /// tv_validate_grabber check that grabs add up.
    static let xmltvInfo = XMLTVInfo(generatorInfoName: "tvguide/\(TVGuide.version)")

    private func loadConfiguration(_ providers: URL, config: GrabberConfig? = nil) throws -> GuideConfiguration {
        var configuration: GuideConfiguration
        do {
            configuration = try GuideConfiguration.load(from: providers)
        } catch {
            printError("error: \(error)")
            throw Exit.invalid
        }
        SecretValues.shared.add(configuration.environmentValues)
        if let snapshots = config?.snapshots { configuration.snapshots.directory = snapshots }
        if let cache = cache.map({ URL(fileURLWithPath: $0) }) ?? config?.cache { configuration.cache.directory = cache }
        return configuration
    }

    private func build(_ configuration: GuideConfiguration, window: TimeWindow) async throws -> Snapshot {
        let request = BuildRequest(now: try resolvedNow(now), from: window.from, to: window.to)
        // Standard output is the XMLTV: the report goes to standard error, and nowhere with --quiet.
        return try await buildGuide(configuration, request) { summary, _ in
            if !quiet { printError(summary.text()) }
        }.snapshot
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

/// The grabber's configuration file, in the `key=value` form XMLTV grabbers share.
struct GrabberConfig {
    var providers: URL
    var snapshots: URL?
    /// The HTTP cache's folder; `--cache` overrides it.
    var cache: URL?
    /// Channel id → grabbed, in file order.
    var channels: [(id: String, selected: Bool)] = []

    init(providers: URL, snapshots: URL?) {
        self.providers = providers
        self.snapshots = snapshots
    }

    /// The channels to grab; nil when the file lists none, so every channel is grabbed.
    var selectedChannels: Set<String>? {
        channels.isEmpty ? nil : Set(channels.filter(\.selected).map(\.id))
    }

    /// The providers.yaml `ConfigurationSearch` finds (`$TVGUIDE_CONFIG`, the working folder,
    /// `$XDG_CONFIG_HOME/tvguide/`, `/etc/tvguide/`, the installed example), else the working
    /// folder's, whose absence the load then reports.
    static func defaultProviders() -> URL {
        ConfigurationSearch().locate(named: nil)?.file ?? URL(fileURLWithPath: "providers.yaml").standardizedFileURL
    }

    var text: String {
        var lines = [
            "# tvguide grab (XMLTV grabber) configuration, written by `tvguide grab --configure`.",
            "# config: the providers.yaml to build the guide from; snapshots: where each grab's snapshot goes;",
            "# cache: the HTTP cache (--cache overrides it).",
            "# channel=ID is grabbed, channel!ID is not; without channel lines every channel is grabbed.",
            "config=\(providers.path)",
        ]
        if let snapshots { lines.append("snapshots=\(snapshots.path)") }
        if let cache { lines.append("cache=\(cache.path)") }
        lines += channels.map { "channel\($0.selected ? "=" : "!")\($0.id)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The file at `url`; nil when it does not exist and is not `required`.
    static func load(_ url: URL, required: Bool) throws -> GrabberConfig? {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            guard required else { return nil }
            printError("error: no grabber configuration at \(url.path); run `tvguide grab --configure` first, or give --config-file")
            throw Exit.invalid
        }
        let folder = url.deletingLastPathComponent()
        var providers: URL?
        var snapshots: URL?
        var cache: URL?
        var channels: [(id: String, selected: Bool)] = []
        for (number, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let separator = line.firstIndex(where: { $0 == "=" || $0 == "!" }) else {
                printError("error: \(url.path):\(number + 1): expected key=value, got \"\(line.prefix(80))\"")
                throw Exit.invalid
            }
            let key = line[..<separator].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: separator)...].trimmingCharacters(in: .whitespaces)
            let path = URL(fileURLWithPath: value, relativeTo: folder).standardizedFileURL
            switch (key, line[separator]) {
            case ("config", "="): providers = path
            case ("snapshots", "="): snapshots = path
            case ("cache", "="): cache = path
            case ("channel", let mark): channels.append((value, mark == "="))
            default:
                printError("error: \(url.path):\(number + 1): unknown setting '\(key)' (config, snapshots, cache and channel are known)")
                throw Exit.invalid
            }
        }
        var config = GrabberConfig(providers: providers ?? defaultProviders(), snapshots: snapshots)
        config.cache = cache
        config.channels = channels
        return config
    }

    /// `folder` when this user can write it, or create it in the nearest folder that exists.
    static func writable(_ folder: URL) -> URL? {
        var candidate = folder.standardizedFileURL
        while !FileManager.default.fileExists(atPath: candidate.path) {
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { return nil }
            candidate = parent
        }
        return access(candidate.path, W_OK) == 0 ? folder : nil
    }
}
