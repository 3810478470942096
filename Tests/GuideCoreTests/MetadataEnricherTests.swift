import Foundation
import Testing
@testable import GuideCore

/// A metadata provider answering from a table by title, counting the questions it is asked and how
/// many it answers at once.
actor FakeMetadataProvider: MetadataProvider {
    nonisolated let id: String
    private let answers: [String: Result<MetadataLookup, ProviderError>]
    private let delay: Duration
    private let notes: [String]
    private(set) var queries: [MetadataQuery] = []
    private var running = 0
    private(set) var mostRunningAtOnce = 0

    /// Titles missing from `answers` get `.noMatch`.
    init(_ id: String, answers: [String: Result<MetadataLookup, ProviderError>] = [:], delay: Duration = .zero, notes: [String] = []) {
        self.id = id
        self.answers = answers
        self.delay = delay
        self.notes = notes
    }

    func lookup(_ query: MetadataQuery) async throws -> MetadataLookup {
        queries.append(query)
        running += 1
        mostRunningAtOnce = max(mostRunningAtOnce, running)
        defer { running -= 1 }
        if delay > .zero { try await Task.sleep(for: delay) }
        return try (answers[query.title] ?? .success(.noMatch)).get()
    }

    func reportNotes() -> [String] { notes }

    var lookups: Int { queries.count }
}

/// A `.found` answer for a film or series with these details.
func found(_ title: String, ids: [String: String] = [:], year: Int? = nil, overview: String? = nil,
           fill: (inout Metadata) -> Void = { _ in }) -> Result<MetadataLookup, ProviderError> {
    var metadata = Metadata()
    metadata.title = title
    metadata.year = year
    metadata.overview = overview
    metadata.providerIDs = ids.isEmpty ? nil : ids
    fill(&metadata)
    let match = MetadataMatch(method: .exact, confidence: 0.95, providerID: ids.values.sorted().first ?? "?", title: title)
    return .success(.found(metadata, match))
}

/// An airing on La 1, a minute after the previous one so that identities differ.
func showing(_ title: String, _ kind: ProgrammeKind? = .movie, year: Int? = nil, minute: Int = 0,
             ids: [String: String]? = nil) -> Programme {
    var programme = Programme(channel: "La1.es", start: Date(timeIntervalSince1970: 1_792_886_400 + Double(minute) * 60), title: title, source: "xmltv")
    programme.kind = kind
    programme.year = year
    programme.providerIDs = ids
    return programme
}

func member(_ provider: FakeMetadataProvider, caching: MetadataChainMember.Caching = .disabled) -> MetadataChainMember {
    MetadataChainMember(provider: provider, type: "fake", caching: caching)
}

extension MetadataReport {
    func provider(_ id: String) -> MetadataProviderReport? { providers.first { $0.id == id } }
}

@Suite struct MetadataEnricherTests {
    @Test func eachKindAsksItsOwnChainAndKindsWithoutOneAreLeftAlone() async {
        let films = FakeMetadataProvider("films", answers: ["Alien": found("Alien", ids: ["tmdb": "348"])])
        let shows = FakeMetadataProvider("shows", answers: ["Hermanos": found("Hermanos", ids: ["thetvdb": "4242"])])
        let enricher = MetadataEnricher(chains: [.series: [member(shows)], .movie: [member(films)]])

        let result = await enricher.enrich([
            showing("Alien", .movie, minute: 0), showing("Hermanos", .series, minute: 1),
            showing("Telediario", .news, minute: 2), showing("Sin clase", nil, minute: 3),
        ])

        #expect(await films.queries == [MetadataQuery(kind: .movie, title: "Alien")])
        #expect(await shows.queries == [MetadataQuery(kind: .series, title: "Hermanos")])
        #expect(result.programmes.map(\.work) == ["movie/tmdb/348", "series/thetvdb/4242", nil, nil])
        #expect(result.programmes.map(\.title) == ["Alien", "Hermanos", "Telediario", "Sin clase"])
        #expect(Set(result.works.keys) == ["movie/tmdb/348", "series/thetvdb/4242"])
        #expect(result.works["series/thetvdb/4242"]?.kind == .series)
        #expect(result.report.providers.map(\.id) == ["films", "shows"], "in the order the chains name them, movie first")
        #expect(result.report.titles == 2)
        #expect(result.report.works == 2)
        #expect(result.report.programmesEnriched == 2)
    }

