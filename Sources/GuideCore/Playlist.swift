import Foundation

/// An M3U playlist as IPTV players write it (the "extended M3U" of Kodi's IPTV Simple, VLC,
/// Tvheadend): `#EXTM3U` with header attributes, then per stream an `#EXTINF:` line of
/// attributes (`tvg-id`, `tvg-name`, `tvg-logo`, `group-title`…) and a display name, any further
/// directives (`#EXTVLCOPT`, `#KODIPROP`, `#EXTGRP`), and the stream's URL.
///
/// Written by hand: no maintained Swift library reads extended M3U, and the format is a line
/// format with one quoting rule. Everything not understood is kept verbatim so that a playlist
/// given back (`/playlist.m3u`) differs only in the attributes tvguide fills.
package struct Playlist: Sendable, Hashable {
    /// `#EXTM3U`'s attributes in file order (`url-tvg`, `x-tvg-url`, `catchup`…).
    package var attributes: [Attribute]
    package var entries: [Entry]

    /// A playlist larger than this is refused: a channel list is kilobytes, and 32 MiB holds
    /// about 100,000 entries.
    package static let maximumBytes = 32 << 20

    package struct Attribute: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package struct Entry: Sendable, Hashable {
        /// `#EXTINF:`'s duration as written (`-1`, `0`); nil for a URL with no `#EXTINF`.
        package var duration: String?
        package var attributes: [Attribute]
        /// The display name after the comma.
        package var name: String
        /// Directives between `#EXTINF` and the URL, verbatim.
        package var directives: [String]
        /// The stream, untouched.
        package var url: String
        /// The 1-based line of `#EXTINF` (or of the URL), for messages.
        package var line: Int

        package init(duration: String? = "-1", attributes: [Attribute], name: String, directives: [String] = [], url: String, line: Int) {
            self.duration = duration
            self.attributes = attributes
            self.name = name
            self.directives = directives
            self.url = url
            self.line = line
        }

        package func attribute(_ name: String) -> String? {
            attributes.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// `tvg-id`, when present and not blank.
        package var tvgID: String? { attribute("tvg-id").flatMap(Self.nonBlank) }
        package var tvgName: String? { attribute("tvg-name").flatMap(Self.nonBlank) }

        /// How the entry reads in reports: its display name, else its `tvg-name`, else its URL.
        package var label: String {
            Self.nonBlank(name) ?? tvgName ?? url
        }

        /// Sets an attribute in place, or appends it.
        package mutating func set(_ name: String, _ value: String) {
            if let index = attributes.firstIndex(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
                attributes[index].value = value
            } else {
                attributes.append(Attribute(name, value))
            }
        }

        package mutating func remove(_ name: String) {
            attributes.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }

        private static func nonBlank(_ text: String) -> String? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    package init(attributes: [Attribute] = [], entries: [Entry]) {
        self.attributes = attributes
        self.entries = entries
    }
}

package enum PlaylistError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(bytes: Int)
    case notText
    case notM3U(firstLine: String)
    case brokenAttributes(line: Int, reason: String)
    case empty

    package var description: String {
        switch self {
        case .tooLarge(let bytes):
            "the playlist is \(bytes) bytes, more than the \(Playlist.maximumBytes >> 20) MiB a channel list may take"
        case .notText:
            "the playlist is not UTF-8 text"
        case .notM3U(let firstLine):
            "not an M3U playlist: it must start with #EXTM3U, its first line is \(Self.excerpt(firstLine))"
        case .brokenAttributes(let line, let reason):
            "line \(line): broken #EXTINF attributes: \(reason)"
        case .empty:
            "the playlist lists no stream"
        }
    }

    private static func excerpt(_ text: String) -> String {
        "\"" + TerminalText.escaped(text, limit: 60) + "\""
    }
}

extension Playlist {
    /// Reads an extended M3U playlist.
    package static func parse(_ data: Data) throws(PlaylistError) -> Playlist {
        guard data.count <= maximumBytes else { throw .tooLarge(bytes: data.count) }
        let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notText }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .enumerated().map { (number: $0.offset + 1, text: $0.element.trimmingCharacters(in: .whitespaces)) }
        lines.removeAll { $0.text.isEmpty }
        guard let header = lines.first, header.text.hasPrefix("#EXTM3U") else {
            throw .notM3U(firstLine: lines.first?.text ?? "")
        }
        var headerScanner = AttributeScanner(text: Substring(header.text.dropFirst("#EXTM3U".count)), line: header.number)
        let headerAttributes = try headerScanner.attributes()

        var entries: [Entry] = []
        var pending: (duration: String, attributes: [Attribute], name: String, line: Int)?
        var directives: [String] = []
        for line in lines.dropFirst() {
            if line.text.hasPrefix("#EXTINF:") {
                pending = try Self.extinf(Substring(line.text.dropFirst("#EXTINF:".count)), line: line.number)
                directives = []
            } else if line.text.hasPrefix("#") {
                directives.append(line.text)
            } else if let info = pending {
                entries.append(Entry(duration: info.duration, attributes: info.attributes, name: info.name, directives: directives,
                                     url: line.text, line: info.line))
                pending = nil
                directives = []
            } else {
                entries.append(Entry(duration: nil, attributes: [], name: "", directives: directives, url: line.text, line: line.number))
                directives = []
            }
        }
        guard !entries.isEmpty else { throw .empty }
        return Playlist(attributes: headerAttributes, entries: entries)
    }

    /// `-1 tvg-id="La1.es" tvg-name="La 1",La 1 HD`: the duration, the attributes, and after the
    /// first comma outside quotes the display name.
    private static func extinf(_ text: Substring, line: Int) throws(PlaylistError) -> (duration: String, attributes: [Attribute], name: String, line: Int) {
        let durationEnd = text.firstIndex { $0 == " " || $0 == "\t" || $0 == "," } ?? text.endIndex
        let duration = String(text[..<durationEnd])
        guard Double(duration) != nil else {
            throw .brokenAttributes(line: line, reason: "#EXTINF: starts with a duration in seconds (-1 for a live stream), not \(quoted(duration))")
        }
        var scanner = AttributeScanner(text: text[durationEnd...], line: line)
        let attributes = try scanner.attributes(stoppingAtComma: true)
        return (duration, attributes, scanner.rest.trimmingCharacters(in: .whitespaces), line)
    }

    /// The playlist as M3U text: what `parse` read, with the values as they are now.
    package func rendered() -> Data {
        var text = "#EXTM3U" + Self.render(attributes) + "\n"
        for entry in entries {
            if let duration = entry.duration {
                text += "#EXTINF:" + duration + Self.render(entry.attributes) + "," + Self.oneLine(entry.name) + "\n"
            }
            for directive in entry.directives { text += directive + "\n" }
            text += entry.url + "\n"
        }
        return Data(text.utf8)
    }

    private static func render(_ attributes: [Attribute]) -> String {
        attributes.map { " \($0.name)=\"\(oneLine($0.value).replacingOccurrences(of: "\"", with: "'"))\"" }.joined()
    }

    /// M3U has no escapes: a line break in a value would start a new line of the playlist.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

