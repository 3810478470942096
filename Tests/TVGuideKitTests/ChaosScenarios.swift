import Foundation
import GuideConfig
import GuideCore
import TestSupport
import TVGuideKit

/// One provider type under test: a `chaos` provider of that type answered by the chaos server,
/// and a `backup` after it in its chain that serves part of what `chaos` does, so that a fault
/// shows both the fallback (what `backup` serves) and the last good data (what nobody serves).
enum ChaosScenario: String, CaseIterable, Sendable, CustomStringConvertible {
    case miguiatv
    case xmltvURL = "xmltv-url"
    case jsonFeed = "json-feed"
    case scrapeAudience = "scrape-audience"
    case tmdb
    case thetvdb

    var description: String { rawValue }

    enum Role: Sendable { case guide, metadata, audience }

    var role: Role {
        switch self {
        case .miguiatv, .xmltvURL, .jsonFeed: .guide
        case .scrapeAudience: .audience
        case .tmdb, .thetvdb: .metadata
        }
    }

    /// The chaos server's path for the `chaos` provider; every request of it goes there.
    var prefix: String {
        switch self {
        case .miguiatv: "/miguiatv/"
        case .xmltvURL: "/xmltv/"
        case .jsonFeed: "/feed/"
        case .scrapeAudience: "/fv/"
        case .tmdb: "/tmdb/3/"
        case .thetvdb: "/thetvdb/v4/"
        }
    }

    var content: ChaosRoute.Content {
        switch self {
        case .miguiatv: .recordings(Fixtures.url("miguiatv"), contentType: "application/json")
        case .xmltvURL: .bytes(SampleGuide.threeChannels, contentType: "application/xml")
        case .jsonFeed: .recordings(Fixtures.url("json-feed/iso"), contentType: "application/json")
        case .scrapeAudience: .recordings(Fixtures.url("formulatv"), contentType: "text/html")
        case .tmdb: .recordings(Fixtures.url("tmdb"), contentType: "application/json")
        case .thetvdb: .recordings(Fixtures.url("thetvdb"), contentType: "application/json")
        }
    }

    /// A label a server might wrongly give the right body: HTML for data, JSON for a page.
    var wrongLabel: String {
        self == .scrapeAudience ? "application/json" : "text/html; charset=utf-8"
    }

    /// What the build is asked: the recorded week's clock, one day of guide.
    var request: (now: String, from: String?, to: String?) {
        switch self {
        case .miguiatv, .xmltvURL, .tmdb, .thetvdb: ("2026-10-21T19:00:00Z", "2026-10-20T22:00:00Z", "2026-10-21T22:00:00Z")
        case .jsonFeed: ("2026-10-24T12:00:00Z", "2026-10-23T22:00:00Z", "2026-10-24T22:00:00Z")
        // The day after the last recorded page: the three audience days kept are 23–25 October.
        case .scrapeAudience: ("2026-10-26T10:00:00Z", nil, nil)
        }
    }

    /// Guide channels `backup` serves too; the rest are kept from the last snapshot.
    var fallbackChannels: Set<String> {
        self == .jsonFeed ? ["La1.es"] : ["La1.es", "La2.es"]
    }

    var staleChannels: Set<String> {
        self == .jsonFeed ? ["Antena3.es"] : ["Cuatro.es"]
    }

    /// Audience days `backup` serves; the others are kept.
    static let fallbackDays = ["2026-10-23"]
    static let keptDays = ["2026-10-24", "2026-10-25"]

    /// Writes what the configuration reads beside it (guides, pages for `backup`).
    func prepare(_ folder: URL) throws {
        let fileManager = FileManager.default
        switch self {
        case .miguiatv, .xmltvURL:
            try SampleGuide.twoChannels.write(to: folder.appendingPathComponent("backup.xml"))
        case .jsonFeed:
            try SampleGuide.la1Weekend.write(to: folder.appendingPathComponent("backup.xml"))
        case .scrapeAudience:
            try SampleGuide.audienceDays.write(to: folder.appendingPathComponent("guide.xml"))
            let pages = folder.appendingPathComponent("backup-pages/audiencias")
            try fileManager.createDirectory(at: pages, withIntermediateDirectories: true)
            for day in ["23-10-2026"] {
                try fileManager.copyItem(at: Fixtures.url("formulatv/audiencias/\(day)"), to: pages.appendingPathComponent(day))
            }
        case .tmdb, .thetvdb:
            try SampleGuide.sixChannels.write(to: folder.appendingPathComponent("guide.xml"))
        }
    }

