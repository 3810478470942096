import Foundation
import GuideCore

/// providers.yaml as typed values. Relative paths in it are resolved against `directory`.
package struct GuideConfiguration: Sendable {
    /// The file as given (messages show it the same way).
    package var file: URL
    /// The folder of `file`, against which relative paths resolve.
    package var directory: URL
    package var version: Int
    package var window: WindowSettings
    package var cache: CacheSettings
    package var snapshots: SnapshotSettings
    /// The channel map in file order; empty when the file has none.
    package var channels: [ChannelMapping]
    /// Guide provider ids in priority order.
    package var guide: [String]
    /// Metadata provider ids in priority order, per kind of programme.
    package var metadata: [ProgrammeKind: [String]]
    /// The kinds of `metadata` in file order.
    package var metadataKinds: [ProgrammeKind]
    /// Audience provider ids in priority order.
    package var audience: [String]
    /// Every provider in file order.
    package var providers: [ProviderSettings]
    /// Named line-ups (`national`, an operator's) → canonical channel ids, for `tvguide serve`.
    package var lineups: [String: [String]] = [:]
    /// `server:`, for `tvguide serve`.
    package var server = ServerOptions()
    /// `playlist:`, the user's M3U playlist (a file or an http(s) URL): it gives the channel list.
    package var playlist: URL?

    package static let supportedVersions = [1]

    package init(
        file: URL, directory: URL, version: Int, window: WindowSettings, cache: CacheSettings,
        snapshots: SnapshotSettings, channels: [ChannelMapping], guide: [String],
        metadata: [ProgrammeKind: [String]], metadataKinds: [ProgrammeKind], audience: [String],
        providers: [ProviderSettings]
    ) {
        self.file = file
        self.directory = directory
        self.version = version
        self.window = window
        self.cache = cache
        self.snapshots = snapshots
        self.channels = channels
        self.guide = guide
        self.metadata = metadata
        self.metadataKinds = metadataKinds
        self.audience = audience
        self.providers = providers
    }

    /// No providers.yaml at all: what serving a snapshot folder needs, and nothing to build with
    /// (no providers, no channel map, the defaults of every section).
    package static func snapshotOnly(directory: URL) -> GuideConfiguration {
        let folder = directory.deletingLastPathComponent()
        return GuideConfiguration(
            file: folder.appendingPathComponent("(no providers.yaml)"), directory: folder, version: 1, window: .default,
            cache: CacheSettings(ttl: 2 * 3_600, directory: folder.appendingPathComponent(".tvguide-cache")),
            snapshots: SnapshotSettings(directory: directory, keep: 14), channels: [], guide: [], metadata: [:], metadataKinds: [],
            audience: [], providers: [])
    }

    package func provider(_ id: String) -> ProviderSettings? {
        providers.first { $0.id == id }
    }

    /// For one provider, its own channel id → the canonical id, covering exactly the channels the
    /// guide takes from it; nil when there is no channel map, so every own id is canonical.
    /// - When some channel has a key for the provider (its id or its type), only those channels,
    ///   through those keys.
    /// - Otherwise the provider's ids are taken as canonical: each channel of the map by its id
    ///   and by its aliases.
    package func channelMap(forProvider id: String, type: String) -> [String: String]? {
        guard !channels.isEmpty else { return nil }
        var map: [String: String] = [:]
        for channel in channels {
            if let own = channel.providerID(forProvider: id, type: type), map[own] == nil {
                map[own] = channel.id
            }
        }
        guard map.isEmpty else { return map }
        for channel in channels {
            map[channel.id] = channel.id
            for alias in channel.aliases { map[alias] = channel.id }
        }
        return map
    }

    /// Channel id → the further ids the channel map gives it, for matching a playlist's `tvg-id`.
    package var channelAliases: [String: [String]] {
        Dictionary(channels.map { ($0.id, $0.aliases) }, uniquingKeysWith: { first, _ in first })
    }

    /// The values of the environment variables the providers' options refer to (API keys,
    /// tokens): what must never be printed, logged or written.
    package var environmentValues: [String] {
        providers.flatMap(\.options.environmentValues) + snapshots.storeEnvironmentValues
    }

    /// The window to fetch and keep around `now`; `from`/`to` (the command line's `--from`/`--to`)
    /// replace either end.
    package func timeWindow(now: Date, from: Date? = nil, to: Date? = nil) -> TimeWindow {
        window.timeWindow(now: now, from: from, to: to)
    }

    /// Reads and checks the configuration at `path`.
    package static func load(
        from path: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigError) -> GuideConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: path)
        } catch {
            throw .unreadable(file: path, reason: "cannot read the configuration: \(readFailure(error))")
        }
        return try parse(yaml: try decodeUTF8(data, file: path), file: path, environment: environment)
    }

    /// Checks `yaml` as if it were the contents of `file` (which need not exist).
    package static func parse(
        yaml: String, file: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigError) -> GuideConfiguration {
        let root = try ConfigNode.compose(yaml: yaml, file: file)
        return try ConfigurationParser(file: file, environment: environment, yaml: yaml).parse(root)
    }

    private static func readFailure(_ error: any Error) -> String {
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?: "no such file"
        case .fileReadNoPermission?: "permission denied"
        default: (error as NSError).localizedDescription
        }
    }

    /// UTF-8 text, without a leading byte-order mark; otherwise a syntax error at the first bad byte.
    private static func decodeUTF8(_ data: Data, file: URL) throws(ConfigError) -> String {
        let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        var line = 1
        var column = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = bytes.startIndex
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return String(decoding: bytes, as: UTF8.self)
            case .error:
                throw .syntax(
                    String(format: "the file is not UTF-8 text (byte 0x%02X); save it as UTF-8", bytes[offset]),
                    SourceLocation(file: file, line: line, column: column))
            }
        }
    }
}

