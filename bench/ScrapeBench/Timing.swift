import Foundation

/// Wall-clock times of repeated passes, in seconds.
struct Timings: Encodable {
    var passes: Int
    var medianSeconds: Double
    var bestSeconds: Double

    /// Runs `body` once untimed (it warms caches and allocators, as the lxml peer's first pass
    /// does), then `passes` times timed.
    static func measure(passes: Int, _ body: () throws -> Void) rethrows -> Timings {
        try body()
        var seconds: [Double] = []
        for _ in 0..<passes {
            let start = ContinuousClock.now
            try body()
            seconds.append(start.duration(to: .now).seconds)
        }
        return Timings(seconds)
    }

    static func measureAsync(passes: Int, _ body: () async throws -> Void) async rethrows -> Timings {
        try await body()
        var seconds: [Double] = []
        for _ in 0..<passes {
            let start = ContinuousClock.now
            try await body()
            seconds.append(start.duration(to: .now).seconds)
        }
        return Timings(seconds)
    }

    init(_ seconds: [Double]) {
        let sorted = seconds.sorted()
        passes = sorted.count
        bestSeconds = sorted[0]
        // The mean of the middle two for an even count, as Python's statistics.median.
        let middle = sorted.count / 2
        medianSeconds = sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// Megabytes (10^6 bytes) per second at the median pass.
    func megabytesPerSecond(_ bytes: Int) -> Double {
        Double(bytes) / medianSeconds / 1e6
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