    @Test func fieldsMergeAcrossTheChainAndRememberTheirProvider() async throws {
        let tmdb = FakeMetadataProvider("tmdb", answers: [
            "El laberinto del fauno": found("El laberinto del fauno", ids: ["tmdb": "1417"], year: 2006, overview: ""),
        ])
        let thetvdb = FakeMetadataProvider("thetvdb", answers: [
            "El laberinto del fauno": found("Pan's Labyrinth", ids: ["thetvdb": "290", "imdb": "tt0457430", "tmdb": "1417"],
                                            year: 2006, overview: "España, 1944.") { $0.genres = ["Fantasía"] },
        ])
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb), member(thetvdb)]])

        let result = await enricher.enrich([showing("El laberinto del fauno", year: 2006)])

        let work = try #require(result.works["movie/tmdb/1417"])
        #expect(work.metadata.title == "El laberinto del fauno")
        #expect(work.metadata.overview == "España, 1944.")
        #expect(work.metadata.genres == ["Fantasía"])
        #expect(work.metadata.providerIDs == ["tmdb": "1417", "thetvdb": "290", "imdb": "tt0457430"])
        #expect(work.sources == [
            "title": "tmdb", "year": "tmdb", "providerIDs.tmdb": "tmdb",
            "overview": "thetvdb", "genres": "thetvdb", "providerIDs.thetvdb": "thetvdb", "providerIDs.imdb": "thetvdb",
        ])
        #expect(work.matches.keys.sorted() == ["thetvdb", "tmdb"])
        #expect(work.guideTitles == ["El laberinto del fauno (2006)"])
        #expect(await tmdb.queries == [MetadataQuery(kind: .movie, title: "El laberinto del fauno", year: 2006)])
        #expect(result.report.provider("tmdb")?.status == .served)
        #expect(result.report.provider("thetvdb")?.status == .served)
        #expect(result.report.provider("thetvdb")?.worksContributed == 1)
    }

    @Test func theGuidesProviderIDsAreSentAndOthersAreNot() async {
        let tmdb = FakeMetadataProvider("tmdb", answers: ["Alien": found("Alien", ids: ["tmdb": "348"])])
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb)]])

        _ = await enricher.enrich([showing("Alien", year: 1979, ids: ["tmdb": "348", "miguiatv": "77", "imdb": ""])])

        #expect(await tmdb.queries == [MetadataQuery(kind: .movie, title: "Alien", year: 1979, providerIDs: ["tmdb": "348"])])
    }

    @Test func anUnavailableProviderIsReportedAsSkippedAndNeverAsked() async {
        let thetvdb = FakeMetadataProvider("thetvdb", answers: ["Alien": found("Alien", ids: ["thetvdb": "81"])])
        let missingKey = UnavailableProvider(id: "tmdb", type: "tmdb", error: .notConfigured("TMDB_API_KEY is not set"))
        let enricher = MetadataEnricher(chains: [.movie: [MetadataChainMember(unavailable: missingKey), member(thetvdb)]])

        let result = await enricher.enrich([showing("Alien")])

        #expect(result.programmes.first?.work == "movie/thetvdb/81")
        #expect(result.report.provider("tmdb") == MetadataProviderReport(
            id: "tmdb", type: "tmdb", status: .skipped,
            errors: [ProviderFailure(kind: "notConfigured", message: "not configured: TMDB_API_KEY is not set")]))
        #expect(result.report.provider("thetvdb")?.status == .served)
    }

    @Test func aFailingProviderIsReportedAndTheNextOneAsked() async {
        let outage = ProviderError.http(status: 500, url: "https://api.example/search")
        let tmdb = FakeMetadataProvider("tmdb", answers: ["Alien": .failure(outage), "Aliens": .failure(outage)])
        let thetvdb = FakeMetadataProvider("thetvdb", answers: [
            "Alien": found("Alien", ids: ["thetvdb": "81"]), "Aliens": found("Aliens", ids: ["thetvdb": "82"]),
        ])
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb), member(thetvdb)]])

        let result = await enricher.enrich([showing("Alien", minute: 0), showing("Aliens", minute: 1)])

        #expect(result.programmes.map(\.work) == ["movie/thetvdb/81", "movie/thetvdb/82"])
        let report = result.report.provider("tmdb")
        #expect(report?.status == .failed)
        #expect(report?.lookups == 2)
        #expect(report?.failed == 2)
        #expect(report?.errors == [ProviderFailure(outage)], "the same error twice is reported once")
        #expect(result.report.provider("thetvdb")?.matched == 2)
        #expect(result.report.unmatched.isEmpty)
    }

    @Test func aProviderThatFailsSomeLookupsOnlyIsOnStandbyNotFailed() async {
        let tmdb = FakeMetadataProvider("tmdb", answers: ["Alien": .failure(.timeout(seconds: 10))])
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb)]])

        let result = await enricher.enrich([showing("Alien", minute: 0), showing("Días de cine", minute: 1)])

        let report = result.report.provider("tmdb")
        #expect(report?.status == .standby)
        #expect(report?.failed == 1)
        #expect(report?.noMatch == 1)
        #expect(result.report.unmatched == ["movie: Alien", "movie: Días de cine"])
    }

    @Test func anAmbiguousAnswerIsRejectedReportedAndTheNextProviderAsked() async {
        let candidates = ["597 Titanic (1997)", "16535 Titanic (1953)"]
        let tmdb = FakeMetadataProvider("tmdb", answers: ["Titanic": .success(.ambiguous(candidates)), "Twins": .success(.ambiguous(["1", "2"]))])
        let thetvdb = FakeMetadataProvider("thetvdb", answers: ["Titanic": found("Titanic", ids: ["thetvdb": "597"], year: 1997)])
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb), member(thetvdb)]])

        let result = await enricher.enrich([showing("Titanic", minute: 0), showing("Twins", minute: 1), showing("Días de cine", minute: 2)])

        #expect(await thetvdb.lookups == 3)
        #expect(result.programmes.map(\.work) == ["movie/thetvdb/597", nil, nil])
        #expect(result.report.ambiguous == ["movie: Titanic — 597 Titanic (1997), 16535 Titanic (1953)", "movie: Twins — 1, 2"])
        #expect(result.report.unmatched == ["movie: Días de cine", "movie: Twins"])
        #expect(result.report.provider("tmdb")?.ambiguous == 2)
        #expect(result.report.provider("tmdb")?.status == .standby)
        #expect(result.report.provider("thetvdb")?.noMatch == 2)
    }

    @Test func twoHundredAiringsOfOneTitleAreLookedUpOnce() async throws {
        // Only the spelling first in sort order is sent, whatever order the airings come in.
        let tmdb = FakeMetadataProvider("tmdb", answers: ["CUÉNTAME CÓMO PASÓ": found("Cuéntame cómo pasó", ids: ["tmdb": "1"])])
        let enricher = MetadataEnricher(chains: [.series: [member(tmdb)]])
        let airings = (0..<200).map { showing($0 % 2 == 0 ? "Cuéntame cómo pasó" : "CUÉNTAME CÓMO PASÓ", .series, minute: $0) }

        let result = await enricher.enrich(airings)

        #expect(await tmdb.queries == [MetadataQuery(kind: .series, title: "CUÉNTAME CÓMO PASÓ")])
        #expect(result.report.titles == 1)
        #expect(result.report.programmesEnriched == 200)
        #expect(Set(result.programmes.map(\.work)) == ["series/tmdb/1"])
        let work = try #require(result.works["series/tmdb/1"])
        #expect(work.guideTitles == ["CUÉNTAME CÓMO PASÓ", "Cuéntame cómo pasó"])
        #expect(result.report.provider("tmdb")?.lookups == 1)
    }

    @Test func aYearInTheTitleAndTheSameYearGivenApartAreOneQuery() async {
        let thetvdb = FakeMetadataProvider("thetvdb")
        let enricher = MetadataEnricher(chains: [.series: [member(thetvdb)]])

        let result = await enricher.enrich([
            showing("Hermanos (2024)", .series, minute: 0), showing("Hermanos", .series, year: 2024, minute: 1),
            showing("Hermanos", .series, minute: 2),
        ])

        #expect(await thetvdb.lookups == 2)
        #expect(result.report.titles == 2)
        #expect(result.report.unmatched == ["series: Hermanos", "series: Hermanos (2024)"])
    }

    @Test func concurrentRunsShareALookupInFlight() async {
        let tmdb = FakeMetadataProvider("tmdb", answers: ["Alien": found("Alien", ids: ["tmdb": "348"])], delay: .milliseconds(300))
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb)]])

        async let first = enricher.enrich([showing("Alien", minute: 0)])
        async let second = enricher.enrich([showing("Alien", minute: 5)])
        let (one, two) = await (first, second)

        #expect(await tmdb.lookups == 1)
        #expect(one.programmes.first?.work == "movie/tmdb/348")
        #expect(two.programmes.first?.work == "movie/tmdb/348")
        #expect(two.report.provider("tmdb")?.matched == 1)
    }

    @Test func lookupsInFlightStayWithinTheBound() async {
        let titles = (1...24).map { "Película \($0)" }
        let tmdb = FakeMetadataProvider("tmdb", answers: Dictionary(uniqueKeysWithValues: titles.map { ($0, found($0, ids: ["tmdb": $0])) }), delay: .milliseconds(100))
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb)]], maxConcurrentLookups: 4)

        let result = await enricher.enrich(titles.enumerated().map { showing($1, minute: $0) })

        #expect(await tmdb.lookups == 24)
        #expect(await tmdb.mostRunningAtOnce == 4)
        #expect(result.report.works == 24)
    }

    @Test func twoGuideTitlesOfOneWorkMakeOneWork() async throws {
        let tmdb = FakeMetadataProvider("tmdb", answers: [
            "Alien, el octavo pasajero": found("Alien, el octavo pasajero", ids: ["tmdb": "348"], overview: "Spanish title's answer"),
            "Alien": found("Alien", ids: ["tmdb": "348"], overview: "Original title's answer"),
        ])
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb)]])

        let result = await enricher.enrich([
            showing("Alien, el octavo pasajero", year: 1979, minute: 0), showing("Alien", year: 1979, minute: 1),
            showing("Alien", year: 1979, minute: 2),
        ])

        #expect(result.works.count == 1)
        let work = try #require(result.works["movie/tmdb/348"])
        #expect(work.guideTitles == ["Alien (1979)", "Alien, el octavo pasajero (1979)"])
        #expect(work.metadata.overview == "Spanish title's answer", "the query first in key order is kept")
        #expect(result.programmes.map(\.work) == Array(repeating: "movie/tmdb/348", count: 3))
        #expect(result.report.titles == 2)
        #expect(result.report.works == 1)
        #expect(result.report.provider("tmdb")?.worksContributed == 1)
    }

    @Test func aCompleteAnswerLeavesTheRestOfTheChainUnasked() async {
        let complete = MetadataMergeTests.complete()
        let tmdb = FakeMetadataProvider("tmdb", answers: ["Alien": .success(.found(complete, MetadataMatch(method: .exact, confidence: 0.95, providerID: "348", title: "Alien")))])
        let thetvdb = FakeMetadataProvider("thetvdb")
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb), member(thetvdb)]])

        let result = await enricher.enrich([showing("Alien")])

        #expect(await thetvdb.lookups == 0)
        #expect(result.works["movie/tmdb/348"]?.metadata == complete)
        #expect(result.report.provider("thetvdb")?.status == .skipped)
    }

    @Test func anAnswerAboutAnotherWorkIsLeftOutAndNoted() async throws {
        let tmdb = FakeMetadataProvider("tmdb", answers: ["Titanic": found("Titanic", ids: ["tmdb": "597", "imdb": "tt0120338"], year: 1997)])
        let thetvdb = FakeMetadataProvider("thetvdb", answers: [
            "Titanic": found("Titanic", ids: ["thetvdb": "9", "imdb": "tt0046435"], year: 1953, overview: "The 1953 film"),
        ], notes: ["1 request"])
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb), member(thetvdb)]])

        let result = await enricher.enrich([showing("Titanic", year: 1997)])

        let work = try #require(result.works["movie/tmdb/597"])
        #expect(work.metadata.overview == nil)
        #expect(work.matches.keys.sorted() == ["tmdb"])
        let report = result.report.provider("thetvdb")
        #expect(report?.matched == 1)
        #expect(report?.status == .standby)
        #expect(report?.notes == ["1 request", "1 answer(s) left out: their ids name another work than the providers before it gave (movie: Titanic (1997))"])
    }

    @Test func theOutcomeDoesNotDependOnTheOrderOfTheAirings() async {
        let tmdb = FakeMetadataProvider("tmdb", answers: [
            "Alien": found("Alien", ids: ["tmdb": "348"]), "Aliens": found("Aliens", ids: ["tmdb": "679"]),
            "Alien: el octavo pasajero": found("Alien", ids: ["tmdb": "348"]),
        ])
        let enricher = MetadataEnricher(chains: [.movie: [member(tmdb)]])
        let airings = ["Aliens", "Alien: el octavo pasajero", "Días de cine", "Alien", "Titanic"].enumerated().map { showing($1, minute: $0) }

        let forward = await enricher.enrich(airings)
        let backward = await enricher.enrich(airings.reversed())

        #expect(forward.works == backward.works)
        #expect(forward.report == backward.report)
        #expect(forward.programmes == backward.programmes.reversed())
    }
}
