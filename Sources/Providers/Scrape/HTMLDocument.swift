import CLibXML2
import Foundation
import GuideCore

/// A parsed HTML page: libxml2's HTML parser in recovery mode, so broken markup (unclosed cells,
/// stray tags) still yields a tree, as browsers show one. Nothing is printed and nothing is
/// fetched (no DTD, no entities from the network).
///
/// Owns its `xmlDoc` and frees it when released. Not `Sendable`: a page is parsed and its values
/// extracted in one synchronous call (`ScrapeExtractor.extract`), on one thread.
final class HTMLDocument {
    let pointer: xmlDocPtr
    /// The encoding the page was decoded from.
    let encoding: PageEncoding

    /// - Parameters:
    ///   - override: the recipe's `encoding`; nil detects it (`PageEncoding.detect`).
    ///   - contentType: the HTTP `Content-Type` header, whose charset comes before `<meta>`.
    init(_ data: Data, contentType: String?, override: PageEncoding?) throws(ProviderError) {
        _ = LibXML2.initialised
        guard !data.isEmpty else { throw .malformed("the page is empty") }
        // htmlReadMemory takes an Int32 length, and transcoding can triple a page (`€` is one byte
        // in Windows-1252, three in UTF-8).
        guard data.count <= Int(Int32.max) / 3 else { throw .malformed("the page (\(data.count) bytes) is too large for libxml2") }
        let encoding = override ?? PageEncoding.detect(in: data, contentType: contentType)
        let parsed = data.withUnsafeBytes { raw -> xmlDocPtr? in
            let bytes = raw.bindMemory(to: UInt8.self)
            if let utf8 = encoding.transcodedToUTF8(bytes) {
                return utf8.withUnsafeBufferPointer { Self.parse($0) }
            }
            return Self.parse(bytes)
        }
        guard let parsed else { throw .malformed("libxml2 could not parse the page as HTML") }
        self.pointer = parsed
        self.encoding = encoding
    }

    deinit {
        xmlFreeDoc(pointer)
    }

    /// The document node, the context of the rows selector.
    var node: xmlNodePtr {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: xmlNode.self)
    }

    /// Always told UTF-8, so that a `<meta charset>` inside the bytes cannot make libxml2 decode
    /// them a second time. libxml2 skips a UTF-8 byte-order mark itself.
    private static func parse(_ utf8: UnsafeBufferPointer<UInt8>) -> xmlDocPtr? {
        guard let base = utf8.baseAddress else { return nil }
        return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
            htmlReadMemory(chars, Int32(utf8.count), nil, "UTF-8", options)
        }
    }

    /// `COMPACT` stores short texts inside their nodes (fewer allocations), as lxml does by default.
    private static let options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue
    )
}

enum LibXML2 {
    /// libxml2 sets up its global tables lazily, and that first set-up is not thread-safe: two
    /// providers parsing at once must not both be first. Swift runs a static initialiser once.
    static let initialised: Bool = {
        xmlInitParser()
        return true
    }()
}
