/// "Did you mean" hints for misspelt keys, provider names and types. Hand-written because
/// neither Foundation nor the package's dependencies offer an edit distance.
package enum Suggestion {
    /// ` — did you mean 'x'?` for the closest candidate within a few edits, or "" when none is close.
    package static func didYouMean(_ word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { " — did you mean '\($0)'?" } ?? ""
    }

    /// The candidate nearest to `word`, provided the distance is small for its length (one edit
    /// for short words, up to three for long ones); ties go to the earlier candidate.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let lowered = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            let tolerance = max(1, min(3, candidate.count / 3))
            guard distance <= tolerance else { continue }
            if distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours each cost one, so `wnidow` is one edit from `window`.
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow = [Int](repeating: 0, count: b.count + 1)
        var row = Array(0...b.count)
        var result = row
        for i in 1...a.count {
            result = [Int](repeating: 0, count: b.count + 1)
            result[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(row[j] + 1, result[j - 1] + 1, row[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousRow[j - 2] + 1)
                }
                result[j] = value
            }
            previousRow = row
            row = result
        }
        return result[b.count]
    }
}
