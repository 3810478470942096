import Foundation
import GuideCore
@testable import GuideServer
import Testing
import TestSupport

/// The parts of a recommendation's score, each on its own, and their words.
@Suite struct RecommendationScoringTests {
    static func work(_ key: String, kind: ProgrammeKind = .movie, genres: Set<String> = [], directors: Set<String> = [],
                     cast: [String] = [], keywords: Set<String> = [], average: Double? = nil, votes: Int? = nil) -> WorkFeatures {
        WorkFeatures(key: key, title: key, kind: kind, genres: genres, directors: directors, cast: cast, keywords: keywords,
                     voteAverage: average, voteCount: votes)
    }

    @Test func aRatingFromFewVotesIsPulledTowardsTheMean() {
        let fewVotes = RecommendationScoring.shrunkRating(average: 9, votes: 12, mean: 6.5)
        let manyVotes = RecommendationScoring.shrunkRating(average: 8, votes: 20_000, mean: 6.5)
        #expect(fewVotes < manyVotes, "9/10 from 12 votes does not beat 8/10 from 20,000")
        #expect(abs(fewVotes - (12 * 9 + 500 * 6.5) / 512) < 1e-9)
        #expect(abs(manyVotes - 7.963) < 0.001)
        #expect(RecommendationScoring.shrunkRating(average: 3, votes: 0, mean: 6.5) == 6.5, "no votes: the mean")
        #expect(RecommendationScoring.quality(5) == 0 && RecommendationScoring.quality(10) == 1 && RecommendationScoring.quality(7.5) == 0.5)
    }

    @Test func popularityIsTheShareUpToAQuarterOfTheAudience() {
        #expect(RecommendationScoring.popularity(share: nil) == 0)
        #expect(RecommendationScoring.popularity(share: 12.5) == 0.5)
        #expect(RecommendationScoring.popularity(share: 40) == 1)
    }

    @Test func likenessIsTheSameSeriesADirectorAnActorGenresOrKeywords() {
        let saved = Self.work("movie/tmdb/98", genres: ["action", "drama", "adventure"], directors: ["Ridley Scott"], cast: ["Russell Crowe", "Joaquin Phoenix"])
        let alien = Self.work("movie/tmdb/348", genres: ["horror", "science-fiction"], directors: ["Ridley Scott"], cast: ["Sigourney Weaver"])
        let director = RecommendationScoring.similarity(alien, to: saved)
        #expect(director.score == 0.7 && director.likeness == .sameDirector("Ridley Scott"))
        let actor = RecommendationScoring.similarity(Self.work("movie/x", cast: ["Tom Hardy", "Russell Crowe"]), to: saved)
        #expect(actor.score == 0.5 && actor.likeness == .sharedCast("Russell Crowe"))
        let genres = RecommendationScoring.similarity(Self.work("movie/y", genres: ["action", "drama"]), to: saved)
        #expect(genres.likeness == .sameGenres && abs(genres.score - 0.4 * 2 / 3) < 1e-9)
        #expect(RecommendationScoring.similarity(Self.work("movie/z", genres: ["comedy"]), to: saved).likeness == nil)
        // Both a director and genres: the strongest says why, the other adds a little.
        let both = RecommendationScoring.similarity(Self.work("movie/w", genres: ["action", "drama", "adventure"], directors: ["Ridley Scott"]), to: saved)
        #expect(both.likeness == .sameDirector("Ridley Scott") && abs(both.score - 0.74) < 1e-9)
        // The same work: new episodes of a series, not the same film again.
        let series = Self.work("series/thetvdb/1", kind: .series)
        #expect(RecommendationScoring.similarity(series, to: series) == (1, .sameSeries))
        #expect(RecommendationScoring.similarity(saved, to: saved).score == 0)
        let match = RecommendationScoring.bestMatch(alien, among: [Self.work("movie/q", genres: ["comedy"]), saved])
        #expect(match.work == saved && match.likeness == .sameDirector("Ridley Scott"))
    }

