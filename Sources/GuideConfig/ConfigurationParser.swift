import Foundation
import GuideCore

/// Turns the composed YAML into a `GuideConfiguration`, checking every reference on the way.
struct ConfigurationParser {
    static let topLevelKeys = ["version", "window", "cache", "snapshots", "channels", "guide", "metadata", "audience", "lineups", "server", "playlist", "providers"]
    static let serverKeys = ["cors_origins", "public_url", "trust_forwarded"]
    static let windowKeys = ["past", "days", "ahead"]
    static let cacheKeys = ["ttl", "dir"]
    static let snapshotKeys = ["dir", "keep", "audience_days", "store"]
    /// Channel fields; every other key of a channel names a provider or a provider type.
    static let channelFields = ["id", "name", "type", "language", "logo", "aliases"]

    let file: URL
    let directory: URL
    let values: ValueReader

    init(file: URL, environment: [String: String], yaml: String) {
        self.file = file
        directory = file.absoluteURL.deletingLastPathComponent().standardizedFileURL
        // Keep only what the file refers to: the configuration must not carry the whole environment.
        let names = Set(EnvironmentExpansion.references(in: yaml).map(\.name))
        values = ValueReader(environment: environment.filter { names.contains($0.key) }, directory: directory)
    }

    func parse(_ root: ConfigNode?) throws(ConfigError) -> GuideConfiguration {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard let root else {
            throw .invalidValue("the configuration is empty; it needs at least 'providers' and 'guide'", start)
        }
        guard let entries = root.entries else {
            throw .invalidValue("expected a mapping of settings (providers, guide, …) at the top level, got \(root.shapeDescription)", root.location)
        }
        try rejectUnknownKeys(entries, known: Self.topLevelKeys, section: "the top level")
        let top = Section(entries: entries)

        let version = try top["version"].map { entry throws(ConfigError) in try parseVersion(entry.value) } ?? 1
        guard let providersEntry = top["providers"] else {
            throw .missingKey(key: "providers", section: "the configuration", root.location)
        }
        let providers = try parseProviders(providersEntry.value)
        guard let guideEntry = top["guide"] else {
            throw .missingKey(key: "guide", section: "the configuration", root.location)
        }
        let guide = try providerList(guideEntry, listedIn: "guide", providers: providers, allowEmpty: false)
        let (metadata, metadataKinds) = try parseMetadata(top["metadata"], providers: providers)
        let audience = try top["audience"].map { entry throws(ConfigError) in
            try providerList(entry, listedIn: "audience", providers: providers, allowEmpty: true)
        } ?? []

        let channels = try parseChannels(top["channels"]?.value, providers: providers)
        var configuration = GuideConfiguration(
            file: file, directory: directory, version: version,
            window: try parseWindow(top["window"]?.value),
            cache: try parseCache(top["cache"]?.value),
            snapshots: try parseSnapshots(top["snapshots"]?.value),
            channels: channels,
            guide: guide, metadata: metadata, metadataKinds: metadataKinds, audience: audience,
            providers: providers)
        configuration.lineups = try parseLineups(top["lineups"], channels: channels)
        configuration.server = try parseServer(top["server"]?.value)
        configuration.playlist = try top["playlist"].map { entry throws(ConfigError) in try values.url(entry.value) }
        return configuration
    }

    // MARK: Sections

    private func parseVersion(_ node: ConfigNode) throws(ConfigError) -> Int {
        let value = try values.required(node, expected: "a version number")
        guard let version = Int(value.text), GuideConfiguration.supportedVersions.contains(version) else {
            throw .unsupportedVersion(found: value.usedEnvironment ? value.raw : value.text, supported: GuideConfiguration.supportedVersions, value.location)
        }
        return version
    }

    private func parseWindow(_ node: ConfigNode?) throws(ConfigError) -> WindowSettings {
        guard let settings = try section(node, name: "window", known: Self.windowKeys) else { return .default }
        var window = WindowSettings.default
        if let past = settings["past"] { window.past = try values.duration(past.value) }
        switch (settings["days"], settings["ahead"]) {
        case (let days?, let ahead?):
            let later = days.keyLocation.line > ahead.keyLocation.line ? days : ahead
            throw .invalidValue("window sets both 'days' and 'ahead'; keep one", later.keyLocation)
        case (let days?, nil):
            window.ahead = TimeInterval(try values.int(days.value, in: 0...3_650)) * 86_400
        case (nil, let ahead?):
            window.ahead = try values.duration(ahead.value)
        case (nil, nil):
            break
        }
        return window
    }

