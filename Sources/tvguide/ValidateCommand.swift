import ArgumentParser
import Foundation
import GuideConfig
import GuideCore
import TVGuideKit

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a configuration without fetching anything.",
        discussion: """
        Reads providers.yaml, checks every key, duration, path and provider reference, builds \
        each guide and metadata provider (which fetches nothing) and reports providers that will \
        be skipped for a missing environment variable or API key. Exit status 0 when valid, 2 \
        when not.
        """
    )

    @OptionGroup var config: ConfigOption

    func run() async throws {
        let location = try config.located()
        do {
            let configuration = try GuideConfiguration.load(from: location.file)
            let setup = try ProviderSetup(configuration: configuration, now: Date())
            let metadata = try MetadataSetup(configuration: configuration)
            let audience = try AudienceSetup(configuration: configuration)
            for missing in setup.chain.unavailable + metadata.unavailable + audience.unavailable {
                print("warning: provider '\(missing.id)' will be skipped: \(missing.error)")
            }
            for id in setup.unused {
                print("warning: provider '\(id)' is defined but in no chain")
            }
            let members = setup.chain.members.map(\.provider.id)
            print("\(config.shownName): valid — \(configuration.channels.count) channel(s), guide chain: \(members.joined(separator: " → "))")
            for kind in configuration.metadataKinds {
                guard let chain = configuration.metadata[kind], !chain.isEmpty else { continue }
                print("  metadata.\(kind.rawValue): \(chain.joined(separator: " → "))")
            }
            if !configuration.audience.isEmpty {
                print("  audience: \(configuration.audience.joined(separator: " → ")) (\(audience.keepDays) day(s) kept)")
            }
        } catch {
            printError("error: \(error)")
            throw Exit.invalid
        }
    }
}
