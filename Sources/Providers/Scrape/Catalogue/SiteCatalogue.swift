import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GuideConfig
import GuideCore

/// The catalogue of site recipes: `sources/<site>/`, one folder per site as iptv-org/epg keeps
/// `sites/<site>/`:
/// - `site.yaml`: the recipe (docs/sources.md);
/// - `*.channels.xml`: the site's channels in iptv-org's format (`site_id` → `xmltv_id`);
/// - `tests.yaml` and `recordings/`: recorded answers and the programmes expected from them,
///   which `tvguide sources test` checks field by field.
package struct SiteCatalogue: Sendable {
    package static let defaultDirectory = "sources"

    package struct Site: Sendable {
        package var name: String
        package var folder: URL
        package var recipeFile: URL { folder.appendingPathComponent("site.yaml") }
        package var testsFile: URL { folder.appendingPathComponent("tests.yaml") }

        /// The recipe's own YAML.
        package func tree() throws(ConfigError) -> YAMLTree {
            guard let tree = try YAMLTree.load(recipeFile) else {
                throw .syntax("the recipe is empty", SourceLocation(file: recipeFile, line: 1, column: 1))
            }
            guard tree.entries != nil else {
                throw .invalidValue("a site recipe is a mapping of keys (site, url, items, programme…), got \(tree.shapeDescription)", tree.location)
            }
            return tree
        }

        package func recipe() throws(ConfigError) -> SiteRecipe {
            let tree = try tree()
            return try SiteRecipeReader(layers: [tree], location: tree.location).read()
        }

        /// Every channel of every `*.channels.xml` in the folder, in file order.
        package func channels() throws -> [SiteChannel] {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".channels.xml") }.sorted()
            return try files.flatMap { try SiteChannel.read(folder.appendingPathComponent($0)) }
        }

        /// A one-line description (`description:` in the recipe).
        package func summary() -> String {
            (try? tree())?["description"]?.scalar ?? ""
        }

        /// The site's country (`country:` in the recipe, a two-letter code), lower case; nil when not said.
        package func country() -> String? {
            (try? tree())?["country"]?.scalar?.lowercased()
        }
    }

    package var directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// The sites, by name.
    package func sites() -> [Site] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name in
            let folder = directory.appendingPathComponent(name, isDirectory: true)
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("site.yaml").path) else { return nil }
            return Site(name: name, folder: folder)
        }
    }

    package func site(_ name: String) -> Site? {
        sites().first { $0.name == name }
    }
}

/// One `<channel site="…" site_id="…" xmltv_id="…" lang="…">Name</channel>` of a channels file.
package struct SiteChannel: Sendable, Hashable {
    package var siteID: String
    /// The XMLTV id, without iptv-org's `@feed` suffix (`La1.es@SD` → `La1.es`); nil when empty.
    package var xmltvID: String?
    package var name: String
    package var language: String?
    /// Every attribute of the `<channel>` element, for `{channel.NAME}` and `$channel.NAME`.
    package var attributes: [String: String] = [:]

    static func read(_ file: URL) throws -> [SiteChannel] {
        let data = try Data(contentsOf: file)
        let reader = ChannelsXMLReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else {
            throw ConfigError.syntax("not a channels file: \(parser.parserError.map { "\($0.localizedDescription)" } ?? "unreadable XML")",
                                     SourceLocation(file: file, line: parser.lineNumber, column: parser.columnNumber))
        }
        return reader.channels
    }
}

private final class ChannelsXMLReader: NSObject, XMLParserDelegate {
    var channels: [SiteChannel] = []
    private var current: SiteChannel?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        guard elementName == "channel", let siteID = attributes["site_id"] else { return }
        let xmltv = attributes["xmltv_id"].map { String($0.split(separator: "@", maxSplits: 1).first ?? "") }.flatMap { $0.isEmpty ? nil : $0 }
        current = SiteChannel(siteID: siteID, xmltvID: xmltv, name: "", language: attributes["lang"], attributes: attributes)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        current?.name += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard elementName == "channel", var channel = current else { return }
        channel.name = channel.name.trimmingCharacters(in: .whitespacesAndNewlines)
        channels.append(channel)
        current = nil
    }
}