    private func parseCache(_ node: ConfigNode?) throws(ConfigError) -> CacheSettings {
        let settings = try section(node, name: "cache", known: Self.cacheKeys) ?? Section(entries: [])
        return CacheSettings(
            ttl: try settings["ttl"].map { entry throws(ConfigError) in try values.duration(entry.value) } ?? 2 * 3_600,
            directory: try settings["dir"].map { entry throws(ConfigError) in try values.path(entry.value) }
                ?? values.resolvePath(".tvguide-cache"))
    }

    private func parseSnapshots(_ node: ConfigNode?) throws(ConfigError) -> SnapshotSettings {
        let settings = try section(node, name: "snapshots", known: Self.snapshotKeys) ?? Section(entries: [])
        var snapshots = SnapshotSettings(
            directory: try settings["dir"].map { entry throws(ConfigError) in try values.path(entry.value) }
                ?? values.resolvePath("snapshots"),
            keep: try settings["keep"].map { entry throws(ConfigError) in try values.int(entry.value, in: 1...100_000) } ?? 14,
            audienceDays: try settings["audience_days"].map { entry throws(ConfigError) in try values.int(entry.value, in: 1...3_650) } ?? 14)
        if let entry = settings["store"], let store = try values.scalar(entry.value, expected: "a URL like postgres://user@host:5432/db") {
            // Only PostgreSQL shares snapshots between processes; the folder is `dir`.
            guard let url = URL(string: store.text), ["postgres", "postgresql"].contains(url.scheme?.lowercased() ?? "") else {
                throw .invalidValue("expected a URL like postgres://user@host:5432/db, got \(store.usedEnvironment ? store.shown : "'\(Self.withoutPassword(store.text))'")",
                                    store.location)
            }
            snapshots.store = url
            snapshots.storeEnvironmentValues = store.usedEnvironment ? Self.environmentParts(of: store.raw, in: values.environment) : []
        }
        return snapshots
    }

