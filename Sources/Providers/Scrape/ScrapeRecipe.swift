import Foundation
import GuideCore

/// A `type: scrape` source as providers.yaml describes it: which page to fetch for a day, which
/// nodes are rows, and how each field of a row is found and parsed.
///
/// ```yaml
/// formulatv:
///   type: scrape
///   produces: audience
///   url: "https://www.formulatv.com/audiencias/{date:dd-MM-yyyy}/"
///   encoding: auto
///   rows: "//table[@class='audiencias']//tr[td]"
///   fields:
///     title:   { xpath: "td[2]", parse: text }
///     viewers: { xpath: "td[4]", parse: number }
///     start:   { xpath: "td[6]", regex: "(\\d{1,2}:\\d{2})", parse: time }
///   required: [title, channel, viewers]
/// ```
package struct ScrapeRecipe: Sendable, Hashable {
    /// What the rows become.
    package enum Product: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `AudienceRecord`s: one ranking page per day.
        case audience
        /// `Programme`s: one page per channel and day.
        case guide

        package var description: String { rawValue }

        /// The fields a recipe of this kind may define and the parsers each accepts.
        package var fieldParsers: [String: [ValueParser]] {
            switch self {
            case .audience:
                ["rank": [.integer, .number], "title": [.text], "channel": [.text], "viewers": [.number, .integer],
                 "share": [.percent, .number], "start": [.time]]
            case .guide:
                ["start": [.time], "stop": [.time], "title": [.text], "subtitle": [.text],
                 "description": [.text], "category": [.text]]
            }
        }

        /// Fields without which a row cannot become a record, required whether or not `required` lists them.
        package var essentialFields: [String] {
            switch self {
            case .audience: ["title", "channel", "viewers"]
            case .guide: ["start", "title"]
            }
        }
    }

    /// How one field of a row is found and read.
    package struct FieldRule: Sendable, Hashable {
        /// Evaluated with the row as context node; the field's text is the result's XPath string
        /// value (for a node set, that of its first node) with whitespace collapsed.
        package var xpath: String
        /// When set, the text must match; the field keeps capture group 1, or the whole match when
        /// the pattern has no group (ICU syntax, as `NSRegularExpression`).
        package var regex: String?
        package var parse: ValueParser

        package init(xpath: String, regex: String? = nil, parse: ValueParser) {
            self.xpath = xpath
            self.regex = regex
            self.parse = parse
        }
    }

    /// A shorthand URL (`SiteTemplate(shorthandURL:)`): `{date:FORMAT}` and, for guides, `{channel}`.
    package var url: String
    /// nil detects the page's encoding (`encoding: auto`; see `PageEncoding.detect`).
    package var encoding: PageEncoding?
    /// The XPath of the row nodes, evaluated from the document.
    package var rows: String
    /// Field name → rule; the names `produces` allows (`Product.fieldParsers`).
    package var fields: [String: FieldRule]
    /// Fields whose failure on a data row means the layout changed. `produces`' essential fields
    /// are required even when not listed.
    package var required: [String]
    package var produces: Product
    /// The zone of the page's times.
    package var timeZone: TimeZone
    /// Skip rows whose cell count differs from most rows' (an advert spanning the table), as
    /// `adverts: skip` (the default) says; `adverts: keep` reads them like any row.
    package var skipsAdverts: Bool

    package static let defaultTimeZone = TimeZone(identifier: "Europe/Madrid")!

    package init(
        url: String, encoding: PageEncoding? = nil, rows: String, fields: [String: FieldRule], required: [String] = [],
        produces: Product, timeZone: TimeZone = ScrapeRecipe.defaultTimeZone, skipsAdverts: Bool = true
    ) {
        self.url = url
        self.encoding = encoding
        self.rows = rows
        self.fields = fields
        self.required = required
        self.produces = produces
        self.timeZone = timeZone
        self.skipsAdverts = skipsAdverts
    }

    /// `required` followed by the essential fields it does not list, without repeats.
    package var effectiveRequired: [String] {
        var seen = Set<String>()
        return (required + produces.essentialFields).filter { seen.insert($0).inserted }
    }

    /// Checks everything that can be checked without a page: the URL template, every XPath and
    /// regex compiles, field names and parsers suit `produces`, `required` names defined fields.
    /// Throws the first problem found, naming the key, the field and the expression.
    package func validate() throws(ScrapeRecipeError) {
        _ = try ScrapeExtractor(self)
    }

    /// Parses one page and extracts its rows (compiling the recipe for this call; providers keep
    /// compiled recipes, and `ScrapeExtractor` does so for repeated use).
    /// - Throws: `ScrapeRecipeError` when the recipe is invalid; `ProviderError.malformed` when the
    ///   page does not fit it (see `ScrapeExtractor.extract`).
    package func extract(from data: Data, contentType: String?) throws -> ScrapeResult {
        try ScrapeExtractor(self).extract(from: data, contentType: contentType)
    }

    /// `url` parsed.
    func urlTemplate() throws(ScrapeRecipeError) -> SiteTemplate {
        do {
            return try SiteTemplate(shorthandURL: url)
        } catch {
            throw .invalidURLTemplate(template: url, reason: String(describing: error))
        }
    }

    /// Structure checks that need no libxml2; `ScrapeExtractor` runs them before compiling.
    func checkStructure() throws(ScrapeRecipeError) {
        _ = try urlTemplate()
        let allowed = produces.fieldParsers
        for name in fields.keys.sorted() {
            guard let parsers = allowed[name] else {
                throw .unknownField(field: name, produces: produces, known: allowed.keys.sorted())
            }
            let parser = fields[name]!.parse
            guard parsers.contains(parser) else {
                throw .unsuitableParser(field: name, parser: parser, allowed: parsers)
            }
        }
        for name in produces.essentialFields where fields[name] == nil {
            throw .missingField(field: name, produces: produces)
        }
        for name in required where fields[name] == nil {
            throw .unknownRequiredField(field: name, fields: fields.keys.sorted())
        }
    }
}

