import Foundation
import GuideCore
import GuideServer
import TestSupport
import Testing

/// The guide's one list of genres (`Resources/genres.json`) and the words each vocabulary the guide
/// meets uses for them: TMDB's and TheTVDB's genres, XMLTV categories, MiGuiaTV's subtypes.
@Suite struct GenreVocabularyTests {
    /// Aliases that name two genres at once on purpose: one word or phrase for a mix. Any other
    /// alias listed under two genres is a slip.
    static let compounds: Set<String> = [
        "comedia dramatica", "comedia romantica", "comedie dramatique", "comedie romantique", "commedia romantica",
        "docu-reality", "docudrama", "docureality", "dramedia", "dramedy", "kriminaldrama", "magazine actualite",
        "romantic comedy", "romcom", "true crime",
    ]

    /// Words of the recorded data deliberately left as they are: no genre says what they say.
    /// "Servicio público" labels what a channel airs as a public service (job offers, notices):
    /// a purpose, not a subject. A word the fixtures bring that is neither mapped, nor a kind,
    /// nor listed here fails the tests below, so a new vocabulary is decided on, not shown raw.
    static let deliberatelyUnmapped: Set<String> = ["Servicio público"]

    @Test func oneGenreInTwoLanguagesIsShownOnceInTheReadersLanguage() {
        let originals = ["Comedy", "Comedia", "Serie"]
        #expect(GenreVocabulary.names(originals, language: "es") == ["Comedia"])
        #expect(GenreVocabulary.names(originals, language: "en") == ["Comedy"])
        #expect(GenreVocabulary.ids(originals) == ["comedy"])
        #expect(GenreVocabulary.names(["Infantil", "Animación"], language: "en") == ["Kids", "Animation"])
        #expect(GenreVocabulary.names(["Aventura", "Comedy", "Ciencia ficción"], language: "es") == ["Aventura", "Comedia", "Ciencia ficción"])
        #expect(GenreVocabulary.names([" Drama ", "drama", "DRAMA"], language: "en") == ["Drama"])
        #expect(GenreVocabulary.names([], language: "es") == [])
    }

    @Test func compoundGenresStandForEachOfTheirGenres() {
        #expect(GenreVocabulary.canonicalIDs(of: "Action & Adventure") == ["action", "adventure"])
        #expect(GenreVocabulary.names(["Action & Adventure"], language: "es") == ["Acción", "Aventura"])
        #expect(GenreVocabulary.names(["Action & Adventure"], language: "en") == ["Action", "Adventure"])
        #expect(GenreVocabulary.names(["Acción", "Action & Adventure", "Aventura"], language: "es") == ["Acción", "Aventura"])
        #expect(GenreVocabulary.names(["Sci-Fi & Fantasy"], language: "en") == ["Science Fiction", "Fantasy"])
        #expect(GenreVocabulary.canonicalIDs(of: "War & Politics") == ["war", "politics"])
        #expect(GenreVocabulary.canonicalIDs(of: "Acción y aventura") == ["action", "adventure"])
        #expect(GenreVocabulary.canonicalIDs(of: "Comedia romántica") == ["comedy", "romance"])
        #expect(GenreVocabulary.canonicalIDs(of: "Ocio-Cultura/Cocina") == ["lifestyle", "culture", "cooking"])
        // A kind inside a compound is left out; a compound of kinds is a kind.
        #expect(GenreVocabulary.canonicalIDs(of: "Movie / Drama") == ["drama"])
        #expect(GenreVocabulary.isKindWord("Filmes e séries"))
        // Every part must be known: half a compound is not shown as its known half.
        #expect(GenreVocabulary.canonicalIDs(of: "Drama y toros") == [])
        #expect(GenreVocabulary.names(["Drama y toros"], language: "en") == ["Drama y toros"])
        // A genre whose own name is a compound is that one genre.
        #expect(GenreVocabulary.canonicalIDs(of: "Home & Garden") == ["home"])
    }

