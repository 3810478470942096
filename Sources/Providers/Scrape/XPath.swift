import CLibXML2
import Foundation
import GuideCore

/// An XPath 1.0 expression compiled once by libxml2 (`xmlXPathCtxtCompile`) and evaluated on
/// many pages and rows.
///
/// Not `Sendable`, and never evaluated by two threads at once. A compiled expression is not
/// read-only while libxml2 evaluates it (xpath.c, 2.9): a function call step caches the function
/// it looked up (`op->cache`), and the optimiser of `[1]` / `[last()]` on a union swaps the
/// union's operands (`xmlXPathCompSwap`, disabled only in builds without threads), both without
/// a lock. So each `ScrapeExtractor` owns its expressions, and `ExtractorPool` lends an extractor
/// to one task at a time.
final class CompiledXPath {
    let pointer: xmlXPathCompExprPtr
    let expression: String

    /// Compiles `expression`; a syntax error throws `XPathSyntaxError` and prints nothing.
    init(_ expression: String) throws(XPathSyntaxError) {
        _ = LibXML2.initialised
        guard !expression.allSatisfy(\.isWhitespace) else { throw XPathSyntaxError(reason: "the expression is empty") }
        // A context without a document: its dictionary is nil, so the compiled expression owns its
        // strings and outlives any page. Its error hook keeps libxml2 from printing to stderr.
        guard let context = xmlXPathNewContext(nil) else { throw XPathSyntaxError(reason: "libxml2 is out of memory") }
        defer { xmlXPathFreeContext(context) }
        context.pointee.error = { _, _ in }
        guard let compiled = xmlXPathCtxtCompile(context, expression) else {
            throw XPathSyntaxError(lastError: context.pointee.lastError)
        }
        // libxml2 looks functions up only when it calls them, and then prints to stderr.
        if let problem = Self.unavailableFunction(in: expression) {
            xmlXPathFreeCompExpr(compiled)
            throw XPathSyntaxError(reason: problem)
        }
        self.pointer = compiled
        self.expression = expression
        childStep = ChildStep(expression)
    }

    /// Set when the expression is a plain child step (`td`, `td[4]`), which `XPathEvaluator`
    /// answers by walking the row's children: the common field shape, and most of the time a
    /// page's extraction would otherwise spend in libxml2's evaluator.
    let childStep: ChildStep?

    /// `NAME` or `NAME[N]`: the `N`th (first) child element of that name, as XPath's
    /// `child::NAME[N]` selects it (names compared exactly, as libxml2 does for HTML's lower-case tags).
    struct ChildStep {
        let name: [UInt8]
        let position: Int

        init?(_ expression: String) {
            let bytes = Array(expression.utf8)
            var end = 0
            while end < bytes.count, Self.isNameByte(bytes[end], first: end == 0) { end += 1 }
            guard end > 0 else { return nil }
            name = Array(bytes[..<end])
            if end == bytes.count {
                position = 1
                return
            }
            guard bytes[end] == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]"), (1...4).contains(bytes.count - end - 2) else { return nil }
            var value = 0
            for byte in bytes[(end + 1)..<(bytes.count - 1)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            guard value >= 1 else { return nil }
            position = value
        }

