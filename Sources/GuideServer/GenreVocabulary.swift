import Foundation

/// One genre of the guide's own list, `Resources/genres.json`: a stable id (`comedy`), its names
/// in English and Spanish, and the other words that mean it in the vocabularies the guide meets
/// (TMDB in es-ES and en-US, TheTVDB, XMLTV categories, MiGuiaTV's subtypes, the site recipes),
/// written folded: lower case, without accents.
package struct CanonicalGenre: Sendable, Decodable, Hashable {
    package let id: String
    package let en: String
    package let es: String
    package let aliases: [String]
}

/// Genres as pages and calendar feeds show them. The snapshot keeps each source's words
/// (`Comedy` from TheTVDB, `Comedia` from TMDB, `Serie` from an XMLTV feed); shown side by side
/// they mix languages and repeat themselves, so they are shown through one list of genres, in the
/// reader's language.
///
/// Words are compared folded (`SearchText.fold`, runs of spaces made one). A word that names no
/// genre as a whole may be a compound (`Action & Adventure`, `Acción y aventura`,
/// `Ocio-Cultura/Cocina`): split at `&`, `/`, `,`, ` y `, ` and `, … and then at hyphens, it
/// stands for its parts' genres, provided every part is a genre or a kind word; otherwise it is
/// unknown as a whole and shown as written. A few single words name two genres on purpose
/// (`dramedia`, `docureality`): such an alias is listed under both.
package enum GenreVocabulary {
    /// Sorted by id. The file is a constant of the build: one that does not decode is a defect.
    package static let genres: [CanonicalGenre] = {
        guard let genres = try? JSONDecoder().decode([CanonicalGenre].self, from: Data(PackageResources.genres_json)) else {
            preconditionFailure("Resources/genres.json does not decode as a list of genres")
        }
        return genres
    }()

    /// Words that say what a programme is, not what it is about: its kind, which pages show on
    /// their own. Never shown as genres. Folded, as they are compared.
    package static let kindWords: [String] = [
        // Series.
        "serie", "series", "serial", "seriales", "serien", "teleserie", "teleseries", "telesaila", "sarja", "sarjat",
        "sarjad", "tv-serijali", "serie de tv", "series de tv", "serie de television", "series de television",
        "serie tv", "tv series", "miniserie", "miniseries", "mini-serie", "mini-series", "fiction", "сериал", "مسلسل",
        // Films.
        "pelicula", "peliculas", "pel·licula", "pel·licules", "pelicula de tv", "peliculas de tv",
        "pelicula de television", "pelicula para television", "telefilm", "telefilme", "telefilms", "telefilmes",
        "movie", "movies", "tv movie", "tv movies", "film", "films", "filme", "filmes", "filma", "filmak", "tv film",
        "tv-film", "feature film", "feature films", "short film", "short films", "court metrage", "cine", "cinema",
        "sinema", "spielfilm", "largometraje", "largometrajes", "cortometraje", "cortometrajes", "фильм", "फ़िल्म",
        "चित्रपट", "సినిమా",
        // Programmes.
        "programa", "programas", "programme", "programmes", "program", "programs", "programa de tv",
        "programa de television", "tv show", "tv shows", "tv programme",
    ]

    /// The genre ids of `original`: one for a plain genre, several for a compound, none for a
    /// kind word or a word no vocabulary knows.
    package static func canonicalIDs(of original: String) -> [String] {
        if case .genres(let ids) = resolve(folded(original)) { return ids }
        return []
    }

    /// Whether `original` only says the programme's kind (`Serie`, `Película`, `Movie`,
    /// `Filmes e séries`).
    package static func isKindWord(_ original: String) -> Bool {
        if case .kind = resolve(folded(original)) { return true }
        return false
    }

    /// Shown names in `language` ("es" or "en"): canonical ones translated, unknown originals kept as they are,
    /// kind words dropped, duplicates (after folding / same canonical id) dropped, first-seen order kept.
    package static func names(_ originals: [String], language: String) -> [String] {
        let spanish = isSpanish(language)
        var names: [String] = []
        var shownIDs: Set<String> = []
        var shownKeys: Set<String> = []
        for original in originals {
            let key = folded(original)
            if key.isEmpty { continue }
            switch resolve(key) {
            case .kind:
                continue
            case .genres(let ids):
                for id in ids {
                    guard shownIDs.insert(id).inserted, let genre = byID[id] else { continue }
                    let name = spanish ? genre.es : genre.en
                    if shownKeys.insert(folded(name)).inserted { names.append(name) }
                }
            case .unknown:
                if shownKeys.insert(key).inserted { names.append(original.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
        }
        return names
    }

    /// The genre's name in `language` ("es", else English); nil for an id not in the list.
    package static func name(ofID id: String, language: String) -> String? {
        guard let genre = byID[id] else { return nil }
        return isSpanish(language) ? genre.es : genre.en
    }

    /// The canonical ids of the originals (for filtering by genre), deduplicated, first-seen order.
    package static func ids(_ originals: [String]) -> [String] {
        var ids: [String] = []
        var seen: Set<String> = []
        for original in originals {
            for id in canonicalIDs(of: original) where !seen.contains(id) {
                seen.insert(id)
                ids.append(id)
            }
        }
        return ids
    }

    // MARK: - Lookup

    private static let byID: [String: CanonicalGenre] =
        Dictionary(genres.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    /// Every genre's names and aliases, folded, with the ids they stand for (two or more only
    /// for an alias listed under several genres on purpose).
    private static let lookup: [String: [String]] = {
        var table: [String: [String]] = [:]
        for genre in genres {
            for word in [genre.en, genre.es] + genre.aliases {
                let key = folded(word)
                if !table[key, default: []].contains(genre.id) { table[key, default: []].append(genre.id) }
            }
        }
        return table
    }()

    private static let kindKeys: Set<String> = Set(kindWords.map { folded($0) })

    /// Where a word that is not known whole is cut: first between words and at punctuation that
    /// joins genres (`&`, `/`, ` y `, ` and `, ` e `, ` i `, ` et `, ` und `, ` og `, ` och `…),
    /// then, in each part still unknown, at hyphens (`ocio-cultura`), after `sci-fi`,
    /// `ciencia-ficción` and `talk-show` had their chance as whole words.
    private static let separators: [[String]] = [
        ["&", "/", ",", ";", "|", "+", " y ", " and ", " e ", " i ", " et ", " und ", " og ", " och ", " - ", " – "],
        ["-"],
    ]

    private enum Resolution {
        case genres([String])
        case kind
        case unknown
    }

    private static func resolve(_ key: String, level: Int = 0) -> Resolution {
        if let ids = lookup[key] { return .genres(ids) }
        if kindKeys.contains(key) { return .kind }
        guard level < separators.count else { return .unknown }
        for index in level..<separators.count {
            let parts = split(key, at: separators[index])
            if parts.count < 2 { continue }
            var ids: [String] = []
            for part in parts {
                switch resolve(part, level: index + 1) {
                case .genres(let found):
                    for id in found where !ids.contains(id) { ids.append(id) }
                case .kind:
                    continue
                case .unknown:
                    return .unknown
                }
            }
            return ids.isEmpty ? .kind : .genres(ids)
        }
        return .unknown
    }

    private static func split(_ key: String, at separators: [String]) -> [String] {
        var text = key
        for separator in separators where text.contains(separator) {
            text = text.replacingOccurrences(of: separator, with: "\u{1F}")
        }
        return text.split(separator: "\u{1F}")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// Folded as the guide's search folds (case, accents, width), surrounding space trimmed and
    /// runs of spaces and line breaks made one space, as XMLTV's indented text has them.
    private static func folded(_ text: String) -> String {
        SearchText.fold(text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
    }

    private static func isSpanish(_ language: String) -> Bool {
        language.lowercased().hasPrefix("es")
    }
}
