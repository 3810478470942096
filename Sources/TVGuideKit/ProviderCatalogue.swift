import Foundation
import GuideConfig
import GuideCore
import MiGuiaTV
import Scrape
import TheTVDB
import TMDB
import XMLTV

/// The provider types `providers.yaml` can name: `type:` → a factory. Adding a provider is a new
/// module and one entry here.
package struct ProviderCatalogue: Sendable {
    package struct GuideType: Sendable {
        package var type: String
        package var summary: String
        /// Options of this type besides `shift_weeks`; `TransportFactory.options` too when it
        /// fetches over HTTP.
        package var options: [String]
        package var make: @Sendable (ProviderSettings, FactoryContext) throws(ConfigError) -> any GuideProvider
    }

    package struct MetadataType: Sendable {
        package var type: String
        package var summary: String
        /// Options of this type; `TransportFactory.options` too.
        package var options: [String]
        package var make: @Sendable (ProviderSettings, TransportFactory) throws(ConfigError) -> MetadataBuild
    }

    /// What a factory may need besides the provider's own settings.
    package struct FactoryContext: Sendable {
        package var transports: TransportFactory
        /// For the channel list (a scraped guide's channels, a page's channel names).
        package var configuration: GuideConfiguration
    }

    /// A metadata provider ready to ask, or the reason it cannot be (no credentials): the chain
    /// reports it as skipped and moves on, as it does for a missing environment variable.
    package enum MetadataBuild: Sendable {
        /// Recordings answer locally and always the same, so their answers are not cached; a live
        /// provider's cache fingerprint is what its answers depend on besides the query.
        case ready(any MetadataProvider, caching: MetadataChainMember.Caching)
        case notConfigured(String)
    }

    package struct AudienceType: Sendable {
        package var type: String
        package var summary: String
        /// Options of this type besides `shift_weeks`; `TransportFactory.options` too.
        package var options: [String]
        package var make: @Sendable (ProviderSettings, FactoryContext) throws(ConfigError) -> any AudienceProvider
    }

    package var guideTypes: [GuideType]
    package var metadataTypes: [MetadataType]
    package var audienceTypes: [AudienceType]

    package var knownTypes: [String] { guideTypes.map(\.type).sorted() }
    package var knownMetadataTypes: [String] { metadataTypes.map(\.type).sorted() }
    package var knownAudienceTypes: [String] { audienceTypes.map(\.type).sorted() }

    package static let standard = ProviderCatalogue(
        guideTypes: standardGuideTypes, metadataTypes: standardMetadataTypes, audienceTypes: standardAudienceTypes)

    static let standardGuideTypes: [GuideType] = [
        GuideType(
            type: "miguiatv", summary: "MiGuiaTV's JSON API: channels and each channel's schedule",
            options: ["base_url", "language"] + TransportFactory.options
        ) { settings, context throws(ConfigError) in
            let options = settings.options
            let baseURL = try options.url("base_url", default: URL(string: "http://api.miguia.tv/1/")).asDirectory
            let language = try options.string("language", default: "es_ES")
            let transport = try context.transports.transport(for: options, baseURL: baseURL)
            return MiGuiaTVProvider(id: settings.id, baseURL: baseURL, language: language, transport: transport)
        },
        GuideType(
            type: "xmltv", summary: "an XMLTV file or URL (path, file://, http(s)://, .gz)",
            options: ["url"] + TransportFactory.options
        ) { settings, context throws(ConfigError) in
            let options = settings.options
            let source = try options.url("url")
            let isRemote = source.scheme == "http" || source.scheme == "https"
            let transport = isRemote ? try context.transports.transport(for: options, baseURL: source.deletingLastPathComponent(), bodyLimit: .document) : nil
            return XMLTVProvider(id: settings.id, source: source, transport: transport)
        },
        GuideType(
            type: "scrape", summary: "an HTML page per channel and day, read with XPath (produces: guide)",
            options: ScrapeSources.scrapeOptions + TransportFactory.options
        ) { settings, context throws(ConfigError) in
            let recipe = try ScrapeSources.scrapeRecipe(settings, expected: .guide)
            let transport = try context.transports.transport(for: settings.options, baseURL: try ScrapeSources.origin(of: recipe.url, settings), bodyLimit: .page)
            do {
                return try ScrapeGuideProvider(id: settings.id, recipe: recipe,
                                               channels: ScrapeSources.channels(for: settings, in: context.configuration), transport: transport)
            } catch {
                throw .invalidValue("provider '\(settings.id)': \(error)", settings.location)
            }
        },
        GuideType(
            type: "json-feed", summary: "a JSON API read through a field map (your own server, a new site)",
            options: ScrapeSources.jsonFeedOptions + TransportFactory.options
        ) { settings, context throws(ConfigError) in
            let recipe = try ScrapeSources.jsonFeedRecipe(settings)
            let transport = try context.transports.transport(for: settings.options, baseURL: try ScrapeSources.origin(of: recipe.url.description, settings), bodyLimit: .page)
            let channels = ScrapeSources.channels(for: settings, in: context.configuration)
            guard recipe.url.usesChannel || channels.count <= 1 else {
                throw .invalidValue("url: '\(recipe.url)' has no {channel} placeholder, so it cannot tell the \(channels.count) channels apart",
                                    settings.options.location(of: "url") ?? settings.location)
            }
            return JSONFeedGuideProvider(id: settings.id, recipe: recipe, channels: channels, transport: transport)
        },
        GuideType(
            type: "site", summary: "a site recipe: a catalogue site (site: NAME, sources/) or one written inline, jq for JSON, XPath for HTML",
            options: SiteSources.options + TransportFactory.options
        ) { settings, context throws(ConfigError) in
            let resolved = try SiteSources.resolve(settings)
            let origin = try ScrapeSources.origin(of: resolved.recipe.request.url.description, settings)
            let transport = try context.transports.transport(for: settings.options, baseURL: origin, bodyLimit: .page)
            let (channels, channelMap) = SiteSources.channels(for: settings, in: context.configuration, site: resolved.channels)
            // Lists sharing a site id across languages: the first listed entry's attributes, unless `lang` chose a list.
            let attributes = Dictionary(resolved.channels.map { ($0.siteID, $0.attributes) }, uniquingKeysWith: { first, _ in first })
            let site = SiteGuideProvider(id: settings.id, recipe: resolved.recipe, channels: channels, channelAttributes: attributes, transport: transport,
                                         now: context.transports.clock.now)
            return ChannelMappedGuideProvider(inner: site, channelMap: channelMap)
        },
    ]

    static let standardMetadataTypes: [MetadataType] = [
        MetadataType(
            type: "tmdb", summary: "TheMovieDB API v3: films and series",
            options: ["base_url", "api_key", "access_token", "language", "fallback_language"] + TransportFactory.options
        ) { settings, transports throws(ConfigError) in
            let options = settings.options
            let baseURL = try options.url("base_url", default: URL(string: "https://api.themoviedb.org/3/")).asDirectory
            let language = try options.string("language", default: "es-ES")
            let fallback = try options.fallbackLanguage(default: "en-US")
            let credentials: TMDBCredentials
            if let key = try options.optionalString("api_key"), !key.isEmpty {
                credentials = .apiKey(key)
            } else if let token = try options.optionalString("access_token"), !token.isEmpty {
                credentials = .bearerToken(token)
            } else if options.contains("replay") {
                credentials = .none
            } else {
                return .notConfigured("neither api_key nor access_token is set (TMDB_API_KEY or TMDB_ACCESS_TOKEN in the environment)")
            }
            let transport = try transports.transport(for: options, baseURL: baseURL)
            let provider = TMDBProvider(id: settings.id, baseURL: baseURL, credentials: credentials, language: language,
                                        fallbackLanguage: fallback, transport: transport)
            return .ready(provider, caching: options.caching(fingerprint: "tmdb \(baseURL.absoluteString) \(language) \(fallback ?? "-")"))
        },
        MetadataType(
            type: "thetvdb", summary: "TheTVDB API v4: series (and films)",
            options: ["base_url", "api_key", "pin", "language", "fallback_language"] + TransportFactory.options
        ) { settings, transports throws(ConfigError) in
            let options = settings.options
            let baseURL = try options.url("base_url", default: URL(string: "https://api4.thetvdb.com/v4/")).asDirectory
            let language = try options.string("language", default: "spa")
            let fallback = try options.fallbackLanguage(default: "eng")
            let apiKey = try options.optionalString("api_key").flatMap { $0.isEmpty ? nil : $0 }
            guard apiKey != nil || options.contains("replay") else {
                return .notConfigured("api_key is not set (THETVDB_API_KEY in the environment)")
            }
            let pin = try options.optionalString("pin").flatMap { $0.isEmpty ? nil : $0 }
            let transport = try transports.transport(for: options, baseURL: baseURL)
            let provider = TheTVDBProvider(id: settings.id, baseURL: baseURL, apiKey: apiKey, pin: pin,
                                           language: language, fallbackLanguage: fallback, transport: transport,
                                           now: transports.clock.reading)
            return .ready(provider, caching: options.caching(fingerprint: "thetvdb \(baseURL.absoluteString) \(language) \(fallback ?? "-")"))
        },
    ]

    package func guideType(_ type: String) -> GuideType? {
        guideTypes.first { $0.type == type }
    }

    static let standardAudienceTypes: [AudienceType] = [
        AudienceType(
            type: "scrape", summary: "a daily audience ranking page read with XPath (produces: audience), formulatv-style",
            options: ScrapeSources.scrapeOptions + TransportFactory.options
        ) { settings, context throws(ConfigError) in
            let recipe = try ScrapeSources.scrapeRecipe(settings, expected: .audience)
            let transport = try context.transports.transport(for: settings.options, baseURL: try ScrapeSources.origin(of: recipe.url, settings), bodyLimit: .page)
            let names = ChannelNames(configuration: context.configuration, providerID: settings.id, type: settings.type)
            do {
                return try ScrapeAudienceProvider(id: settings.id, recipe: recipe, transport: transport) { names.canonicalID(for: $0) }
            } catch {
                throw .invalidValue("provider '\(settings.id)': \(error)", settings.location)
            }
        },
    ]

    package func audienceType(_ type: String) -> AudienceType? {
        audienceTypes.first { $0.type == type }
    }

    package func metadataType(_ type: String) -> MetadataType? {
        metadataTypes.first { $0.type == type }
    }

    /// The error for a provider listed in a chain its type does not serve: the role it does serve
    /// (`metadata`, `a guide`) when it has one, else an unknown type with the chain's known types.
    func misplaced(_ settings: ProviderSettings, in chain: String, servesIt role: String?, knownTypes: [String]) -> ConfigError {
        guard let role else { return settings.unknownType(known: knownTypes) }
        return .invalidValue(
            "provider '\(settings.id)' (type \(settings.type)) gives \(role): it cannot be in \(chain); types there: \(knownTypes.joined(separator: ", "))",
            settings.typeLocation)
    }
}

