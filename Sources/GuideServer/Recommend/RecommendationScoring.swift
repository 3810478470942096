import Foundation
import GuideCore

/// What a recommendation compares: a film, a series or a title of the guide, as features.
struct WorkFeatures: Sendable, Equatable {
    /// The work's id, else `title:` and the folded title: one key however often it airs.
    let key: String
    let title: String
    let kind: ProgrammeKind?
    /// Canonical genre ids, or folded words the genre list does not know.
    let genres: Set<String>
    let directors: Set<String>
    /// Top-billed first.
    let cast: [String]
    let keywords: Set<String>
    let voteAverage: Double?
    let voteCount: Int?
}

/// How a programme is like a work the person chose.
enum Likeness: Hashable, Sendable {
    /// New episodes of a series they chose.
    case sameSeries
    case sameDirector(String)
    case sharedCast(String)
    case sameGenres
    case sharedKeywords
}

/// Why a programme was picked, said in words on the page and in the API.
enum RecommendationReason: Hashable, Sendable {
    /// Like `title`, which the person saved (a reminder, every airing of a title) or gave a 👍.
    case similar(to: String, saved: Bool, Likeness)
    case premiere
    case lastChance
    case rated(average: Double, votes: Int)
    case audience(share: Double)
    case preferredKind(ProgrammeKind)
    case preferredGenre(String)
    case primeTime

    /// A stable name for clients that word the reason themselves.
    var code: String {
        switch self {
        case .similar(_, _, .sameSeries): "same-series"
        case .similar(_, _, .sameDirector): "same-director"
        case .similar(_, _, .sharedCast): "shared-cast"
        case .similar(_, _, .sameGenres): "same-genres"
        case .similar(_, _, .sharedKeywords): "shared-keywords"
        case .premiere: "premiere"
        case .lastChance: "last-chance"
        case .rated: "rated"
        case .audience: "audience"
        case .preferredKind: "preferred-kind"
        case .preferredGenre: "preferred-genre"
        case .primeTime: "prime-time"
        }
    }

    /// The reason in `t`'s language: "because you saved Gladiator: same director (Ridley Scott)".
    func text(_ t: WebCatalogue) -> String {
        switch self {
        case .similar(let title, let saved, let likeness):
            let because = t.text(saved ? "reason.becauseSaved" : "reason.becauseLiked", ["title": title])
            let how = switch likeness {
            case .sameSeries: t["reason.sameSeries"]
            case .sameDirector(let director): t.text("reason.sameDirector", ["director": director])
            case .sharedCast(let person): t.text("reason.sharedCast", ["person": person])
            case .sameGenres: t["reason.sameGenres"]
            case .sharedKeywords: t["reason.sharedKeywords"]
            }
            return because + ": " + how
        case .premiere: return t["reason.premiere"]
        case .lastChance: return t["reason.lastChance"]
        case .rated(let average, let votes):
            return t.text("reason.rated", ["rating": WebPages.decimal(average, t.language), "votes": WebPages.grouped(votes, t.language)])
        case .audience(let share): return t.text("reason.audience", ["share": WebPages.decimal(share, t.language)])
        case .preferredKind(let kind): return t.text("reason.preferredKind", ["kind": t["kinds." + kind.rawValue].lowercased()])
        case .preferredGenre(let genre):
            return t.text("reason.preferredGenre", ["genre": (GenreVocabulary.name(ofID: genre, language: t.language.rawValue) ?? genre).lowercased()])
        case .primeTime: return t["reason.primeTime"]
        }
    }
}

/// The parts of a recommendation's score, each a pure function of what it is given: the tests
/// pin each part and its words.
enum RecommendationScoring {
    /// Votes a rating needs before it counts as much as the guide's mean: a rating from fewer
    /// is pulled towards the mean, so 9/10 from 12 votes does not beat 8/10 from 20,000.
    static let priorVotes = 500.0

    /// The rating shrunk towards `mean` by the number of votes (a Bayesian average).
    static func shrunkRating(average: Double, votes: Int, mean: Double, prior: Double = priorVotes) -> Double {
        let count = Double(max(votes, 0))
        return (count * average + prior * mean) / (count + prior)
    }

    static let primeTimeWeight = 0.2

