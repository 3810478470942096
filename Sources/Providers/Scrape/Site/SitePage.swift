import CLibXML2
import Foundation
import GuideCore

/// The items of an HTML or XML answer, read with XPath 1.0 (libxml2) into JSON objects, so that
/// pages and JSON answers go through the same `programme` filter.
///
/// Each item is a node `items.xpath` selects; each field's XPath is evaluated from it and gives a
/// string (`string(…)`, `concat(…)`), a number, a boolean, or a node set: no node is null, one
/// node its text, several a list of texts. Texts are trimmed, their inner whitespace collapsed.
/// `$date` (`2026-10-25`), `$channel` (the site id) and `$channel.NAME` (a part or an attribute
/// of the channel) can be used in every expression, so a multi-day page picks its day
/// (`//div[@data-day=$date]`). Each evaluation is capped at
/// `operationLimit` XPath operations, so a recipe cannot make one page cost unbounded time.
enum SitePage {
    static let operationLimit: UInt = 50_000_000

    static func items(
        _ data: Data, format: SiteRecipe.Format, contentType: String?, encoding: PageEncoding?, spec: SiteRecipe.PageItems,
        variables: [String: String]
    ) throws(ProviderError) -> [JSONValue] {
        try withDocument(data, format: format, contentType: contentType, encoding: encoding) { document throws(ProviderError) in
            try read(document, spec: spec, variables: variables)
        }
    }