/// The guide providers of a configuration, built and checked, ready to chain. Building fetches
/// nothing, so `tvguide validate` uses it too.
package struct ProviderSetup: Sendable {
    package var chain: GuideChain
    /// The providers as built (wrapped to time them), keyed by id.
    var timings: [String: ProviderTiming]
    /// Providers defined in `providers` that no chain uses.
    package var unused: [String]

    /// - Parameter caches: where the HTTP cache lives; nil for the folder `cache.dir`.
    package init(configuration: GuideConfiguration, catalogue: ProviderCatalogue = .standard, now: Date, caches: CacheStorages? = nil) throws(ConfigError) {
        let transports = TransportFactory(cache: configuration.cache, storage: caches?.http, secrets: configuration.environmentValues,
                                          clock: RunClock(fixedAt: now))
        var members: [GuideChainMember] = []
        var unavailable: [UnavailableProvider] = []
        var timings: [String: ProviderTiming] = [:]
        for id in configuration.guide {
            guard let settings = configuration.provider(id) else { continue }  // GuideConfig has already rejected unknown names.
            guard let type = catalogue.guideType(settings.type) else {
                throw catalogue.misplaced(settings, in: "guide", servesIt: catalogue.metadataType(settings.type) != nil ? "metadata" : nil,
                                          knownTypes: catalogue.knownTypes)
            }
            if let missing = settings.unavailableForMissingVariables {
                unavailable.append(missing)
                continue
            }
            let timing = ProviderTiming()
            var provider = try type.make(settings, ProviderCatalogue.FactoryContext(transports: transports.counting(into: timing), configuration: configuration))
            let ownChannelMap = (provider as? ChannelMappedGuideProvider)?.channelMap
            if settings.options.contains("shift_weeks") {
                let shift: WeekShiftedGuideProvider.Mode = switch try settings.options.weekShift("shift_weeks") {
                case .auto: .auto
                case .weeks(let weeks): .weeks(weeks)
                }
                provider = WeekShiftedGuideProvider(provider, mode: shift, now: now)
            }
            if let unknown = settings.options.unknownKeys(known: type.options + ["shift_weeks"]) {
                throw unknown
            }
            let timed = TimedGuideProvider(inner: provider, timing: timing)
            timings[id] = timed.timing
            let channelMap = ownChannelMap ?? configuration.channelMap(forProvider: settings.id, type: settings.type)
            members.append(GuideChainMember(provider: timed, type: settings.type, channelMap: channelMap))
        }
        let used = Set(configuration.guide + configuration.audience + configuration.metadata.values.flatMap { $0 })
        self.unused = configuration.providers.map(\.id).filter { !used.contains($0) }
        self.timings = timings
        self.chain = GuideChain(members: members, unavailable: unavailable, configuredChannels: configuration.channels.map {
            Channel(id: $0.id, name: $0.name ?? $0.id, type: $0.type, language: $0.language, logo: $0.logo)
        })
    }
}

