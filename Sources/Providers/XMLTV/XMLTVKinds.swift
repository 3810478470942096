import Foundation
import GuideCore

/// XMLTV has no programme type, only free-text categories. The first category found in this table
/// gives the kind; a programme with none of them is a `programme`. Keys are lower-case without
/// accents, in the languages of the line-up: English, Spanish, Catalan and Basque.
///
/// | kind | categories |
/// |---|---|
/// | movie | film, films, movie, movies, tv movie, cine, cinema, pelicula, peliculas, pel·licula, pel·licules, filma |
/// | series | series, serie, sitcom, telenovela, serial, telesaila |
/// | news | news, noticias, informativo, informativos, noticies, informatiu, albisteak |
/// | sports | sports, sport, deportes, deporte, esports, kirolak |
/// | kids | kids, children, childrens, infantil, infantiles, haurrentzat |
/// | documentary | documentary, documentaries, documental, documentales, dokumentala |
package enum XMLTVKinds {
    static let table: [String: ProgrammeKind] = {
        let groups: [(ProgrammeKind, [String])] = [
            (.movie, ["film", "films", "movie", "movies", "tv movie", "cine", "cinema", "pelicula", "peliculas",
                      "pel·licula", "pel·licules", "filma"]),
            (.series, ["series", "serie", "sitcom", "telenovela", "serial", "telesaila"]),
            (.news, ["news", "noticias", "informativo", "informativos", "noticies", "informatiu", "albisteak"]),
            (.sports, ["sports", "sport", "deportes", "deporte", "esports", "kirolak"]),
            (.kids, ["kids", "children", "childrens", "infantil", "infantiles", "haurrentzat"]),
            (.documentary, ["documentary", "documentaries", "documental", "documentales", "dokumentala"]),
        ]
        var table: [String: ProgrammeKind] = [:]
        for (kind, names) in groups {
            for name in names { table[name] = kind }
        }
        return table
    }()

    /// The kind one category names, if it names one.
    package static func kind(ofCategory category: String) -> ProgrammeKind? {
        table[fold(category)]
    }

    /// The kind of a programme with these categories: the first that names one, else `programme`.
    package static func kind(of categories: [LocalizedText]?) -> ProgrammeKind {
        for category in categories ?? [] {
            if let kind = kind(ofCategory: category.value) { return kind }
        }
        return .programme
    }

    /// The category an export adds so that a kind no category names survives a round trip.
    static func category(for kind: ProgrammeKind) -> LocalizedText? {
        switch kind {
        case .movie: LocalizedText("movie", lang: "en")
        case .series: LocalizedText("series", lang: "en")
        case .news: LocalizedText("news", lang: "en")
        case .sports: LocalizedText("sports", lang: "en")
        case .kids: LocalizedText("kids", lang: "en")
        case .documentary: LocalizedText("documentary", lang: "en")
        case .programme, .other: nil
        }
    }

    /// `kind(of:)` remembering each category it has folded: a guide repeats a few dozen
    /// categories tens of thousands of times, and folding is the slow part.
    struct Memo {
        private var kinds: [String: ProgrammeKind?] = [:]

        mutating func kind(of categories: [LocalizedText]?) -> ProgrammeKind {
            for category in categories ?? [] {
                let kind: ProgrammeKind?
                if let known = kinds[category.value] {
                    kind = known
                } else {
                    kind = XMLTVKinds.kind(ofCategory: category.value)
                    kinds[category.value] = kind
                }
                if let kind { return kind }
            }
            return .programme
        }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .replacingOccurrences(of: "'", with: "")
            .replacingOccurrences(of: "’", with: "")
            .trimmingCharacters(in: .whitespaces)
    }
}