    @Test func timingRewardsPremieresLastChancesAndPrimeTimeAndNotReruns() {
        let premiere = RecommendationScoring.timing(startMinute: 22 * 60, premiere: true, lastChance: false, rerunWithinDay: false)
        #expect(premiere.score == 0.7 && premiere.reasons == [.premiere, .primeTime])
        let morning = RecommendationScoring.timing(startMinute: 9 * 60, premiere: false, lastChance: true, rerunWithinDay: false)
        #expect(morning.score == 0.3 && morning.reasons == [.lastChance])
        #expect(RecommendationScoring.timing(startMinute: 9 * 60, premiere: false, lastChance: false, rerunWithinDay: true).score == -0.5)
    }

    @Test func preferredKindsAndGenresAddAndSaySo() {
        let met = RecommendationScoring.preference(kind: .documentary, genres: ["nature", "science"], kinds: [.documentary], preferred: ["science"])
        #expect(met.score == 0.6 && met.reasons == [.preferredKind(.documentary), .preferredGenre("science")])
        #expect(RecommendationScoring.preference(kind: .movie, genres: [], kinds: [.series], preferred: ["drama"]).score == 0)
    }

    @Test func reasonsAreSaidInBothLanguages() {
        let en = WebCatalogue.of(.en), es = WebCatalogue.of(.es)
        let director = RecommendationReason.similar(to: "Gladiator", saved: true, .sameDirector("Ridley Scott"))
        #expect(director.text(en) == "because you saved Gladiator: same director (Ridley Scott)")
        #expect(director.text(es) == "porque guardaste Gladiator: mismo director (Ridley Scott)")
        #expect(RecommendationReason.similar(to: "Aída", saved: false, .sameSeries).text(en) == "because you liked Aída: same series")
        #expect(RecommendationReason.rated(average: 8.2, votes: 19_400).text(en) == "rated 8.2 by 19,400 people")
        #expect(RecommendationReason.rated(average: 8.2, votes: 19_400).text(es) == "valorada con 8,2 por 19.400 personas")
        #expect(RecommendationReason.premiere.text(es) == "estreno")
        #expect(RecommendationReason.preferredGenre("western").text(en) == "you like western")
        #expect(director.code == "same-director" && RecommendationReason.lastChance.code == "last-chance")
    }

    @Test func aRerunIsTheSameFilmOrEpisodeOfTheDayBeforeNotTheNextEpisodeNorASimulcast() {
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        func airing(_ channel: String, hoursAfter hours: Double, _ title: String, kind: ProgrammeKind, episode: Int? = nil) -> Programme {
            let start = day.addingTimeInterval(hours * 3_600)
            var programme = Programme(channel: channel, start: start, stop: start.addingTimeInterval(3_000), title: title, source: "test")
            programme.kind = kind
            if let episode { programme.episode = Episode(season: 1, number: episode) }
            return programme
        }
        let programmes = [
            airing("La1.es", hoursAfter: 0, "El padrino", kind: .movie), airing("La2.es", hoursAfter: 20, "El padrino", kind: .movie),
            airing("La1.es", hoursAfter: 1, "Aída", kind: .series, episode: 5), airing("La1.es", hoursAfter: 21, "Aída", kind: .series, episode: 6),
            airing("La1.es", hoursAfter: 22, "Aída", kind: .series, episode: 5),
            airing("La1.es", hoursAfter: 2, "Cuéntame", kind: .series), airing("La1.es", hoursAfter: 23, "Cuéntame", kind: .series),
            airing("La1.es", hoursAfter: 30, "Los Goonies", kind: .movie), airing("24h.es", hoursAfter: 30, "Los Goonies", kind: .movie),
            airing("La2.es", hoursAfter: 50, "El padrino", kind: .movie),
        ].sorted { ($0.start, $0.channel) < ($1.start, $1.channel) }
        let index = GuideIndex(Snapshot(generatedAt: day, window: TimeWindow(from: day, to: day.addingTimeInterval(3 * 86_400)),
                                        channels: ["La1.es", "La2.es", "24h.es"].map { Channel(id: $0, name: $0) }, programmes: programmes,
                                        report: RunReport()))
        func rerun(_ title: String, hoursAfter hours: Double, channel: String = "La1.es") -> Bool {
            let position = programmes.firstIndex { $0.title == title && $0.channel == channel && $0.start == day.addingTimeInterval(hours * 3_600) }!
            return Recommender.airedInTheDayBefore(position: position, in: index)
        }
        #expect(rerun("El padrino", hoursAfter: 20, channel: "La2.es"), "the same film 20 hours later")
        #expect(!rerun("El padrino", hoursAfter: 50, channel: "La2.es"), "more than a day after the last")
        #expect(!rerun("Aída", hoursAfter: 21), "the next episode")
        #expect(rerun("Aída", hoursAfter: 22), "the same episode again")
        #expect(!rerun("Cuéntame", hoursAfter: 23), "episodes without numbers cannot be told apart")
        #expect(!rerun("Los Goonies", hoursAfter: 30, channel: "24h.es"), "the same film on two channels at once")
    }

