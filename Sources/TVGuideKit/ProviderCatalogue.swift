import Foundation
import GuideConfig
import GuideCore
import MiGuiaTV
import XMLTV

/// The provider types `providers.yaml` can name: `type:` → a factory. Adding a provider is a new
/// module and one entry here.
public struct ProviderCatalogue: Sendable {
    public struct GuideType: Sendable {
        public var type: String
        public var summary: String
        /// Options of this type besides `shift_weeks`; `TransportFactory.options` too when it
        /// fetches over HTTP.
        public var options: [String]
        public var make: @Sendable (ProviderSettings, TransportFactory) throws(ConfigError) -> any GuideProvider
    }

    public var guideTypes: [GuideType]

    public var knownTypes: [String] { guideTypes.map(\.type).sorted() }

    public static let standard = ProviderCatalogue(guideTypes: [
        GuideType(
            type: "miguiatv", summary: "MiGuiaTV's JSON API: channels and each channel's schedule",
            options: ["base_url", "language"] + TransportFactory.options
        ) { settings, transports throws(ConfigError) in
            let options = settings.options
            let baseURL = try options.url("base_url", default: URL(string: "http://api.miguia.tv/1/")).asDirectory
            let language = try options.string("language", default: "es_ES")
            let transport = try transports.transport(for: options, baseURL: baseURL)
            return MiGuiaTVProvider(id: settings.id, baseURL: baseURL, language: language, transport: transport)
        },
        GuideType(
            type: "xmltv", summary: "an XMLTV file or URL (path, file://, http(s)://, .gz)",
            options: ["url"] + TransportFactory.options
        ) { settings, transports throws(ConfigError) in
            let options = settings.options
            let source = try options.url("url")
            let isRemote = source.scheme == "http" || source.scheme == "https"
            let transport = isRemote ? try transports.transport(for: options, baseURL: source.deletingLastPathComponent()) : nil
            return XMLTVProvider(id: settings.id, source: source, transport: transport)
        },
    ])

    public func guideType(_ type: String) -> GuideType? {
        guideTypes.first { $0.type == type }
    }
}

/// The guide providers of a configuration, built and checked, ready to chain. Building fetches
/// nothing, so `tvguide validate` uses it too.
public struct ProviderSetup: Sendable {
    public var chain: GuideChain
    /// The providers as built (wrapped to time them), keyed by id.
    var timings: [String: ProviderTiming]
    /// Providers defined in `providers` that no chain uses.
    public var unused: [String]

    public init(configuration: GuideConfiguration, catalogue: ProviderCatalogue = .standard, now: Date) throws(ConfigError) {
        let transports = TransportFactory(cache: configuration.cache)
        var members: [GuideChainMember] = []
        var unavailable: [UnavailableProvider] = []
        var timings: [String: ProviderTiming] = [:]
        for id in configuration.guide {
            guard let settings = configuration.provider(id) else { continue }  // GuideConfig has already rejected unknown names.
            guard let type = catalogue.guideType(settings.type) else {
                throw settings.unknownType(known: catalogue.knownTypes)
            }
            let missing = settings.options.missingVariables
            if !missing.isEmpty {
                let names = missing.map { "$\($0)" }.joined(separator: ", ")
                unavailable.append(UnavailableProvider(id: id, type: settings.type, error: .notConfigured("\(names) not set in the environment")))
                continue
            }
            var provider = try type.make(settings, transports)
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
            let timed = TimedGuideProvider(inner: provider)
            timings[id] = timed.timing
            members.append(GuideChainMember(provider: timed, type: settings.type, channelMap: configuration.channelMap(forProvider: settings.id, type: settings.type)))
        }
        let used = Set(configuration.guide + configuration.audience + configuration.metadata.values.flatMap { $0 })
        self.unused = configuration.providers.map(\.id).filter { !used.contains($0) }
        self.timings = timings
        self.chain = GuideChain(members: members, unavailable: unavailable, configuredChannels: configuration.channels.map {
            Channel(id: $0.id, name: $0.name ?? $0.id, type: $0.type, language: $0.language, logo: $0.logo)
        })
    }
}

extension URL {
    /// The URL with a trailing `/`, so that paths resolve below it: `…/1` would otherwise lose its
    /// last segment when a provider appends `es_ES/channels.json`.
    var asDirectory: URL {
        absoluteString.hasSuffix("/") ? self : URL(string: absoluteString + "/") ?? self
    }
}
