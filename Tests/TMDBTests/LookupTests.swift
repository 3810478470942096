import Foundation
import GuideCore
import GuideTransport
import TestSupport
import TMDB
import Testing

@Suite("TMDB lookups over HTTP")
struct LookupTests {
    @Test("a film with a TMDB id is one details request with credits, videos and images appended")
    func filmByID() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(film("Titanic", tmdb: "597"))
        }
        #expect(lookup.match == MetadataMatch(method: .providerID, confidence: 1.0, providerID: "597", title: "Titanic"))
        #expect(await log.requests.map(\.path) == ["/3/configuration", "/3/movie/597"])
        #expect(await log.queries(path: "/3/configuration") == ["api_key=\(testKey)"])
        // The overview is there in es-ES, so no en-US request follows.
        #expect(await log.queries(path: "/3/movie/597") == ["api_key=\(testKey)&\(movieDetailsQuery)"])
    }

    @Test("a film's details map to Metadata field by field")
    func filmMapping() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(film("Titanic", tmdb: "597"))
        }
        let titanic = try #require(lookup.metadata)
        #expect(titanic.title == "Titanic")
        #expect(titanic.originalTitle == "Titanic")
        #expect(titanic.originalLanguage == "en")
        #expect(titanic.year == 1997)
        #expect(titanic.released == "1997-11-18")
        #expect(titanic.overview?.hasPrefix("Jack, un joven artista, gana en una partida de cartas") == true)
        #expect(titanic.tagline == "Nada en la Tierra podrá separarlos.")
        #expect(titanic.genres == ["Drama", "Romance"])
        #expect(titanic.runtime == 194)
        #expect(titanic.status == "Released")
        #expect(titanic.countries == ["US"])
        #expect(titanic.homepage == "https://www.titanicmovie.com")
        #expect(titanic.budget == 200_000_000)
        #expect(titanic.revenue == 2_264_162_353)
        #expect(titanic.voteAverage == 7.906)
        #expect(titanic.voteCount == 25817)
        #expect(titanic.network == nil)
        #expect(titanic.seasons == nil)
        #expect(titanic.providerIDs == ["tmdb": "597", "imdb": "tt0120338"])
        #expect(titanic.poster == imageBase + "w500/toJrSb59OYl59Nb9Wrcck0YbxVQ.jpg")
        #expect(titanic.backdrop?.hasPrefix(imageBase + "w1280/") == true)

        // Billing order, not list order, and only the first 20 of 22.
        let cast = try #require(titanic.cast)
        #expect(cast.count == 20)
        #expect(cast.prefix(3).map(\.name) == ["Leonardo DiCaprio", "Kate Winslet", "Billy Zane"])
        #expect(cast[0].character == "Jack Dawson")
        #expect(cast[0].photo?.hasPrefix(imageBase + "w185/") == true)
        #expect(cast.last?.name == "Mark Lindsay Chapman")
        #expect(cast.first { $0.name == "Danny Nucci" }?.photo == nil)

        // Kept jobs in a fixed order (Editor and Casting dropped), each person once per job.
        #expect(titanic.crew == [
            CrewMember(name: "James Cameron", job: "Director", department: "Directing"),
            CrewMember(name: "James Cameron", job: "Writer", department: "Writing"),
            CrewMember(name: "James Horner", job: "Original Music Composer", department: "Sound"),
            CrewMember(name: "Russell Carpenter", job: "Director of Photography", department: "Camera"),
            CrewMember(name: "James Cameron", job: "Producer", department: "Production"),
            CrewMember(name: "Jon Landau", job: "Producer", department: "Production"),
        ])

        // Ten of the twelve posters, then the three backdrops, all at gallery size.
        let gallery = try #require(titanic.images)
        #expect(gallery.map(\.kind) == Array(repeating: "poster", count: 10) + Array(repeating: "backdrop", count: 3))
        #expect(gallery.allSatisfy { $0.url.hasPrefix(imageBase + "w780/") })
        #expect(gallery.first?.width == 2000)
        #expect(gallery.first?.height == 3000)
        #expect(gallery.last?.width == 3840)

        // Trailers, then teasers, then the rest, each group in TMDB's order; Dailymotion dropped.
        let videos = try #require(titanic.videos)
        #expect(videos.map(\.key) == ["trailerKey1", "123456789", "teaserKey01", "featKey0001"])
        #expect(videos.map(\.site) == ["YouTube", "Vimeo", "YouTube", "YouTube"])
        #expect(videos[0].url == "https://www.youtube.com/watch?v=trailerKey1")
        #expect(videos[0].language == "es")
    }

    @Test("a film without an id: search with the year, then the details of the match")
    func filmBySearch() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(film("Titanic", year: 1997))
        }
        #expect(lookup.match == MetadataMatch(method: .exact, confidence: 0.95, providerID: "597", title: "Titanic"))
        #expect(lookup.metadata?.year == 1997)
        #expect(await log.requests.map(\.path) == ["/3/configuration", "/3/search/movie", "/3/movie/597"])
        #expect(await log.queries(path: "/3/search/movie") == ["api_key=\(testKey)&query=Titanic&language=es-ES&year=1997"])
    }

    @Test("a series (and any kind but a film) is searched with search/tv and its first-air year",
          arguments: [ProgrammeKind.series, .kids])
    func seriesBySearch(kind: ProgrammeKind) async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(series("Los Simpson", year: 1989, kind: kind))
        }
        #expect(lookup.match == MetadataMatch(method: .exact, confidence: 0.95, providerID: "456", title: "Los Simpson"))
        #expect(await log.requests.map(\.path) == ["/3/configuration", "/3/search/tv", "/3/tv/456"])
        #expect(await log.queries(path: "/3/search/tv") == [
            "api_key=\(testKey)&query=Los%20Simpson&language=es-ES&first_air_date_year=1989",
        ])
        #expect(await log.queries(path: "/3/tv/456") == [
            "api_key=\(testKey)&append_to_response=credits%2Cvideos%2Cimages%2Cexternal_ids"
                + "&include_image_language=es%2Cen%2Cnull&language=es-ES",
        ])
    }

    @Test("a series' details map to Metadata: network, seasons, episode runtime, creators, external ids")
    func seriesMapping() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(series("Los Simpson", year: 1989))
        }
        let simpsons = try #require(lookup.metadata)
        #expect(simpsons.title == "Los Simpson")
        #expect(simpsons.originalTitle == "The Simpsons")
        #expect(simpsons.year == 1989)
        #expect(simpsons.released == "1989-12-17")
        #expect(simpsons.runtime == 22)
        #expect(simpsons.network == "FOX")
        #expect(simpsons.seasons == 36)
        #expect(simpsons.status == "Returning Series")
        #expect(simpsons.countries == ["US"])
        #expect(simpsons.genres == ["Action & Adventure", "Animación", "Comedia"])
        #expect(simpsons.tagline == nil)
        #expect(simpsons.budget == nil)
        #expect(simpsons.providerIDs == ["tmdb": "456", "imdb": "tt0096697", "thetvdb": "71663"])
        #expect(simpsons.cast?.map(\.name) == ["Dan Castellaneta", "Julie Kavner", "Nancy Cartwright", "Yeardley Smith"])
        #expect(simpsons.crew == [
            CrewMember(name: "Matt Groening", job: "Creator"),
            CrewMember(name: "Alf Clausen", job: "Original Music Composer", department: "Sound"),
        ])
        #expect(simpsons.videos?.map(\.type) == ["Trailer", "Opening Credits"])
        #expect(simpsons.images?.map(\.kind) == ["poster", "poster", "backdrop"])
    }

    @Test("an empty es-ES overview is filled from en-US; only the empty texts are taken")
    func fallbackLanguage() async throws {
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log) { tmdb in
            try await tmdb.lookup(film("Vivir", tmdb: "3782"))
        }
        let ikiru = try #require(lookup.metadata)
        #expect(ikiru.title == "Vivir")
        #expect(ikiru.overview?.hasPrefix("Kanji Watanabe is a middle-aged man") == true)
        #expect(ikiru.tagline == "A masterpiece about the meaning of life.")
        #expect(ikiru.originalTitle == "生きる")
        let details = "append_to_response=credits%2Cvideos%2Cimages&include_image_language=es%2Cen%2Cnull"
        #expect(await log.queries(path: "/3/movie/3782") == [
            "api_key=\(testKey)&\(details)&language=es-ES",
            "api_key=\(testKey)&\(details)&language=en-US",
        ])
    }

    @Test("without a fallback language an empty overview stays empty and no second request is made")
    func noFallbackLanguage() async throws {
        let log = RequestLog()
        let handler: LoopbackHandler = { _ in
            // The recorded es-ES Ikiru, whatever image languages were asked for.
            .file(casesFolder.appendingPathComponent("movie/3782?\(movieDetailsQuery)"))
        }
        let lookup = try await withFakeTMDB(log: log, overrides: ["/3/movie/3782": handler], fallbackLanguage: nil) { tmdb in
            try await tmdb.lookup(film("Vivir", tmdb: "3782"))
        }
        #expect(lookup.metadata?.title == "Vivir")
        #expect(lookup.metadata?.overview == nil)
        #expect(await log.queries(path: "/3/movie/3782") == [
            "api_key=\(testKey)&append_to_response=credits%2Cvideos%2Cimages&include_image_language=es%2Cnull&language=es-ES",
        ])
    }

    @Test("nulls, zeros and missing parts decode leniently and become nil")
    func sparseRecord() async throws {
        let sparse = """
            {"adult":false,"backdrop_path":null,"belongs_to_collection":null,"budget":0,"genres":[],"homepage":"",\
            "id":1184918,"imdb_id":null,"original_language":"es","original_title":"Cortometraje","overview":"Un corto.",\
            "popularity":0.6,"poster_path":null,"production_companies":[],"production_countries":[],"release_date":"",\
            "revenue":0,"runtime":0,"spoken_languages":[],"status":"Released","tagline":null,"title":"Cortometraje",\
            "video":false,"vote_average":0.0,"vote_count":0,"credits":{"cast":[],"crew":[{"name":"Ana","job":null}]},\
            "videos":{"results":[]}}
            """
        let log = RequestLog()
        let lookup = try await withFakeTMDB(log: log, overrides: ["/3/movie/1184918": { _ in .json(sparse) }]) { tmdb in
            try await tmdb.lookup(film("Cortometraje", tmdb: "1184918"))
        }
        let short = try #require(lookup.metadata)
        var expected = Metadata()
        expected.title = "Cortometraje"
        expected.originalTitle = "Cortometraje"
        expected.originalLanguage = "es"
        expected.overview = "Un corto."
        expected.status = "Released"
        expected.providerIDs = ["tmdb": "1184918"]
        #expect(short == expected)
    }

    @Test func anIDNamedAFilmIsLookedUpAsAFilmWhateverTheProgrammesKind() async throws {
        let sparse = """
            {"id":1184918,"imdb_id":null,"original_language":"es","original_title":"Cortometraje","overview":"Un corto.",\
            "production_companies":[],"production_countries":[],"release_date":"","runtime":0,"spoken_languages":[],\
            "status":"Released","title":"Cortometraje","credits":{"cast":[],"crew":[]},"videos":{"results":[]}}
            """
        let log = RequestLog()
        // A documentary airing (not a film) whose XMLTV said themoviedb.org movie/1184918.
        let query = MetadataQuery(kind: .documentary, title: "Cortometraje", providerIDs: ["tmdb": "1184918", "tmdb-media": "movie"])
        let lookup = try await withFakeTMDB(log: log, overrides: ["/3/movie/1184918": { _ in .json(sparse) }]) { tmdb in
            try await tmdb.lookup(query)
        }
        #expect(lookup.metadata?.title == "Cortometraje")
        #expect(await log.requests.contains { $0.path == "/3/movie/1184918" })
        #expect(await !log.requests.contains { $0.path.hasPrefix("/3/tv/") })
    }
}
