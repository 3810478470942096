import Foundation
import GuideConfig
import GuideCore

/// The metadata chains of a configuration, built and checked: one provider instance per id, so a
/// provider in several chains shares its token, its configuration request and its coalescing.
/// Building fetches nothing, so `tvguide validate` uses it too.
package struct MetadataSetup: Sendable {
    /// Nil when providers.yaml has no `metadata` chains.
    package var enricher: MetadataEnricher?
    /// Providers the chains name that cannot run (a missing key), reported as skipped.
    package var unavailable: [UnavailableProvider]

    /// - Parameter caches: where the HTTP cache and the lookup cache live; nil for the folder `cache.dir`.
    package init(configuration: GuideConfiguration, catalogue: ProviderCatalogue = .standard, clock: RunClock = .wall,
                 caches: CacheStorages? = nil) throws(ConfigError) {
        let kinds = configuration.metadataKinds.filter { !(configuration.metadata[$0] ?? []).isEmpty }
        guard !kinds.isEmpty else {
            enricher = nil
            unavailable = []
            return
        }
        let caches = caches ?? CacheStorages(folder: configuration.cache)
        let transports = TransportFactory(cache: configuration.cache, storage: caches.http, secrets: configuration.environmentValues, clock: clock)
        var members: [String: MetadataChainMember] = [:]
        var unavailable: [UnavailableProvider] = []
        var chains: [ProgrammeKind: [MetadataChainMember]] = [:]
        for kind in kinds {
            for id in configuration.metadata[kind] ?? [] where members[id] == nil {
                guard let settings = configuration.provider(id) else { continue }  // GuideConfig has already rejected unknown names.
                switch try Self.build(settings, chain: "metadata.\(kind.rawValue)", catalogue: catalogue, transports: transports) {
                case .member(let member):
                    members[id] = member
                case .unavailable(let provider):
                    unavailable.append(provider)
                    members[id] = MetadataChainMember(unavailable: provider)
                }
            }
            chains[kind] = (configuration.metadata[kind] ?? []).compactMap { members[$0] }
        }
        self.unavailable = unavailable
        let cache = MetadataLookupCache(storage: caches.metadata, ttl: configuration.cache.ttl, now: clock.reading)
        enricher = MetadataEnricher(chains: chains, cache: cache)
    }

    private enum Built {
        case member(MetadataChainMember)
        case unavailable(UnavailableProvider)
    }

    /// The chain member for `settings`, or why it cannot run; throws for a configuration error.
    private static func build(
        _ settings: ProviderSettings, chain: String, catalogue: ProviderCatalogue, transports: TransportFactory
    ) throws(ConfigError) -> Built {
        guard let type = catalogue.metadataType(settings.type) else {
            throw catalogue.misplaced(settings, in: chain, servesIt: catalogue.guideType(settings.type) != nil ? "a guide" : nil,
                                      knownTypes: catalogue.knownMetadataTypes)
        }
        if let unknown = settings.options.unknownKeys(known: type.options) {
            throw unknown
        }
        if let missing = settings.unavailableForMissingVariables {
            return .unavailable(missing)
        }
        switch try type.make(settings, transports) {
        case .ready(let provider, let caching):
            return .member(MetadataChainMember(provider: provider, type: settings.type, caching: caching))
        case .notConfigured(let reason):
            return .unavailable(UnavailableProvider(id: settings.id, type: settings.type, error: .notConfigured(reason)))
        }
    }
}