    /// 0 for a shrunk rating of 5/10 or less, 1 for 10/10.
    static func quality(_ shrunk: Double) -> Double {
        min(max((shrunk - 5) / 5, 0), 1)
    }

    /// The audience share (percent) as 0…1: a quarter of the audience is as popular as it gets.
    static func popularity(share: Double?) -> Double {
        guard let share, share > 0 else { return 0 }
        return min(share / 25, 1)
    }

    /// How much `candidate` is like one `liked` work, and the likeness that says it best: the
    /// same series (new episodes of what was chosen), a director, an actor, genres, keywords.
    static func similarity(_ candidate: WorkFeatures, to liked: WorkFeatures) -> (score: Double, likeness: Likeness?) {
        if candidate.key == liked.key {
            // Another airing of a chosen film is not news; another episode of a chosen series is.
            return candidate.kind == .movie ? (0, nil) : (1, .sameSeries)
        }
        var parts: [(Double, Likeness)] = []
        // Checked without building sets: this runs for every candidate of a day.
        if !candidate.directors.isDisjoint(with: liked.directors), let director = candidate.directors.intersection(liked.directors).min() {
            parts.append((0.7, .sameDirector(director)))
        }
        if let person = candidate.cast.first(where: liked.cast.contains) {
            parts.append((0.5, .sharedCast(person)))
        }
        let genres = jaccard(candidate.genres, liked.genres)
        if genres >= 0.5 { parts.append((0.4 * genres, .sameGenres)) }
        let keywords = jaccard(candidate.keywords, liked.keywords)
        if keywords > 0 { parts.append((0.3 * keywords, .sharedKeywords)) }
        guard let best = parts.max(by: { $0.0 < $1.0 }) else { return (0, nil) }
        // The strongest likeness, and a little for each other one.
        let rest = parts.reduce(0) { $0 + $1.0 } - best.0
        return (min(best.0 + 0.1 * rest, 1), best.1)
    }

    /// The best likeness to any of `liked`, and the work it is to; the first liked work wins a tie.
    static func bestMatch(_ candidate: WorkFeatures, among liked: [WorkFeatures]) -> (score: Double, work: WorkFeatures?, likeness: Likeness?) {
        var best: (score: Double, work: WorkFeatures?, likeness: Likeness?) = (0, nil, nil)
        for work in liked {
            let match = similarity(candidate, to: work)
            if match.score > best.score { best = (match.score, work, match.likeness) }
        }
        return best
    }

    /// When it airs: prime time, a premiere and a last chance add; a rerun of what aired in the
    /// day before subtracts.
    static func timing(startMinute: Int, premiere: Bool, lastChance: Bool, rerunWithinDay: Bool) -> (score: Double, reasons: [RecommendationReason]) {
        var score = 0.0
        var reasons: [RecommendationReason] = []
        if premiere { score += 0.5; reasons.append(.premiere) }
        if lastChance { score += 0.3; reasons.append(.lastChance) }
        if (WebDays.primeTime.start..<WebDays.primeTime.end).contains(startMinute) { score += primeTimeWeight; reasons.append(.primeTime) }
        if rerunWithinDay { score -= 0.5 }
        return (score, reasons)
    }

    /// The person's kinds and genres: each met adds, and says so.
    static func preference(kind: ProgrammeKind?, genres: Set<String>, kinds: Set<ProgrammeKind>, preferred: [String]) -> (score: Double, reasons: [RecommendationReason]) {
        var score = 0.0
        var reasons: [RecommendationReason] = []
        if let kind, kinds.contains(kind) { score += 0.3; reasons.append(.preferredKind(kind)) }
        if let genre = preferred.first(where: genres.contains) { score += 0.3; reasons.append(.preferredGenre(genre)) }
        return (score, reasons)
    }

    /// |a ∩ b| / |a ∪ b|; 0 for two empty sets.
    static func jaccard(_ a: Set<String>, _ b: Set<String>) -> Double {
        guard !a.isEmpty || !b.isEmpty else { return 0 }
        let (small, large) = a.count <= b.count ? (a, b) : (b, a)
        let shared = small.reduce(0) { $0 + (large.contains($1) ? 1 : 0) }
        return Double(shared) / Double(a.count + b.count - shared)
    }
}
