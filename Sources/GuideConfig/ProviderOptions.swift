import Foundation

/// One entry under `providers:`.
package struct ProviderSettings: Sendable, CustomStringConvertible {
    /// The provider's name in providers.yaml (`miguiatv`, `xmltv-sample`).
    package var id: String
    /// The catalogue entry that builds it (`miguiatv`, `xmltv`).
    package var type: String
    /// Every key besides `type`, read through typed accessors.
    package var options: ProviderOptions
    /// Where the provider's name is written.
    package var location: SourceLocation
    /// Where its `type` value is written: the spot to point at for an unknown type.
    package var typeLocation: SourceLocation

    package init(id: String, type: String, options: ProviderOptions, location: SourceLocation, typeLocation: SourceLocation) {
        self.id = id
        self.type = type
        self.options = options
        self.location = location
        self.typeLocation = typeLocation
    }

    /// The error for a `type` the catalogue (owned by the CLI) does not know.
    package func unknownType(known: [String]) -> ConfigError {
        .unknownType(type: type, provider: id, known: known, typeLocation)
    }

    package var description: String { "\(id) (type \(type))" }
}

/// One row of a `ProviderOptions.table`: a name and its settings, all text.
package struct OptionRow: Sendable {
    package var name: String
    package var values: [String: String]
    /// Where the row's settings are written.
    package var location: SourceLocation
}

