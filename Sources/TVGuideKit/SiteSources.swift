import Foundation
import GuideConfig
import GuideCore
import Scrape

/// `type: site` providers: a catalogue site by name (`site: programacion-tv.elpais.com`), any of
/// whose recipe keys the provider may override, or a recipe written inline in providers.yaml.
enum SiteSources {
    /// `lang` picks one language's channel list when a site has several sharing site ids.
    static let options = ["catalogue", "lang"] + SiteRecipeReader.keys

    struct Resolved {
        var recipe: SiteRecipe
        /// The catalogue site's channel list; empty for an inline recipe.
        var channels: [SiteChannel]
    }

    static func resolve(_ settings: ProviderSettings) throws(ConfigError) -> Resolved {
        let options = settings.options
        if let unknown = options.unknownKeys(known: Self.options + TransportFactory.options + ["shift_weeks"]) {
            throw unknown
        }
        var overrides: [YAMLTree.Entry] = []
        for key in SiteRecipeReader.keys {
            if let tree = options.tree(key) {
                overrides.append(YAMLTree.Entry(key: key, keyLocation: options.location(of: key) ?? settings.location, value: tree))
            }
        }
        let providerLayer = YAMLTree(value: .mapping(overrides), location: settings.location)
        let name = try options.optionalString("site")
        let directory = try options.path("catalogue", default: settings.location.file.deletingLastPathComponent()
            .appendingPathComponent(SiteCatalogue.defaultDirectory, isDirectory: true))
        let catalogue = SiteCatalogue(directory: directory)
        if let name, let site = catalogue.site(name) {
            let tree = try site.tree()
            let recipe = try SiteRecipeReader(layers: [providerLayer, tree], location: settings.location).read()
            var channels: [SiteChannel]
            do {
                channels = try site.channels()
            } catch let error as ConfigError {
                throw error
            } catch {
                throw .unreadable(file: site.folder, reason: "cannot read its channel list: \(error)")
            }
            if let language = try options.optionalString("lang") {
                let languages = Set(channels.compactMap(\.language)).sorted()
                channels = channels.filter { $0.language == language }
                guard !channels.isEmpty else {
                    throw .invalidValue("lang: \(name)'s channel lists have no channel in '\(language)' (they have \(languages.isEmpty ? "no lang attribute" : languages.joined(separator: ", ")))",
                                        options.location(of: "lang") ?? settings.location)
                }
            }
            return Resolved(recipe: recipe, channels: channels)
        }
        guard options.contains("url") || options.contains("request") else {
            let known = catalogue.sites().map(\.name)
            let location = options.location(of: "site") ?? settings.location
            guard let name else {
                throw .missingKey(key: "site", section: "provider '\(settings.id)' (type site: a catalogue site's name, or a recipe with url and items)", settings.location)
            }
            let hint = Suggestion.didYouMean(name, among: known)
            throw .invalidValue("site: '\(name)' is not in the catalogue \(directory.relativePath) (\(known.count) sites; `tvguide sources list` names them)\(hint)", location)
        }
        return Resolved(recipe: try SiteRecipeReader(layers: [providerLayer], location: settings.location).read(), channels: [])
    }

    /// The channels a site provider serves, as `Channel(id: site id)`, and the map from site ids to
    /// canonical ids: the channel map's own ids for this provider when it gives any, else the
    /// catalogue's channel list matched on XMLTV ids (La1.es), else the canonical ids themselves.
    static func channels(for settings: ProviderSettings, in configuration: GuideConfiguration, site: [SiteChannel]) -> (channels: [Channel], map: [String: String]) {
        var map: [String: String] = [:]
        var channels: [Channel] = []
        let siteLanguages = Dictionary(site.compactMap { entry in entry.language.map { (entry.siteID, $0) } }, uniquingKeysWith: { first, _ in first })
        func add(_ siteID: String, _ channel: ChannelMapping) {
            guard map[siteID] == nil else { return }
            map[siteID] = channel.id
            channels.append(Channel(id: siteID, name: channel.name ?? channel.id, type: channel.type,
                                    language: siteLanguages[siteID] ?? channel.language, logo: channel.logo))
        }
        for channel in configuration.channels {
            if let own = channel.providerID(forProvider: settings.id, type: settings.type) { add(own, channel) }
        }
        if !channels.isEmpty { return (channels, map) }
        let byXMLTV = Dictionary(site.compactMap { entry in entry.xmltvID.map { ($0, entry.siteID) } }, uniquingKeysWith: { first, _ in first })
        for channel in configuration.channels {
            if let siteID = byXMLTV[channel.id] { add(siteID, channel) }
        }
        if !channels.isEmpty || !site.isEmpty { return (channels, map) }
        for channel in configuration.channels { add(channel.id, channel) }
        return (channels, map)
    }
}

/// A provider built with its own channel map (a catalogue site's ids → canonical ids, from its
/// channel list), which the chain uses instead of the configuration's: the factory works the map
/// out once, with the recipe, rather than reading the site a second time for it.
struct ChannelMappedGuideProvider: GuideProvider {
    let inner: any GuideProvider
    let channelMap: [String: String]

    var id: String { inner.id }

    func channels() async throws -> [Channel] {
        try await inner.channels()
    }

    func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        try await inner.schedule(for: channel, in: window)
    }

    func reportNotes() async -> [String] {
        await inner.reportNotes()
    }
}
