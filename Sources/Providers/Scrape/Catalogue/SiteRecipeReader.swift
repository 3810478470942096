import Foundation
import GuideConfig
import GuideCore

/// A site recipe's YAML (a catalogue folder's `site.yaml`, with a provider's options laid over
/// it, or a `type: site` provider's options alone) → a checked `SiteRecipe`. Every error names
/// the file, line and column of the value at fault; jq and XPath are compiled here, so `tvguide
/// validate` and `tvguide sources test` catch them before anything is fetched.
package struct SiteRecipeReader {
    package static let keys = [
        "site", "description", "country", "timezone", "channel_timezone", "days", "format", "url", "request", "pages", "channel_parts",
        "session", "steps", "details", "items", "programme", "time_format", "default_length", "encoding", "base_url", "day_names",
        "day_words", "keep", "empty",
    ]
    static let requestKeys = ["url", "method", "headers", "body"]
    /// How a step's or a detail's answer is read.
    static let readingKeys = ["format", "fields"]

    /// The recipe's keys, each from the provider's options when it has them, else from the file.
    package let layers: [YAMLTree]
    /// Where to point when a required key is missing.
    package let location: SourceLocation

    package init(layers: [YAMLTree], location: SourceLocation) {
        self.layers = layers
        self.location = location
    }

    func value(_ key: String) -> YAMLTree? {
        for layer in layers {
            if let value = layer[key], !value.isNull { return value }
        }
        return nil
    }

    /// Each section is read in the order its faults are reported, and the jq filters are added
    /// in the order the bundle compiles them.
    package func read(ignoring ignored: [String] = []) throws(ConfigError) -> SiteRecipe {
        try checkKeys(ignoring: ignored)
        let site = try string("site") ?? "(inline)"
        let timezone = try timezone()
        let format = try format()
        let channelParts = try list("channel_parts")
        let filters = RecipeFilters()
        let request = try request(site: site, channelParts: channelParts)
        let pages = try pages(request: request)
        let times = try timeFormat()
        let steps = try steps(channelParts: channelParts, filters: filters)
        let details = try details(channelParts: channelParts, filters: filters)
        try checkPlaceholders(request: request, steps: steps, details: details)
        let (items, itemsTree) = try items(site: site, format: format, filters: filters)
        let programme = try programme(filters: filters)
        let encoding = try encoding()
        let defaultLength = try defaultLength()
        let days = try days()
        let baseURL = try baseURL()
        let dayNames = try dayNames()
        let dayWords = try dayWords(request: request, steps: steps)
        let keep = try keep()
        let empty = try emptyAnswers()
        var recipe = SiteRecipe(site: site, format: format, request: request, pages: pages, steps: steps, details: details, items: items, programme: programme,
                          times: times, timezone: timezone, channelParts: channelParts, defaultLength: defaultLength, days: days,
                          encoding: encoding, baseURL: baseURL, dayNames: dayNames, dayWords: dayWords, keep: keep, empty: empty)
        try compileFastPaths(of: &recipe, at: itemsTree, filters: filters)
        recipe.channelTimezone = try channelTimezone(filters: filters)
        try filters.seal()
        return recipe
    }

    // MARK: - Sections

    private func checkKeys(ignoring ignored: [String]) throws(ConfigError) {
        for layer in layers {
            for entry in layer.entries ?? [] where !Self.keys.contains(entry.key) && !ignored.contains(entry.key) {
                throw .unknownKey(key: entry.key, section: "the site recipe", known: Self.keys, entry.keyLocation)
            }
        }
    }

    private func timezone() throws(ConfigError) -> TimeZone {
        let timezoneName = try string("timezone") ?? "UTC"
        guard let timezone = TimeZone(identifier: timezoneName) else {
            throw .invalidValue("timezone: '\(timezoneName)' is not a known time zone (an IANA id such as Europe/Madrid)", at("timezone"))
        }
        return timezone
    }

    private func format() throws(ConfigError) -> SiteRecipe.Format {
        let formatText = try string("format") ?? "json"
        guard let format = SiteRecipe.Format(rawValue: formatText) else {
            throw .invalidValue("format: expected one of json, html, xml, text, got '\(formatText)'", at("format"))
        }
        return format
    }

    /// The request comes whole from the first layer that gives one: a provider's `url` replaces a
    /// catalogue recipe's `request` (headers and all).
    private func request(site: String, channelParts: [String]) throws(ConfigError) -> SiteRequest {
        guard let layer = layers.first(where: { $0["url"].map { !$0.isNull } == true || $0["request"].map { !$0.isNull } == true }) else {
            throw .missingKey(key: "url", section: "the site recipe \(site)", location)
        }
        switch (layer["url"], layer["request"]) {
        case (let url?, nil):
            return try Self.request(url, name: "url", channelParts: channelParts)
        case (nil, let tree?):
            return try Self.request(tree, name: "request", channelParts: channelParts)
        default:
            throw .invalidValue("give either url or request, not both", layer["url"]?.location ?? location)
        }
    }

    private func pages(request: SiteRequest) throws(ConfigError) -> [String] {
        let pages = try list("pages")
        if !pages.isEmpty, !request.templates.contains(where: \.usesPage) {
            throw .invalidValue("pages are listed but the request has no {page} placeholder", at("pages"))
        }
        return pages
    }

    private func timeFormat() throws(ConfigError) -> SiteTimeFormat {
        let timeFormat = try string("time_format") ?? "iso8601"
        do {
            return try SiteTimeFormat(timeFormat)
        } catch {
            throw .invalidValue(error.description, at("time_format"))
        }
    }

    /// `session` (a step of that name) or `steps`, in order.
    private func steps(channelParts: [String], filters: RecipeFilters) throws(ConfigError) -> [SiteRecipe.Step] {
        var steps: [SiteRecipe.Step] = []
        if let tree = value("session") {
            guard tree.entries != nil, let valueTree = tree["value"], valueTree.scalar != nil else {
                throw .invalidValue("session: expected {url, method, headers, body, value: JQ} (value: the filter giving the token), got \(tree.shapeDescription)", tree.location)
            }
            if value("steps") != nil { throw .invalidValue("give either session or steps (a step named session), not both", tree.location) }
            steps.append(try Self.step(name: "session", tree, label: "session", channelParts: channelParts, before: [], filters: filters))
        }
        if let tree = value("steps") {
            guard let entries = tree.entries else {
                throw .invalidValue("steps: expected a mapping of name → {url, method, headers, body, format, fields, value} or name → {value: JQ}, in order, got \(tree.shapeDescription)", tree.location)
            }
            for entry in entries {
                steps.append(try Self.step(name: entry.key, entry.value, label: "steps.\(entry.key)", channelParts: channelParts, before: steps.map(\.name), filters: filters))
            }
        }
        return steps
    }

    private func details(channelParts: [String], filters: RecipeFilters) throws(ConfigError) -> [SiteRecipe.Detail] {
        var details: [SiteRecipe.Detail] = []
        if let tree = value("details") {
            guard let entries = tree.entries else { throw .invalidValue("details: expected a mapping of name → request, got \(tree.shapeDescription)", tree.location) }
            for entry in entries {
                details.append(try Self.detail(entry, channelParts: channelParts, filters: filters))
            }
        }
        return details
    }

    /// `{steps.NAME}` and `{session}` name steps the recipe has; `{key}` is a programme detail's.
    private func checkPlaceholders(request: SiteRequest, steps: [SiteRecipe.Step], details: [SiteRecipe.Detail]) throws(ConfigError) {
        let stepNames = Set(steps.map(\.name))
        for (name, templates) in [("url", request.templates)] + details.map({ ("details.\($0.name)", $0.request.templates) }) {
            let unknown = templates.reduce(into: Set<String>()) { $0.formUnion($1.stepNames) }.subtracting(stepNames)
            guard let missing = unknown.sorted().first else { continue }
            let place = name == "url" ? (value("url") ?? value("request"))?.location ?? location : value("details")?.location ?? location
            if missing == "session" { throw .invalidValue("{session} is used but the recipe has no session request", place) }
            throw .invalidValue("\(name): {steps.\(missing)} names no step (steps: \(steps.isEmpty ? "none" : steps.map(\.name).joined(separator: ", ")))", place)
        }
        if request.templates.contains(where: \.usesKey) || details.contains(where: { $0.scope != .programme && $0.request.templates.contains(where: \.usesKey) }) {
            throw .invalidValue("{key} is only for programme details (scope: programme)", request.url.description.isEmpty ? location : (value("url") ?? value("request"))?.location ?? location)
        }
    }

    /// The items and the tree they were written in, where the fast paths' faults point.
    private func items(site: String, format: SiteRecipe.Format, filters: RecipeFilters) throws(ConfigError) -> (SiteRecipe.Items, YAMLTree) {
        guard let itemsTree = value("items") else { throw .missingKey(key: "items", section: "the site recipe \(site)", location) }
        switch format {
        case .json, .text:
            if itemsTree["html"] != nil {
                return (.page(try Self.pageItems(itemsTree, filters: filters)), itemsTree)
            }
            guard let source = itemsTree.scalar else {
                throw .invalidValue("items: a \(format == .text ? "text" : "JSON") answer's items are a jq filter (such as '.data.programmes[]'), or {html: JQ, xpath: NODES, fields: {…}} for HTML the answer carries, got \(itemsTree.shapeDescription)", itemsTree.location)
            }
            return (.jq(try filters.add(source, at: itemsTree, name: "items")), itemsTree)
        case .html, .xml:
            if let html = itemsTree["html"] {
                throw .invalidValue("items.html: reads HTML held in a JSON or text answer (format: json or text); this recipe's answers are \(format.rawValue) already", html.location)
            }
            return (.page(try Self.pageItems(itemsTree, filters: filters)), itemsTree)
        }
    }

    private func programme(filters: RecipeFilters) throws(ConfigError) -> JQFilter? {
        try value("programme").map { tree throws(ConfigError) in
            guard let source = tree.scalar else { throw .invalidValue("programme: expected a jq filter, got \(tree.shapeDescription)", tree.location) }
            return try filters.add(source, at: tree, name: "programme")
        }
    }

    private func encoding() throws(ConfigError) -> PageEncoding? {
        guard let text = try string("encoding"), text != "auto" else { return nil }
        guard let named = PageEncoding(label: text) else {
            throw .invalidValue("encoding: expected auto or one of \(PageEncoding.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'", at("encoding"))
        }
        return named
    }

    private func defaultLength() throws(ConfigError) -> TimeInterval? {
        guard let text = try string("default_length") else { return nil }
        guard let seconds = DurationText.parse(text), seconds > 0 else {
            throw .invalidValue("default_length: '\(text)' is not a duration such as 30m or 1h", at("default_length"))
        }
        return seconds
    }

    private func days() throws(ConfigError) -> Int? {
        guard let text = try string("days") else { return nil }
        guard let number = Int(text), (1...62).contains(number) else { throw .invalidValue("days: expected a whole number from 1 to 62, got '\(text)'", at("days")) }
        return number
    }

    private func baseURL() throws(ConfigError) -> URL? {
        guard let text = try string("base_url") else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw .invalidValue("base_url: '\(text)' is not an http(s) URL", at("base_url"))
        }
        return url
    }

    private func dayNames() throws(ConfigError) -> [String]? {
        guard value("day_names") != nil else { return nil }
        let names = try list("day_names")
        guard names.count == 7 else { throw .invalidValue("day_names: expected the seven days' names, Monday first, got \(names.count)", at("day_names")) }
        return names
    }

    private func dayWords(request: SiteRequest, steps: [SiteRecipe.Step]) throws(ConfigError) -> [String] {
        let dayWords = try list("day_words")
        if dayWords.isEmpty, (request.templates + steps.flatMap { $0.request?.templates ?? [] }).contains(where: \.usesDayWord) {
            throw .invalidValue("{day_word} is used but the recipe has no day_words (today's name first: [hoy, mañana, pasado mañana])", at("url"))
        }
        return dayWords
    }

    private func keep() throws(ConfigError) -> SiteRecipe.Keep {
        let keepText = try string("keep") ?? "all"
        guard let keep = SiteRecipe.Keep(rawValue: keepText) else {
            throw .invalidValue("keep: expected all or starts_on_day, got '\(keepText)'", at("keep"))
        }
        return keep
    }

    private func emptyAnswers() throws(ConfigError) -> SiteRecipe.EmptyAnswers {
        var empty = SiteRecipe.EmptyAnswers()
        for word in try list("empty") {
            switch word {
            case "body": empty.emptyBody = true
            case "no_items": empty.noItems = true
            default: empty.bodies.insert(word.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        return empty
    }

    /// The fast paths, compiled in the same program: without programme details, a JSON answer's
    /// items and programmes are one run, and so are a page's rows.
    private func compileFastPaths(of recipe: inout SiteRecipe, at itemsTree: YAMLTree, filters: RecipeFilters) throws(ConfigError) {
        guard !recipe.details.contains(where: { $0.scope == .programme }) else { return }
        let programme = recipe.programme
        switch recipe.items {
        case .jq(let items) where recipe.format == .json:
            recipe.pipeline = try programme.map { programme throws(ConfigError) in
                try filters.add("(\n" + items.source + "\n) | (\n" + programme.source + "\n)", at: itemsTree, name: "items | programme")
            } ?? items
        case .page:
            recipe.rowsPipeline = try programme.map { programme throws(ConfigError) in
                try filters.add(".[] | (\n" + programme.source + "\n)", at: itemsTree, name: "programme")
            }
        default:
            break
        }
    }

    private func channelTimezone(filters: RecipeFilters) throws(ConfigError) -> JQFilter? {
        guard let tree = value("channel_timezone") else { return nil }
        guard let source = tree.scalar else { throw .invalidValue("channel_timezone: expected a jq filter on $channel giving a zone's name", tree.location) }
        return try filters.add(source, at: tree, name: "channel_timezone")
    }

    // MARK: - Parts

    private func at(_ key: String) -> SourceLocation {
        value(key)?.location ?? location
    }

    private func string(_ key: String) throws(ConfigError) -> String? {
        guard let tree = value(key) else { return nil }
        guard let text = tree.scalar else { throw .invalidValue("\(key): expected a text, got \(tree.shapeDescription)", tree.location) }
        return text
    }

    private func list(_ key: String) throws(ConfigError) -> [String] {
        guard let tree = value(key) else { return [] }
        if let text = tree.scalar { return [text] }
        guard let items = tree.items else { throw .invalidValue("\(key): expected a list, got \(tree.shapeDescription)", tree.location) }
        var values: [String] = []
        for item in items {
            guard let text = item.scalar else { throw .invalidValue("\(key): expected texts, got \(item.shapeDescription)", item.location) }
            values.append(text)
        }
        return values
    }

    static func request(_ tree: YAMLTree, name: String, channelParts: [String], extraKeys: [String] = []) throws(ConfigError) -> SiteRequest {
        if let text = tree.scalar {
            return SiteRequest(url: try template(text, at: tree, name: name, channelParts: channelParts))
        }
        guard let entries = tree.entries else { throw .invalidValue("\(name): expected a URL or a mapping with url, method, headers, body", tree.location) }
        for entry in entries where !requestKeys.contains(entry.key) && !extraKeys.contains(entry.key) {
            throw .unknownKey(key: entry.key, section: name, known: requestKeys + extraKeys, entry.keyLocation)
        }
        guard let urlTree = tree["url"], let urlText = urlTree.scalar else { throw .missingKey(key: "url", section: name, tree.location) }
        let url = try template(urlText, at: urlTree, name: "\(name).url", channelParts: channelParts)
        let method = (tree["method"]?.scalar ?? "GET").uppercased()
        guard ["GET", "POST"].contains(method) else { throw .invalidValue("\(name).method: expected GET or POST, got '\(method)'", tree["method"]?.location ?? tree.location) }
        var headers: [(name: String, value: SiteTemplate)] = []
        if let headerTree = tree["headers"] {
            guard let headerEntries = headerTree.entries else { throw .invalidValue("\(name).headers: expected a mapping of header → value", headerTree.location) }
            for entry in headerEntries {
                guard let text = entry.value.scalar else { throw .invalidValue("\(name).headers.\(entry.key): expected a text", entry.value.location) }
                headers.append((entry.key, try template(text, at: entry.value, name: "\(name).headers.\(entry.key)", channelParts: channelParts)))
            }
        }
        var body: SiteTemplate?
        if let bodyTree = tree["body"] {
            guard let text = bodyTree.scalar else { throw .invalidValue("\(name).body: expected a text", bodyTree.location) }
            guard method == "POST" else { throw .invalidValue("\(name).body: a body needs method: POST", bodyTree.location) }
            body = try template(text, at: bodyTree, name: "\(name).body", channelParts: channelParts)
        }
        return SiteRequest(url: url, method: method, headers: headers, body: body)
    }

    private static func template(_ text: String, at tree: YAMLTree, name: String, channelParts: [String]) throws(ConfigError) -> SiteTemplate {
        do {
            return try SiteTemplate(text, channelParts: channelParts)
        } catch {
            throw .invalidValue("\(name): \(error)", tree.location)
        }
    }

    /// A step: a request (with how its answer is read) and a `value` filter, or a `value` alone.
    private static func step(
        name: String, _ tree: YAMLTree, label: String, channelParts: [String], before: [String], filters: RecipeFilters
    ) throws(ConfigError) -> SiteRecipe.Step {
        guard tree.entries != nil else {
            throw .invalidValue("\(label): expected {url, method, headers, body, format, fields, value} or {value: JQ}, got \(tree.shapeDescription)", tree.location)
        }
        guard !before.contains(name) else { throw .invalidValue("\(label): a second step named \(name)", tree.location) }
        let value = try tree["value"].map { valueTree throws(ConfigError) in
            guard let source = valueTree.scalar else { throw .invalidValue("\(label).value: expected a jq filter", valueTree.location) }
            return try filters.add(source, at: valueTree, name: "\(label).value")
        }
        guard tree["url"] != nil else {
            for entry in tree.entries ?? [] where entry.key != "value" {
                throw .invalidValue("\(label).\(entry.key): a step without url is a value computed by jq alone ({value: JQ})", entry.keyLocation)
            }
            guard let value else { throw .missingKey(key: "value", section: label, tree.location) }
            return SiteRecipe.Step(name: name, request: nil, value: value)
        }
        let request = try request(tree, name: label, channelParts: channelParts, extraKeys: ["value"] + readingKeys)
        if let missing = request.stepNames.subtracting(before).sorted().first {
            if missing == name { throw .invalidValue("\(label): its own request cannot use \(name == "session" ? "{session}" : "{steps.\(name)}")", tree.location) }
            throw .invalidValue("\(label): {steps.\(missing)} is not a step before it (\(before.isEmpty ? "it is the first" : "before it: " + before.joined(separator: ", ")))", tree.location)
        }
        if request.templates.contains(where: \.usesKey) { throw .invalidValue("\(label): {key} is only for programme details (scope: programme)", tree.location) }
        return SiteRecipe.Step(name: name, request: request, reading: try reading(tree, label: label), value: value)
    }

    /// `format` and `fields` of a step or a detail: JSON by default; HTML and XML need fields.
    private static func reading(_ tree: YAMLTree, label: String) throws(ConfigError) -> SiteRecipe.Reading {
        let text = tree["format"]?.scalar ?? "json"
        guard let format = SiteRecipe.Format(rawValue: text) else {
            throw .invalidValue("\(label).format: expected one of json, html, xml, text, got '\(text)'", tree["format"]?.location ?? tree.location)
        }
        var fields: [(name: String, xpath: String)] = []
        if let fieldsTree = tree["fields"] {
            guard format == .html || format == .xml, let entries = fieldsTree.entries else {
                throw .invalidValue("\(label).fields: a mapping of name → XPath, for an answer read as html or xml", fieldsTree.location)
            }
            for entry in entries {
                guard let expression = entry.value.scalar else { throw .invalidValue("\(label).fields.\(entry.key): expected an XPath", entry.value.location) }
                try checkXPath(expression, at: entry.value, name: "\(label).fields.\(entry.key)")
                fields.append((entry.key, expression))
            }
        }
        if (format == .html || format == .xml), fields.isEmpty {
            throw .missingKey(key: "fields", section: "\(label) (an \(format.rawValue) answer is read into the fields named: {name: XPATH, …})", tree.location)
        }
        return SiteRecipe.Reading(format: format, fields: fields)
    }

    private static func detail(_ entry: YAMLTree.Entry, channelParts: [String], filters: RecipeFilters) throws(ConfigError) -> SiteRecipe.Detail {
        let tree = entry.value
        let name = "details.\(entry.key)"
        guard tree.entries != nil else {
            let request = try request(tree, name: name, channelParts: channelParts)
            if request.templates.contains(where: \.usesKey) {
                throw .missingKey(key: "key", section: "\(name) (a programme detail: write {url, key}, key being the jq filter giving each item's {key})", tree.location)
            }
            return SiteRecipe.Detail(name: entry.key, request: request, scope: request.usesDate ? .day : .channel)
        }
        let request = try request(tree, name: name, channelParts: channelParts, extraKeys: ["scope", "key", "optional"] + readingKeys)
        let scope: SiteRecipe.Scope
        if let scopeTree = tree["scope"] {
            guard let text = scopeTree.scalar, let known = SiteRecipe.Scope(rawValue: text) else {
                throw .invalidValue("\(name).scope: expected channel, day or programme, got \(scopeTree.shapeDescription)", scopeTree.location)
            }
            scope = known
        } else {
            scope = request.templates.contains(where: \.usesKey) ? .programme : request.usesDate ? .day : .channel
        }
        var key: JQFilter?
        if scope == .programme {
            guard let keyTree = tree["key"], let source = keyTree.scalar else {
                throw .missingKey(key: "key", section: "\(name) (a programme detail: the jq filter giving each item's {key})", tree.location)
            }
            key = try filters.add(source, at: keyTree, name: "\(name).key")
        }
        var optional = true
        if let optionalTree = tree["optional"] {
            switch optionalTree.scalar?.lowercased() {
            case "true", "yes": optional = true
            case "false", "no": optional = false
            default: throw .invalidValue("\(name).optional: expected true or false", optionalTree.location)
            }
        }
        return SiteRecipe.Detail(name: entry.key, request: request, reading: try reading(tree, label: name), scope: scope, key: key, optional: optional)
    }


    private static func pageItems(_ tree: YAMLTree, filters: RecipeFilters) throws(ConfigError) -> SiteRecipe.PageItems {
        if let tableTree = tree["table"] {
            guard let xpath = tableTree.scalar, tree.entries?.count == 1 else {
                throw .invalidValue("items: a table's items are {table: XPATH}, with nothing else", tree.location)
            }
            try checkXPath(xpath, at: tableTree, name: "items.table")
            return SiteRecipe.PageItems(xpath: xpath, fields: [], isTable: true)
        }
        guard tree.entries != nil, let xpathTree = tree["xpath"], let xpath = xpathTree.scalar else {
            throw .invalidValue("items: a page's items are {xpath: NODES, fields: {name: XPATH, …}} or {table: XPATH}, got \(tree.shapeDescription)", tree.location)
        }
        for entry in tree.entries ?? [] where !["xpath", "fields", "html"].contains(entry.key) {
            throw .unknownKey(key: entry.key, section: "items", known: ["xpath", "fields", "table", "html"], entry.keyLocation)
        }
        let html = try tree["html"].map { htmlTree throws(ConfigError) in
            guard let source = htmlTree.scalar else { throw .invalidValue("items.html: expected a jq filter giving the HTML text", htmlTree.location) }
            return try filters.add(source, at: htmlTree, name: "items.html")
        }
        try checkXPath(xpath, at: xpathTree, name: "items.xpath")
        var fields: [(name: String, xpath: String)] = []
        for entry in tree["fields"]?.entries ?? [] {
            guard let expression = entry.value.scalar else { throw .invalidValue("items.fields.\(entry.key): expected an XPath", entry.value.location) }
            try checkXPath(expression, at: entry.value, name: "items.fields.\(entry.key)")
            fields.append((entry.key, expression))
        }
        return SiteRecipe.PageItems(xpath: xpath, fields: fields, html: html)
    }

    private static func checkXPath(_ expression: String, at tree: YAMLTree, name: String) throws(ConfigError) {
        guard SiteXPath.isValid(expression) else {
            throw .invalidValue("\(name): '\(expression)' is not an XPath 1.0 expression", tree.location)
        }
    }
}

extension YAMLTree {
    var isNull: Bool {
        if case .null = value { true } else { false }
    }

    var isSequence: Bool {
        if case .sequence = value { true } else { false }
    }
}

/// A recipe's jq filters, compiled together as one program once the recipe is read (`JQBundle`),
/// each remembering where the recipe wrote it, for a fault's file, line and column.
final class RecipeFilters {
    private let bundle = JQBundle(variables: SiteRecipe.variables)
    private var places: [(location: SourceLocation, name: String)] = []

    func add(_ source: String, at tree: YAMLTree, name: String) throws(ConfigError) -> JQFilter {
        do {
            let filter = try bundle.filter(source)
            places.append((tree.location, name))
            return filter
        } catch {
            throw .invalidValue("\(name): \(error)", tree.location)
        }
    }

    func seal() throws(ConfigError) {
        do {
            try bundle.seal()
        } catch {
            let place = places[error.index]
            throw .invalidValue("\(place.name): \(error.error)", place.location)
        }
    }
}
