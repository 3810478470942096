import Foundation

/// The character encodings scraped pages may use. libxml2 always gets UTF-8: the other two are
/// transcoded here first (see `HTMLDocument`).
package enum PageEncoding: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case utf8 = "utf-8"
    /// Decoded as its superset Windows-1252, as browsers do (WHATWG Encoding Standard): pages
    /// labelled Latin-1 routinely carry `€` and curly quotes in the 0x80–0x9F range.
    case isoLatin1 = "iso-8859-1"
    case windows1252 = "windows-1252"

    package var description: String { rawValue }

    /// The encoding a charset label names (`UTF-8`, `latin1`, `"cp1252"`…), ignoring case,
    /// surrounding spaces and quotes; nil for a label this scraper does not decode.
    package init?(label: String) {
        var text = Substring(label).drop { $0 == " " || $0 == "\"" || $0 == "'" }
        while let last = text.last, last == " " || last == "\"" || last == "'" { text = text.dropLast() }
        switch text.lowercased() {
        case "utf-8", "utf8", "unicode-1-1-utf-8":
            self = .utf8
        // WHATWG maps ASCII labels to Windows-1252 too: the bytes an "ASCII" page really holds.
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "iso-ir-100", "latin1", "l1", "csisolatin1",
             "ibm819", "cp819", "us-ascii", "ascii":
            self = .isoLatin1
        case "windows-1252", "cp1252", "x-cp1252":
            self = .windows1252
        default:
            return nil
        }
    }

    /// The encoding of a page: a UTF-8 byte-order mark, else the `charset` of the HTTP
    /// `Content-Type` header, else a `<meta charset>` or `<meta http-equiv content="…; charset=…">`
    /// among the first bytes, else UTF-8. A label this scraper does not decode is passed over.
    package static func detect(in data: Data, contentType: String?) -> PageEncoding {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8 }
        if let contentType, let label = charsetParameter(in: Array(contentType.utf8)), let encoding = PageEncoding(label: label) {
            return encoding
        }
        return data.prefix(metaScanLength).withUnsafeBytes { metaCharset(in: $0.bindMemory(to: UInt8.self)) } ?? .utf8
    }

    /// How far into a page `<meta>` is looked for. The HTML standard's pre-scan reads 1,024 bytes;
    /// more tolerates pages that put scripts or long comments before their charset.
    static let metaScanLength = 8_192

    /// The value of the first known `charset` inside a `<meta …>` tag in `bytes`.
    static func metaCharset(in bytes: UnsafeBufferPointer<UInt8>) -> PageEncoding? {
        let meta: [UInt8] = Array("<meta".utf8)
        var index = 0
        while let start = find(meta, in: bytes, from: index) {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
            if let label = charsetParameter(in: Array(bytes[start..<end])), let encoding = PageEncoding(label: label) {
                return encoding
            }
            index = end
        }
        return nil
    }

    /// The value after `charset` `=` (spaces and quotes allowed around it) up to a quote, space,
    /// `;`, `/` or `>`: the parameter of a Content-Type and a `<meta>` attribute alike.
    static func charsetParameter(in bytes: [UInt8]) -> String? {
        let name: [UInt8] = Array("charset".utf8)
        return bytes.withUnsafeBufferPointer { buffer -> String? in
            var index = 0
            while let found = find(name, in: buffer, from: index) {
                var i = found + name.count
                while i < buffer.count, buffer[i] == 0x20 { i += 1 }
                guard i < buffer.count, buffer[i] == UInt8(ascii: "=") else {
                    index = found + name.count
                    continue
                }
                i += 1
                while i < buffer.count, buffer[i] == 0x20 || buffer[i] == 0x22 || buffer[i] == 0x27 { i += 1 }
                let start = i
                while i < buffer.count, !Self.labelEnd(buffer[i]) { i += 1 }
                return i > start ? String(decoding: buffer[start..<i], as: UTF8.self) : nil
            }
            return nil
        }
    }

    private static func labelEnd(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, 0x22, 0x27, UInt8(ascii: ";"), UInt8(ascii: "/"), UInt8(ascii: ">"): true
        default: false
        }
    }

    /// The first position of `needle` in `haystack` at or after `from`, ASCII letters compared
    /// without case (`needle` must be lower-case).
    private static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var start = from
        while start + needle.count <= haystack.count {
            var matched = true
            for offset in 0..<needle.count {
                var byte = haystack[start + offset]
                if byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
                if byte != needle[offset] {
                    matched = false
                    break
                }
            }
            if matched { return start }
            start += 1
        }
        return nil
    }

    /// `bytes` in this encoding as UTF-8; nil when they already are (UTF-8, or Windows-1252 text
    /// that is pure ASCII), so the caller parses them as they are.
    func transcodedToUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard self != .utf8, let firstHigh = bytes.firstIndex(where: { $0 >= 0x80 }) else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + bytes.count / 8)
        out.append(contentsOf: bytes[..<firstHigh])
        for byte in bytes[firstHigh...] {
            if byte < 0x80 {
                out.append(byte)
                continue
            }
            let scalar = byte < 0xA0 ? Self.windows1252C1[Int(byte) - 0x80] : UInt16(byte)
            if scalar < 0x800 {
                out.append(UInt8(0xC0 | (scalar >> 6)))
                out.append(UInt8(0x80 | (scalar & 0x3F)))
            } else {
                out.append(UInt8(0xE0 | (scalar >> 12)))
                out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
                out.append(UInt8(0x80 | (scalar & 0x3F)))
            }
        }
        return out
    }

    /// Windows-1252's 0x80–0x9F as Unicode; the five unassigned bytes keep their C1 code points, as
    /// the WHATWG table has them.
    private static let windows1252C1: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