    @Test func unknownGenresAreKeptAsWritten() {
        #expect(GenreVocabulary.canonicalIDs(of: "Toros") == [])
        #expect(!GenreVocabulary.isKindWord("Toros"))
        #expect(GenreVocabulary.names(["Toros", "toros", "Deportes"], language: "en") == ["Toros", "Sport"])
        #expect(GenreVocabulary.names(["Toros"], language: "es") == ["Toros"])
        #expect(GenreVocabulary.ids(["Toros", "Deportes", "Tenis"]) == ["sport"])
        #expect(GenreVocabulary.canonicalIDs(of: "") == [])
    }

    @Test func kindWordsAreNeverGenres() {
        for word in ["Serie", "Series", "Película", "Movie", "Film", "Cine", "Sèrie", "Pel·lícula", "Filma", "Telesaila",
                     "TV Movie", "Película de TV", "Mini-Series"] {
            #expect(GenreVocabulary.isKindWord(word), "\(word)")
            #expect(GenreVocabulary.canonicalIDs(of: word) == [], "\(word)")
        }
        #expect(GenreVocabulary.names(["Cine", "Película", "Drama"], language: "es") == ["Drama"])
        #expect(GenreVocabulary.names(["Serie"], language: "en") == [])
        for word in GenreVocabulary.kindWords {
            #expect(GenreVocabulary.isKindWord(word), "\(word)")
        }
    }

    @Test func wordsAreComparedFolded() {
        #expect(GenreVocabulary.canonicalIDs(of: "  CIENCIA   FICCION\n") == ["science-fiction"])
        #expect(GenreVocabulary.canonicalIDs(of: "Ciència-ficció") == ["science-fiction"])
        #expect(GenreVocabulary.canonicalIDs(of: "Policíaco") == ["crime"])
        #expect(GenreVocabulary.canonicalIDs(of: "\n      Drama\n    ") == ["drama"])
    }

    @Test func namesByID() {
        #expect(GenreVocabulary.name(ofID: "comedy", language: "es") == "Comedia")
        #expect(GenreVocabulary.name(ofID: "comedy", language: "en") == "Comedy")
        #expect(GenreVocabulary.name(ofID: "science-fiction", language: "es") == "Ciencia ficción")
        #expect(GenreVocabulary.name(ofID: "Comedia", language: "es") == nil)
    }

    /// The file stays sorted and diffable: ids unique and sorted, aliases sorted without repeats.
    @Test func theListIsSortedAndComplete() {
        let ids = GenreVocabulary.genres.map(\.id)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        #expect((30...45).contains(ids.count))
        for genre in GenreVocabulary.genres {
            #expect(!genre.en.isEmpty && !genre.es.isEmpty, "\(genre.id)")
            #expect(genre.aliases == genre.aliases.sorted(), "\(genre.id)")
            #expect(Set(genre.aliases).count == genre.aliases.count, "\(genre.id)")
        }
        for id in ["sport", "news", "kids", "animation", "documentary", "music", "talk", "reality", "game-show",
                   "cooking", "travel", "nature", "history", "science", "soap", "magazine", "current-affairs", "entertainment"] {
            #expect(ids.contains(id), "\(id)")
        }
    }

