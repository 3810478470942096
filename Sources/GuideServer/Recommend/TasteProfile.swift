import Foundation
import GuideCore

/// What a person likes, built without an account: what they saved, what they gave a 👍 or a 👎,
/// and the kinds and genres they prefer. The browser keeps it (cookies) and sends it with each
/// request, or the command line gives it, so the server keeps nothing.
struct TasteProfile: Sendable, Equatable {
    /// What the person saved (reminders, every airing of a title): programme ids or titles.
    var saved: [String] = []
    /// Works, programmes or titles liked: a work id (`movie/tmdb/98`), a programme id, or a title.
    var likes: [String] = []
    var dislikes: [String] = []
    var kinds: Set<ProgrammeKind> = []
    /// Canonical genre ids (a genre's word in any language is read as its id).
    var genres: [String] = []

    var isEmpty: Bool { saved.isEmpty && likes.isEmpty && dislikes.isEmpty && kinds.isEmpty && genres.isEmpty }

    static let maximumItems = 100

    /// The profile a request gives in its query: `saved`, `likes` and `dislikes` repeated
    /// (titles may hold commas), `kinds` and `genres` comma-separated.
    init(query: QueryReader) throws {
        saved = try Self.items(query, "saved")
        likes = try Self.items(query, "likes")
        dislikes = try Self.items(query, "dislikes")
        kinds = Set(try Self.kinds(query.list("kinds") ?? []))
        genres = try Self.genreIDs(query.list("genres") ?? [])
    }

    /// Kinds by name, each once in the order given, among `allowed`; another name is a 400 for `kinds`.
    static func kinds(_ names: [String], among allowed: [ProgrammeKind] = ProgrammeKind.allCases) throws -> [ProgrammeKind] {
        var seen = Set<ProgrammeKind>()
        return try names.map { name in
            guard let kind = ProgrammeKind(rawValue: name), allowed.contains(kind) else {
                throw APIError.badParameter("kinds", "\(Quoted(name)) is not one of \(allowed.map(\.rawValue).joined(separator: ", "))")
            }
            return kind
        }.filter { seen.insert($0).inserted }
    }

    init(saved: [String] = [], likes: [String] = [], dislikes: [String] = [], kinds: Set<ProgrammeKind> = [], genres: [String] = []) {
        self.saved = saved
        self.likes = likes
        self.dislikes = dislikes
        self.kinds = kinds
        self.genres = genres
    }

    /// The profile the web guide keeps for a person: saved programmes and titles count as liked.
    init(_ preferences: WebPreferences) {
        saved = preferences.reminders + preferences.series
        likes = preferences.likes
        dislikes = preferences.dislikes
        kinds = Set(preferences.kinds)
        genres = preferences.genres
    }

    /// Genres as canonical ids: an id as it is, a word of a genre as that genre's id.
    static func genreIDs(_ words: [String]) throws -> [String] {
        var seen = Set<String>()
        return try words.flatMap { word -> [String] in
            if GenreVocabulary.name(ofID: word, language: WebLanguage.en.rawValue) != nil { return [word] }
            let ids = GenreVocabulary.ids([word])
            guard !ids.isEmpty else { throw APIError.badParameter("genres", "\(Quoted(word)) is not a genre of the guide") }
            return ids
        }.filter { seen.insert($0).inserted }
    }

    /// Everything the answer depends on, for the rendered-response cache's key.
    var key: String {
        [saved.joined(separator: "\u{1F}"), likes.joined(separator: "\u{1F}"), dislikes.joined(separator: "\u{1F}"), kinds.map(\.rawValue).sorted().joined(separator: ","),
         genres.joined(separator: ",")].joined(separator: "\u{1E}")
    }

    private static func items(_ query: QueryReader, _ name: String) throws -> [String] {
        var seen = Set<String>()
        let sent = query.all(name)
        // Counted as sent, as openapi.yaml's maxItems counts.
        guard sent.count <= Self.maximumItems else { throw APIError.badParameter(name, "at most \(Self.maximumItems) items") }
        for item in sent { try QueryReader.checkLength(item, name, atMost: CalendarQuery.maximumTextLength) }
        return sent.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