/// Why a scrape recipe cannot be used, found by `ScrapeRecipe.validate()` before anything is fetched.
package enum ScrapeRecipeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `field` nil is the `rows` selector.
    case invalidXPath(field: String?, expression: String, reason: String)
    case invalidRegex(field: String, pattern: String, reason: String)
    case invalidURLTemplate(template: String, reason: String)
    case unknownField(field: String, produces: ScrapeRecipe.Product, known: [String])
    case unsuitableParser(field: String, parser: ValueParser, allowed: [ValueParser])
    /// An essential field (`Product.essentialFields`) the recipe does not define.
    case missingField(field: String, produces: ScrapeRecipe.Product)
    /// `required` names a field that `fields` does not define.
    case unknownRequiredField(field: String, fields: [String])

    /// The recipe key at fault, for pointing at the line in providers.yaml: `rows`, `url`,
    /// `required`, `fields`, `fields.start.xpath`, `fields.start.regex`, `fields.start.parse`.
    package var key: String {
        switch self {
        case .invalidXPath(let field?, _, _): "fields.\(field).xpath"
        case .invalidXPath(nil, _, _): "rows"
        case .invalidRegex(let field, _, _): "fields.\(field).regex"
        case .invalidURLTemplate: "url"
        case .unknownField(let field, _, _): "fields.\(field)"
        case .unsuitableParser(let field, _, _): "fields.\(field).parse"
        case .missingField: "fields"
        case .unknownRequiredField: "required"
        }
    }

    package var description: String {
        switch self {
        case .invalidXPath(let field?, let expression, let reason):
            "field '\(field)': invalid XPath '\(expression)': \(reason)"
        case .invalidXPath(nil, let expression, let reason):
            "rows: invalid XPath '\(expression)': \(reason)"
        case .invalidRegex(let field, let pattern, let reason):
            "field '\(field)': invalid regex '\(pattern)': \(reason)"
        case .invalidURLTemplate(let template, let reason):
            "url '\(template)': \(reason)"
        case .unknownField(let field, let produces, let known):
            "unknown field '\(field)' for produces: \(produces); known fields: \(known.joined(separator: ", "))"
        case .unsuitableParser(let field, let parser, let allowed):
            "field '\(field)' cannot use parse: \(parser); it takes \(allowed.map(\.rawValue).joined(separator: " or "))"
        case .missingField(let field, let produces):
            "produces: \(produces) needs a field '\(field)'"
        case .unknownRequiredField(let field, let fields):
            "required lists '\(field)', which is not among the fields (\(fields.joined(separator: ", ")))"
        }
    }
}