        private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): !first
            default: false
            }
        }

        /// The child of `parent` the step selects.
        func select(in parent: xmlNodePtr) -> xmlNodePtr? {
            var seen = 0
            var child = parent.pointee.children
            while let node = child {
                if node.pointee.type == XML_ELEMENT_NODE, node.pointee.ns == nil, matches(node.pointee.name) {
                    seen += 1
                    if seen == position { return node }
                }
                child = node.pointee.next
            }
            return nil
        }

        private func matches(_ candidate: UnsafePointer<xmlChar>?) -> Bool {
            guard let candidate else { return false }
            for index in name.indices where candidate[index] != name[index] { return false }
            return candidate[name.count] == 0
        }
    }

    /// The functions libxml2 registers in a new context: XPath 1.0's core library.
    static let coreFunctions: Set<String> = [
        "last", "position", "count", "id", "local-name", "namespace-uri", "name", "string", "concat",
        "starts-with", "contains", "substring-before", "substring-after", "substring", "string-length",
        "normalize-space", "translate", "boolean", "not", "true", "false", "lang", "number", "sum",
        "floor", "ceiling", "round",
    ]

    /// Why `expression` (which compiled) would fail when evaluated: a call of a function outside
    /// `coreFunctions` (prefixed ones included, as no namespace is registered) or a `$variable`.
    /// Names are read as XPath's lexer does: outside string literals, an NCName or QName followed
    /// by `(` is a call unless it is a node test (`text()`) or an operator (`and (…)`).
    static func unavailableFunction(in expression: String) -> String? {
        let characters = Array(expression)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "'" || character == "\"" {
                index = (characters[(index + 1)...].firstIndex(of: character) ?? characters.count) + 1
                continue
            }
            if character == "$" { return "variables ($…) are not available" }
            guard character.isLetter || character == "_" else {
                index += 1
                continue
            }
            var end = index + 1
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || "-_.:".contains(characters[end]) {
                // `child::td` is an axis, not a prefix: stop before `::`.
                if characters[end] == ":", end + 1 < characters.count, characters[end + 1] == ":" { break }
                end += 1
            }
            let name = String(characters[index..<end])
            var next = end
            while next < characters.count, characters[next].isWhitespace { next += 1 }
            if next < characters.count, characters[next] == "(",
               !["node", "text", "comment", "processing-instruction", "and", "or", "div", "mod"].contains(name),
               !coreFunctions.contains(name) {
                return "unknown function \(name)() (XPath 1.0 functions only)"
            }
            index = end
        }
        return nil
    }

    deinit {
        xmlXPathFreeCompExpr(pointer)
    }
}

/// Why libxml2 refused an XPath expression: its message, and where when it says.
struct XPathSyntaxError: Error {
    var reason: String

    init(reason: String) {
        self.reason = reason
    }

    init(lastError error: xmlError) {
        var reason = XPathErrorText.describe(error)
        // int1 is the offset of the character where the parser gave up.
        if error.domain == Int32(XML_FROM_XPATH.rawValue), error.str1 != nil {
            reason += " at character \(error.int1 + 1)"
        }
        self.reason = reason
    }
}

/// libxml2's XPath messages. The error an XPath context's hook receives carries only a code for
/// most failures, so the text of xpath.c's table is repeated here.
enum XPathErrorText {
    static func describe(_ error: xmlError) -> String {
        if let message = error.message {
            return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let code = Int(error.code) - Int(XML_XPATH_EXPRESSION_OK.rawValue)
        return messages.indices.contains(code) ? messages[code] : "libxml2 XPath error \(error.code)"
    }

    /// Indexed by `xmlXPathError`.
    private static let messages = [
        "ok", "number encoding", "unfinished literal", "start of literal", "expected $ for variable reference",
        "undefined variable", "invalid predicate", "invalid expression", "missing closing curly brace",
        "unregistered function", "invalid operand", "invalid type", "invalid number of arguments",
        "invalid context size", "invalid context position", "memory allocation error", "syntax error",
        "resource error", "sub resource error", "undefined namespace prefix", "encoding error",
        "char out of XML range", "invalid or incomplete context", "stack usage error", "forbidden variable",
    ]
}

/// Evaluates compiled expressions, one document at a time. Owns an `xmlXPathContext`, kept from
/// page to page: making one registers XPath's function library in a new hash table, which costs
/// as much as evaluating a page's rows. libxml2's object cache is on, so the result objects of the
/// hundreds of small evaluations a page takes are recycled.
final class XPathEvaluator {
    private let context: xmlXPathContextPtr

    init() {
        _ = LibXML2.initialised
        guard let context = xmlXPathNewContext(nil) else { preconditionFailure("libxml2 is out of memory") }
        context.pointee.error = { _, _ in }
        xmlXPathContextSetCache(context, 1, -1, 0)
        self.context = context
    }

    deinit {
        xmlXPathFreeContext(context)
    }

    /// Runs `body` with expressions evaluated in `document`, which outlives the call.
    func within<T>(_ document: HTMLDocument, _ body: () throws(ProviderError) -> T) throws(ProviderError) -> T {
        context.pointee.doc = document.pointer
        defer {
            context.pointee.doc = nil
            context.pointee.node = nil
        }
        return try body()
    }

    /// What an evaluation found.
    enum Outcome {
        /// A node set with no node.
        case nothing
        /// A string (possibly empty) is now in the buffer.
        case value
        /// libxml2 could not evaluate the expression (an unknown function, a type error).
        case failed(String)
    }

