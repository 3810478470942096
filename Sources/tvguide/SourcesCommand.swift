import ArgumentParser
import Foundation
import GuideCore
import Scrape
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
        var catalogue: String = ProcessInfo.processInfo.environment["TVGUIDE_SOURCES"] ?? SiteCatalogue.defaultDirectory

        var value: SiteCatalogue { SiteCatalogue(directory: URL(fileURLWithPath: catalogue, isDirectory: true)) }
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
            let all = catalogue.value.sites()
            guard !all.isEmpty else {
                printError("error: no sites in \(catalogue.catalogue) (each is a folder with a site.yaml)")
                throw Exit.invalid
            }
            let countries = Set(Self.words(country))
            let wanted = Self.words(gives)
            let known = Set(SiteProgrammeReader.keys)
            if let unknown = wanted.first(where: { !known.contains($0) }) {
                printError("error: --gives: '\(unknown)' is not a programme key (\(SiteProgrammeReader.keys.joined(separator: ", ")))")
                throw Exit.invalid
            }
            var rows: [(site: SiteCatalogue.Site, country: String, result: SiteTests.Result)] = []
            for site in all {
                let code = site.country() ?? "-"
                guard countries.isEmpty || countries.contains(code) else { continue }
                let result = await SiteTests.run(site)
                guard wanted.allSatisfy(result.gives.contains) else { continue }
                rows.append((site, code, result))
            }
            rows.sort { ($0.country, $0.site.name) < ($1.country, $1.site.name) }
            let width = rows.map(\.site.name.count).max() ?? 0
            for row in rows {
                let channels = (try? row.site.channels().count) ?? 0
                let name = row.site.name.padding(toLength: width, withPad: " ", startingAt: 0)
                print("\(row.country)  \(name)  \(String(channels).leftPadded(5)) channel(s)  \(row.site.summary())")
                let gives = row.result.gives.isEmpty ? "start, title only" : row.result.gives.joined(separator: ", ")
                print(String(repeating: " ", count: width + 6) + "gives: " + gives + (row.result.passed ? "" : " (its tests fail: `tvguide sources test \(row.site.name)`)"))
            }
            print(rows.count == all.count ? "\(all.count) site(s)" : "\(rows.count) of \(all.count) site(s)")
        }

        private static func words(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
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
            let catalogue = catalogue.value
            var chosen: [SiteCatalogue.Site] = []
            for name in sites {
                guard let site = catalogue.site(name) else {
                    printError("error: no site '\(name)' in \(catalogue.directory.relativePath)\(Suggestion.didYouMean(name, among: catalogue.sites().map(\.name)))")
                    throw Exit.invalid
                }
                chosen.append(site)
            }
            if sites.isEmpty { chosen = catalogue.sites() }
            var results: [SiteTests.Result] = []
            for site in chosen {
                results.append(await SiteTests.run(site))
            }
            switch format {
            case .json:
                print(JSONValue.array(results.map(\.json)).jsonText)
            case .text:
                let width = results.map(\.site.count).max() ?? 0
                for result in results {
                    let fields = result.fields.map { "\($0.passed ? "✓" : "✗") \($0.name)" }.joined(separator: "  ")
                    print("\(result.passed ? "PASS" : "FAIL")  \(result.site.padding(toLength: width, withPad: " ", startingAt: 0))  \(fields)")
                    for failure in result.failures.prefix(8) {
                        print("        \(failure)")
                    }
                    if result.failures.count > 8 { print("        … and \(result.failures.count - 8) more") }
                }
                let passed = results.filter(\.passed).count
                print("\(passed) passed, \(results.count - passed) failed")
            }
            if results.contains(where: { !$0.passed }) { throw Exit.failed }
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
            guard !site.isEmpty, site.allSatisfy({ $0.isLetter || $0.isNumber || "-._".contains($0) }), !site.hasPrefix(".") else {
                printError("error: '\(site)' is not a folder name (letters, digits, '-', '.', '_')")
                throw Exit.invalid
            }
            let folder = catalogue.value.directory.appendingPathComponent(site, isDirectory: true)
            guard !FileManager.default.fileExists(atPath: folder.path) else {
                printError("error: \(folder.relativePath) exists already")
                throw Exit.invalid
            }
            do {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent("recordings"), withIntermediateDirectories: true)
                try SiteTemplateFiles.recipe(site).write(to: folder.appendingPathComponent("site.yaml"), atomically: true, encoding: .utf8)
                try SiteTemplateFiles.tests(site).write(to: folder.appendingPathComponent("tests.yaml"), atomically: true, encoding: .utf8)
                try SiteTemplateFiles.channels(site).write(to: folder.appendingPathComponent("\(site).channels.xml"), atomically: true, encoding: .utf8)
            } catch {
                printError("error: could not write \(folder.relativePath): \(error.localizedDescription)")
                throw Exit.invalid
            }
            print("made \(folder.relativePath)/: site.yaml, tests.yaml, \(site).channels.xml, recordings/")
            print("next: save an answer of the site into recordings/, edit site.yaml and tests.yaml, then run `tvguide sources test \(site)`")
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// What `tvguide sources new` writes.
enum SiteTemplateFiles {
    static func recipe(_ site: String) -> String {
        """
        # The recipe of \(site). Reference: docs/sources.md.
        site: \(site)
        description: "what the site lists (country, channels)"
        country: es                      # two letters: what `sources list` sorts and filters by
        timezone: Europe/Madrid          # the zone of the site's days and of times without an offset
        format: json                     # json, html, xml or text
        # One request per channel and day: {channel} is the site id, {date:yyyy-MM-dd} the day.
        url: "https://\(site)/guide/{channel}/{date:yyyy-MM-dd}.json"
        # jq: each item of the answer ($channel.id, $date, $details are there too).
        items: '.programmes[]'
        # jq: one item → one programme (start and title required).
        programme: |
          {
            start: .start,
            stop: .end,
            title: .title,
            description: .description
          }
        time_format: iso8601             # iso8601, unix, unix_ms or a pattern such as yyyy-MM-dd HH:mm
        # When the site needs more (docs/sources.md, "Recipes for harder sites"):
        #   steps:   a token, a cookie session, a build id read from a page, a computed URL part
        #   details: a second answer per channel, day or programme (JSON, HTML with XPath fields)
        #   {channel.lang}: an attribute of the channel list; day_words, keep, empty, pages

        """
    }

    static func tests(_ site: String) -> String {
        """
        # What \(site)'s recipe must read from its recordings (`tvguide sources test \(site)`).
        - channel: "1"                   # a site id from \(site).channels.xml
          date: 2026-01-01
          responses:
            https://\(site)/guide/1/2026-01-01.json: recordings/content.json
          url: https://\(site)/guide/1/2026-01-01.json
          count: 1
          programmes:
            - start: 2026-01-01T06:00:00Z
              title: A title

        """
    }

    static func channels(_ site: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <channels>
          <channel site="\(site)" site_id="1" lang="es" xmltv_id="La1.es">La 1</channel>
        </channels>

        """
    }
}