    @Test func theListIsVariedNotFiveEpisodesOfOneSeriesNorOfOneGenre() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func pick(_ key: String, _ score: Double, genres: Set<String>, minutes: Int) -> Recommendation {
            let programme = Programme(channel: "La1.es", start: start.addingTimeInterval(Double(minutes * 60)), title: key, source: "test")
            return Recommendation(programme: programme, score: score, reasons: [], key: key, genres: genres)
        }
        let ranked = [
            pick("series:a", 3, genres: ["drama"], minutes: 0), pick("series:a", 2.9, genres: ["drama"], minutes: 30),
            pick("film:b", 2.8, genres: ["drama"], minutes: 60), pick("film:c", 2.7, genres: ["drama"], minutes: 90),
            pick("film:d", 1, genres: ["comedy"], minutes: 120), pick("film:e", 0.5, genres: ["western"], minutes: 150),
        ]
        let picked = Recommender.diversify(ranked, limit: 4).map(\.key)
        #expect(picked == ["series:a", "film:b", "film:d", "film:e"], "one episode, two dramas, then other genres")
        #expect(Recommender.diversify(ranked, limit: 5).map(\.key) == ["series:a", "film:b", "film:c", "film:d", "film:e"],
                "a third drama only when other genres run out")
    }
}

/// Recommendations over the golden snapshot: the API, the web guide's block and the 👍/👎.
@Suite struct RecommendationRouteTests {
    static let film = WebTests.film
    static let evening = "tz=Europe/Madrid&date=2026-10-21&from=2026-10-21T21:00:00"

    @Test func withoutAProfileTheDaysBestRatedFilmsAndPremieresLead() async throws {
        try await ServerHarness.run { client in
            let response = try await client.get("/recommendations?\(Self.evening)&limit=5")
            #expect(response.status == 200)
            let body = try response.object()
            let items = try #require(body["items"] as? [[String: Any]])
            #expect(items.count == 5)
            let titles = items.compactMap { ($0["programme"] as? [String: Any])?["title"] as? String }
            #expect(titles.first == "Alcarràs", "the evening's premiere")
            #expect(titles.contains("Gladiator") && titles.contains("Matrix"))
            let kinds = items.compactMap { ($0["programme"] as? [String: Any])?["kind"] as? String }
            #expect(kinds.allSatisfy { $0 == "movie" }, "\(kinds)")
            let scores = items.compactMap { $0["score"] as? Double }
            #expect(scores == scores.sorted(by: >))
            let gladiator = try #require(items.first { ($0["programme"] as? [String: Any])?["id"] as? String == Self.film })
            let reasons = try #require(gladiator["reasons"] as? [[String: String]])
            #expect(reasons.contains(["code": "rated", "text": "rated 8.2 by 19,400 people"]))
            // The same guide, profile and day: the same bytes.
            #expect(try await client.get("/recommendations?\(Self.evening)&limit=5").body == response.body)
        }
    }

