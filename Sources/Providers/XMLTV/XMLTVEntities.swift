import Foundation
import GuideCore

/// The internal entities a document declares (`<!DOCTYPE tv [ <!ENTITY y "text"> ]>`), checked
/// before libxml2 is let to expand them. libxml2 2.9 expands entities inside attribute values
/// without any cap: 155 kB of references to one 10 kB entity become gigabytes. So the expansion
/// is computed here from the declarations and the references first, and a document whose entities
/// would add more than its own size plus `allowance` is refused, naming the attack.
///
/// Written by hand: libxml2 2.11's `xmlCtxtSetMaxAmplification` would do it, and Debian 12 ships 2.9.
enum XMLTVEntities {
    /// Beyond the document's own size, what its entities may add when expanded.
    static let allowance = 1 << 20

    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether the document declares internal entities that are safe to expand; throws when
    /// expanding them would blow up, loops, or reaches outside the document.
    static func check(_ bytes: UnsafeRawBufferPointer) throws(Refused) -> Bool {
        guard let subset = internalSubset(bytes) else { return false }
        let (declarations, order) = try declarations(in: UnsafeRawBufferPointer(rebasing: bytes[subset]))
        guard !declarations.isEmpty else { return false }
        var sizes: [String: Int] = [:]
        // In declaration order, so that a loop is named the same way every time.
        for name in order {
            _ = try expandedSize(name, declarations, &sizes, path: [])
        }
        var total = 0
        var references = 0
        forEachReference(in: UnsafeRawBufferPointer(rebasing: bytes[subset.upperBound...])) { name in
            guard let size = sizes[name] else { return }
            references += 1
            total = min(total &+ size, Int.max / 2)
        }
        let limit = bytes.count + allowance
        guard total <= limit else {
            throw Refused(description: "entity expansion: \(references) reference(s) to the document's own entities would expand to "
                + "\(total) bytes, more than its own \(bytes.count) bytes plus \(allowance >> 20) MiB; refused as an entity-expansion "
                + "attack ('billion laughs')")
        }
        return true
    }

    /// The bytes between `<!DOCTYPE … [` and its `]`, when the prolog has one. Only the prolog is
    /// read (the XML declaration, comments, processing instructions): the DOCTYPE comes before the
    /// root element or not at all.
    private static func internalSubset(_ bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        var at = 0
        var doctype: Int?
        while doctype == nil {
            while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
            guard at + 1 < bytes.count else { return nil }
            switch bytes[at + 1] {
            case UInt8(ascii: "?"):
                guard let end = find(Array("?>".utf8), in: bytes, from: at) else { return nil }
                at = end + 2
            case UInt8(ascii: "!") where at + 4 <= bytes.count && bytes[at + 2] == UInt8(ascii: "-") && bytes[at + 3] == UInt8(ascii: "-"):
                guard let end = find(Array("-->".utf8), in: bytes, from: at + 4) else { return nil }
                at = end + 3
            case UInt8(ascii: "!"):
                doctype = at
            default:
                return nil
            }
        }
        // The subset opens before the DOCTYPE's own '>' (quoted system ids may hold either), and
        // ends at the first ']' outside the declarations' quoted values.
        guard let open = firstUnquoted([UInt8(ascii: ">"), UInt8(ascii: "[")], in: bytes, from: doctype!),
              open.byte == UInt8(ascii: "[") else { return nil }
        let start = open.index + 1
        guard start < bytes.count else { return nil }
        return start..<(firstUnquoted([UInt8(ascii: "]")], in: bytes, from: start)?.index ?? bytes.count)
    }

    /// The first of `wanted` at or after `from` outside a quoted string, and which one it is.
    private static func firstUnquoted(_ wanted: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> (index: Int, byte: UInt8)? {
        var quote: UInt8?
        for index in from..<bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if wanted.contains(byte) {
                return (index, byte)
            }
        }
        return nil
    }

    /// `<!ENTITY name "value">` → value; parameter and external entities are refused.
    private static func declarations(in subset: UnsafeRawBufferPointer) throws(Refused) -> (values: [String: [UInt8]], order: [String]) {
        var result: [String: [UInt8]] = [:]
        var order: [String] = []
        let marker = Array("<!ENTITY".utf8)
        var at = 0
        while let found = find(marker, in: subset, from: at) {
            var i = found + marker.count
            func skipSpace() { while i < subset.count, isSpace(subset[i]) { i += 1 } }
            skipSpace()
            if i < subset.count, subset[i] == UInt8(ascii: "%") {
                throw Refused(description: "the document declares a parameter entity (<!ENTITY % …>), which tvguide does not expand")
            }
            let nameStart = i
            while i < subset.count, !isSpace(subset[i]), subset[i] != UInt8(ascii: ">") { i += 1 }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: subset[nameStart..<i]), as: UTF8.self)
            skipSpace()
            guard i < subset.count, subset[i] == UInt8(ascii: "\"") || subset[i] == UInt8(ascii: "'") else {
                throw Refused(description: "the document declares an external entity '\(name)' (SYSTEM or PUBLIC), which tvguide does not "
                    + "read: a guide is the document alone")
            }
            let quote = subset[i]
            let valueStart = i + 1
            i = valueStart
            while i < subset.count, subset[i] != quote { i += 1 }
            // XML keeps the first declaration of a name.
            if result[name] == nil {
                result[name] = Array(subset[valueStart..<i])
                order.append(name)
            }
            at = i
        }
        return (result, order)
    }

    /// An entity's size once every reference in it is expanded; a loop is an error naming it.
    private static func expandedSize(_ name: String, _ declarations: [String: [UInt8]], _ sizes: inout [String: Int],
                                     path: [String]) throws(Refused) -> Int {
        if let known = sizes[name] { return known }
        if path.contains(name) {
            throw Refused(description: "entity reference loop: " + (path + [name]).joined(separator: " → ")
                + " refers to itself, which would expand forever")
        }
        guard let value = declarations[name] else { return 0 }
        var size = 0
        var failure: Refused?
        value.withUnsafeBytes { bytes in
            var literal = bytes.count
            forEachReference(in: bytes) { reference in
                literal -= reference.utf8.count + 2
                guard failure == nil else { return }
                do throws(Refused) {
                    size = min(size &+ (declarations[reference] != nil ? try expandedSize(reference, declarations, &sizes, path: path + [name]) : 4),
                               Int.max / 2)
                } catch {
                    failure = error
                }
            }
            size = min(size &+ max(literal, 0), Int.max / 2)
        }
        if let failure { throw failure }
        sizes[name] = size
        return size
    }

    /// Every `&name;` (not `&#…;`) in `bytes`.
    private static func forEachReference(in bytes: UnsafeRawBufferPointer, _ body: (String) -> Void) {
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "&") else {
                i += 1
                continue
            }
            var end = i + 1
            while end < bytes.count, end - i <= 64, bytes[end] != UInt8(ascii: ";"), !isSpace(bytes[end]), bytes[end] != UInt8(ascii: "&") { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > i + 1, bytes[i + 1] != UInt8(ascii: "#") {
                body(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(i + 1)..<end]), as: UTF8.self))
            }
            i = end
        }
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var i = from
        while i <= bytes.count - needle.count {
            if bytes[i] == needle[0], (1..<needle.count).allSatisfy({ bytes[i + $0] == needle[$0] }) { return i }
            i += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