/// `name="value" name=value …`: attribute names are letters, digits, `-`, `_`, `.` and `:`.
private struct AttributeScanner {
    var text: Substring
    let line: Int

    var rest: Substring { text }

    init(text: Substring, line: Int) {
        self.text = text
        self.line = line
    }

    mutating func attributes(stoppingAtComma: Bool = false) throws(PlaylistError) -> [Playlist.Attribute] {
        var attributes: [Playlist.Attribute] = []
        while true {
            text = text.drop { $0 == " " || $0 == "\t" }
            guard let first = text.first else {
                if stoppingAtComma { throw .brokenAttributes(line: line, reason: "no comma before the display name") }
                return attributes
            }
            if first == "," && stoppingAtComma {
                text = text.dropFirst()
                return attributes
            }
            let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." || $0 == ":" }
            guard !name.isEmpty else {
                throw .brokenAttributes(line: line, reason: "expected an attribute name (tvg-id=\"…\"), found \(quoted(String(text.prefix(20))))")
            }
            text = text[name.endIndex...]
            guard text.first == "=" else {
                throw .brokenAttributes(line: line, reason: "attribute \(quoted(String(name))) has no =\"value\"")
            }
            text = text.dropFirst()
            let value: Substring
            if text.first == "\"" {
                text = text.dropFirst()
                guard let close = text.firstIndex(of: "\"") else {
                    throw .brokenAttributes(line: line, reason: "the value of \(quoted(String(name))) has no closing quote")
                }
                value = text[..<close]
                text = text[text.index(after: close)...]
            } else {
                value = text.prefix { $0 != " " && $0 != "\t" && !($0 == "," && stoppingAtComma) }
                text = text[value.endIndex...]
            }
            attributes.append(Playlist.Attribute(String(name), String(value)))
        }
    }
}

private func quoted(_ text: String) -> String {
    "\"" + text + "\""
}
