import ArgumentParser
import Foundation
import TVGuideKit

struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "The catalogue of site recipes (sources/): list, test and scaffold sites.",
        discussion: """
        Each folder of the catalogue is one site: site.yaml (the recipe), its channels \
        (*.channels.xml), tests.yaml and recordings/. providers.yaml uses a site by name: \
        `my-guide: { type: site, site: programacion-tv.elpais.com }`. docs/sources.md is the reference.
        """,
        subcommands: [List.self, Test.self, New.self]
    )

    struct CatalogueOption: ParsableArguments {
        @Option(name: .long, help: ArgumentHelp("The catalogue folder.", valueName: "dir"))
        var catalogue: String = ProcessInfo.processInfo.environment["TVGUIDE_SOURCES"] ?? SiteCatalogueTools.defaultDirectory
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The sites of the catalogue: country, channels, what their programmes give, and what each is.",
            discussion: """
            Sorted by country, then name. What a site gives is what its recipe produced when run on \
            its recordings (as `sources test` runs it): the programme keys beside start and title. \
            Example: `tvguide sources list --country es --gives images,credits`.
            """
        )

        @OptionGroup var catalogue: CatalogueOption

        @Option(help: ArgumentHelp("Only sites of these countries (two-letter codes, comma-separated).", valueName: "codes"))
        var country: String?

        @Option(help: ArgumentHelp("Only sites whose programmes give all of these keys (comma-separated: images,credits,description…).", valueName: "keys"))
        var gives: String?

        func run() async throws {
            let lines = try await reporting { () async throws(CommandFailure) in
                try await SiteCatalogueTools.list(catalogue: catalogue.catalogue, countries: country, gives: gives)
            }
            for line in lines {
                print(line)
            }
        }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run each site's recipe on its recordings and compare with the programmes it expects.",
            discussion: "Prints each site's fields as passed (✓) or failed (✗) with what differed, then `N passed, M failed`. Exit status 0 when every site passed, 1 when one failed, 2 for a site that does not exist."
        )

        @OptionGroup var catalogue: CatalogueOption

        @Argument(help: "Sites to test (all when none are named).")
        var sites: [String] = []

        @Option(help: ArgumentHelp("text or json", valueName: "format"))
        var format: Format = .text

        enum Format: String, ExpressibleByArgument {
            case text, json
        }

        func run() async throws {
            let run = try await reporting { () async throws(CommandFailure) in
                try await SiteCatalogueTools.test(catalogue: catalogue.catalogue, sites: sites, json: format == .json)
            }
            for line in run.lines {
                print(line)
            }
            if !run.passed { throw Exit.failed }
        }
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a site's folder from the template: site.yaml, tests.yaml, a channel list and recordings/.",
            discussion: "Then record an answer into recordings/, describe it in site.yaml, write what you expect in tests.yaml, and run `tvguide sources test SITE` until it passes (docs/sources.md, \"Add a site in 15 minutes\")."
        )

        @OptionGroup var catalogue: CatalogueOption

        @Argument(help: "The site's name, usually its host (example.com).")
        var site: String

        func run() throws {
            let lines = try reporting { () throws(CommandFailure) in try SiteCatalogueTools.scaffold(site, catalogue: catalogue.catalogue) }
            for line in lines {
                print(line)
            }
        }
    }
}
