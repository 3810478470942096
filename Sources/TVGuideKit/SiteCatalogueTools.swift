import Foundation
import GuideCore
import Scrape

/// `tvguide sources`: the catalogue of site recipes listed, tested and scaffolded, each as the
/// lines the command prints.
package enum SiteCatalogueTools {
    /// The catalogue folder when none is given.
    package static let defaultDirectory = SiteCatalogue.defaultDirectory

    /// The sites of `catalogue`, sorted by country then name, each with its channel count,
    /// summary and the programme keys its recipe gave on its recordings; `countries` and
    /// `gives` (comma-separated) keep only the sites that match.
    package static func list(catalogue: String, countries: String?, gives: String?) async throws(CommandFailure) -> [String] {
        let all = SiteCatalogue(directory: URL(fileURLWithPath: catalogue, isDirectory: true)).sites()
        guard !all.isEmpty else {
            throw CommandFailure(.invalid, "no sites in \(catalogue) (each is a folder with a site.yaml)")
        }
        let chosenCountries = Set(words(countries))
        let wanted = words(gives)
        let known = Set(SiteProgrammeReader.keys)
        if let unknown = wanted.first(where: { !known.contains($0) }) {
            throw CommandFailure(.invalid, "--gives: '\(unknown)' is not a programme key (\(SiteProgrammeReader.keys.joined(separator: ", ")))")
        }
        var rows: [(site: SiteCatalogue.Site, country: String, result: SiteTests.Result)] = []
        for site in all {
            let code = site.country() ?? "-"
            guard chosenCountries.isEmpty || chosenCountries.contains(code) else { continue }
            let result = await SiteTests.run(site)
            guard wanted.allSatisfy(result.gives.contains) else { continue }
            rows.append((site, code, result))
        }
        rows.sort { ($0.country, $0.site.name) < ($1.country, $1.site.name) }
        let width = rows.map(\.site.name.count).max() ?? 0
        var lines: [String] = []
        for row in rows {
            let channels = (try? row.site.channels().count) ?? 0
            let name = row.site.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("\(row.country)  \(name)  \(String(channels).leftPadded(5)) channel(s)  \(row.site.summary())")
            let gives = row.result.gives.isEmpty ? "start, title only" : row.result.gives.joined(separator: ", ")
            lines.append(String(repeating: " ", count: width + 6) + "gives: " + gives
                         + (row.result.passed ? "" : " (its tests fail: `tvguide sources test \(row.site.name)`)"))
        }
        lines.append(rows.count == all.count ? "\(all.count) site(s)" : "\(rows.count) of \(all.count) site(s)")
        return lines
    }

    private static func words(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// Each of `sites` (all when empty) run on its recordings and compared with what its tests
    /// expect: the lines to print, as text or as one JSON array, and whether every site passed.
    package static func test(catalogue: String, sites: [String], json: Bool) async throws(CommandFailure) -> (lines: [String], passed: Bool) {
        let catalogue = SiteCatalogue(directory: URL(fileURLWithPath: catalogue, isDirectory: true))
        var chosen: [SiteCatalogue.Site] = []
        for name in sites {
            guard let site = catalogue.site(name) else {
                throw CommandFailure(.invalid, "no site '\(name)' in \(catalogue.directory.relativePath)\(Suggestion.didYouMean(name, among: catalogue.sites().map(\.name)))")
            }
            chosen.append(site)
        }
        if sites.isEmpty { chosen = catalogue.sites() }
        var results: [SiteTests.Result] = []
        for site in chosen {
            results.append(await SiteTests.run(site))
        }
        let passed = !results.contains { !$0.passed }
        if json { return ([JSONValue.array(results.map(\.json)).jsonText], passed) }
        let width = results.map(\.site.count).max() ?? 0
        var lines: [String] = []
        for result in results {
            let fields = result.fields.map { "\($0.passed ? "✓" : "✗") \($0.name)" }.joined(separator: "  ")
            lines.append("\(result.passed ? "PASS" : "FAIL")  \(result.site.padding(toLength: width, withPad: " ", startingAt: 0))  \(fields)")
            for failure in result.failures.prefix(8) {
                lines.append("        \(failure)")
            }
            if result.failures.count > 8 { lines.append("        … and \(result.failures.count - 8) more") }
        }
        let passedCount = results.filter(\.passed).count
        lines.append("\(passedCount) passed, \(results.count - passedCount) failed")
        return (lines, passed)
    }

    /// A new site's folder in `catalogue`, made from the template: what was made and what to do next.
    package static func scaffold(_ site: String, catalogue: String) throws(CommandFailure) -> [String] {
        guard !site.isEmpty, site.allSatisfy({ $0.isLetter || $0.isNumber || "-._".contains($0) }), !site.hasPrefix(".") else {
            throw CommandFailure(.invalid, "'\(site)' is not a folder name (letters, digits, '-', '.', '_')")
        }
        let folder = URL(fileURLWithPath: catalogue, isDirectory: true).appendingPathComponent(site, isDirectory: true)
        guard !FileManager.default.fileExists(atPath: folder.path) else {
            throw CommandFailure(.invalid, "\(folder.relativePath) exists already")
        }
        do {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("recordings"), withIntermediateDirectories: true)
            try SiteTemplateFiles.recipe(site).write(to: folder.appendingPathComponent("site.yaml"), atomically: true, encoding: .utf8)
            try SiteTemplateFiles.tests(site).write(to: folder.appendingPathComponent("tests.yaml"), atomically: true, encoding: .utf8)
            try SiteTemplateFiles.channels(site).write(to: folder.appendingPathComponent("\(site).channels.xml"), atomically: true, encoding: .utf8)
        } catch {
            throw CommandFailure(.invalid, "could not write \(folder.relativePath): \(error.localizedDescription)")
        }
        return [
            "made \(folder.relativePath)/: site.yaml, tests.yaml, \(site).channels.xml, recordings/",
            "next: save an answer of the site into recordings/, edit site.yaml and tests.yaml, then run `tvguide sources test \(site)`",
        ]
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
