import Foundation
import GuideCore
import NIOConcurrencyHelpers

/// What recommendations need of a guide beyond `GuideIndex`, made once per guide on the first
/// recommendation asked: each work's features, the guide's mean rating, and the audience share
/// each work or title had where audiences were joined.
struct RecommendationIndex: Sendable {
    let works: [String: WorkFeatures]
    /// The mean of the works' ratings, what a rating with few votes is pulled towards.
    let meanRating: Double
    /// Work or title key → the mean share (percent) of its airings joined to audience figures.
    let shares: [String: Double]
    /// Per programme of the guide (its position in `snapshot.programmes`), what a request reads
    /// for every candidate of a day: its features (an index into `features`: the works by id, then
    /// the titles), its kind (`kindCodes`), and the part of its score no profile or zone changes.
    let features: [WorkFeatures]
    let featureOfPosition: [Int32]
    let kindOfPosition: [UInt8]
    let baseOfPosition: [Float]
    /// `kindOfPosition` of an airing whose kind nobody gave.
    static let noKind = UInt8.max
    static let kindCodes: [ProgrammeKind: UInt8] = Dictionary(uniqueKeysWithValues: ProgrammeKind.allCases.enumerated().map { ($1, UInt8($0)) })

    init(_ index: GuideIndex) {
        var works: [String: WorkFeatures] = [:]
        var ratings = 0.0, rated = 0
        for (id, work) in index.snapshot.works {
            let metadata = work.metadata
            works[id] = WorkFeatures(
                key: id, title: metadata.title ?? work.guideTitles.first ?? id, kind: work.kind,
                genres: Self.genres(metadata.genres ?? []),
                directors: Set((metadata.crew ?? []).filter { ["director", "creator"].contains($0.job.lowercased()) }.map(\.name)),
                cast: (metadata.cast ?? []).prefix(Self.castCompared).map(\.name),
                keywords: [], voteAverage: metadata.voteAverage, voteCount: metadata.voteCount)
            if let average = metadata.voteAverage, (metadata.voteCount ?? 0) > 0 { ratings += average; rated += 1 }
        }
        self.works = works
        meanRating = rated == 0 ? 6 : ratings / Double(rated)
        var sums: [String: (total: Double, count: Int)] = [:]
        for (id, records) in index.audiencesByProgramme {
            guard let programme = index.programme(id) else { continue }
            for record in records {
                guard let share = record.share else { continue }
                let key = Self.key(of: programme)
                sums[key, default: (0, 0)].total += share
                sums[key, default: (0, 0)].count += 1
            }
        }
        shares = sums.mapValues { $0.total / Double($0.count) }
        var first = [Int32](repeating: -1, count: index.foldedTitles.count)
        for position in index.byStart.reversed() { first[Int(index.titleNumbers[Int(position)])] = position }
        // Per title number of `GuideIndex` (`titleNumbers`), the features of the title's first
        // airing: what programmes without a work are compared by.
        let titles = first.enumerated().map { number, position in
            guard position >= 0 else {
                return WorkFeatures(key: "title:" + index.foldedTitles[number], title: index.foldedTitles[number], kind: nil, genres: [], directors: [],
                                    cast: [], keywords: [], voteAverage: nil, voteCount: nil)
            }
            let programme = index.snapshot.programmes[Int(position)]
            let credits = programme.credits ?? []
            return WorkFeatures(
                key: "title:" + index.foldedTitles[number], title: programme.title, kind: programme.kind,
                genres: Self.genres((programme.categories ?? []).map(\.value)),
                directors: Set(credits.filter { $0.role == .director }.map(\.name)),
                cast: credits.filter { $0.role == .actor }.prefix(Self.castCompared).map(\.name),
                keywords: Set((programme.keywords ?? []).map { SearchText.fold($0.value) }), voteAverage: nil, voteCount: nil)
        }
        let workIDs = works.keys.sorted()
        var numberOfWork: [String: Int32] = [:]
        for (number, id) in workIDs.enumerated() { numberOfWork[id] = Int32(number) }
        features = workIDs.map { works[$0]! } + titles
        let programmes = index.snapshot.programmes
        var featureOfPosition = [Int32](repeating: 0, count: programmes.count)
        var kindOfPosition = [UInt8](repeating: Self.noKind, count: programmes.count)
        var baseOfPosition = [Float](repeating: 0, count: programmes.count)
        let (mean, shares) = (meanRating, self.shares)
        for (position, programme) in programmes.enumerated() {
            let feature = programme.work.flatMap { numberOfWork[$0] } ?? Int32(workIDs.count) + index.titleNumbers[position]
            featureOfPosition[position] = feature
            let candidate = features[Int(feature)]
            kindOfPosition[position] = index.kind(of: programme).flatMap { Self.kindCodes[$0] } ?? Self.noKind
            baseOfPosition[position] = Float(Recommender.baseScore(programme, candidate, meanRating: mean, share: shares[candidate.key]))
        }
        self.featureOfPosition = featureOfPosition
        self.kindOfPosition = kindOfPosition
        self.baseOfPosition = baseOfPosition
    }