extension ProviderSettings {
    /// A provider whose options name an unset environment variable: reported as not configured,
    /// and its chain moves on.
    var unavailableForMissingVariables: UnavailableProvider? {
        let missing = options.missingVariables
        guard !missing.isEmpty else { return nil }
        let names = missing.map { "$\($0)" }.joined(separator: ", ")
        return UnavailableProvider(id: id, type: type, error: .notConfigured("\(names) not set in the environment"))
    }
}

extension ProviderOptions {
    /// `fallback_language`: the default when absent, none when set to `""` or `none`.
    func fallbackLanguage(default fallback: String) throws(ConfigError) -> String? {
        guard let value = try optionalString("fallback_language") else { return fallback }
        return value.isEmpty || value == "none" ? nil : value
    }

    /// Recorded answers (`replay:`) are not worth caching; live ones are, under `fingerprint`.
    func caching(fingerprint: String) -> MetadataChainMember.Caching {
        contains("replay") ? .disabled : .enabled(fingerprint: fingerprint)
    }
}

extension URL {
    /// The URL with a trailing `/`, so that paths resolve below it: `…/1` would otherwise lose its
    /// last segment when a provider appends `es_ES/channels.json`.
    var asDirectory: URL {
        absoluteString.hasSuffix("/") ? self : URL(string: absoluteString + "/") ?? self
    }
}