    /// `text` with anything between `://…:` and `@` hidden: a password written in the file.
    private static func withoutPassword(_ text: String) -> String {
        text.replacingOccurrences(of: #"(://[^/@:]*:)[^/@]*@"#, with: "$1" + URLRedaction.placeholder + "@", options: .regularExpression)
    }

    /// The values of the variables `raw` refers to: what the configuration must keep out of every message.
    private static func environmentParts(of raw: String, in environment: [String: String]) -> [String] {
        EnvironmentExpansion.references(in: raw).compactMap { environment[$0.name] }.filter { !$0.isEmpty }
    }

    /// `server: { cors_origins: [https://app.example], public_url: https://tv.example.org, trust_forwarded: true }`:
    /// origins as browsers send them (scheme, host, optional port, nothing after) or `*`; the
    /// URL clients reach the server at (a path prefix allowed); whether to believe a proxy's
    /// `Forwarded` and `X-Forwarded-*` fields.
    private func parseServer(_ node: ConfigNode?) throws(ConfigError) -> ServerOptions {
        guard let settings = try section(node, name: "server", known: Self.serverKeys) else { return ServerOptions() }
        var options = ServerOptions()
        if let entry = settings["cors_origins"] {
            let origins = try values.stringList(entry.value)
            for (origin, item) in zip(origins, entry.value.items ?? []) where !ServerOptions.isOrigin(origin) {
                throw .invalidValue("'\(origin)' is not an origin like https://app.example or http://localhost:3000 (no path), nor *", item.location)
            }
            options.corsOrigins = origins
        }
        if let entry = settings["public_url"] {
            let text = try values.string(entry.value)
            guard let url = ServerOptions.publicURL(text) else {
                throw .invalidValue("'\(text)' is not a URL like https://tv.example.org or https://example.org/tv (http or https, no query)", entry.value.location)
            }
            options.publicURL = url
        }
        if let entry = settings["trust_forwarded"] {
            options.trustForwarded = try values.bool(entry.value)
        }
        return options
    }

    private func parseProviders(_ node: ConfigNode) throws(ConfigError) -> [ProviderSettings] {
        guard let entries = node.entries, !entries.isEmpty else {
            let shape = node.entries == nil ? node.shapeDescription : "an empty mapping"
            throw .invalidValue("expected a mapping of providers (name: { type: …, … }), got \(shape)", node.location)
        }
        var providers: [ProviderSettings] = []
        for entry in entries {
            let id = entry.key
            guard !id.isEmpty, id.unicodeScalars.allSatisfy(Self.isProviderIDCharacter) else {
                throw .invalidValue("provider name '\(id)' may only use letters, digits, '.', '_' and '-'", entry.keyLocation)
            }
            guard !Self.channelFields.contains(id) else {
                throw .invalidValue("provider name '\(id)' is reserved for a channel field (\(Self.channelFields.joined(separator: ", "))); choose another", entry.keyLocation)
            }
            guard let options = entry.value.entries else {
                throw .invalidValue("provider '\(id)' needs a mapping with at least 'type', got \(entry.value.shapeDescription)", entry.value.location)
            }
            guard let typeEntry = options.first(where: { $0.key == "type" }) else {
                throw .missingKey(key: "type", section: "provider '\(id)'", entry.keyLocation)
            }
            let type = try values.string(typeEntry.value)
            guard !type.isEmpty, !type.contains(where: \.isWhitespace) else {
                throw .invalidValue("provider '\(id)' has an empty or spaced type '\(type)'", typeEntry.value.location)
            }
            providers.append(ProviderSettings(
                id: id, type: type,
                options: ProviderOptions(
                    providerID: id, providerType: type, entries: options.filter { $0.key != "type" },
                    values: values, providerLocation: entry.keyLocation),
                location: entry.keyLocation, typeLocation: typeEntry.value.location))
        }
        return providers
    }

    private func providerList(
        _ entry: ConfigNode.Entry, listedIn section: String, providers: [ProviderSettings], allowEmpty: Bool
    ) throws(ConfigError) -> [String] {
        if allowEmpty, case .null = entry.value.content { return [] }
        guard case .sequence(let items) = entry.value.content, allowEmpty || !items.isEmpty else {
            let shape = if case .sequence = entry.value.content { "an empty list" } else { entry.value.shapeDescription }
            throw .invalidValue("expected a list of provider names like [miguiatv, xmltv-sample] for \(section), got \(shape)", entry.value.location)
        }
        var ids: [String] = []
        var firstLocations: [String: SourceLocation] = [:]
        for item in items {
            let id = try values.string(item)
            guard providers.contains(where: { $0.id == id }) else {
                throw .unknownProvider(name: id, listedIn: section, known: providers.map(\.id), item.location)
            }
            if let first = firstLocations[id] {
                throw .duplicate(what: "\(section) entry", name: id, first: first, item.location)
            }
            firstLocations[id] = item.location
            ids.append(id)
        }
        return ids
    }

    /// `lineups: { national: [La1.es, …] }`: each id must be a channel of the channel map (or an
    /// alias of one), so a typo fails here rather than showing an empty line-up.
    private func parseLineups(_ entry: ConfigNode.Entry?, channels: [ChannelMapping]) throws(ConfigError) -> [String: [String]] {
        guard let entry else { return [:] }
        if case .null = entry.value.content { return [:] }
        guard let entries = entry.value.entries else {
            throw .invalidValue("expected line-ups like { national: [La1.es, La2.es] }, got \(entry.value.shapeDescription)", entry.value.location)
        }
        var canonical: [String: String] = [:]
        for channel in channels {
            canonical[channel.id] = channel.id
            for alias in channel.aliases { canonical[alias] = channel.id }
        }
        var lineups: [String: [String]] = [:]
        for lineup in entries {
            guard case .sequence(let items) = lineup.value.content else {
                throw .invalidValue("line-up '\(lineup.key)' must be a list of channel ids, got \(lineup.value.shapeDescription)", lineup.value.location)
            }
            var ids: [String] = []
            for item in items {
                let id = try values.string(item)
                if channels.isEmpty {
                    ids.append(id)
                } else if let known = canonical[id] {
                    ids.append(known)
                } else {
                    throw .invalidValue("line-up '\(lineup.key)' lists '\(id)', which is not a channel in channels"
                        + Suggestion.didYouMean(id, among: channels.map(\.id)), item.location)
                }
            }
            lineups[lineup.key] = ids
        }
        return lineups
    }

    private func parseMetadata(
        _ entry: ConfigNode.Entry?, providers: [ProviderSettings]
    ) throws(ConfigError) -> ([ProgrammeKind: [String]], [ProgrammeKind]) {
        let kinds = ProgrammeKind.allCases.map(\.rawValue)
        guard let entry, let chains = try section(entry.value, name: "metadata", known: kinds) else { return ([:], []) }
        var metadata: [ProgrammeKind: [String]] = [:]
        var order: [ProgrammeKind] = []
        for kindEntry in chains.entries {
            guard let kind = ProgrammeKind(rawValue: kindEntry.key) else { continue }
            metadata[kind] = try providerList(kindEntry, listedIn: "metadata.\(kind.rawValue)", providers: providers, allowEmpty: true)
            order.append(kind)
        }
        return (metadata, order)
    }

    private func parseChannels(_ node: ConfigNode?, providers: [ProviderSettings]) throws(ConfigError) -> [ChannelMapping] {
        guard let node else { return [] }
        let items: [ConfigNode]
        switch node.content {
        case .null: return []
        case .sequence(let list): items = list
        case .scalar, .mapping:
            throw .invalidValue("expected a list of channels like - { id: La1.es, miguiatv: 1 }, got \(node.shapeDescription)", node.location)
        }
        var providerKeys: [String] = []
        for key in providers.map(\.id) + providers.map(\.type) where !providerKeys.contains(key) {
            providerKeys.append(key)
        }

        var channels: [ChannelMapping] = []
        var namesSeen: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            guard let entries = item.entries else {
                throw .invalidValue("expected a channel like { id: La1.es, miguiatv: 1 }, got \(item.shapeDescription)", item.location)
            }
            guard let idEntry = entries.first(where: { $0.key == "id" }) else {
                throw .missingKey(key: "id", section: "channel #\(index + 1)", item.location)
            }
            let id = try values.string(idEntry.value)
            guard !id.isEmpty else { throw .invalidValue("expected a channel id like La1.es, got ''", idEntry.value.location) }
            var channel = ChannelMapping(id: id, providerIDs: [:], location: item.location)
            var names = [(id, idEntry.value.location)]
            for entry in entries where entry.key != "id" {
                switch entry.key {
                case "name": channel.name = try optionalText(entry.value)
                case "type": channel.type = try optionalText(entry.value)
                case "language": channel.language = try optionalText(entry.value)
                case "logo": channel.logo = try optionalText(entry.value)
                case "aliases":
                    channel.aliases = try values.stringList(entry.value)
                    names += zip(channel.aliases, (entry.value.items ?? []).map(\.location))
                default:
                    guard providerKeys.contains(entry.key) else {
                        throw .unknownKey(
                            key: entry.key, section: "channel '\(id)' (a key is a channel field, a provider or a provider type)",
                            known: Self.channelFields + providerKeys, entry.keyLocation)
                    }
                    let providerID = try values.required(entry.value, expected: "the channel's id in '\(entry.key)'")
                    channel.providerIDs[entry.key] = providerID.text
                }
            }
            for (name, location) in names {
                if let first = namesSeen[name] {
                    throw .duplicate(what: "channel id or alias", name: name, first: first, location)
                }
                namesSeen[name] = location
            }
            channels.append(channel)
        }
        return channels
    }

    // MARK: Helpers

    /// A mapping's entries in file order, looked up by key.
    struct Section {
        var entries: [ConfigNode.Entry]

        subscript(key: String) -> ConfigNode.Entry? { entries.first { $0.key == key } }
    }

    /// A section after rejecting unknown keys; nil when the section is absent or empty.
    private func section(_ node: ConfigNode?, name: String, known: [String]) throws(ConfigError) -> Section? {
        guard let node else { return nil }
        if case .null = node.content { return nil }
        guard let entries = node.entries else {
            throw .invalidValue("expected a mapping for \(name) with keys \(known.joined(separator: ", ")), got \(node.shapeDescription)", node.location)
        }
        try rejectUnknownKeys(entries, known: known, section: name)
        return Section(entries: entries)
    }

    private func rejectUnknownKeys(_ entries: [ConfigNode.Entry], known: [String], section: String) throws(ConfigError) {
        if let unknown = entries.first(where: { !known.contains($0.key) }) {
            throw .unknownKey(key: unknown.key, section: section, known: known, unknown.keyLocation)
        }
    }

    private func optionalText(_ node: ConfigNode) throws(ConfigError) -> String? {
        try values.scalar(node, expected: "text")?.text
    }

    private static func isProviderIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
    }
}