    /// The people compared: a film's or series' leading cast.
    static let castCompared = 6

    static func key(of programme: Programme) -> String {
        programme.work ?? "title:" + SearchText.fold(programme.title)
    }

    static func genres(_ names: [String]) -> Set<String> {
        let ids = GenreVocabulary.ids(names)
        let unknown = names.filter { GenreVocabulary.canonicalIDs(of: $0).isEmpty && !GenreVocabulary.isKindWord($0) }.map(SearchText.fold)
        return Set(ids + unknown)
    }

    /// The features of the programme at `position` of the guide: its work's, else its title's.
    func features(at position: Int) -> WorkFeatures {
        features[Int(featureOfPosition[position])]
    }
}

/// The recommendation index of one guide, made the first time it is asked for.
final class LazyRecommendationIndex: Sendable {
    private let made = NIOLockedValueBox<RecommendationIndex?>(nil)

    func get(_ index: GuideIndex) -> RecommendationIndex {
        made.withLockedValue { made in
            if let made { return made }
            let built = RecommendationIndex(index)
            made = built
            return built
        }
    }
}

/// One pick: the airing, its score and why.
struct Recommendation: Sendable {
    let programme: Programme
    let score: Double
    let reasons: [RecommendationReason]
    /// The work or title it is an airing of, and its genres: what diversity compares.
    let key: String
    let genres: Set<String>
}

/// The day's best few for a profile: candidates of the day on the chosen channels, scored by
/// likeness to what the person liked, quality, popularity, timing and their kinds and genres,
/// then diversified. The same guide, profile and moments give the same list.
enum Recommender {
    /// The kinds a recommendation offers when the person names none: "a film, series, show or documentary".
    static let defaultKinds: Set<ProgrammeKind> = [.movie, .series, .programme, .documentary]
    static let maximumLimit = 20
    /// Candidates diversified: the best by score before diversity is taken into account.
    static let pool = 200
    /// Of one canonical genre, at most this many picks before other genres are preferred.
    static let perGenre = 2

