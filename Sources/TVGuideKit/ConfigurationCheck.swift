import Foundation
import GuideConfig
import GuideCore

/// `tvguide validate`: every provider of a configuration built (which fetches nothing), and
/// what the run would skip.
package enum ConfigurationCheck {
    /// The report's lines: the providers that will be skipped or are in no chain, then the
    /// chains; `name` is how the report names the file.
    package static func report(_ configuration: GuideConfiguration, name: String, now: Date) throws(CommandFailure) -> [String] {
        do {
            let setup = try ProviderSetup(configuration: configuration, now: now)
            let metadata = try MetadataSetup(configuration: configuration)
            let audience = try AudienceSetup(configuration: configuration)
            var lines: [String] = []
            for missing in setup.chain.unavailable + metadata.unavailable + audience.unavailable {
                lines.append("warning: provider '\(missing.id)' will be skipped: \(missing.error)")
            }
            for id in setup.unused {
                lines.append("warning: provider '\(id)' is defined but in no chain")
            }
            let members = setup.chain.members.map(\.provider.id)
            lines.append("\(name): valid — \(configuration.channels.count) channel(s), guide chain: \(members.joined(separator: " → "))")
            for kind in configuration.metadataKinds {
                guard let chain = configuration.metadata[kind], !chain.isEmpty else { continue }
                lines.append("  metadata.\(kind.rawValue): \(chain.joined(separator: " → "))")
            }
            if !configuration.audience.isEmpty {
                lines.append("  audience: \(configuration.audience.joined(separator: " → ")) (\(audience.keepDays) day(s) kept)")
            }
            return lines
        } catch {
            throw CommandFailure(.invalid, "\(error)")
        }
    }
}