/// A provider's options with typed accessors. Each accessor expands `${VAR}` when read, so a
/// missing secret surfaces as `ConfigError.missingEnvironment` for this provider alone, and
/// remembers the key so `unknownKeys(known:)` can flag whatever no one asked for.
///
/// Accessors with `default: nil` require the key; a key written with no value (`key:` or `~`)
/// counts as absent. Errors point at the value in the file.
package final class ProviderOptions: @unchecked Sendable, CustomStringConvertible, CustomReflectable {
    // @unchecked: the only mutable state is `readKeys`, always accessed under `lock`.
    package let providerID: String
    package let providerType: String
    private let entries: [ConfigNode.Entry]
    private let values: ValueReader
    /// Where the provider is written, the location of a "missing option" error.
    private let providerLocation: SourceLocation
    private let lock = NSLock()
    private var readKeys: [String] = []

    init(providerID: String, providerType: String, entries: [ConfigNode.Entry], values: ValueReader, providerLocation: SourceLocation) {
        self.providerID = providerID
        self.providerType = providerType
        self.entries = entries
        self.values = values
        self.providerLocation = providerLocation
    }

    /// The option keys in file order.
    package var keys: [String] { entries.map(\.key) }

    package func contains(_ key: String) -> Bool { entry(key) != nil }

    /// Where the value of `key` is written.
    package func location(of key: String) -> SourceLocation? { entry(key)?.value.location }

    /// Variables referenced without a default that are unset or empty, in file order: a provider
    /// with any is "not configured" whichever option the factory reads first.
    package var missingVariables: [String] {
        var missing: [String] = []
        visitVariables { name, hasDefault, value in
            if !hasDefault, value.isEmpty, !missing.contains(name) { missing.append(name) }
        }
        return missing
    }

    /// The values of the environment variables the options refer to (API keys, tokens…), so
    /// that the CLI can keep them out of everything it prints or writes.
    package var environmentValues: [String] {
        var found: [String] = []
        visitVariables { _, _, value in
            if !value.isEmpty, !found.contains(value) { found.append(value) }
        }
        return found
    }

    package func string(_ key: String, default fallback: String? = nil) throws(ConfigError) -> String {
        try require(key, optionalString(key), fallback)
    }

    package func optionalString(_ key: String) throws(ConfigError) -> String? {
        try read(key) { node throws(ConfigError) in try values.string(node) }
    }

    package func int(_ key: String, default fallback: Int? = nil, in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int {
        try require(key, optionalInt(key, in: range), fallback)
    }

    package func optionalInt(_ key: String, in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int? {
        try read(key) { node throws(ConfigError) in try values.int(node, in: range) }
    }

    /// `true`/`false` (also `yes`/`no`, `on`/`off`).
    package func bool(_ key: String, default fallback: Bool? = nil) throws(ConfigError) -> Bool {
        try require(key, read(key) { node throws(ConfigError) in try values.bool(node) }, fallback)
    }

    /// Seconds from `500ms`, `10s`, `90m`, `2h`, `1d`, `1w`, `1h30m` or a bare number of seconds.
    package func duration(_ key: String, default fallback: TimeInterval? = nil) throws(ConfigError) -> TimeInterval {
        try require(key, optionalDuration(key), fallback)
    }

    package func optionalDuration(_ key: String) throws(ConfigError) -> TimeInterval? {
        try read(key) { node throws(ConfigError) in try values.duration(node) }
    }

    /// An `http(s)://` or `file://` URL as written, or a path resolved against the configuration's folder.
    package func url(_ key: String, default fallback: URL? = nil) throws(ConfigError) -> URL {
        try require(key, optionalURL(key), fallback)
    }

    package func optionalURL(_ key: String) throws(ConfigError) -> URL? {
        try read(key) { node throws(ConfigError) in try values.url(node) }
    }

    /// A file-system path: absolute as is, relative against the configuration's folder.
    package func path(_ key: String, default fallback: URL? = nil) throws(ConfigError) -> URL {
        try require(key, optionalPath(key), fallback)
    }

    package func optionalPath(_ key: String) throws(ConfigError) -> URL? {
        try read(key) { node throws(ConfigError) in try values.path(node) }
    }

    /// `auto` or a whole number of weeks.
    package func weekShift(_ key: String, default fallback: WeekShift? = nil) throws(ConfigError) -> WeekShift {
        try require(key, read(key) { node throws(ConfigError) in try values.weekShift(node) }, fallback)
    }

    /// A YAML list of text values (numbers become their text).
    package func stringList(_ key: String, default fallback: [String]? = nil) throws(ConfigError) -> [String] {
        try require(key, read(key) { node throws(ConfigError) in try values.stringList(node) }, fallback)
    }

    /// A YAML mapping of text to text (numbers become their text).
    package func stringMap(_ key: String, default fallback: [String: String]? = nil) throws(ConfigError) -> [String: String] {
        try require(key, read(key) { node throws(ConfigError) in try values.stringMap(node) }, fallback)
    }

    /// A YAML mapping of mappings of text (`fields: { rank: { xpath: "td[1]", parse: integer } }`),
    /// in file order, each row with where it is written so that its errors can point at it.
    package func table(_ key: String) throws(ConfigError) -> [OptionRow]? {
        try read(key) { node throws(ConfigError) in
            guard let rows = node.entries else {
                throw .invalidValue("expected a mapping like { name: { key: value } }, got \(node.shapeDescription)", node.location)
            }
            var table: [OptionRow] = []
            for row in rows {
                table.append(OptionRow(name: row.key, values: try values.stringMap(row.value), location: row.value.location))
            }
            return table
        }
    }

    /// The error for the first key (in file order) that is neither in `known` nor was read by an
    /// accessor, with the known options and a "did you mean"; nil when every key is accounted for.
    package func unknownKeys(known: [String]) -> ConfigError? {
        var accepted = known
        for key in lock.withLock({ readKeys }) where !accepted.contains(key) {
            accepted.append(key)
        }
        guard let unknown = entries.first(where: { !accepted.contains($0.key) }) else { return nil }
        return .unknownOption(option: unknown.key, provider: providerID, type: providerType, known: accepted, unknown.keyLocation)
    }

    package var description: String {
        "options of \(providerID) (type \(providerType)): \(keys.joined(separator: ", "))"
    }

    /// Keys only: a dump of the configuration must not reveal values taken from the environment.
    package var customMirror: Mirror {
        Mirror(self, children: ["providerID": providerID, "providerType": providerType, "keys": keys])
    }

    private func entry(_ key: String) -> ConfigNode.Entry? {
        entries.first { $0.key == key }
    }

    func node(_ key: String) -> ConfigNode? {
        entry(key)?.value
    }

    func markRead(_ key: String) {
        lock.withLock {
            if !readKeys.contains(key) { readKeys.append(key) }
        }
    }

    private func read<Value>(_ key: String, _ parse: (ConfigNode) throws(ConfigError) -> Value) throws(ConfigError) -> Value? {
        lock.withLock {
            if !readKeys.contains(key) { readKeys.append(key) }
        }
        guard let node = entry(key)?.value else { return nil }
        if case .null = node.content { return nil }
        return try parse(node)
    }

    private func require<Value>(_ key: String, _ value: Value?, _ fallback: Value?) throws(ConfigError) -> Value {
        if let value { return value }
        if let fallback { return fallback }
        throw .missingKey(key: key, section: "provider '\(providerID)' (type \(providerType))", providerLocation)
    }

    private func visitVariables(_ visit: (_ name: String, _ hasDefault: Bool, _ value: String) -> Void) {
        func walk(_ node: ConfigNode) {
            switch node.content {
            case .null:
                break
            case .scalar(let raw):
                for reference in EnvironmentExpansion.references(in: raw) {
                    visit(reference.name, reference.hasDefault, values.environment[reference.name] ?? "")
                }
            case .sequence(let items):
                items.forEach(walk)
            case .mapping(let entries):
                entries.forEach { walk($0.value) }
            }
        }
        entries.forEach { walk($0.value) }
    }
}
