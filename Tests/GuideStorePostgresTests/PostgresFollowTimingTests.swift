import Foundation
import GuideCore
import GuideStorePostgres
import Testing
import TestSupport

/// A follower hears another process's commit within 2 s. Timed, so `make test` runs it with
/// ReplicaConvergenceTests, last and alone (CONVERGENCE_SUITES): beside the other store suites'
/// clusters on 2 cores, the wait is the machine's more than the store's. In a file of its own:
/// swift-testing's `--filter` also matches a test's file name, so in PostgresSnapshotStoreTests.swift
/// it ran with STORE_SUITES too, and CI saw 2.09 s there.
@Suite(.enabled(if: PostgresCluster.binaries != nil, "PostgreSQL's initdb and postgres were not found (apt-get install postgresql; .ci/run installs it)"))
struct PostgresFollowTimingTests {
    @Test func aFollowerHearsAnotherProcesssCommitWithinTwoSecondsButNotItsOwn() async throws {
        try await PostgresCluster.run { cluster in
            let follower = try PostgresSnapshotStoreTests.store(cluster)
            let builder = try PostgresSnapshotStoreTests.store(cluster)
            _ = try await builder.commit(try PostgresSnapshotStoreTests.snapshot(hour: 0))
            #expect(try await follower.latestToServe()?.generatedAt == PostgresSnapshotStoreTests.time(hour: 0))
            let events = EventLog()
            let following = Task { await follower.follow { await events.append($0) } }
            defer { following.cancel() }
            try await events.wait(for: "live") { $0.live > 0 }
            _ = try await builder.commit(try PostgresSnapshotStoreTests.snapshot(hour: 1))
            let committed = ContinuousClock.now
            try await events.wait(for: "the commit") { $0.committed == [PostgresSnapshotStoreTests.time(hour: 1)] }
            #expect(ContinuousClock.now - committed < .seconds(2))
            // Its own commit is in service already (the refresh swapped it in): not handed again.
            _ = try await follower.commit(try PostgresSnapshotStoreTests.snapshot(hour: 2))
            _ = try await builder.commit(try PostgresSnapshotStoreTests.snapshot(hour: 3))
            try await events.wait(for: "the second commit") { $0.committed.count == 2 }
            #expect(await events.committed == [PostgresSnapshotStoreTests.time(hour: 1), PostgresSnapshotStoreTests.time(hour: 3)])
        }
    }
}
