import Foundation
import GuideConfig
import GuideCore
import Scrape

/// providers.yaml → the recipes of the sources users define without Swift (`type: scrape`,
/// `type: json-feed`, docs/sources.md). Every recipe is checked here, so `tvguide validate`
/// reports a bad XPath, template or time format before anything is fetched.
enum ScrapeSources {
    static let scrapeOptions = ["produces", "url", "encoding", "rows", "fields", "required", "timezone", "adverts"]
    static let jsonFeedOptions = ["url", "items", "fields", "time_format", "timezone"]

    /// The recipe of a `type: scrape` provider, which must produce `expected`.
    static func scrapeRecipe(_ settings: ProviderSettings, expected: ScrapeRecipe.Product) throws(ConfigError) -> ScrapeRecipe {
        let options = settings.options
        let producesText = try options.string("produces")
        guard let produces = ScrapeRecipe.Product(rawValue: producesText) else {
            throw .invalidValue("produces: expected one of \(ScrapeRecipe.Product.allCases.map(\.rawValue).joined(separator: ", ")), got '\(producesText)'",
                                options.location(of: "produces") ?? settings.location)
        }
        guard produces == expected else {
            throw .invalidValue("provider '\(settings.id)' produces \(produces): list it under \(produces == .audience ? "audience" : "guide") instead",
                                options.location(of: "produces") ?? settings.location)
        }
        var encoding: PageEncoding?
        let encodingText = try options.string("encoding", default: "auto")
        if encodingText != "auto" {
            guard let named = PageEncoding(label: encodingText) else {
                throw .invalidValue("encoding: expected auto or one of \(PageEncoding.allCases.map(\.rawValue).joined(separator: ", ")), got '\(encodingText)'",
                                    options.location(of: "encoding") ?? settings.location)
            }
            encoding = named
        }
        var fields: [String: ScrapeRecipe.FieldRule] = [:]
        for row in try options.table("fields") ?? [] {
            if let unknown = row.values.keys.sorted().first(where: { !["xpath", "regex", "parse"].contains($0) }) {
                throw .invalidValue("fields.\(row.name): unknown key '\(unknown)'; known keys: xpath, regex, parse", row.location)
            }
            guard let xpath = row.values["xpath"] else {
                throw .invalidValue("fields.\(row.name) needs an xpath", row.location)
            }
            let parseText = row.values["parse"] ?? "text"
            guard let parse = ValueParser(rawValue: parseText) else {
                throw .invalidValue("fields.\(row.name).parse: expected one of \(ValueParser.allCases.map(\.rawValue).joined(separator: ", ")), got '\(parseText)'", row.location)
            }
            fields[row.name] = ScrapeRecipe.FieldRule(xpath: xpath, regex: row.values["regex"], parse: parse)
        }
        let recipe = ScrapeRecipe(
            url: try options.string("url"), encoding: encoding, rows: try options.string("rows"), fields: fields,
            required: try options.stringList("required", default: []), produces: produces,
            timeZone: try timeZone(options, settings: settings), skipsAdverts: try adverts(options, settings: settings))
        do {
            try recipe.validate()
        } catch {
            throw .invalidValue("provider '\(settings.id)': \(error)", settings.location)
        }
        return recipe
    }

    static func jsonFeedRecipe(_ settings: ProviderSettings) throws(ConfigError) -> JSONFeedRecipe {
        let options = settings.options
        let fieldsTree = options.tree("fields")
        var fields: [JSONFeedRecipe.Field: String] = [:]
        for (name, path) in try options.stringMap("fields") {
            let entry = fieldsTree?.entries?.first { $0.key == name }
            guard let field = JSONFeedRecipe.Field(rawValue: name) else {
                throw .unknownKey(key: name, section: "fields", known: JSONFeedRecipe.Field.allCases.map(\.rawValue),
                                  entry?.keyLocation ?? options.location(of: "fields") ?? settings.location)
            }
            fields[field] = path
        }
        let url: SiteTemplate
        do {
            url = try SiteTemplate(shorthandURL: try options.string("url"))
        } catch let error as ConfigError {
            throw error
        } catch {
            throw .invalidValue("url: \(error)", options.location(of: "url") ?? settings.location)
        }
        let recipe = JSONFeedRecipe(
            url: url, items: try options.string("items"), fields: fields,
            timeFormat: JSONFeedRecipe.TimeFormat(try options.string("time_format", default: "iso8601")),
            timezone: try options.string("timezone", default: JSONFeedRecipe.defaultTimeZone))
        do {
            try recipe.validate()
        } catch {
            // Point at the value at fault, not at the provider.
            let location: SourceLocation? = switch error {
            case .missingField: options.location(of: "fields")
            case .badPath(let key, _, _) where key.hasPrefix("fields."):
                fieldsTree?.entries?.first { "fields.\($0.key)" == key }?.value.location
            case .badPath: options.location(of: "items")
            case .badTimeFormat, .clockWithoutDate: options.location(of: "time_format")
            case .unknownTimeZone: options.location(of: "timezone")
            }
            throw .invalidValue("provider '\(settings.id)': \(error)", location ?? settings.location)
        }
        return recipe
    }

    /// The channels a scraped guide serves, under the provider's own ids: those of the channel
    /// list with a column for it, else every listed channel under its canonical id.
    static func channels(for settings: ProviderSettings, in configuration: GuideConfiguration) -> [Channel] {
        let own = configuration.channels.compactMap { channel -> Channel? in
            channel.providerID(forProvider: settings.id, type: settings.type).map {
                Channel(id: $0, name: channel.name ?? channel.id, type: channel.type, language: channel.language, logo: channel.logo)
            }
        }
        guard own.isEmpty else { return own }
        return configuration.channels.map {
            Channel(id: $0.id, name: $0.name ?? $0.id, type: $0.type, language: $0.language, logo: $0.logo)
        }
    }

    /// The root of a URL template's site (`https://www.formulatv.com/`): the base a recording of
    /// its pages is laid out under (docs/recording.md).
    static func origin(of template: String, _ settings: ProviderSettings) throws(ConfigError) -> URL {
        guard let components = URLComponents(string: template.components(separatedBy: "{")[0]),
              let scheme = components.scheme, let host = components.host,
              let origin = URL(string: "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")/")
        else {
            throw .invalidValue("url: '\(template)' does not start with http(s)://host/", settings.options.location(of: "url") ?? settings.location)
        }
        return origin
    }

    /// `adverts: skip` (the default) or `keep`.
    private static func adverts(_ options: ProviderOptions, settings: ProviderSettings) throws(ConfigError) -> Bool {
        switch try options.string("adverts", default: "skip") {
        case "skip": return true
        case "keep": return false
        case let other:
            throw .invalidValue("adverts: expected skip or keep, got '\(other)'", options.location(of: "adverts") ?? settings.location)
        }
    }

    private static func timeZone(_ options: ProviderOptions, settings: ProviderSettings) throws(ConfigError) -> TimeZone {
        let name = try options.string("timezone", default: "Europe/Madrid")
        guard let zone = TimeZone(identifier: name) else {
            throw .invalidValue("timezone: '\(name)' is not a known time zone (an IANA id such as Europe/Madrid)",
                                options.location(of: "timezone") ?? settings.location)
        }
        return zone
    }
}
