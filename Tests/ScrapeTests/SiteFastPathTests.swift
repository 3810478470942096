import Foundation
import GuideCore
@testable import Scrape
import Testing

/// The site reader's text and time helpers skip Foundation and Unicode's character breaking when
/// they can; these tests hold them to what the plain versions give.
@Suite("Site recipes: fast paths give what the plain versions give")
struct SiteFastPathTests {
    static let texts = [
        "", " ", "\n", "Telediario", "Telediario 2", " Telediario", "Telediario ", "Tele  diario", "Tele\tdiario",
        "Una descripción\n corta.", "Programa 12 ñ", "\u{A0}Noticias\u{A0}", "Noticias\u{2028}", "a\u{3000}b", "a \u{301}b",
        "a\u{301} b", "ü ö", "Ciné\r\nclub", "\u{1F3AC} Cine", "Cine \u{1F3AC}", "x\u{85}", "\u{200B}a\u{200B}", "a \u{200D}b",
    ]

    @Test("nonEmpty trims as trimmingCharacters(in: .whitespacesAndNewlines) does")
    func trimming() {
        for text in Self.texts {
            let plain = text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(SiteProgrammeReader.nonEmpty(text) == (plain.isEmpty ? nil : plain), "\(text.debugDescription)")
        }
    }

    @Test("oneLine joins what Character.isWhitespace splits")
    func oneLine() {
        for text in Self.texts {
            #expect(SiteProgrammeReader.oneLine(text) == text.split(whereSeparator: \.isWhitespace).joined(separator: " "), "\(text.debugDescription)")
        }
    }

    @Test("isWhitespace is Unicode's White_Space, isTrimmed Foundation's whitespacesAndNewlines")
    func whitespace() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(SiteProgrammeReader.isWhitespace(scalar) == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
            #expect(SiteProgrammeReader.isTrimmed(scalar) == CharacterSet.whitespacesAndNewlines.contains(scalar), "U+\(String(value, radix: 16))")
        }
    }

    @Test("time patterns read padded, spaced and foreign-digit text as before", arguments: [
        ("yyyy-MM-dd HH:mm:ss", " 2026-10-24 06:05:00\n", 6 * 3_600 + 5 * 60),
        ("HH:mm", "6.05", 6 * 3_600 + 5 * 60),
        ("h:mm a", "6:05  PM", 18 * 3_600 + 5 * 60),
        ("HH:mm", "\u{A0}23:30\u{A0}", 23 * 3_600 + 30 * 60),
        ("HH:mm", "\u{200B}23:30\u{200B}", 23 * 3_600 + 30 * 60),
        ("dd/MM HH:mm", "24/10\u{2003}06:05", 6 * 3_600 + 5 * 60),
    ])
    func times(pattern: String, text: String, second: Int) throws {
        #expect(try SiteTimePattern(pattern).read(text)?.secondOfDay == second)
    }

    @Test("time patterns refuse what they refused", arguments: ["06:05\u{0663}", "\u{0660}6:05", "06-05", "6:05 xm"])
    func refused(text: String) throws {
        let pattern = try SiteTimePattern(text.hasSuffix("xm") ? "h:mm a" : "HH:mm")
        #expect(pattern.read(text) == nil, "\(text.debugDescription)")
    }
}