    static func recommend(_ index: GuideIndex, profile: TasteProfile, channels: Set<String>, from: Date, to: Date,
                          zone: TimeZone, limit: Int) -> [Recommendation] {
        let features = index.recommendations.get(index)
        let saved = resolve(profile.saved, in: index, features: features)
        let liked = saved + resolve(profile.likes, in: index, features: features)
        let disliked = resolve(profile.dislikes, in: index, features: features)
        // A film already saved needs no recommending; a series saved does, for its other episodes.
        let excluded = Set(disliked.map(\.key)).union(saved.filter { $0.kind == .movie }.map(\.key))
        let kinds = profile.kinds.isEmpty ? defaultKinds : profile.kinds
        var offered = [Bool](repeating: false, count: ProgrammeKind.allCases.count)
        for kind in kinds { offered[Int(RecommendationIndex.kindCodes[kind]!)] = true }
        let programmes = index.snapshot.programmes
        let local = LocalMinutes(zone, from: from, to: to)
        // Likeness depends on the work only: each work's is worked out once per request.
        var likeness = [Float](repeating: .nan, count: liked.isEmpty && disliked.isEmpty ? 0 : features.features.count)

        // Every candidate gets a quick score from the guide's precomputed part and the profile's;
        // the best get their reasons and the rerun check.
        var quick: [(score: Float, position: Int32)] = []
        for channel in index.channels where channels.contains(channel.id) {
            guard let positions = index.schedules[channel.id] else { continue }
            var low = 0, high = positions.count
            while low < high {
                let middle = (low + high) / 2
                if programmes[Int(positions[middle])].start < from { low = middle + 1 } else { high = middle }
            }
            for position in positions[low...].lazy.map(Int.init) {
                let programme = programmes[position]
                if programme.start >= to { break }
                let kindCode = features.kindOfPosition[position]
                guard kindCode != RecommendationIndex.noKind, offered[Int(kindCode)] else { continue }
                let number = Int(features.featureOfPosition[position])
                let candidate = features.features[number]
                if !excluded.isEmpty && excluded.contains(candidate.key) { continue }
                var score = features.baseOfPosition[position]
                if !likeness.isEmpty {
                    if likeness[number].isNaN {
                        likeness[number] = Float(2 * RecommendationScoring.bestMatch(candidate, among: liked).score
                                                 - 1.5 * RecommendationScoring.bestMatch(candidate, among: disliked).score)
                    }
                    score += likeness[number]
                }
                let kind = ProgrammeKind.allCases[Int(kindCode)]
                if !profile.kinds.isEmpty || !profile.genres.isEmpty {
                    score += Float(RecommendationScoring.preference(kind: kind, genres: candidate.genres, kinds: profile.kinds, preferred: profile.genres).score)
                }
                if local.isPrimeTime(programme.start) { score += Float(RecommendationScoring.primeTimeWeight) }
                if profile.isEmpty && kind == .movie { score += Float(filmFirst) }
                quick.append((score, Int32(position)))
            }
        }
        quick.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            let (x, y) = (programmes[Int(a.position)], programmes[Int(b.position)])
            return (x.start, x.channel) < (y.start, y.channel)
        }
        let savedKeys = Set(saved.map(\.key))
        let ranked = quick.prefix(2 * pool).map { entry -> Recommendation in
            let position = Int(entry.position)
            let programme = programmes[position]
            let candidate = features.features(at: position)
            let pick = score(programme, candidate, kind: index.kind(of: programme)!, liked: liked, saved: savedKeys,
                             disliked: disliked, profile: profile, meanRating: features.meanRating,
                             share: features.shares[candidate.key], zone: zone)
            // A rerun of the day before loses ground; asked only of the best, as it reads other airings.
            return airedInTheDayBefore(position: position, in: index) ? pick.lowered(by: rerunPenalty) : pick
        }.sorted(by: ranks)
        return diversify(Array(ranked.prefix(pool)), limit: limit)
    }

    /// Without a profile films lead: the day's best-rated films are what is asked for then.
    static let filmFirst = 0.3

    static let rerunPenalty = 0.5

    /// Higher score first; then sooner, then by channel: the order is total, the list deterministic.
    static func ranks(_ a: Recommendation, before b: Recommendation) -> Bool {
        a.score != b.score ? a.score > b.score : (a.programme.start, a.programme.channel) < (b.programme.start, b.programme.channel)
    }

    /// One candidate's score and reasons, the strongest reason first.
    static func score(_ programme: Programme, _ candidate: WorkFeatures, kind: ProgrammeKind, liked: [WorkFeatures], saved: Set<String>,
                      disliked: [WorkFeatures], profile: TasteProfile, meanRating: Double, share: Double?, zone: TimeZone) -> Recommendation {
        var reasons: [RecommendationReason] = []
        let match = RecommendationScoring.bestMatch(candidate, among: liked)
        if let work = match.work, let likeness = match.likeness {
            reasons.append(.similar(to: work.title, saved: saved.contains(work.key), likeness))
        }
        let unlike = RecommendationScoring.bestMatch(candidate, among: disliked).score

        let quality = Self.quality(of: candidate, meanRating: meanRating)
        let timing = RecommendationScoring.timing(
            startMinute: WebDays.minutes(of: programme.start, in: zone), premiere: programme.premiere == true,
            lastChance: programme.lastChance == true, rerunWithinDay: false)
        let preference = RecommendationScoring.preference(kind: kind, genres: candidate.genres, kinds: profile.kinds, preferred: profile.genres)
        let popularity = RecommendationScoring.popularity(share: share)

        reasons += timing.reasons.filter { $0 != .primeTime }
        if let average = candidate.voteAverage, let votes = candidate.voteCount, votes >= 100, quality >= 0.3 {
            reasons.append(.rated(average: average, votes: votes))
        }
        reasons += preference.reasons
        if let share, popularity >= 0.4 { reasons.append(.audience(share: share)) }
        if timing.reasons.contains(.primeTime) { reasons.append(.primeTime) }
        let total = 2 * match.score + quality + 0.5 * popularity + timing.score + preference.score - 1.5 * unlike
            + (profile.isEmpty && kind == .movie ? filmFirst : 0)
        return Recommendation(programme: programme, score: (total * 1000).rounded() / 1000, reasons: Array(reasons.prefix(3)),
                              key: candidate.key, genres: candidate.genres)
    }

    /// The work's rating, shrunk by its votes, as 0…1; 0 without a rating.
    static func quality(of candidate: WorkFeatures, meanRating: Double) -> Double {
        candidate.voteAverage.map {
            RecommendationScoring.quality(RecommendationScoring.shrunkRating(average: $0, votes: candidate.voteCount ?? 0, mean: meanRating))
        } ?? 0
    }

    /// The part of an airing's score that no profile or zone changes: quality, popularity,
    /// premiere and last chance (prime time is the zone's, added per request).
    static func baseScore(_ programme: Programme, _ candidate: WorkFeatures, meanRating: Double, share: Double?) -> Double {
        let quality = Self.quality(of: candidate, meanRating: meanRating)
        let timing = RecommendationScoring.timing(startMinute: -1, premiere: programme.premiere == true,
                                                  lastChance: programme.lastChance == true, rerunWithinDay: false)
        return quality + 0.5 * RecommendationScoring.popularity(share: share) + timing.score
    }

    /// The best first, then each next the best that is not another airing of a work already
    /// picked and, while others remain, not a third of one genre.
    static func diversify(_ ranked: [Recommendation], limit: Int) -> [Recommendation] {
        var picked: [Recommendation] = []
        var keys = Set<String>()
        var genreCounts: [String: Int] = [:]
        var deferred: [Recommendation] = []
        for candidate in ranked where picked.count < limit && !keys.contains(candidate.key) {
            if candidate.genres.contains(where: { genreCounts[$0, default: 0] >= perGenre }) {
                deferred.append(candidate)
                continue
            }
            picked.append(candidate)
            keys.insert(candidate.key)
            for genre in candidate.genres { genreCounts[genre, default: 0] += 1 }
        }
        // Too few of other genres: the best of the ones held back fill the list.
        for candidate in deferred where picked.count < limit && keys.insert(candidate.key).inserted {
            picked.append(candidate)
        }
        return picked.sorted(by: ranks)
    }

    /// Whether the airing at `position` is a rerun of one in the day before it, more than an
    /// hour before (the same news on two channels at once is not a rerun): the same film, or the
    /// same episode of a series (by its numbers, else its sub-title). Yesterday's episode of a
    /// daily series is another episode, and one without numbers nor sub-title cannot be told.
    static func airedInTheDayBefore(position: Int, in index: GuideIndex) -> Bool {
        let programme = index.snapshot.programmes[position]
        let (since, until) = (programme.start.addingTimeInterval(-86_400), programme.start.addingTimeInterval(-3_600))
        let episode = episodeIdentity(programme)
        guard index.kind(of: programme) == .movie || episode != nil else { return false }
        let others = programme.work.flatMap { index.airingsByWork[$0] } ?? index.titledPositions(index.titleNumbers[position])
        return others.contains { other in
            let earlier = index.snapshot.programmes[Int(other)]
            return earlier.start >= since && earlier.start <= until && episodeIdentity(earlier) == episode
        }
    }

    /// What tells one episode from another: its season and number, else its sub-title.
    static func episodeIdentity(_ programme: Programme) -> String? {
        if let episode = programme.episode, episode.season != nil || episode.number != nil {
            return "\(episode.season ?? -1).\(episode.number ?? -1)"
        }
        return programme.subtitle.map { "subtitle:" + SearchText.fold($0) }
    }

    /// Liked or disliked items as features: a work id, a programme id, or a title of the guide.
    /// Items the guide no longer knows are left out.
    static func resolve(_ items: [String], in index: GuideIndex, features: RecommendationIndex) -> [WorkFeatures] {
        var seen = Set<String>()
        return items.compactMap { item -> WorkFeatures? in
            if let work = features.works[item] { return work }
            if let programme = index.programme(item) ?? index.airings(titled: item).first, let position = index.position(of: programme.id) {
                // Named as the person saw it in the guide, not as the metadata provider titles it.
                return features.features(at: position).titled(programme.title)
            }
            return nil
        }.filter { seen.insert($0.key).inserted }
    }
}

