import ArgumentParser
import Foundation
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

    @OptionGroup var config: ConfigurationOptions

    func run() async throws {
        let configuration = try config.load(announce: false)
        let lines = try reporting { () throws(CommandFailure) in
            try ConfigurationCheck.report(configuration, name: config.shownName, now: Date())
        }
        for line in lines {
            print(line)
        }
    }
}
