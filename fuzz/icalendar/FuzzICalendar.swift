import Foundation
import FuzzSupport
@testable import GuideServer

/// `ICalendar.render` (the server's hand-written RFC 5545 writer) with arbitrary texts: the input
/// is cut into the calendar name, an event's UID, summary, location, description and categories
/// (`FuzzParts`). The output must be valid UTF-8, CRLF-terminated lines of at most 75 octets,
/// continuation lines starting with a space, no other control characters but tab, and every TEXT
/// value must unescape (RFC 5545 §3.3.11) to the input text with line breaks as `\n` and the
/// control characters dropped. Seeds: titles and synopses from the golden snapshot.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICalendar(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let texts = FuzzParts.split(fuzzData(bytes, count), maximum: 6).map { String(decoding: $0, as: UTF8.self) }
    func text(_ index: Int) -> String { index < texts.count ? texts[index] : "" }
    let categories = text(5).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    let stamp = Date(timeIntervalSince1970: 1_792_792_800)
    let event = ICalendar.Event(
        uid: text(1), stamp: stamp, start: stamp, end: stamp.addingTimeInterval(3_600), summary: text(2),
        location: text(3), description: text(4), categories: categories, alarmLead: .seconds(300), alarmDescription: text(2))
    let calendar = ICalendar(name: text(0), refreshInterval: .seconds(3_600), events: [event])
    let output = calendar.render()

    // Bytes, not Strings: a continuation's leading space and a combining mark after it are one
    // Character, so String's prefix and split would misread a valid fold.
    guard String(validating: output, as: UTF8.self) != nil else { fatalError("the calendar is not valid UTF-8") }
    guard output.suffix(2).elementsEqual([0x0D, 0x0A]) else { fatalError("the calendar does not end with CRLF") }
    var unfolded: [[UInt8]] = []
    for line in output.dropLast(2).split(separator: [0x0D, 0x0A], omittingEmptySubsequences: false) {
        guard line.count <= 75 else { fatalError("a line of \(line.count) octets: \(String(decoding: line, as: UTF8.self))") }
        guard String(validating: line, as: UTF8.self) != nil else { fatalError("a fold splits a UTF-8 sequence: \(Array(line))") }
        guard !line.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
            fatalError("a control character inside a line: \(String(decoding: line, as: UTF8.self).debugDescription)")
        }
        if line.first == 0x20 {
            guard !unfolded.isEmpty else { fatalError("the calendar starts with a continuation line") }
            unfolded[unfolded.count - 1] += line.dropFirst()
        } else {
            unfolded.append(Array(line))
        }
    }
    func value(of property: String) -> String? {
        let name = Array(property.utf8)
        return unfolded.first { $0.starts(with: name) }.map { String(decoding: $0.dropFirst(name.count), as: UTF8.self) }
    }

    let expected = [("X-WR-CALNAME:", text(0)), ("UID:", text(1)), ("SUMMARY:", text(2)), ("LOCATION:", text(3)), ("DESCRIPTION:", text(4))]
    for (property, text) in expected {
        guard let escaped = value(of: property) else { fatalError("no \(property) line") }
        let values = TextValue.unescape(escaped, list: false)
        guard values.map({ $0.map(TextValue.scalars) }) == [TextValue.scalars(TextValue.written(text))] else {
            fatalError("\(property) reads back as \(String(describing: values)), not \(TextValue.written(text).debugDescription)")
        }
    }
    guard let escapedCategories = value(of: "CATEGORIES:") else { fatalError("no CATEGORIES line") }
    let values = TextValue.unescape(escapedCategories, list: true)
    guard values.map({ $0.map(TextValue.scalars) }) == categories.map({ TextValue.scalars(TextValue.written($0)) }) else {
        fatalError("CATEGORIES reads back as \(String(describing: values))")
    }
    return 0
}

/// RFC 5545 §3.3.11 TEXT, read back.
private enum TextValue {
    /// Compared scalar by scalar: String's == treats canonically equivalent texts as equal.
    static func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    /// What a TEXT value can carry of `text`: any line break (CRLF, CR, LF) as one LF, other
    /// control characters but tab left out.
    static func written(_ text: String) -> String {
        var out = ""
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            if scalar == "\n" && previousWasCR { continue }
            if scalar == "\r" || scalar == "\n" { out += "\n"; continue }
            if (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F { continue }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// The values of an escaped TEXT (a comma-separated list when `list`); nil when a backslash
    /// escapes anything but `\ ; , n N`, or a `;` (or a `,` outside a list) stands unescaped.
    static func unescape(_ escaped: String, list: Bool) -> [String]? {
        var values = [""]
        var scalars = escaped.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\\":
                switch scalars.next() {
                case "\\": values[values.count - 1] += "\\"
                case ";": values[values.count - 1] += ";"
                case ",": values[values.count - 1] += ","
                case "n", "N": values[values.count - 1] += "\n"
                default: return nil
                }
            case ",":
                guard list else { return nil }
                values.append("")
            case ";":
                return nil
            default:
                values[values.count - 1].unicodeScalars.append(scalar)
            }
        }
        return values
    }
}

@_cdecl("fuzz_icalendar_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzICalendar)
}