extension WorkFeatures {
    func titled(_ title: String) -> WorkFeatures {
        WorkFeatures(key: key, title: title, kind: kind, genres: genres, directors: directors, cast: cast, keywords: keywords,
                     voteAverage: voteAverage, voteCount: voteCount)
    }
}

extension Recommendation {
    func lowered(by penalty: Double) -> Recommendation {
        Recommendation(programme: programme, score: ((score - penalty) * 1000).rounded() / 1000, reasons: reasons, key: key, genres: genres)
    }
}

/// Local minutes of the day for a span of time: the zone's offset read once when it does not
/// change within the span (no daylight-saving change), else for each moment.
struct LocalMinutes {
    let zone: TimeZone
    let offset: Int?

    init(_ zone: TimeZone, from: Date, to: Date) {
        self.zone = zone
        let first = zone.secondsFromGMT(for: from)
        offset = first == zone.secondsFromGMT(for: to) ? first : nil
    }

    func isPrimeTime(_ date: Date) -> Bool {
        let minute: Int
        if let offset {
            let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + offset
            minute = ((seconds % 86_400 + 86_400) % 86_400) / 60
        } else {
            minute = WebDays.minutes(of: date, in: zone)
        }
        return (WebDays.primeTime.start..<WebDays.primeTime.end).contains(minute)
    }
}
