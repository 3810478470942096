import Foundation

/// A channel's airings as something that shows one at a time sees them: the web grid's row, what
/// is on now. The guide keeps what XMLTV allows, as tv_sort does (airings sharing a start,
/// overlaps); here an airing that starts with the one shown, or ends inside it, is left out, and
/// one that starts inside it cuts it short. A zero-length airing (a marker) hides nothing.
package enum OneAtATime {
    package struct Shown: Sendable, Equatable {
        package let programme: Programme
        /// Where the airing is shown to end: its stop, or the start of the next one shown if that
        /// is earlier; its start when it has no stop.
        package fileprivate(set) var end: Date
    }

    /// `programmes` are one channel's, by start (as the guide holds them).
    package static func resolve(_ programmes: some Sequence<Programme>) -> [Shown] {
        var shown: [Shown] = []
        // The last airing shown that covers time: what follows a marker is checked against it.
        var lastTimed: Int?
        for programme in programmes {
            let own = Shown(programme: programme, end: programme.stop ?? programme.start)
            if programme.stop == programme.start {
                shown.append(own)
                continue
            }
            if let index = lastTimed {
                let previous = shown[index]
                if previous.programme.start == programme.start { continue }
                if previous.end > programme.start {
                    if let stop = programme.stop, stop <= previous.end { continue }
                    shown[index].end = programme.start
                }
            }
            lastTimed = shown.count
            shown.append(own)
        }
        return shown
    }
}
