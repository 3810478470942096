import CLibXML2
import Foundation
import GuideCore

/// One row's parsed fields, by field name.
package struct ScrapedRow: Sendable, Hashable {
    package var values: [String: ScrapedValue]

    package init(_ values: [String: ScrapedValue]) {
        self.values = values
    }

    package subscript(field: String) -> ScrapedValue? { values[field] }

    package func text(_ field: String) -> String? {
        if case .text(let text)? = values[field] { return text }
        return nil
    }

    /// An `integer`, or a `number` rounded to the nearest integer.
    package func integer(_ field: String) -> Int? {
        switch values[field] {
        case .integer(let value)?: value
        case .number(let value)?: Int(exactly: value.rounded())
        default: nil
        }
    }

    /// A `number`, `percent` or `integer` as a `Double`.
    package func number(_ field: String) -> Double? {
        switch values[field] {
        case .number(let value)?, .percent(let value)?: value
        case .integer(let value)?: Double(value)
        default: nil
        }
    }

    /// A `time`, in minutes after midnight.
    package func minutes(_ field: String) -> Int? {
        if case .time(let minutes)? = values[field] { return minutes }
        return nil
    }
}

/// The rows of one page and what was passed over, for the run report.
package struct ScrapeResult: Sendable, Hashable {
    package var rows: [ScrapedRow]
    /// The nodes the rows selector matched, kept or not.
    package var matchedRows: Int
    /// Rows whose cell count differs from most rows' (an advert or banner inside the table).
    package var skippedAdverts: Int
    /// Rows where every field was empty (spacers).
    package var skippedSpacers: Int
    /// Optional field name → rows kept without it because its XPath matched nothing or its text
    /// did not parse (an empty text is not counted).
    package var optionalFailures: [String: Int]
    /// The encoding the page was decoded from.
    package var encoding: PageEncoding
}

