import Foundation
import GuideConfig
import GuideCore
import GuideStorage
import XMLTV

/// `tvguide grab`: an XMLTV grabber as the xmltv project's capabilities conventions define one
/// (http://wiki.xmltv.org/index.php/XmltvCapabilities), so that Tvheadend, MythTV and
/// `tv_validate_grabber` can run tvguide as they run any `tv_grab_*`.
package struct Grabber {
    package static let capabilityNames = ["baseline", "manualconfig", "cache", "preferredmethod"]

    /// The grabber's configuration file (`GrabberConfig`).
    package var configFile: URL
    /// `--cache`: the HTTP cache's folder, over the grabber's and providers.yaml's.
    package var cache: URL?
    /// No date on `<tv>`: two grabs of the same days give the same bytes, which is what lets
    /// tv_validate_grabber check that grabs add up.
    package var xmltvInfo: XMLTVInfo

    /// - Parameters:
    ///   - configFile: `--config-file`; default ~/.xmltv/tv_grab_tvguide.conf.
    ///   - generator: the XMLTV generator's name and version, `tvguide/1.0.0`.
    package init(configFile: String?, cache: String?, generator: String) {
        if let configFile {
            self.configFile = URL(fileURLWithPath: configFile)
        } else {
            let home = ProcessInfo.processInfo.environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
            self.configFile = home.appendingPathComponent(".xmltv/tv_grab_tvguide.conf")
        }
        self.cache = cache.map { URL(fileURLWithPath: $0) }
        xmltvInfo = XMLTVInfo(generatorInfoName: generator)
    }

    /// How a run builds the guide: its clock (read only when a build needs it), and where its
    /// report goes.
    package struct Build {
        package var now: () throws(CommandFailure) -> Date
        package var report: (RunSummary) -> Void

        package init(now: @escaping () throws(CommandFailure) -> Date, report: @escaping (RunSummary) -> Void) {
            self.now = now
            self.report = report
        }
    }

    // MARK: --configure

    /// Writes the configuration file, starting from an existing file's choices; `ask` puts a
    /// question with its default answer to the user (nil: not on a terminal, the defaults are
    /// taken). Returns the line that says what was written.
    package func configure(ask: ((_ question: String, _ default: String) -> String)?) throws(CommandFailure) -> String {
        // Configuring again starts from the choices already made; a channel new since then is in.
        let existing = try GrabberConfig.load(configFile)
        var providers = existing?.providers ?? GrabberConfig.defaultProviders()
        if let ask {
            providers = URL(fileURLWithPath: ask("providers.yaml to build the guide from", providers.path)).standardizedFileURL
        }
        let configuration = try loadConfiguration(providers)
        let channels = availableChannels(configuration)
        let leftOut = Set(existing?.channels.filter { !$0.selected }.map(\.id) ?? [])
        var selected = Set(channels.map(\.id)).subtracting(leftOut)
        if let ask {
            let yes = { (question: String, fallback: Bool) in ask(question, fallback ? "yes" : "no").lowercased().hasPrefix("y") }
            if !channels.isEmpty, !yes("Grab all \(channels.count) channel(s)?", leftOut.isEmpty) {
                selected = Set(channels.filter { yes("  \($0.name) (\($0.id))?", !leftOut.contains($0.id)) }.map(\.id))
            }
        }
        // The player runs the grabber as its own user (hts, mythtv): folders it cannot write
        // move under the configuration file's folder.
        let own = configFile.deletingLastPathComponent().appendingPathComponent("tvguide", isDirectory: true)
        var config = GrabberConfig(providers: providers,
                                   snapshots: GrabberConfig.writable(configuration.snapshots.directory) ?? own.appendingPathComponent("snapshots"))
        config.cache = GrabberConfig.writable(configuration.cache.directory) ?? own.appendingPathComponent("cache")
        config.channels = channels.map { ($0.id, selected.contains($0.id)) }
        do {
            try FileManager.default.createDirectory(at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(config.text.utf8).write(to: configFile, options: .atomic)
        } catch {
            throw CommandFailure(.failed, "cannot write \(configFile.path): \((error as NSError).localizedDescription)")
        }
        return "Wrote \(configFile.path): \(selected.count) of \(channels.count) channel(s)\(channels.isEmpty ? " (the guide's every channel)" : "")."
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

    /// Every channel available, as XMLTV `<channel>` elements: those `availableChannels` knows,
    /// else those a build finds.
    package func listChannels(_ build: Build) async throws(CommandFailure) -> Data {
        let config = try GrabberConfig.load(configFile)
        let configuration = try loadConfiguration(config?.providers ?? GrabberConfig.defaultProviders(), config: config)
        var channels = availableChannels(configuration)
        if channels.isEmpty {
            channels = try await self.build(configuration, window: configuration.timeWindow(now: try build.now()), build).channels
        }
        return try xmltv(channels: channels, programmes: [], everyChannel: true)
    }

    // MARK: grabbing

    /// The programmes that start in `days` days from `offset` days after today (local time),
    /// on the chosen channels, one airing at a time per channel, as XMLTV.
    package func grab(days: Int?, offset: Int, _ build: Build) async throws(CommandFailure) -> Data {
        guard let config = try GrabberConfig.load(configFile) else {
            throw CommandFailure(.invalid, "no grabber configuration at \(configFile.path); run `tvguide grab --configure` first, or give --config-file")
        }
        var configuration = try loadConfiguration(config.providers, config: config)
        let chosen = config.selectedChannels
        if let chosen, !configuration.channels.isEmpty {
            configuration.channels.removeAll { !chosen.contains($0.id) }
        }
        let clock = try build.now()
        let days = days ?? max(1, Int((configuration.window.ahead / 86_400).rounded(.up)))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let today = calendar.startOfDay(for: clock)
        guard let from = calendar.date(byAdding: .day, value: offset, to: today),
              let to = calendar.date(byAdding: .day, value: days, to: from) else {
            throw CommandFailure(.usage, "--offset \(offset) --days \(days) is outside the calendar")
        }
        // A day past the last asked: an airing that the next day's first one starts inside is cut
        // here as a grab of that next day sees it, so that grabs of adjacent days concatenate.
        let snapshot = try await self.build(configuration, window: TimeWindow(from: from, to: to.addingTimeInterval(86_400)), build)
        let programmes = Self.oneAtATime(snapshot.programmes)
            .filter { $0.start >= from && $0.start < to && chosen?.contains($0.channel) ?? true }
        // The writer leaves out a channel without programmes in these days: tv_validate_file counts it as an error.
        return try xmltv(channels: snapshot.channels, programmes: programmes)
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

    /// libxml2's writer fails only when it cannot allocate its buffer.
    private func xmltv(channels: [Channel], programmes: [Programme], everyChannel: Bool = false) throws(CommandFailure) -> Data {
        do {
            return try XMLTVWriter.write(channels: channels, programmes: programmes, info: xmltvInfo, everyChannel: everyChannel)
        } catch {
            throw CommandFailure(.failed, "\(error)")
        }
    }

    private func loadConfiguration(_ providers: URL, config: GrabberConfig? = nil) throws(CommandFailure) -> GuideConfiguration {
        var configuration = try ConfigurationLoading.load(providers)
        if let snapshots = config?.snapshots { configuration.snapshots.directory = snapshots }
        if let cache = cache ?? config?.cache { configuration.cache.directory = cache }
        return configuration
    }

    private func build(_ configuration: GuideConfiguration, window: TimeWindow, _ build: Build) async throws(CommandFailure) -> Snapshot {
        let request = BuildRequest(now: try build.now(), from: window.from, to: window.to)
        return try await GuideBuilder.run(configuration, request) { summary, _ in build.report(summary) }.snapshot
    }
}
