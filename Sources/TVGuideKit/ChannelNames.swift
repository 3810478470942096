import Foundation
import GuideConfig
import GuideCore

/// Turns the channel names a web page prints (`La 1`, `TVE1`, `laSexta`, `ETB1`) into canonical
/// channel ids, from the channel list of providers.yaml: the provider's own column (by its id or
/// type), the channel's name, its aliases and its id all count, compared without case, accents,
/// spaces or punctuation, so `Trece` is `TRECE` and `ETB1` is `ETB 1`.
struct ChannelNames: Sendable {
    private let canonicalByKey: [String: String]

    init(configuration: GuideConfiguration, providerID: String, type: String) {
        var map: [String: String] = [:]
        for channel in configuration.channels {
            let names = [channel.providerID(forProvider: providerID, type: type), channel.name, channel.id]
                .compactMap { $0 } + channel.aliases
            for name in names where map[Self.key(name)] == nil {
                map[Self.key(name)] = channel.id
            }
        }
        canonicalByKey = map
    }

    /// The canonical id for a name as a page writes it; nil when no channel goes by it. Without
    /// a channel list, the page's name is kept as the id.
    func canonicalID(for name: String) -> String? {
        guard !canonicalByKey.isEmpty else { return name }
        return canonicalByKey[Self.key(name)]
    }

    static func key(_ name: String) -> String {
        String(name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }
}
