/// Text from outside (a title, a channel name, an error message quoting a page) made safe to
/// print on a terminal: control characters are shown as escapes instead of obeyed (a title may
/// carry `ESC [2J`, which clears the screen), and a very long value is cut.
package enum TerminalText {
    /// Lines printed longer than this are cut, with a note of how much was left out.
    package static let maximumLength = 400

    package static func escaped(_ text: String, limit: Int = maximumLength) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                let rest = text.unicodeScalars.count - count
                return out + "… (\(rest) more character\(rest == 1 ? "" : "s"))"
            }
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0x00...0x1F, 0x7F...0x9F:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }
}
