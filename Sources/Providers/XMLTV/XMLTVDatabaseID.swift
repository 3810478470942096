import GuideCore

/// The `episode-num` systems xmltv.dtd proposes for metadata databases: `themoviedb.org`
/// (`movie/1234`, `tv/1234`), `thetvdb.com` (`series/123456`) and `imdb.com` (`title/tt0078748`).
/// They become `Programme.providerIDs` (`tmdb`, `thetvdb`, `imdb`), so metadata enrichment looks
/// the work up by id instead of by title. A thetvdb `episode/…` id names one episode, not the
/// series, and stays an ordinary episode number. TMDB numbers films and series apart (`movie/603`
/// and `tv/603` are different records), so which one is kept beside the id (`tmdb-media`).
enum XMLTVDatabaseID {
    /// The ids a number gives, keyed as `Programme.providerIDs` keys them.
    static func parse(system: String, text: String) -> [String: String]? {
        // Older grabbers write IMDb ids bare.
        if system.lowercased() == "imdb.com", text.hasPrefix("tt"), !text.contains("/") { return ["imdb": text] }
        let parts = text.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let (prefix, id) = (parts[0].lowercased(), String(parts[1]))
        switch (system.lowercased(), prefix) {
        case ("themoviedb.org", "movie"), ("themoviedb.org", "tv"): return ["tmdb": id, ProviderIDKeys.tmdbMedia: prefix]
        case ("thetvdb.com", "series"): return ["thetvdb": id]
        case ("imdb.com", "title"): return ["imdb": id]
        default: return nil
        }
    }

    /// The ids of `programme` in those systems, in the order an export writes them.
    static func episodeNumbers(for programme: Programme) -> [(system: String, text: String)] {
        guard let ids = programme.providerIDs else { return [] }
        var numbers: [(system: String, text: String)] = []
        if let tmdb = ids["tmdb"] {
            let media = ids[ProviderIDKeys.tmdbMedia] ?? (programme.kind == .movie ? "movie" : "tv")
            numbers.append(("themoviedb.org", "\(media)/\(tmdb)"))
        }
        if let thetvdb = ids["thetvdb"] { numbers.append(("thetvdb.com", "series/\(thetvdb)")) }
        if let imdb = ids["imdb"] { numbers.append(("imdb.com", "title/\(imdb)")) }
        return numbers
    }
}