    @Test func savedWorksBringTheirLikesWithTheReasonInWords() async throws {
        try await ServerHarness.run { client in
            let body = try await client.get("/recommendations?saved=Gladiator&tz=Europe/Madrid&date=2026-10-22&lang=es").object()
            let first = try #require((body["items"] as? [[String: Any]])?.first)
            #expect((first["programme"] as? [String: Any])?["title"] as? String == "Alien, el octavo pasajero")
            let reasons = try #require(first["reasons"] as? [[String: String]])
            #expect(reasons.first == ["code": "same-director", "text": "porque guardaste Gladiator: mismo director (Ridley Scott)"])
            // A saved film is not offered again; a disliked one never.
            let again = try await client.get("/recommendations?saved=Gladiator&\(Self.evening)&limit=20").text
            #expect(!again.contains(Self.film))
            let disliked = try await client.get("/recommendations?dislikes=Matrix&\(Self.evening)&limit=20").text
            #expect(!disliked.contains("\"title\":\"Matrix\""))
            // Preferred kinds: only those are offered.
            let documentaries = try await client.get("/recommendations?kinds=documentary&\(Self.evening)").object()
            let kinds = (documentaries["items"] as? [[String: Any]] ?? []).compactMap { ($0["programme"] as? [String: Any])?["kind"] as? String }
            #expect(!kinds.isEmpty && kinds.allSatisfy { $0 == "documentary" })
        }
    }

    @Test func badProfilesAre400sNamingTheParameter() async throws {
        try await ServerHarness.run { client in
            let late = try await client.get("/recommendations?date=2026-10-21&from=2199-12-31T23:59:59Z").object()
            #expect((late["items"] as? [Any])?.isEmpty == true)
            #expect(late["from"] as? String == late["to"] as? String, "a from past the day's end is its end")
            let twice = try await client.get("/my-tastes/save?kinds=movie,movie")
            #expect(WebViewsTests.cookie(twice, "tvguide_taste") == "tvguide_taste=kinds:movie|genres:")
            for (query, name) in [("kinds=film", "kinds"), ("genres=nonsense", "genres"), ("lang=de", "lang"), ("limit=21", "limit"),
                                  ("likes=" + String(repeating: "a", count: 201), "likes")] {
                let response = try await client.get("/recommendations?" + query)
                #expect(response.status == 400, "\(query)")
                #expect(response.text.contains("'\(name)'"), "\(query): \(response.text)")
            }
        }
    }

    @Test func theHomePageShowsTodaysPickAndThe👍ShapesIt() async throws {
        try await ServerHarness.run { client in
            let home = try await client.get("/").text
            #expect(home.contains("<h2 id=\"todays-pick-heading\">Today&#39;s pick</h2>"))
            #expect(WebTests.count("<li class=\"item\" data-programme=", in: home.components(separatedBy: "<section class=\"toolbar\">")[0]) == 4)
            #expect(home.contains("<p class=\"why\">"))
            let later = try await client.get("/?at=2026-10-22T19:00:00Z").text
            #expect(!later.contains("todays-pick"), "on the grid of now only")

            let page = try await client.get("/programme/\(Self.film)").text
            #expect(page.contains("<a class=\"button\" data-action=\"like\" href=\"/my-tastes/like?programme=\(Self.film)&amp;back=%2Fprogramme%2F\(Self.film)\">👍 I like it</a>"))
            let liked = try await client.get("/my-tastes/like?programme=\(Self.film)")
            #expect(liked.status == 303 && liked.headers["location"] == "/programme/\(Self.film)")
            let cookie = try #require(WebViewsTests.cookie(liked, "tvguide_likes"))
            #expect(cookie == "tvguide_likes=movie%2Ftmdb%2F98", "kept as the work, beyond this airing")
            let after = try await client.get("/programme/\(Self.film)", headers: ["Cookie": cookie]).text
            #expect(after.contains("data-taste=\"liked\""))
            #expect(!after.contains("data-action=\"like\""))
            let tomorrow = try await client.get("/recommendations?likes=movie/tmdb/98&tz=Europe/Madrid&date=2026-10-22").text
            #expect(tomorrow.contains("because you liked Gladiator (El gladiador): same director (Ridley Scott)"), "a work liked by id is named by its metadata")
            let tastes = try await client.get("/my-tastes/save?kinds=documentary&genres=naturaleza&back=/my-channels")
            #expect(WebViewsTests.cookie(tastes, "tvguide_taste") == "tvguide_taste=kinds:documentary|genres:nature")
            let channels = try await client.get("/my-channels", headers: ["Cookie": "tvguide_taste=kinds:documentary|genres:nature"]).text
            #expect(channels.contains("<input type=\"checkbox\" name=\"kinds\" value=\"documentary\" checked>"))
            #expect(channels.contains("<input type=\"checkbox\" name=\"genres\" value=\"nature\" checked>"))
        }
    }
}
