@testable import GuideServer
import NIOConcurrencyHelpers
import NIOCore

/// A clock that moves only when the test moves it: the connection rules' deadlines are tested by
/// going to them, so no verdict depends on how fast the machine runs.
final class ManualClock: ConnectionClock {
    private let moment = NIOLockedValueBox(NIODeadline.uptimeNanoseconds(1_000_000_000))

    var now: NIODeadline { moment.withLockedValue { $0 } }

    func move(to later: NIODeadline) {
        moment.withLockedValue { $0 = max($0, later) }
    }
}