    /// Each name and alias leads to its genre, and to that genre alone unless it is a compound on purpose.
    @Test func everyNameAndAliasLeadsToItsGenre() {
        let ids = Set(GenreVocabulary.genres.map(\.id))
        for genre in GenreVocabulary.genres {
            #expect(GenreVocabulary.canonicalIDs(of: genre.en) == [genre.id], "\(genre.en)")
            #expect(GenreVocabulary.canonicalIDs(of: genre.es) == [genre.id], "\(genre.es)")
            #expect(GenreVocabulary.names([genre.en], language: "es") == [genre.es], "\(genre.en)")
            #expect(GenreVocabulary.names([genre.es], language: "en") == [genre.en], "\(genre.es)")
            for alias in genre.aliases {
                let found = GenreVocabulary.canonicalIDs(of: alias)
                #expect(found.allSatisfy { ids.contains($0) }, "\(alias)")
                if Self.compounds.contains(alias) {
                    #expect(found.count >= 2 && found.contains(genre.id), "\(alias) → \(found)")
                } else {
                    #expect(found == [genre.id], "\(alias) → \(found)")
                }
            }
        }
        #expect(Self.compounds.isSubset(of: Set(GenreVocabulary.genres.flatMap(\.aliases))))
    }

    /// The golden snapshot's genres (works') and categories (programmes'): each maps, is a kind,
    /// or is deliberately left as written.
    @Test func everyGenreOfTheGoldenSnapshotIsDecided() {
        let golden = ServerHarness.golden
        var values: Set<String> = []
        for work in golden.works.values { values.formUnion(work.metadata.genres ?? []) }
        for programme in golden.programmes { values.formUnion((programme.categories ?? []).map(\.value)) }
        #expect(values.count > 50)
        #expect(Self.undecided(values).isEmpty, "\(Self.undecided(values).sorted())")
        #expect(values.contains { GenreVocabulary.isKindWord($0) })
    }

    /// The recordings the providers read: TMDB's and TheTVDB's genre names, MiGuiaTV's subtypes,
    /// the JSON feeds' genres and the XMLTV files' categories.
    @Test func everyGenreOfTheRecordedSourcesIsDecided() throws {
        var values: Set<String> = []
        for folder in ["tmdb", "tmdb-cases", "thetvdb", "thetvdb-cases", "miguiatv", "json-feed"] {
            let root = Fixtures.url(folder)
            for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
                guard let data = try? Data(contentsOf: root.appendingPathComponent(path)),
                      let json = try? JSONSerialization.jsonObject(with: data) else { continue }
                Self.collectGenres(json, into: &values)
            }
        }
        let xmltv = Fixtures.url("xmltv")
        for name in try FileManager.default.contentsOfDirectory(atPath: xmltv.path) where name.hasSuffix(".xml") {
            let data = try Data(contentsOf: xmltv.appendingPathComponent(name))
            guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else { continue }
            for match in text.matches(of: /<category[^>]*>([^<]*)<\/category>/) {
                values.insert(String(match.1))
            }
        }
        #expect(values.count > 50)
        #expect(Self.undecided(values).isEmpty, "\(Self.undecided(values).sorted())")
    }

    @Test func deliberatelyUnmappedWordsAreStillUnmapped() {
        for word in Self.deliberatelyUnmapped {
            #expect(GenreVocabulary.canonicalIDs(of: word) == [] && !GenreVocabulary.isKindWord(word), "\(word)")
        }
    }

    // MARK: - Helpers

    static func undecided(_ values: Set<String>) -> Set<String> {
        values.filter { value in
            GenreVocabulary.canonicalIDs(of: value).isEmpty && !GenreVocabulary.isKindWord(value) && !deliberatelyUnmapped.contains(value)
        }
    }

    /// Strings under `genre`, `genres` (TMDB and TheTVDB objects by their `name`) and `subtype`.
    static func collectGenres(_ json: Any, into values: inout Set<String>) {
        if let object = json as? [String: Any] {
            for (key, value) in object {
                if ["genre", "genres", "subtype"].contains(key) {
                    for item in (value as? [Any]) ?? [value] {
                        if let text = item as? String {
                            values.insert(text)
                        } else if let name = (item as? [String: Any])?["name"] as? String {
                            values.insert(name)
                        }
                    }
                } else {
                    collectGenres(value, into: &values)
                }
            }
        } else if let array = json as? [Any] {
            for item in array { collectGenres(item, into: &values) }
        }
    }
}
