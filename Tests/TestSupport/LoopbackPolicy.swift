import GuideTransport

extension TransportPolicy {
    /// For tests that count the requests a loopback server saw: a loaded CI machine can take
    /// seconds to answer, and a retry after a slow first attempt would add a request the test
    /// did not ask for. So: one attempt, and all the time it needs.
    package static let loopbackExact = TransportPolicy(timeout: .seconds(120), retries: 0)
}
