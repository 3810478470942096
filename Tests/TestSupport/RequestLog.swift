import Foundation

/// What a loopback server was asked: every request in order, per-path counts, and the most
/// requests it was answering at one time. Pass one to `LoopbackServer.run(log:)`.
package actor RequestLog {
    package private(set) var requests: [LoopbackRequest] = []
    package private(set) var inFlight = 0
    package private(set) var maxInFlight = 0

    package init() {}

    package var count: Int { requests.count }

    /// Requests whose path is `path` (query ignored).
    package func count(path: String) -> Int {
        requests.filter { $0.path == path }.count
    }

    /// The last request for `path`, to look at its headers.
    package func last(path: String) -> LoopbackRequest? {
        requests.last { $0.path == path }
    }

    func began(_ request: LoopbackRequest) {
        requests.append(request)
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
    }

    func ended() {
        inFlight -= 1
    }
}

/// Answers a scripted list of responses in turn (`[.status(500), .json("{}")]`); once the
/// script is spent, the last response is repeated.
package actor Sequenced {
    private let script: [LoopbackResponse]
    private var position = 0

    package init(_ script: [LoopbackResponse]) {
        precondition(!script.isEmpty, "a script needs at least one response")
        self.script = script
    }

    package func next() -> LoopbackResponse {
        defer { position += 1 }
        return script[min(position, script.count - 1)]
    }

    /// A handler for `LoopbackServer.run`.
    package nonisolated var handler: LoopbackHandler {
        { _ in await self.next() }
    }
}
