import Foundation
import GuideConfig
import GuideCore

/// The audience chain of a configuration (`audience:` in providers.yaml), built and checked
/// without fetching anything, so `tvguide validate` uses it too.
package struct AudienceSetup: Sendable {
    /// Nil when providers.yaml lists no audience providers.
    package var chain: AudienceChain?
    /// Providers the chain names that cannot run (a missing variable), reported as skipped.
    package var unavailable: [UnavailableProvider]
    /// Days of rankings the snapshot keeps (`snapshots.audience_days`).
    package var keepDays: Int

    /// - Parameter caches: where the HTTP cache lives; nil for the folder `cache.dir`.
    package init(configuration: GuideConfiguration, catalogue: ProviderCatalogue = .standard, clock: RunClock = .wall,
                 caches: CacheStorages? = nil) throws(ConfigError) {
        keepDays = configuration.snapshots.audienceDays
        guard !configuration.audience.isEmpty else {
            chain = nil
            unavailable = []
            return
        }
        let transports = TransportFactory(cache: configuration.cache, storage: caches?.http, secrets: configuration.environmentValues, clock: clock)
        let context = ProviderCatalogue.FactoryContext(transports: transports, configuration: configuration)
        var members: [AudienceChainMember] = []
        var unavailable: [UnavailableProvider] = []
        for id in configuration.audience {
            guard let settings = configuration.provider(id) else { continue }  // GuideConfig has already rejected unknown names.
            guard let type = catalogue.audienceType(settings.type) else {
                let role = catalogue.guideType(settings.type) != nil ? "a guide" : catalogue.metadataType(settings.type) != nil ? "metadata" : nil
                throw catalogue.misplaced(settings, in: "audience", servesIt: role, knownTypes: catalogue.knownAudienceTypes)
            }
            if let unknown = settings.options.unknownKeys(known: type.options + ["shift_weeks"]) {
                throw unknown
            }
            if let missing = settings.unavailableForMissingVariables {
                unavailable.append(missing)
                members.append(AudienceChainMember(unavailable: missing))
                continue
            }
            var provider = try type.make(settings, context)
            if settings.options.contains("shift_weeks") {
                let mode: WeekShiftedAudienceProvider.Mode = switch try settings.options.weekShift("shift_weeks") {
                case .auto: .auto(maxWeeks: 104)
                case .weeks(let weeks): .weeks(weeks)
                }
                provider = WeekShiftedAudienceProvider(provider, mode: mode)
            }
            members.append(AudienceChainMember(provider: provider, type: settings.type))
        }
        self.unavailable = unavailable
        chain = AudienceChain(members: members)
    }
}
