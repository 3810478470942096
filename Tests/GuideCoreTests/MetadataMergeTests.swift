import Foundation
import Testing
@testable import GuideCore

@Suite struct MetadataMergeTests {
    @Test func theFirstNonEmptyValueWinsAndEmptyFieldsAreFilledFromTheNext() {
        var tmdb = Metadata()
        tmdb.title = "El laberinto del fauno"
        tmdb.overview = ""
        tmdb.tagline = "  "
        tmdb.genres = []
        tmdb.runtime = 118
        var thetvdb = Metadata()
        thetvdb.title = "Pan's Labyrinth"
        thetvdb.overview = "En la España de 1944…"
        thetvdb.tagline = "Érase una vez…"
        thetvdb.genres = ["Fantasía", "Drama"]
        thetvdb.runtime = 120
        var recorded = Metadata()
        recorded.network = nil
        recorded.poster = "https://image.example/p.jpg"
        recorded.overview = "Not taken: filled already"

        let merged = MetadataMerge.merge([
            answer("tmdb", tmdb), answer("thetvdb", thetvdb), answer("tmdb-recorded", recorded),
        ])

        #expect(merged.metadata.title == "El laberinto del fauno")
        #expect(merged.metadata.runtime == 118)
        #expect(merged.metadata.overview == "En la España de 1944…")
        #expect(merged.metadata.tagline == "Érase una vez…")
        #expect(merged.metadata.genres == ["Fantasía", "Drama"])
        #expect(merged.metadata.poster == "https://image.example/p.jpg")
        #expect(merged.metadata.network == nil)
        #expect(merged.sources == [
            "title": "tmdb", "runtime": "tmdb",
            "overview": "thetvdb", "tagline": "thetvdb", "genres": "thetvdb",
            "poster": "tmdb-recorded",
        ])
        #expect(Set(merged.matches.keys) == ["tmdb", "thetvdb", "tmdb-recorded"])
        #expect(merged.disagreeing.isEmpty)
    }

    @Test func providerIDsMergePerSystem() {
        var tmdb = Metadata()
        tmdb.providerIDs = ["tmdb": "1417", "imdb": ""]
        var thetvdb = Metadata()
        thetvdb.providerIDs = ["thetvdb": "290", "imdb": "tt0457430", "tmdb": "1417"]

        let merged = MetadataMerge.merge([answer("tmdb", tmdb), answer("thetvdb", thetvdb)])

        #expect(merged.metadata.providerIDs == ["tmdb": "1417", "thetvdb": "290", "imdb": "tt0457430"])
        #expect(merged.sources == ["providerIDs.tmdb": "tmdb", "providerIDs.thetvdb": "thetvdb", "providerIDs.imdb": "thetvdb"])
    }

    @Test func anAnswerWhoseIDsNameAnotherWorkIsLeftOut() {
        var remake = Metadata()
        remake.title = "Titanic"
        remake.providerIDs = ["tmdb": "597", "imdb": "tt0120338"]
        var original = Metadata()
        original.title = "Titanic"
        original.overview = "The 1953 film"
        original.providerIDs = ["thetvdb": "123", "imdb": "tt0046435"]

        let merged = MetadataMerge.merge([answer("tmdb", remake), answer("thetvdb", original)])

        #expect(merged.disagreeing == ["thetvdb"])
        #expect(merged.metadata.overview == nil)
        #expect(merged.metadata.providerIDs == ["tmdb": "597", "imdb": "tt0120338"])
        #expect(Set(merged.matches.keys) == ["tmdb"])
    }

    @Test func aScoreAndItsVoteCountComeFromOneProvider() {
        var first = Metadata()
        first.voteAverage = 7.8
        var second = Metadata()
        second.voteAverage = 8.4
        second.voteCount = 20_000

        let merged = MetadataMerge.merge([answer("tmdb", first), answer("thetvdb", second)])

        #expect(merged.metadata.voteAverage == 7.8)
        #expect(merged.metadata.voteCount == nil)
        #expect(merged.sources == ["voteAverage": "tmdb"])
    }

    @Test func theFieldTableNamesEveryMetadataPropertyByItsJSONKey() throws {
        let properties = Mirror(reflecting: Metadata()).children.compactMap(\.label)
        #expect(MetadataMerge.fieldNames == properties.filter { $0 != "providerIDs" })

        let full = Self.complete()
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(full)) as? [String: Any])
        #expect(Set(json.keys) == Set(properties))
        let merged = MetadataMerge.merge([answer("only", full)])
        #expect(merged.metadata == full)
        #expect(Set(merged.sources.keys) == Set(MetadataMerge.fieldNames + ["providerIDs.tmdb", "providerIDs.thetvdb", "providerIDs.imdb"]))
    }

    @Test func completeMeansEveryFieldAndEveryWorkIDSystem() {
        var metadata = Self.complete()
        #expect(MetadataMerge.isComplete(metadata))
        metadata.voteCount = nil
        #expect(MetadataMerge.isComplete(metadata), "the vote group is filled by its score")
        metadata.providerIDs?["imdb"] = nil
        #expect(!MetadataMerge.isComplete(metadata))
        metadata = Self.complete()
        metadata.images = []
        #expect(!MetadataMerge.isComplete(metadata))
    }

    @Test func aWorkIDPrefersTMDBThenTheTVDBThenIMDbThenTheTitle() {
        #expect(MetadataMerge.workID(kind: .movie, providerIDs: ["imdb": "tt0078748", "tmdb": "348", "thetvdb": "1"], title: "Alien", year: 1979) == "movie/tmdb/348")
        #expect(MetadataMerge.workID(kind: .series, providerIDs: ["imdb": "tt0092455", "thetvdb": "71470"], title: "x", year: nil) == "series/thetvdb/71470")
        #expect(MetadataMerge.workID(kind: .movie, providerIDs: ["imdb": "tt0078748", "tmdb": ""], title: "x", year: nil) == "movie/imdb/tt0078748")
        #expect(MetadataMerge.workID(kind: .movie, providerIDs: nil, title: "Días de cine: ¡Especial!", year: 2020) == "movie/title/dias-de-cine-especial-2020")
        #expect(MetadataMerge.workID(kind: .series, providerIDs: ["miguiatv": "9"], title: "Hermanos (2024)", year: nil) == "series/title/hermanos-2024")
    }

    private func answer(_ provider: String, _ metadata: Metadata) -> MetadataAnswer {
        MetadataAnswer(providerID: provider, metadata: metadata,
                       match: MetadataMatch(method: .exact, confidence: 0.95, providerID: "\(provider)-id", title: metadata.title ?? ""))
    }

    static func complete() -> Metadata {
        var m = Metadata()
        m.title = "Alien, el octavo pasajero"
        m.originalTitle = "Alien"
        m.originalLanguage = "en"
        m.year = 1979
        m.released = "1979-05-25"
        m.overview = "La tripulación del Nostromo…"
        m.tagline = "En el espacio nadie puede oír tus gritos"
        m.genres = ["Terror", "Ciencia ficción"]
        m.runtime = 117
        m.status = "Released"
        m.network = "20th Century Fox"
        m.countries = ["GB", "US"]
        m.contentRating = "R"
        m.homepage = "https://example.org/alien"
        m.budget = 11_000_000
        m.revenue = 104_931_801
        m.voteAverage = 8.1
        m.voteCount = 15_000
        m.seasons = 0
        m.cast = [CastMember(name: "Sigourney Weaver", character: "Ripley")]
        m.crew = [CrewMember(name: "Ridley Scott", job: "Director")]
        m.poster = "https://image.example/w500/p.jpg"
        m.backdrop = "https://image.example/w1280/b.jpg"
        m.images = [ImageRef(url: "https://image.example/w780/i.jpg", kind: "backdrop")]
        m.videos = [Video(name: "Trailer", type: "Trailer", site: "YouTube", key: "abc")]
        m.providerIDs = ["tmdb": "348", "thetvdb": "81", "imdb": "tt0078748"]
        return m
    }
}
