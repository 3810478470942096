import Foundation

// Placeholder written by the lead until the genre helper's version lands; same API.
package struct CanonicalGenre: Sendable, Decodable { package let id: String; package let en: String; package let es: String; package let aliases: [String] }
package enum GenreVocabulary {
    package static let genres: [CanonicalGenre] = (try? JSONDecoder().decode([CanonicalGenre].self, from: Data(PackageResources.genres_json))) ?? []
    package static func canonicalIDs(of original: String) -> [String] {
        let folded = SearchText.fold(original)
        return genres.filter { $0.aliases.contains(folded) }.map(\.id)
    }
    package static func isKindWord(_ original: String) -> Bool { false }
    package static func names(_ originals: [String], language: String) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for original in originals {
            let ids = canonicalIDs(of: original)
            if ids.isEmpty { if seen.insert(SearchText.fold(original)).inserted { result.append(original) } }
            for id in ids where seen.insert(id).inserted { result.append(name(ofID: id, language: language) ?? id) }
        }
        return result
    }
    package static func name(ofID id: String, language: String) -> String? {
        genres.first { $0.id == id }.map { language == "es" ? $0.es : $0.en }
    }
    package static func ids(_ originals: [String]) -> [String] {
        var seen = Set<String>()
        return originals.flatMap(canonicalIDs).filter { seen.insert($0).inserted }
    }
}
