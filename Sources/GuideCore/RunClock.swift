import Foundation

/// The one notion of "now" of a run: the window, token expiry, cache freshness, `Retry-After`
/// dates and the lookup cache all read it, so `--now` (or `TVGUIDE_NOW`) governs them all, and
/// a build gives the same answers whatever the machine's date. It holds the instant the run
/// started: a run is minutes long, and a clock that stood still keeps "fetched at" and "fresh
/// until" comparable between two runs given the same `--now`.
package struct RunClock: Sendable {
    package let now: Date

    package init(fixedAt now: Date) {
        self.now = now
    }

    /// The machine's wall clock as it reads when the run starts.
    package static var wall: RunClock { RunClock(fixedAt: Date()) }

    /// `now` as a closure, for the types that take one.
    package var reading: @Sendable () -> Date {
        let now = self.now
        return { now }
    }
}