    /// The nodes `xpath` selects from `node`, in document order; nil when it does not evaluate to a node set.
    func nodes(_ xpath: CompiledXPath, from node: xmlNodePtr) -> [xmlNodePtr]? {
        context.pointee.node = node
        guard let result = xmlXPathCompiledEval(xpath.pointer, context) else { return nil }
        defer { xmlXPathFreeObject(result) }
        guard result.pointee.type == XPATH_NODESET else { return nil }
        guard let set = result.pointee.nodesetval, set.pointee.nodeNr > 0, let table = set.pointee.nodeTab else { return [] }
        xmlXPathNodeSetSort(set)
        return (0..<Int(set.pointee.nodeNr)).compactMap { table[$0] }
    }

    /// Evaluates `xpath` from `node` and puts the XPath string value of the result into `text`,
    /// whitespace collapsed: for a node set, that of its first node in document order.
    func stringValue(_ xpath: CompiledXPath, from node: xmlNodePtr, into text: inout CollapsedText) -> Outcome {
        text.removeAll()
        if let step = xpath.childStep {
            guard let child = step.select(in: node) else { return .nothing }
            text.appendStringValue(of: child)
            return .value
        }
        context.pointee.node = node
        guard let result = xmlXPathCompiledEval(xpath.pointer, context) else {
            return .failed(XPathErrorText.describe(context.pointee.lastError))
        }
        defer { xmlXPathFreeObject(result) }
        switch result.pointee.type {
        case XPATH_NODESET, XPATH_XSLT_TREE:
            guard let set = result.pointee.nodesetval, set.pointee.nodeNr > 0, let table = set.pointee.nodeTab else { return .nothing }
            if set.pointee.nodeNr > 1 { xmlXPathNodeSetSort(set) }
            guard let first = table[0] else { return .nothing }
            text.appendStringValue(of: first)
        case XPATH_STRING:
            if let string = result.pointee.stringval { text.append(string) }
        case XPATH_NUMBER:
            text.append(Self.xpathString(result.pointee.floatval))
        case XPATH_BOOLEAN:
            text.append(result.pointee.boolval != 0 ? "true" : "false")
        default:
            return .nothing
        }
        return .value
    }
}

extension XPathEvaluator {
    /// XPath's `string()` of a number: integers without a decimal point (`count(td)` is `6`).
    static func xpathString(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }
}

/// A node's text with runs of whitespace (ASCII and the no-break space of `&nbsp;`) collapsed to
/// one space and none at either end, built straight from libxml2's UTF-8 strings.
struct CollapsedText {
    private(set) var bytes: [UInt8] = []
    private var pendingSpace = false

    init() {
        bytes.reserveCapacity(256)
    }

    var isEmpty: Bool { bytes.isEmpty }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        pendingSpace = false
    }

    mutating func append(_ string: String) {
        string.utf8CString.withUnsafeBufferPointer { chars in
            chars.baseAddress!.withMemoryRebound(to: xmlChar.self, capacity: chars.count) { append($0) }
        }
    }

    mutating func append(_ string: UnsafePointer<xmlChar>) {
        var p = string
        while p.pointee != 0 {
            let byte = p.pointee
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                pendingSpace = !bytes.isEmpty
            case 0xC2 where p[1] == 0xA0:
                pendingSpace = !bytes.isEmpty
                p += 1
            default:
                if pendingSpace {
                    bytes.append(0x20)
                    pendingSpace = false
                }
                bytes.append(byte)
            }
            p += 1
        }
    }

    /// The XPath string value of `node`: the text of every text node below an element, an
    /// attribute or a document; a text, comment or processing instruction's own content.
    mutating func appendStringValue(of node: xmlNodePtr) {
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE, XML_COMMENT_NODE, XML_PI_NODE:
            if let content = node.pointee.content { append(content) }
        case XML_ELEMENT_NODE, XML_ATTRIBUTE_NODE, XML_DOCUMENT_NODE, XML_HTML_DOCUMENT_NODE, XML_DOCUMENT_FRAG_NODE:
            appendDescendantText(of: node)
        default:
            break
        }
    }

    /// A depth-first walk without recursion, entering elements only (an entity reference's
    /// children belong to its declaration, whose parent is not in this subtree).
    private mutating func appendDescendantText(of root: xmlNodePtr) {
        var current = root.pointee.children
        while let node = current {
            let type = node.pointee.type
            if type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE, let content = node.pointee.content {
                append(content)
            }
            if type == XML_ELEMENT_NODE, let child = node.pointee.children {
                current = child
                continue
            }
            var climbing = node
            while climbing.pointee.next == nil {
                guard let parent = climbing.pointee.parent, parent != root else { return }
                climbing = parent
            }
            current = climbing.pointee.next
        }
    }
}
