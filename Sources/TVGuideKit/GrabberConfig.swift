import Foundation
import GuideConfig

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

    /// The file at `url`; nil when it does not exist.
    static func load(_ url: URL) throws(CommandFailure) -> GrabberConfig? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let folder = url.deletingLastPathComponent()
        var providers: URL?
        var snapshots: URL?
        var cache: URL?
        var channels: [(id: String, selected: Bool)] = []
        for (number, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let separator = line.firstIndex(where: { $0 == "=" || $0 == "!" }) else {
                throw CommandFailure(.invalid, "\(url.path):\(number + 1): expected key=value, got \"\(line.prefix(80))\"")
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
                throw CommandFailure(.invalid, "\(url.path):\(number + 1): unknown setting '\(key)' (config, snapshots, cache and channel are known)")
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