    /// providers.yaml with `chaos` at `base` and its transport options (`timeout: …, retries: …`).
    func configuration(base: URL, transport: String) throws -> String {
        let server = base.absoluteString
        let header = """
            cache: { dir: cache, ttl: 0s }
            snapshots: { dir: snapshots, keep: 3, audience_days: 3 }

            """
        switch self {
        case .miguiatv:
            return header + """
                channels:
                  - { id: La1.es, name: La 1, miguiatv: 1 }
                  - { id: La2.es, name: La 2, miguiatv: 2 }
                  - { id: Cuatro.es, name: Cuatro, miguiatv: 4 }
                guide: [chaos, backup]
                providers:
                  chaos: { type: miguiatv, base_url: "\(server)miguiatv/", \(transport) }
                  backup: { type: xmltv, url: backup.xml }
                """
        case .xmltvURL:
            return header + """
                channels:
                  - { id: La1.es, name: La 1 }
                  - { id: La2.es, name: La 2 }
                  - { id: Cuatro.es, name: Cuatro }
                guide: [chaos, backup]
                providers:
                  chaos: { type: xmltv, url: "\(server)xmltv/guide.xml", max_body: 16MB, \(transport) }
                  backup: { type: xmltv, url: backup.xml }
                """
        case .jsonFeed:
            return header + """
                channels:
                  - { id: La1.es, name: La 1, chaos: la1 }
                  - { id: Antena3.es, name: Antena 3, chaos: antena3 }
                guide: [chaos, backup]
                providers:
                  chaos:
                    type: json-feed
                    url: "\(server)feed/guide/{channel}/{date:yyyy-MM-dd}.json"
                    items: data.programmes
                    fields: { start: begin, stop: end, title: name, category: genre }
                    \(transport.replacingOccurrences(of: ", ", with: "\n    "))
                  backup: { type: xmltv, url: backup.xml }
                """
        case .scrapeAudience:
            return header + """
                channels:
                \(try Self.defaultChannels())
                guide: [sample]
                audience: [chaos, backup]
                providers:
                  sample: { type: xmltv, url: guide.xml }
                \(formulatvRecipe("chaos", url: server + "fv/audiencias/{date:dd-MM-yyyy}/", options: transport.components(separatedBy: ", ")))
                \(formulatvRecipe("backup", options: ["replay: backup-pages"]))
                """
        case .tmdb:
            return header + """
                guide: [sample]
                metadata:
                  movie: [chaos]
                  series: [chaos, backup]
                providers:
                  sample: { type: xmltv, url: guide.xml }
                  chaos: { type: tmdb, base_url: "\(server)tmdb/3/", api_key: chaos-key, \(transport) }
                  backup: { type: thetvdb, replay: \(Fixtures.url("thetvdb").path) }
                """
        case .thetvdb:
            return header + """
                guide: [sample]
                metadata:
                  movie: [backup]
                  series: [chaos, backup]
                providers:
                  sample: { type: xmltv, url: guide.xml }
                  chaos: { type: thetvdb, base_url: "\(server)thetvdb/v4/", api_key: chaos-key, \(transport) }
                  backup: { type: tmdb, replay: \(Fixtures.url("tmdb").path) }
                """
        }
    }

    /// The default configuration's channels (names and aliases as the audience pages write them),
    /// without MiGuiaTV's column.
    private static func defaultChannels() throws -> String {
        try defaultChannelLines()
            .map { $0.replacingOccurrences(of: #", miguiatv: \d+"#, with: "", options: .regularExpression) }
            .joined(separator: "\n")
    }
}

/// Parts of Fixtures/xmltv/sample.xml: a few channels and days keep each build small. Each is
/// cut once per process.
enum SampleGuide {
    private static let guideDays: Set<String> = ["20261020", "20261021", "20261022"]
    private static let weekend: Set<String> = ["20261023", "20261024", "20261025"]
    /// What the faulted XMLTV provider serves.
    static let threeChannels = cut(channels: ["La1.es", "La2.es", "Cuatro.es"], days: guideDays)
    /// The guide scenarios' backup: all but Cuatro.
    static let twoChannels = cut(channels: ["La1.es", "La2.es"], days: guideDays)
    /// The JSON feed's backup: all but Antena 3.
    static let la1Weekend = cut(channels: ["La1.es"], days: weekend)
    static let audienceDays = cut(channels: ["La1.es", "Antena3.es", "Telecinco.es"], days: weekend)
    /// One day with films and series for the metadata scenarios.
    static let sixChannels = cut(channels: ["La1.es", "La2.es", "Antena3.es", "Cuatro.es", "Telecinco.es", "LaSexta.es"], days: ["20261021"])

    private static let lines: [Substring] = {
        let text = (try? String(contentsOf: Fixtures.url("xmltv/sample.xml"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false)
    }()

    /// The document with only the `<channel>`s in `channels` and the `<programme>`s on them
    /// starting on `days` (`yyyyMMdd`, as written).
    private static func cut(channels: Set<String>, days: Set<String>) -> Data {
        var kept: [Substring] = []
        var keeping = true
        for line in lines {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("<channel ") {
                keeping = channels.contains(attribute("id", in: trimmed) ?? "")
            } else if trimmed.hasPrefix("<programme ") {
                let start = attribute("start", in: trimmed) ?? ""
                keeping = channels.contains(attribute("channel", in: trimmed) ?? "") && days.contains(String(start.prefix(8)))
            }
            if keeping { kept.append(line) }
            if trimmed.hasPrefix("</channel>") || trimmed.hasPrefix("</programme>") { keeping = true }
        }
        return Data(kept.joined(separator: "\n").utf8)
    }

    private static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[start.upperBound...]
        return value.firstIndex(of: "\"").map { String(value[..<$0]) }
    }
}