    /// A whole answer read as one object: each field's XPath evaluated from the document (a
    /// step's or a detail's HTML or XML answer).
    static func object(
        _ data: Data, format: SiteRecipe.Format, contentType: String?, encoding: PageEncoding?, fields: [(name: String, xpath: String)],
        variables: [String: String]
    ) throws(ProviderError) -> JSONValue {
        try withDocument(data, format: format, contentType: contentType, encoding: encoding) { document throws(ProviderError) in
            let context = try context(document, variables: variables)
            defer { xmlXPathFreeContext(context) }
            let root = UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self)
            var object: [String: JSONValue] = [:]
            for field in fields {
                let compiled = try compile(field.xpath, context: context)
                defer { xmlXPathFreeCompExpr(compiled) }
                object[field.name] = try value(compiled, field.xpath, at: root, context: context)
            }
            return .object(object)
        }
    }

    private static func withDocument<T>(
        _ data: Data, format: SiteRecipe.Format, contentType: String?, encoding: PageEncoding?, _ body: (xmlDocPtr) throws(ProviderError) -> T
    ) throws(ProviderError) -> T {
        switch format {
        case .html:
            let document = try HTMLDocument(data, contentType: contentType, override: encoding)
            return try body(document.pointer)
        case .xml:
            _ = LibXML2.initialised
            guard !data.isEmpty, data.count < Int(Int32.max) else { throw .malformed("the page is empty or too large") }
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_RECOVER.rawValue)
            let document = data.withUnsafeBytes { raw in
                raw.baseAddress!.withMemoryRebound(to: CChar.self, capacity: raw.count) { xmlReadMemory($0, Int32(raw.count), nil, nil, options) }
            }
            guard let document else { throw .malformed("libxml2 could not parse the answer as XML") }
            defer { xmlFreeDoc(document) }
            return try body(document)
        case .json, .text:
            throw .malformed("a JSON or text answer has no XPath items")
        }
    }

    private static func context(_ document: xmlDocPtr, variables: [String: String]) throws(ProviderError) -> xmlXPathContextPtr {
        guard let context = xmlXPathNewContext(document) else { throw .malformed("libxml2 could not evaluate XPath (out of memory)") }
        for (name, value) in variables {
            xmlXPathRegisterVariable(context, name, xmlXPathNewCString(value))
        }
        context.pointee.opLimit = operationLimit
        // An error hook of its own keeps libxml2 from printing its reason to stderr, apart from
        // the message: the reason goes into the error, read back from `lastError`.
        context.pointee.error = { _, _ in }
        return context
    }

    private static func read(_ document: xmlDocPtr, spec: SiteRecipe.PageItems, variables: [String: String]) throws(ProviderError) -> [JSONValue] {
        let context = try context(document, variables: variables)
        defer { xmlXPathFreeContext(context) }

        let root = UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self)
        if spec.isTable {
            guard let table = try nodes(spec.xpath, at: root, context: context).first else { return [] }
            return try tableRows(table, context: context)
        }
        let rows = try nodes(spec.xpath, at: root, context: context)
        guard !rows.isEmpty else { return [] }
        // Compiled once for the page, not once per row: parsing an expression costs as much as
        // evaluating it on a row.
        var expressions: [(name: String, source: String, compiled: xmlXPathCompExprPtr)] = []
        defer { for expression in expressions { xmlXPathFreeCompExpr(expression.compiled) } }
        for field in spec.fields {
            expressions.append((field.name, field.xpath, try compile(field.xpath, context: context)))
        }
        var items: [JSONValue] = []
        items.reserveCapacity(rows.count)
        for node in rows {
            var fields: [String: JSONValue] = [:]
            fields.reserveCapacity(expressions.count)
            for expression in expressions {
                fields[expression.name] = try value(expression.compiled, expression.source, at: node, context: context)
            }
            items.append(.object(fields))
        }
        return items
    }

    /// The rows of `table` as a grid: a cell spanning rows or columns fills each slot it covers.
    private static func tableRows(_ table: xmlNodePtr, context: xmlXPathContextPtr) throws(ProviderError) -> [JSONValue] {
        var grid: [[String?]] = []
        for (rowIndex, row) in try nodes("tr|thead/tr|tbody/tr|tfoot/tr", at: table, context: context).enumerated() {
            while grid.count <= rowIndex { grid.append([]) }
            var column = 0
            for cell in try nodes("th|td", at: row, context: context) {
                while column < grid[rowIndex].count, grid[rowIndex][column] != nil { column += 1 }
                let text = Self.text(of: cell)
                let rows = max(1, min(Int(attribute(cell, "rowspan")) ?? 1, 500))
                let columns = max(1, min(Int(attribute(cell, "colspan")) ?? 1, 100))
                for r in rowIndex..<(rowIndex + rows) {
                    while grid.count <= r { grid.append([]) }
                    for c in column..<(column + columns) {
                        while grid[r].count <= c { grid[r].append(nil) }
                        grid[r][c] = text
                    }
                }
                column += columns
            }
        }
        let header = grid.first.map { JSONValue.array($0.map { .string($0 ?? "") }) } ?? .array([])
        return grid.enumerated().map { index, cells in
            .object(["row": .number(Double(index)), "rows": .number(Double(grid.count)), "cells": .array(cells.map { .string($0 ?? "") }), "header": header])
        }
    }

    private static func attribute(_ node: xmlNodePtr, _ name: String) -> String {
        guard let value = xmlGetProp(node, name) else { return "" }
        defer { free(value) }
        return String(cString: value).trimmingCharacters(in: .whitespaces)
    }

    private static func nodes(_ expression: String, at node: xmlNodePtr, context: xmlXPathContextPtr) throws(ProviderError) -> [xmlNodePtr] {
        let result = try evaluate(expression, at: node, context: context)
        defer { xmlXPathFreeObject(result) }
        guard result.pointee.type == XPATH_NODESET else { throw .malformed("items: '\(expression)' gives a value, not nodes") }
        return members(of: result)
    }

    /// The nodes of a node-set result, in document order.
    private static func members(of result: xmlXPathObjectPtr) -> [xmlNodePtr] {
        guard let set = result.pointee.nodesetval else { return [] }
        return (0..<Int(set.pointee.nodeNr)).compactMap { set.pointee.nodeTab[$0] }
    }

    private static func value(
        _ compiled: xmlXPathCompExprPtr, _ expression: String, at node: xmlNodePtr, context: xmlXPathContextPtr
    ) throws(ProviderError) -> JSONValue {
        context.pointee.node = node
        context.pointee.opCount = 0
        guard let result = xmlXPathCompiledEval(compiled, context) else { throw failure(expression, context: context) }
        defer { xmlXPathFreeObject(result) }
        switch result.pointee.type {
        case XPATH_NODESET:
            let texts = members(of: result).map { JSONValue.string(text(of: $0)) }
            return texts.isEmpty ? .null : texts.count == 1 ? texts[0] : .array(texts)
        case XPATH_STRING:
            return .string(SiteProgrammeReader.oneLine(result.pointee.stringval.map { String(cString: $0) } ?? ""))
        case XPATH_NUMBER:
            return result.pointee.floatval.isFinite ? .number(result.pointee.floatval) : .null
        case XPATH_BOOLEAN:
            return .bool(result.pointee.boolval != 0)
        default:
            return .null
        }
    }

    private static func evaluate(_ expression: String, at node: xmlNodePtr, context: xmlXPathContextPtr) throws(ProviderError) -> xmlXPathObjectPtr {
        context.pointee.node = node
        context.pointee.opCount = 0
        guard let result = xmlXPathEvalExpression(expression, context) else { throw failure(expression, context: context) }
        return result
    }

    /// `expression` compiled with `context`, so that a compile error carries libxml2's reason.
    private static func compile(_ expression: String, context: xmlXPathContextPtr) throws(ProviderError) -> xmlXPathCompExprPtr {
        guard let compiled = xmlXPathCtxtCompile(context, expression) else { throw failure(expression, context: context) }
        return compiled
    }

    private static func failure(_ expression: String, context: xmlXPathContextPtr) -> ProviderError {
        if context.pointee.opCount >= operationLimit {
            return .malformed("XPath '\(expression)' took more than \(operationLimit) operations on one page and was stopped")
        }
        return .malformed("XPath '\(expression)' could not be evaluated: \(XPathErrorText.describe(context.pointee.lastError))")
    }

    private static func text(of node: xmlNodePtr) -> String {
        guard let content = xmlXPathCastNodeToString(node) else { return "" }
        // libxml2's xmlFree is free() unless a program installs its own allocator, which tvguide
        // does not; the global function pointer itself is not concurrency-safe to read in Swift 6.
        defer { free(content) }
        return SiteProgrammeReader.oneLine(String(cString: content))
    }
}

/// Checks recipes' XPath when they are read.
package enum SiteXPath {
    /// True when libxml2 compiles `expression` as XPath 1.0.
    package static func isValid(_ expression: String) -> Bool {
        _ = LibXML2.initialised
        guard let compiled = xmlXPathCompile(expression) else { return false }
        xmlXPathFreeCompExpr(compiled)
        return true
    }
}
