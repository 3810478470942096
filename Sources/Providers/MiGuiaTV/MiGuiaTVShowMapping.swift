import Foundation
import GuideCore

/// Turns the API's `Show` into a `Programme`.
struct MiGuiaTVShowMapping: Sendable {
    /// The key of MiGuiaTV's own ids in `providerIDs`.
    static let system = "miguiatv"
    /// The API's genres (`subtype`) are Spanish whatever the channel's language.
    static let categoryLanguage = "es"

    let source: String

    func programme(_ show: Show, channel: String) -> Programme {
        var programme = Programme(
            channel: channel,
            start: Date(timeIntervalSince1970: TimeInterval(show.inittime)),
            stop: show.endtime.map { Date(timeIntervalSince1970: TimeInterval($0)) },
            title: show.title,
            source: source
        )
        let kind = Self.kind(type: show.type, subtype: show.subtype)
        programme.kind = kind
        programme.synopsis = show.text
        if let subtitle = show.subtitle {
            if let numbered = EpisodeSubtitle(subtitle) {
                programme.episode = numbered.episode
                programme.subtitle = numbered.title
            } else {
                programme.subtitle = subtitle
            }
        }
        if let subtype = show.subtype {
            programme.categories = [LocalizedText(subtype, lang: Self.categoryLanguage)]
        }
        if let rate = show.rate {
            programme.starRatings = [Rating(system: "MiGuiaTV", value: "\(Self.format(rate))/10")]
        }
        if let backdrop = show.backdrop {
            programme.images = [ImageRef(url: backdrop, kind: "backdrop")]
        }
        if let showID = show.showID {
            var ids = [Self.system: showID]
            // The API's film ids are TMDB ids (SEEDS §1); other kinds use MiGuiaTV's own numbering.
            if kind == .movie { ids["tmdb"] = showID }
            programme.providerIDs = ids
        }
        return programme
    }

    /// `type` decides the kind; for the catch-all `programme`, the genre narrows it to news,
    /// sports or kids. A type the API did not document is `.other`.
    static func kind(type: String?, subtype: String?) -> ProgrammeKind? {
        guard let type else { return nil }
        switch type.lowercased() {
        case "movie": return .movie
        case "series": return .series
        case "documentary": return .documentary
        case "programme", "program":
            guard let subtype else { return .programme }
            return genreKinds[fold(subtype)] ?? .programme
        default: return .other
        }
    }

    private static let genreKinds: [String: ProgrammeKind] = [
        "noticias": .news, "informativo": .news, "informativos": .news, "informacion": .news,
        "deportes": .sports, "deporte": .sports,
        "infantil": .kids, "infantiles": .kids,
    ]

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }

    /// `7`, `7.5`; a whole number too large for an Int (`1e300`) as `String(Double)` writes it.
    private static func format(_ rate: Double) -> String {
        rate == rate.rounded() && abs(rate) < 1e15 ? String(Int(rate)) : String(rate)
    }
}

/// A sub-title that starts with episode numbering, as the API writes it for series:
/// `T3 E12 · Title`, `T3E12`, `Temporada 3, Episodio 12: Title`, `Capítulo 452`, `Capítol 1650`.
/// The numbering is kept as `onscreen`; what follows it is the episode's own title.
/// Scanned by hand: with `Regex`, matching sub-titles was most of the time of a week's decoding.
struct EpisodeSubtitle {
    let episode: Episode
    let title: String?

    // Longest first, so that `Temporada` is not read as `T` followed by letters.
    private static let seasonWords = ["temporada", "temp.", "temp", "t"]
    private static let episodeWords = ["episodio", "episodi", "capítulo", "capitulo", "capítol", "capitol", "cap.", "ep.", "cap", "ep", "e"]
    /// Without a season, a bare `E` or `Ep` is too likely to be a word.
    private static let standaloneEpisodeWords = ["episodio", "episodi", "capítulo", "capitulo", "capítol", "capitol", "cap.", "ep."]
    private static let separators = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "·•-–—:.,|"))

    init?(_ subtitle: String) {
        let text = Array(subtitle)
        var cursor = Cursor(text: text)
        let season = Self.season(&cursor)
        if season == nil { cursor.position = 0 }
        guard cursor.consume(anyOf: season == nil ? Self.standaloneEpisodeWords : Self.episodeWords) else { return nil }
        cursor.skipSpaces()
        guard let number = cursor.number(maxDigits: 5) else { return nil }
        // A number glued to more letters ("T3 E12b") is a word, not numbering.
        if cursor.position < text.count, text[cursor.position].isLetter || text[cursor.position].isNumber { return nil }

        episode = Episode(season: season, number: number, onscreen: String(text[..<cursor.position]))
        let remainder = String(text[cursor.position...]).trimmingCharacters(in: Self.separators)
        title = remainder.isEmpty ? nil : remainder
    }

    /// `T3`, `Temporada 3` and the separator before the episode part.
    private static func season(_ cursor: inout Cursor) -> Int? {
        guard cursor.consume(anyOf: seasonWords) else { return nil }
        cursor.skipSpaces()
        guard let season = cursor.number(maxDigits: 3) else { return nil }
        cursor.skipSpaces()
        cursor.skip(oneOf: ",.·-")
        cursor.skipSpaces()
        return season
    }

    private struct Cursor {
        let text: [Character]
        var position = 0

        mutating func skipSpaces() {
            while position < text.count, text[position].isWhitespace { position += 1 }
        }

        mutating func skip(oneOf characters: String) {
            if position < text.count, characters.contains(text[position]) { position += 1 }
        }

        /// Consumes the first of `words` (lower-case) that the text continues with, ignoring case.
        mutating func consume(anyOf words: [String]) -> Bool {
            for word in words where position + word.count <= text.count {
                var index = position
                var matches = true
                for expected in word {
                    if text[index].lowercased() != String(expected) {
                        matches = false
                        break
                    }
                    index += 1
                }
                if matches {
                    position = index
                    return true
                }
            }
            return false
        }

        mutating func number(maxDigits: Int) -> Int? {
            var value = 0
            var digits = 0
            while position < text.count, digits < maxDigits, text[position].isASCII, let digit = text[position].wholeNumberValue {
                value = value * 10 + digit
                digits += 1
                position += 1
            }
            return digits > 0 ? value : nil
        }
    }
}
