import Foundation

/// A YAML document as located values, for files that are not providers.yaml but are read with
/// the same errors (a catalogue site's `site.yaml` and `tests.yaml`): every value knows its
/// file, line and column.
package struct YAMLTree: Sendable {
    package enum Value: Sendable {
        case scalar(String)
        case null
        case sequence([YAMLTree])
        case mapping([Entry])
    }

    package struct Entry: Sendable {
        package var key: String
        package var keyLocation: SourceLocation
        package var value: YAMLTree

        package init(key: String, keyLocation: SourceLocation, value: YAMLTree) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    package var value: Value
    package var location: SourceLocation

    package init(value: Value, location: SourceLocation) {
        self.value = value
        self.location = location
    }

    init(_ node: ConfigNode) {
        location = node.location
        switch node.content {
        case .scalar(let text): value = .scalar(text)
        case .null: value = .null
        case .sequence(let items): value = .sequence(items.map(YAMLTree.init))
        case .mapping(let entries): value = .mapping(entries.map { Entry(key: $0.key, keyLocation: $0.keyLocation, value: YAMLTree($0.value)) })
        }
    }

    /// Reads `file`; nil when it is empty.
    package static func load(_ file: URL) throws(ConfigError) -> YAMLTree? {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadable(file: file, reason: "cannot read it: \((error as NSError).localizedDescription)")
        }
        let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        guard let text = String(data: Data(bytes), encoding: .utf8) else {
            throw .unreadable(file: file, reason: "it is not UTF-8 text")
        }
        return try ConfigNode.compose(yaml: text, file: file).map(YAMLTree.init)
    }

    package var entries: [Entry]? {
        if case .mapping(let entries) = value { entries } else { nil }
    }

    package var items: [YAMLTree]? {
        if case .sequence(let items) = value { items } else { nil }
    }

    package var scalar: String? {
        if case .scalar(let text) = value { text } else { nil }
    }

    package subscript(key: String) -> YAMLTree? {
        entries?.first { $0.key == key }?.value
    }

    /// How the value reads in an error message.
    package var shapeDescription: String {
        switch value {
        case .scalar(let text): "'\(text)'"
        case .null: "nothing"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

extension ProviderOptions {
    /// The option `key` as written (no `${VAR}` expansion), for options that are whole documents
    /// (a site recipe's `request`, `items`, `details`); marks the key as read.
    package func tree(_ key: String) -> YAMLTree? {
        markRead(key)
        return node(key).map(YAMLTree.init)
    }
}
