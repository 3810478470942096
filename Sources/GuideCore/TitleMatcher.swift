import Foundation

/// Picks the work a guide title means among a provider's search results, the way users of
/// `tv_tmdb` expect: exact title and year first, then the title alone, then the year within ±2.
/// A wrong match is worse than none, so two equally good candidates are rejected as ambiguous.
public enum TitleMatcher {
    /// One search result: its id, every title it is known by (title, original title, aliases,
    /// translations) and its year.
    public struct Candidate: Sendable, Hashable {
        public var id: String
        public var titles: [String]
        public var year: Int?

        public init(id: String, titles: [String], year: Int?) {
            self.id = id
            self.titles = titles
            self.year = year
        }
    }

    public enum Decision: Sendable, Hashable {
        case match(Candidate, MetadataMatch.Method, confidence: Double)
        case noMatch
        /// The candidates that tied, best first.
        case ambiguous([Candidate])
    }

    /// Confidence per rule; a provider id in the guide is 1.0.
    public static func confidence(_ method: MetadataMatch.Method, yearDistance: Int = 0) -> Double {
        switch method {
        case .providerID: 1.0
        case .exact: 0.95
        case .titleOnly: 0.8
        case .nearYear: 0.75 - 0.05 * Double(yearDistance)
        }
    }

    public static func decide(title: String, year: Int?, among candidates: [Candidate]) -> Decision {
        let wanted = TitleKey(title)
        guard !wanted.words.isEmpty else { return .noMatch }
        let queryYear = year ?? wanted.year
        // De-duplicated after matching: a result listed twice may match under its second listing only.
        var seen = Set<String>()
        let matching = candidates
            .filter { candidate in candidate.titles.contains { TitleKey($0).words == wanted.words } }
            .filter { seen.insert($0.id).inserted }
        guard !matching.isEmpty else { return .noMatch }

        // A candidate's year may be written in its title ("Hermanos (2024)"), as TheTVDB does
        // to tell apart series of the same name.
        func candidateYear(_ candidate: Candidate) -> Int? {
            candidate.year ?? candidate.titles.lazy.compactMap { TitleKey($0).year }.first
        }

        guard let queryYear else {
            let neitherHasAYear = matching.count == 1 && candidateYear(matching[0]) == nil
            return decided(matching, neitherHasAYear ? .exact : .titleOnly, distance: 0)
        }
        let exact = matching.filter { candidateYear($0) == queryYear }
        if !exact.isEmpty { return decided(exact, .exact, distance: 0) }
        let yearless = matching.filter { candidateYear($0) == nil }
        if !yearless.isEmpty { return decided(yearless, .titleOnly, distance: 0) }
        let near = matching.compactMap { candidate -> (Candidate, Int)? in
            guard let year = candidateYear(candidate) else { return nil }
            let distance = abs(year - queryYear)
            return distance <= 2 ? (candidate, distance) : nil
        }
        guard let closest = near.map(\.1).min() else { return .noMatch }
        return decided(near.filter { $0.1 == closest }.map(\.0), .nearYear, distance: closest)
    }

    private static func decided(_ tied: [Candidate], _ method: MetadataMatch.Method, distance: Int) -> Decision {
        guard tied.count == 1, let only = tied.first else { return .ambiguous(tied) }
        return .match(only, method, confidence: confidence(method, yearDistance: distance))
    }
}

/// A title reduced to what identifies it: case, accents, punctuation and the spelling of "and"
/// (`&`, `and`, Spanish `y`) do not count. A trailing year in brackets,
/// `Hermanos (2024)`, is taken off the words and kept as `year`.
package struct TitleKey: Sendable, Hashable {
    package var words: [String]
    package var year: Int?

    package init(_ title: String) {
        var text = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        year = nil
        if let suffix = text.range(of: #"\s*[\(\[]\s*(1[89]|20)\d\d\s*[\)\]]\s*$"#, options: .regularExpression) {
            year = Int(text[suffix].filter(\.isNumber))
            text.removeSubrange(suffix)
        }
        var words: [String] = []
        var current = ""
        func flush() {
            guard !current.isEmpty else { return }
            words.append(Self.conjunctions.contains(current) ? "and" : current)
            current = ""
        }
        for character in text.lowercased() {
            if character == "&" {
                flush()
                words.append("and")
            } else if character.isLetter || character.isNumber {
                current.append(character)
            } else if character == "'" || character == "’" {
                continue  // "Schindler's" and "Schindlers" are the same title
            } else {
                flush()
            }
        }
        flush()
        self.words = words
    }

    private static let conjunctions: Set<String> = ["and", "y"]
}
