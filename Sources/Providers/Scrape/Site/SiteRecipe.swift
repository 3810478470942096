import Foundation
import GuideCore

/// How to read one site's guide (`type: site` in providers.yaml, or a catalogue folder's
/// `site.yaml`): which requests to make for a channel and day, how to find the items in each
/// answer (jq for JSON, XPath for HTML and XML) and how an item becomes a programme (jq). The
/// reference is docs/sources.md; every part is checked when the recipe is read.
package struct SiteRecipe: Sendable {
    package enum Format: String, Sendable, CaseIterable {
        /// `text`: the answer as one JSON string for the items filter, for answers jq must
        /// unwrap first (JSONP `cb({…})`, JSON after a prefix): no HTML parser touches it.
        case json, html, xml, text
    }

    /// Where a detail request's answer is used.
    package enum Scope: String, Sendable, CaseIterable {
        /// Once per channel (and shared by its days): `$details.NAME`.
        case channel
        /// Once per channel and day: `$details.NAME`.
        case day
        /// Once per item, its URL built from the item's `key`: `$detail.NAME` in `programme`.
        case programme
    }

    /// How an answer other than the main one (a step's, a detail's) becomes a value: JSON
    /// parsed, a text answer as one string, an HTML or XML page as the object of its `fields`
    /// (XPath from the document, as an item's fields are read).
    package struct Reading: Sendable {
        package var format: Format
        package var fields: [(name: String, xpath: String)]

        package init(format: Format = .json, fields: [(name: String, xpath: String)] = []) {
            self.format = format
            self.fields = fields
        }
    }

    /// An extra request whose answer the filters read.
    package struct Detail: Sendable {
        package var name: String
        package var request: SiteRequest
        package var reading: Reading
        package var scope: Scope
        /// For `programme` scope: a jq filter on the item giving the `{key}` of the request URL.
        package var key: JQFilter?
        /// An answer that fails (404, not JSON) is null instead of failing the day.
        package var optional: Bool

        package init(name: String, request: SiteRequest, reading: Reading = Reading(), scope: Scope, key: JQFilter? = nil, optional: Bool = true) {
            self.name = name
            self.request = request
            self.reading = reading
            self.scope = scope
            self.key = key
            self.optional = optional
        }
    }

    /// Items of an HTML or XML page: the nodes `xpath` selects, each read into an object whose
    /// keys are `fields`' names and whose values are the XPath results from the node.
    ///
    /// With `table`, the items are the rows of the table it selects, laid out as a browser shows
    /// them (a cell with `rowspan` or `colspan` fills every slot it covers): `{"row": n (from 0),
    /// "rows": how many, "cells": [texts], "header": [the first row's texts]}`.
    ///
    /// With `html`, a JSON or text answer carries the page: the jq filter gives its HTML (a
    /// fragment in a JSON string), each result read as a page of its own.
    package struct PageItems: Sendable {
        package var xpath: String
        package var fields: [(name: String, xpath: String)]
        package var isTable: Bool
        package var html: JQFilter?

        package init(xpath: String, fields: [(name: String, xpath: String)], isTable: Bool = false, html: JQFilter? = nil) {
            self.xpath = xpath
            self.fields = fields
            self.isTable = isTable
            self.html = html
        }
    }

    /// One of the values made before a channel's day is read, in order, each able to use the
    /// ones before it (`{steps.NAME}`, `$steps.NAME`): a request's answer read and filtered (a
    /// token, a build id, the URL of the grid), or a value computed by jq alone. A request is
    /// made once per run however many channels and days share it; its cookies go to the jar.
    package struct Step: Sendable {
        package var name: String
        /// nil: `value` runs on `null`, from the variables alone.
        package var request: SiteRequest?
        package var reading: Reading
        /// A jq filter on the read answer (with `$headers` and `$cookies`) giving the value: a
        /// text, a number or an object; nil: the read answer itself.
        package var value: JQFilter?

        package init(name: String, request: SiteRequest?, reading: Reading = Reading(), value: JQFilter?) {
            self.name = name
            self.request = request
            self.reading = reading
            self.value = value
        }
    }

    /// Which programmes of a day's answers are kept.
    package enum Keep: String, Sendable, CaseIterable {
        /// Every one the answers give.
        case all
        /// Those starting on the day asked, in the recipe's zone (for answers that run past midnight).
        case startsOnDay = "starts_on_day"
    }

    /// What an answer without programmes looks like, when that means a day without programmes
    /// rather than a fault: `body` (nothing but whitespace), `no_items` (a channel whose items
    /// query matches nothing on any day), or a text the whole body equals (`[]`, `{}`).
    package struct EmptyAnswers: Sendable, Hashable {
        package var emptyBody: Bool
        package var noItems: Bool
        package var bodies: Set<String>

        package init(emptyBody: Bool = false, noItems: Bool = false, bodies: Set<String> = []) {
            self.emptyBody = emptyBody
            self.noItems = noItems
            self.bodies = bodies
        }

        /// True when `body` is what the recipe calls an empty day. Looks at the bytes only, with
        /// no text made of them: every page of every day goes through here.
        package func isEmptyDay(_ body: Data) -> Bool {
            let trimmed = Self.trimmed(body)
            if trimmed.isEmpty { return emptyBody }
            return bodies.contains { $0.utf8.count == trimmed.count && $0.utf8.elementsEqual(trimmed) }
        }

        /// `body` without the ASCII whitespace around it.
        package static func trimmed(_ body: Data) -> Data.SubSequence {
            let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            guard let first = body.firstIndex(where: { !isSpace($0) }), let last = body.lastIndex(where: { !isSpace($0) }) else { return body[body.endIndex...] }
            return body[first...last]
        }
    }

    package enum Items: Sendable {
        /// A jq filter on the (JSON) answer giving each item.
        case jq(JQFilter)
        /// XPath on an HTML or XML page.
        case page(PageItems)
    }

    package var site: String
    package var format: Format
    package var request: SiteRequest
    /// Requests the whole day's pages need (a time slice, a page number): the main request is
    /// made once per value, `{page}` taking each in turn.
    package var pages: [String]
    package var steps: [Step]
    package var details: [Detail]
    package var items: Items
    /// Maps one item to a programme object (docs/sources.md lists its keys); nil: the item is one.
    package var programme: JQFilter?
    /// `items | programme` as one filter, for JSON answers whose programmes need no detail of
    /// their own: one run per answer, no item converted out of libjq and back.
    package var pipeline: JQFilter?
    /// `.[] | programme` for the rows of an HTML or XML page: one run per page rather than one
    /// per row.
    package var rowsPipeline: JQFilter?
    package var times: SiteTimeFormat
    package var timezone: TimeZone
    /// A jq filter on `$channel` giving a channel's own zone (a site whose channels each keep a
    /// region's time); nil or a null answer: `timezone`.
    package var channelTimezone: JQFilter?
    /// Names for the parts of a composite site id (`Sydney#ABC1` → `region`, `id`): `{channel.region}`.
    package var channelParts: [String]
    /// A stop for a programme that has neither a stop nor a next programme to take one from.
    package var defaultLength: TimeInterval?
    /// Days the site lists from today on; days after it are not asked for.
    package var days: Int?
    /// The page's encoding when neither the header nor the page says (HTML).
    package var encoding: PageEncoding?
    /// What relative image and page URLs resolve against; nil: the answer's own URL.
    package var baseURL: URL?
    /// The days' names for `{date:EEEE}`, Monday first; nil: English.
    package var dayNames: [String]?
    /// Today's, tomorrow's… names for `{day_word}`; the days past the list are not asked for.
    package var dayWords: [String]
    package var keep: Keep
    package var empty: EmptyAnswers

    package init(
        site: String, format: Format, request: SiteRequest, pages: [String] = [], steps: [Step] = [], details: [Detail] = [], items: Items,
        programme: JQFilter?, times: SiteTimeFormat = .iso8601, timezone: TimeZone, channelParts: [String] = [],
        defaultLength: TimeInterval? = nil, days: Int? = nil, encoding: PageEncoding? = nil, baseURL: URL? = nil,
        dayNames: [String]? = nil, dayWords: [String] = [], keep: Keep = .all, empty: EmptyAnswers = EmptyAnswers()
    ) {
        self.site = site
        self.format = format
        self.request = request
        self.pages = pages
        self.steps = steps
        self.details = details
        self.items = items
        self.programme = programme
        self.times = times
        self.timezone = timezone
        self.channelParts = channelParts
        self.defaultLength = defaultLength
        self.days = days
        self.encoding = encoding
        self.baseURL = baseURL
        self.dayNames = dayNames
        self.dayWords = dayWords
        self.keep = keep
        self.empty = empty
    }

    /// The variables a filter reads (docs/sources.md): `$channel`, `$date`, `$details`, `$detail`
    /// (programme scope), `$page`, `$url`, `$steps`; a step's `value` also `$headers` and `$cookies`.
    package static let variables = ["channel", "date", "details", "detail", "page", "url", "steps", "headers", "cookies"]

    /// True when each day needs reading on its own: its request differs from one day to the
    /// next, or one answer lists several days and the filters (or `keep`) pick the day. Else
    /// the one answer is read once, not once per day.
    package var readsEachDay: Bool {
        // keep: starts_on_day picks each day's programmes out of the one answer.
        if request.usesDate || request.templates.contains(where: \.usesDayWord) || keep == .startsOnDay { return true }
        var texts = [programme?.source ?? ""]
        switch items {
        case .jq(let filter): texts.append(filter.source)
        case .page(let spec): texts += [spec.xpath] + spec.fields.map(\.xpath)
        }
        return texts.contains { $0.contains("$date") }
    }
}

/// A request as a recipe writes it: a URL template, a method, headers and a body, all templates.
package struct SiteRequest: Sendable {
    package var url: SiteTemplate
    package var method: String
    package var headers: [(name: String, value: SiteTemplate)]
    package var body: SiteTemplate?

    package init(url: SiteTemplate, method: String = "GET", headers: [(name: String, value: SiteTemplate)] = [], body: SiteTemplate? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }

    package var templates: [SiteTemplate] { [url] + headers.map(\.value) + (body.map { [$0] } ?? []) }
    package var usesDate: Bool { templates.contains(where: \.usesDate) }
    package var stepNames: Set<String> { templates.reduce(into: []) { $0.formUnion($1.stepNames) } }
    package var usesChannel: Bool { templates.contains(where: \.usesChannel) }
}