/// A recipe compiled for repeated use: its XPath expressions and regexes, compiled once.
///
/// Not `Sendable`: one extractor serves one task at a time (providers keep a pool of them), and
/// a page is parsed and extracted within one synchronous `extract` call.
package final class ScrapeExtractor {
    package let recipe: ScrapeRecipe

    private struct Field {
        var name: String
        var rule: ScrapeRecipe.FieldRule
        var xpath: CompiledXPath
        var regex: NSRegularExpression?
        var required: Bool
    }

    private let rows: CompiledXPath
    /// Required fields first, in `effectiveRequired` order (so the error names the first the
    /// recipe lists), then the optional ones by name.
    private let fields: [Field]
    /// One text buffer per field, reused from row to row.
    private var texts: [CollapsedText]
    private let evaluator = XPathEvaluator()

    /// Compiles `recipe`; throws what `ScrapeRecipe.validate()` throws.
    package init(_ recipe: ScrapeRecipe) throws(ScrapeRecipeError) {
        try recipe.checkStructure()
        self.recipe = recipe
        do {
            rows = try CompiledXPath(recipe.rows)
        } catch {
            throw .invalidXPath(field: nil, expression: recipe.rows, reason: error.reason)
        }
        let required = recipe.effectiveRequired
        let optional = recipe.fields.keys.filter { !required.contains($0) }.sorted()
        var fields: [Field] = []
        for name in required + optional {
            let rule = recipe.fields[name]!
            let xpath: CompiledXPath
            do {
                xpath = try CompiledXPath(rule.xpath)
            } catch {
                throw .invalidXPath(field: name, expression: rule.xpath, reason: error.reason)
            }
            var regex: NSRegularExpression?
            if let pattern = rule.regex {
                do {
                    regex = try NSRegularExpression(pattern: pattern)
                } catch {
                    throw .invalidRegex(field: name, pattern: pattern, reason: "not a valid regular expression (ICU syntax)")
                }
            }
            fields.append(Field(name: name, rule: rule, xpath: xpath, regex: regex, required: required.contains(name)))
        }
        self.fields = fields
        texts = Array(repeating: CollapsedText(), count: fields.count)
    }

    /// Parses `data` and extracts its rows.
    ///
    /// Layout-change detection, so that a page that no longer fits is never passed off as data:
    /// - no node matches the rows selector → `malformed` naming the selector;
    /// - a row where every field is empty (a spacer) is skipped;
    /// - a row whose number of element children differs from that of most rows (an advert cell
    ///   spanning the table) is skipped and counted, unless the recipe says `adverts: keep`;
    /// - any other row whose required field is missing, empty or does not parse → `malformed`
    ///   naming the row, the field, its selector, regex and parser, and the text found;
    /// - an optional field that is empty is left out of its row; one that matches nothing or does
    ///   not parse is left out too, and counted;
    /// - rows matched but none kept → `malformed`.
    ///
    /// - Parameter contentType: the HTTP `Content-Type`, for its charset.
    package func extract(from data: Data, contentType: String?) throws(ProviderError) -> ScrapeResult {
        let document = try HTMLDocument(data, contentType: contentType, override: recipe.encoding)
        return try evaluator.within(document) { () throws(ProviderError) in try extractRows(from: document) }
    }

    private func extractRows(from document: HTMLDocument) throws(ProviderError) -> ScrapeResult {
        guard let nodes = evaluator.nodes(rows, from: document.node) else {
            throw .notConfigured("rows selector '\(recipe.rows)' does not select nodes")
        }
        guard !nodes.isEmpty else {
            throw .malformed("rows selector '\(recipe.rows)' matched no rows (has the page layout changed?)")
        }
        let cellCounts = nodes.map { Int(xmlChildElementCount($0)) }
        let usualCells = Self.mostCommon(cellCounts)

        var result = ScrapeResult(rows: [], matchedRows: nodes.count, skippedAdverts: 0, skippedSpacers: 0,
                                  optionalFailures: [:], encoding: document.encoding)
        result.rows.reserveCapacity(nodes.count)
        var found = [Bool](repeating: false, count: fields.count)
        for (index, node) in nodes.enumerated() {
            var anyText = false
            for field in fields.indices {
                switch evaluator.stringValue(fields[field].xpath, from: node, into: &texts[field]) {
                case .nothing:
                    found[field] = false
                case .value:
                    found[field] = true
                    anyText = anyText || !texts[field].isEmpty
                case .failed(let reason):
                    throw .notConfigured("field '\(fields[field].name)': XPath '\(fields[field].rule.xpath)' cannot be evaluated: \(reason)")
                }
            }
            guard anyText else {
                result.skippedSpacers += 1
                continue
            }
            guard !recipe.skipsAdverts || cellCounts[index] == usualCells else {
                result.skippedAdverts += 1
                continue
            }
            var values: [String: ScrapedValue] = [:]
            values.reserveCapacity(fields.count)
            for field in fields.indices {
                // An empty optional cell (no subtitle today) is simply absent, not a failure.
                if found[field], texts[field].isEmpty, !fields[field].required { continue }
                switch parse(field, found: found[field]) {
                case .success(let value):
                    values[fields[field].name] = value
                case .failure(let problem) where fields[field].required:
                    throw .malformed("row \(index + 1) of '\(recipe.rows)': \(describe(fields[field])): \(problem.reason)")
                case .failure:
                    result.optionalFailures[fields[field].name, default: 0] += 1
                }
            }
            result.rows.append(ScrapedRow(values))
        }
        guard !result.rows.isEmpty else {
            throw .malformed("rows selector '\(recipe.rows)' matched \(nodes.count) row(s) but none holds data "
                             + "(\(result.skippedSpacers) empty, \(result.skippedAdverts) with a cell count other than \(usualCells))")
        }
        return result
    }

    private struct FieldProblem: Error {
        var reason: String
    }

    /// The field's text, through its regex, parsed.
    private func parse(_ index: Int, found: Bool) -> Result<ScrapedValue, FieldProblem> {
        let field = fields[index]
        guard found else { return .failure(FieldProblem(reason: "the XPath matched nothing")) }
        let bytes = texts[index].bytes
        guard !bytes.isEmpty else { return .failure(FieldProblem(reason: "empty")) }
        guard let regex = field.regex else {
            if let value = bytes.withUnsafeBufferPointer({ field.rule.parse.parse(bytes: $0) }) { return .success(value) }
            return .failure(FieldProblem(reason: "\(Self.quoted(bytes)) is not \(field.rule.parse.expectation)"))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let whole = NSRange(text.startIndex..., in: text)
        guard let match = regex.firstMatch(in: text, range: whole) else {
            return .failure(FieldProblem(reason: "\(Self.quoted(bytes)) does not match the regex"))
        }
        let group = match.numberOfRanges > 1 && match.range(at: 1).location != NSNotFound ? match.range(at: 1) : match.range
        let captured = Range(group, in: text).map { text[$0].trimmingCharacters(in: .whitespaces) } ?? ""
        if let value = Array(captured.utf8).withUnsafeBufferPointer({ field.rule.parse.parse(bytes: $0) }) {
            return .success(value)
        }
        return .failure(FieldProblem(reason: "\(Self.quoted(Array(captured.utf8))) (matched in \(Self.quoted(bytes))) is not \(field.rule.parse.expectation)"))
    }

    /// `field 'viewers' (xpath td[4], parse number)`, with the regex when there is one.
    private func describe(_ field: Field) -> String {
        let regex = field.rule.regex.map { ", regex \($0)" } ?? ""
        return "field '\(field.name)' (xpath \(field.rule.xpath)\(regex), parse \(field.rule.parse))"
    }

    /// The text in quotes, cut at 80 characters.
    private static func quoted(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.count > 80 ? "'\(text.prefix(80))…'" : "'\(text)'"
    }

    /// The most frequent value; the larger on a tie (an advert spans cells, so it has fewer).
    static func mostCommon(_ counts: [Int]) -> Int {
        var frequency: [Int: Int] = [:]
        for count in counts { frequency[count, default: 0] += 1 }
        return frequency.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key ?? 0
    }
}

/// Compiled extractors lent to one task at a time, so concurrent fetches (several channels of a
/// guide) never share libxml2's compiled expressions, and none is compiled twice for one task.
final class ExtractorPool: @unchecked Sendable {
    let recipe: ScrapeRecipe
    private let lock = NSLock()
    private var idle: [ScrapeExtractor]

    /// Compiles the recipe once up front, so an invalid recipe fails here rather than at fetch time.
    init(_ recipe: ScrapeRecipe) throws(ScrapeRecipeError) {
        self.recipe = recipe
        idle = [try ScrapeExtractor(recipe)]
    }

    func extract(from data: Data, contentType: String?) throws(ProviderError) -> ScrapeResult {
        let extractor: ScrapeExtractor
        do {
            extractor = try lock.withLock { idle.popLast() } ?? ScrapeExtractor(recipe)
        } catch {
            // The recipe compiled in init, so it compiles again.
            preconditionFailure("a validated recipe failed to compile: \(error)")
        }
        defer { lock.withLock { idle.append(extractor) } }
        return try extractor.extract(from: data, contentType: contentType)
    }

    /// The rows of a fetched page, counted in `tally`; a page that does not fit the recipe is
    /// `malformed` naming its URL.
    func extract(_ response: TransportResponse, from url: URL, countingIn tally: ScrapeTally) async throws -> ScrapeResult {
        let result: ScrapeResult
        do {
            result = try extract(from: response.body, contentType: response.headers["content-type"])
        } catch {
            throw error.about(url)
        }
        await tally.record(result)
        return result
    }
}