/// How far back and ahead of now the guide reaches.
package struct WindowSettings: Sendable, Hashable {
    package var past: TimeInterval
    package var ahead: TimeInterval

    package static let `default` = WindowSettings(past: 86_400, ahead: 7 * 86_400)

    package init(past: TimeInterval, ahead: TimeInterval) {
        self.past = past
        self.ahead = ahead
    }

    /// `now - past … now + ahead`, with `from`/`to` replacing either end when given.
    package func timeWindow(now: Date, from: Date? = nil, to: Date? = nil) -> TimeWindow {
        TimeWindow(from: from ?? now.addingTimeInterval(-past), to: to ?? now.addingTimeInterval(ahead))
    }
}

/// `server:` in providers.yaml: how `tvguide serve` answers browsers.
package struct ServerOptions: Sendable, Hashable {
    /// Web origins whose pages may read the JSON API and feeds (CORS); `*` lets any. Empty: none.
    package var corsOrigins: [String]
    /// Where clients reach the server (`https://tv.example.org`, behind a TLS proxy): the
    /// scheme, host and path prefix of the URLs it writes (`url-tvg`, calendar links), without
    /// a trailing slash. Nil: taken from each request.
    package var publicURL: String?
    /// Believe the `Forwarded` / `X-Forwarded-Proto` / `X-Forwarded-Host` fields a proxy adds.
    /// Off by default: a client could send them itself.
    package var trustForwarded = false

    package init(corsOrigins: [String] = []) {
        self.corsOrigins = corsOrigins
    }

    /// `text` as `publicURL` keeps it, when it is an http(s) URL with a host and no query.
    package static func publicURL(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
              components.user == nil, components.password == nil
        else { return nil }
        var url = text
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// `https://app.example`, `http://localhost:3000` or `*`: what a browser sends as `Origin`.
    package static func isOrigin(_ text: String) -> Bool {
        if text == "*" { return true }
        guard let components = URLComponents(string: text), let scheme = components.scheme, ["http", "https"].contains(scheme),
              let host = components.host, !host.isEmpty, components.path.isEmpty, components.query == nil, components.fragment == nil,
              components.user == nil, components.password == nil
        else { return false }
        return true
    }
}

package struct CacheSettings: Sendable, Hashable {
    /// A fetch that succeeded less than `ttl` seconds ago is not repeated; 0 disables the cache.
    package var ttl: TimeInterval
    /// The on-disk HTTP cache.
    package var directory: URL

    package init(ttl: TimeInterval, directory: URL) {
        self.ttl = ttl
        self.directory = directory
    }
}

package struct SnapshotSettings: Sendable, Hashable {
    package var directory: URL
    /// How many dated snapshots to keep besides `latest.json`.
    package var keep: Int
    /// How many days of audience rankings the snapshot keeps, up to yesterday.
    package var audienceDays: Int
    /// `store: postgres://user@host:5432/db`: snapshots in that database instead of `directory`,
    /// shared by replicas (docs/deployment.md); nil keeps them in the folder.
    package var store: URL?
    /// The values `${VAR}` put into `store` (a password): never shown.
    package var storeEnvironmentValues: [String] = []

    package init(directory: URL, keep: Int, audienceDays: Int = 14) {
        self.directory = directory
        self.keep = keep
        self.audienceDays = audienceDays
    }
}

/// `dump` and debuggers show the store without its password.
extension SnapshotSettings: CustomReflectable {
    package var customMirror: Mirror {
        Mirror(self, children: ["directory": directory, "keep": keep, "audienceDays": audienceDays,
                                "store": store.map(URLRedaction.redacted) as Any])
    }
}

/// One channel of the channel map: its canonical id and each provider's own id for it.
package struct ChannelMapping: Sendable, Hashable {
    /// The canonical id (XMLTV style, `La1.es`).
    package var id: String
    package var name: String?
    package var type: String?
    package var language: String?
    package var logo: String?
    /// Other ids the channel goes by: a provider with no key in the map that lists the channel
    /// under one of them serves it.
    package var aliases: [String]
    /// Provider id or provider type → that provider's own id for the channel.
    package var providerIDs: [String: String]
    package var location: SourceLocation

    package init(
        id: String, name: String? = nil, type: String? = nil, language: String? = nil, logo: String? = nil,
        aliases: [String] = [], providerIDs: [String: String], location: SourceLocation
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.language = language
        self.logo = logo
        self.aliases = aliases
        self.providerIDs = providerIDs
        self.location = location
    }

    /// The provider's own id for this channel: a key naming the provider itself wins over a key
    /// naming its type (which covers, say, a live source and its recording alike); nil when the
    /// channel has neither, so that provider does not serve it.
    package func providerID(forProvider id: String, type: String) -> String? {
        providerIDs[id] ?? providerIDs[type]
    }
}
