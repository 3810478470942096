import Foundation

/// Matches a playlist's entries to the guide's channels: by `tvg-id` (a channel's id or one of
/// its aliases), else by `tvg-name`, else by the display name, names compared without case,
/// accents, punctuation, a country prefix (`ES: `, `ES | `) or quality suffixes (`HD`, `FHD`,
/// `UHD`, `4K`…), so `ES: La 1 HD` is `La 1` and the channel `La1.es`.
package struct PlaylistMatcher: Sendable {
    package struct Candidate: Sendable, Hashable {
        package var id: String
        package var names: [String]
        package var aliases: [String]
        package var logo: String?

        package init(id: String, names: [String], aliases: [String] = [], logo: String? = nil) {
            self.id = id
            self.names = names
            self.aliases = aliases
            self.logo = logo
        }
    }

    package enum Outcome: Sendable, Hashable {
        case matched(channel: String, by: PlaylistReport.Match.Key)
        /// Several channels go by the entry's name.
        case ambiguous([String])
        case unmatched
    }

    private let byID: [String: String]
    private let byFoldedID: [String: String]
    private let byName: [String: [String]]
    package let candidates: [String: Candidate]

    package init(candidates: [Candidate]) {
        var byID: [String: String] = [:]
        var byFoldedID: [String: String] = [:]
        var byName: [String: [String]] = [:]
        var all: [String: Candidate] = [:]
        for candidate in candidates where all[candidate.id] == nil {
            all[candidate.id] = candidate
            for id in [candidate.id] + candidate.aliases {
                if byID[id] == nil { byID[id] = candidate.id }
                let folded = id.lowercased()
                if byFoldedID[folded] == nil { byFoldedID[folded] = candidate.id }
            }
            let bareID = candidate.id.split(separator: ".").first.map(String.init) ?? candidate.id
            var keys: [String] = []
            for name in candidate.names + candidate.aliases + [candidate.id, bareID] {
                let key = Self.nameKey(name)
                if !key.isEmpty, !keys.contains(key) { keys.append(key) }
            }
            for key in keys { byName[key, default: []].append(candidate.id) }
        }
        self.byID = byID
        self.byFoldedID = byFoldedID
        self.byName = byName
        self.candidates = all
    }

    /// The guide's channels as candidates, with the further ids the channel list gives them.
    package init(channels: [Channel], aliases: [String: [String]] = [:]) {
        self.init(candidates: channels.map { channel in
            Candidate(id: channel.id, names: [channel.name] + (channel.otherNames ?? []).map(\.value),
                      aliases: aliases[channel.id] ?? [], logo: channel.logo)
        })
    }

    package func match(_ entry: Playlist.Entry) -> Outcome {
        if let tvgID = entry.tvgID, let id = byID[tvgID] ?? byFoldedID[tvgID.lowercased()] {
            return .matched(channel: id, by: .tvgID)
        }
        for (name, key) in [(entry.tvgName, PlaylistReport.Match.Key.tvgName), (entry.name, .name)] {
            guard let name else { continue }
            let ids = byName[Self.nameKey(name)] ?? []
            if ids.count == 1 { return .matched(channel: ids[0], by: key) }
            if ids.count > 1 { return .ambiguous(ids.sorted()) }
        }
        return .unmatched
    }

    /// Every entry matched: the report of a run.
    package func report(_ playlist: Playlist, source: String) -> PlaylistReport {
        var report = PlaylistReport(source: source, entries: playlist.entries.count)
        for entry in playlist.entries {
            switch match(entry) {
            case .matched(let channel, let key):
                report.matched.append(.init(entry: entry.label, channel: channel, by: key))
            case .ambiguous(let ids):
                report.ambiguous.append(.init(entry: entry.label, candidates: ids))
            case .unmatched:
                report.unmatched.append(.init(entry: entry.label, tvgID: entry.tvgID))
            }
        }
        return report
    }

    /// The playlist given back: each matched entry's `tvg-id` set to its channel, `tvg-logo`
    /// filled from the guide where the entry has none; unmatched entries as they were (an
    /// unknown `tvg-id` is kept: the player may find it in another guide). `keep` narrows to
    /// the entries of some channels (a line-up).
    package func annotated(_ playlist: Playlist, keep: Set<String>? = nil) -> Playlist {
        var result = Playlist(attributes: playlist.attributes, entries: [])
        for var entry in playlist.entries {
            let channel: String?
            if case .matched(let id, _) = match(entry) { channel = id } else { channel = nil }
            if let keep, !(channel.map(keep.contains) ?? false) { continue }
            if let channel {
                entry.set("tvg-id", channel)
                if entry.attribute("tvg-logo")?.isEmpty ?? true, let logo = candidates[channel]?.logo, !logo.isEmpty {
                    entry.set("tvg-logo", logo)
                }
            }
            result.entries.append(entry)
        }
        return result
    }

    /// Tokens that say how a stream is encoded, not which channel it is.
    private static let qualityTokens: Set<String> = ["hd", "fhd", "uhd", "sd", "4k", "8k", "hevc", "h264", "h265", "1080p", "1080i", "720p", "576p", "50fps"]

    /// `ES: La 1 HD` → `la1`: folded, a two- or three-letter country prefix and trailing quality
    /// tokens dropped, then only letters and digits.
    package static func nameKey(_ name: String) -> String {
        var text = Substring(name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil))
        text = text.drop { $0 == " " }
        if let separator = text.firstIndex(where: { $0 == ":" || $0 == "|" }) {
            let prefix = text[..<separator].trimmingCharacters(in: .whitespaces)
            if (2...3).contains(prefix.count), prefix.allSatisfy(\.isLetter) {
                text = text[text.index(after: separator)...]
            }
        }
        var tokens = text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        while tokens.count > 1, let last = tokens.last, qualityTokens.contains(last) {
            tokens.removeLast()
        }
        return tokens.joined()
    }
}

/// What the run made of the configured playlist: in the snapshot's report and the run summary.
package struct PlaylistReport: Codable, Sendable, Hashable {
    /// The playlist's path or URL.
    package var source: String
    package var entries: Int
    package var matched: [Match] = []
    package var ambiguous: [Ambiguity] = []
    package var unmatched: [Unmatched] = []
    /// Why the playlist could not be read this run; the channel list is then the last good one.
    package var error: String?

    package init(source: String, entries: Int) {
        self.source = source
        self.entries = entries
    }

    package struct Match: Codable, Sendable, Hashable {
        package enum Key: String, Codable, Sendable, Hashable {
            case tvgID = "tvg-id"
            case tvgName = "tvg-name"
            case name
        }

        /// The entry as the playlist names it.
        package var entry: String
        package var channel: String
        /// What matched it.
        package var by: Key

        package init(entry: String, channel: String, by: Key) {
            self.entry = entry
            self.channel = channel
            self.by = by
        }
    }

    package struct Ambiguity: Codable, Sendable, Hashable {
        package var entry: String
        package var candidates: [String]

        package init(entry: String, candidates: [String]) {
            self.entry = entry
            self.candidates = candidates
        }
    }

    package struct Unmatched: Codable, Sendable, Hashable {
        package var entry: String
        /// The entry's own `tvg-id`, which no channel of the guide has.
        package var tvgID: String?

        package init(entry: String, tvgID: String?) {
            self.entry = entry
            self.tvgID = tvgID
        }
    }

    /// The channels the playlist matched, each once, in playlist order.
    package var channelIDs: [String] {
        var seen = Set<String>()
        return matched.map(\.channel).filter { seen.insert($0).inserted }
    }
}
