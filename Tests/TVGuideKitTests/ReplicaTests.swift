import Foundation
import GuideCore
import PostgresNIO
import Testing
import TestSupport

/// Replicas of `tvguide serve` sharing a PostgreSQL store, as real processes of the built binary
/// against a throw-away cluster: they converge on every commit, one of them builds at a time, a
/// builder killed mid-commit leaves `latest` whole, and a restart of PostgreSQL costs nothing
/// but freshness. Each wait is `ServeProcess.wait`'s, long enough to tell a slow machine from a
/// hang; how fast replicas follow is `bench/replicas.sh`'s to measure.
@Suite(.enabled(if: PostgresCluster.binaries != nil, "PostgreSQL's initdb and postgres were not found (apt-get install postgresql; .ci/run installs it)"))
struct ReplicaTests {
    static let first = "2026-10-21T19:00:00Z"
    static let second = "2026-10-21T20:00:00Z"
    static let third = "2026-10-21T21:00:00Z"

    @Test func aBuilderKilledMidCommitLeavesLatestWholeAndAnotherReplicaTakesOver() async throws {
        try await PostgresCluster.run { cluster in
            let deployment = try Deployment(cluster, yaml: try defaultConfig(miguiatv: "http://127.0.0.1:9/"))
            #expect(try await deployment.build(now: Self.first).status == 0)
            let follower = try await deployment.serve(["--no-refresh"])
            // The test holds `latest`'s row: the builder's commit inserts its snapshot, then waits
            // on that row, inside its transaction. That is the moment it is killed.
            let holder = try await deployment.connect()
            try await holder.query("BEGIN", logger: holder.logger)
            try await holder.query("SELECT 1 FROM tvguide_latest FOR UPDATE", logger: holder.logger)
            let doomed = try await deployment.serve(["--refresh-interval", "2s", "--now", Self.second])
            try await waitForCommitBlocked(cluster)
            // Its snapshot is written in its open transaction: no reader sees any of it.
            #expect(try await deployment.stored().all == [Self.first])
            // Another replica: its turn comes while the doomed one holds the builder lock, and passes.
            let heir = try await deployment.serve(["--refresh-interval", "2s", "--now", Self.third])
            try await heir.wait("a turn skipped") { try await $0.get("/metrics").contains(#"tvguide_refreshes_total{outcome="skipped"}"#) }
            kill(doomed.process.processIdentifier, SIGKILL)
            doomed.process.waitUntilExit()
            try await holder.query("ROLLBACK", logger: holder.logger)
            try await holder.close()
            // PostgreSQL rolled the killed transaction back: its snapshot is gone, `latest` is the
            // old one, or already the heir's (on a loaded machine its next turn can come first).
            let afterKill = try await deployment.stored()
            #expect(afterKill.latest == Self.first || afterKill.latest == Self.third)
            #expect(!afterKill.all.contains(Self.second))
            // The lock went with the killed builder's connection: the heir builds at its next turn.
            try await heir.wait("the heir's build committed") { try await $0.servedGeneratedAt() == Self.third }
            try await follower.wait("the heir's build followed") { try await $0.servedGeneratedAt() == Self.third }
            #expect(try await deployment.stored().latest == Self.third)
            #expect(try await heir.terminate() == 0)
            #expect(try await follower.terminate() == 0)
        }
    }

    @Test func aPostgreSQLRestartKeepsReplicasServingAndTheyReconnect() async throws {
        try await PostgresCluster.run { cluster in
            let deployment = try Deployment(cluster, yaml: try defaultConfig(miguiatv: "http://127.0.0.1:9/"))
            #expect(try await deployment.build(now: Self.first).status == 0)
            let replicas = [try await deployment.serve(["--no-refresh"]), try await deployment.serve(["--no-refresh"])]
            for replica in replicas {
                try await replica.wait("the store live") { try await $0.storeHealth()["state"] as? String == "live" }
            }
            try await cluster.stop()
            for replica in replicas {
                // The time is printed for whoever looks into a slow poll.
                let took = try await replica.wait("the store lost") { try await $0.storeHealth()["state"] as? String == "lost" }
                print("ReplicaTests: a replica reported the store lost \(took) after PostgreSQL stopped")
                let health = try await replica.json("/health")
                #expect(health["status"] as? String == "degraded")
                #expect(health["generatedAt"] as? String == Self.first)
                #expect(try await replica.get("/channels").contains("La1.es"), "the guide in hand is still served")
                #expect(try await replica.get("/metrics").contains("tvguide_store_up 0"))
            }
            try await cluster.start()
            for replica in replicas {
                try await replica.wait("the store back") { try await $0.storeHealth()["state"] as? String == "live" }
                #expect(try await replica.storeHealth()["reconnects"] as? Int == 1)
                #expect(try await replica.get("/metrics").contains("tvguide_store_reconnects_total 1"))
            }
            #expect(try await deployment.build(now: Self.second).status == 0)
            for replica in replicas {
                try await replica.wait("the commit after the restart") { try await $0.servedGeneratedAt() == Self.second }
                #expect(!replica.stderr.contains(cluster.password))
                #expect(try await replica.terminate() == 0)
            }
        }
    }

    @Test func aFailingBuildKeepsLatest() async throws {
        try await PostgresCluster.run { cluster in
            let deployment = try Deployment(cluster, yaml: try defaultConfig(miguiatv: "http://127.0.0.1:9/"))
            #expect(try await deployment.build(now: Self.first).status == 0)
            // Only a live source, and it is down: nothing is served, nothing committed.
            try deployment.scratch.write("down.yaml", """
                window: { past: 1d, days: 1 }
                snapshots: { store: "\(cluster.url(password: "${TVGUIDE_PG_PASSWORD}"))" }
                channels:
                  - { id: La1.es, name: La 1, miguiatv: 1 }
                guide: [miguiatv]
                providers:
                  miguiatv: { type: miguiatv, base_url: "http://127.0.0.1:9/", timeout: 5s, retries: 0 }
                """)
            let failed = try await CLI.run(["build", "--config", deployment.scratch.file("down.yaml").path, "--now", Self.second],
                                           in: deployment.scratch.url, environment: deployment.environment)
            #expect(failed.status == 1)
            #expect(try await deployment.stored().all == [Self.first])
            #expect(try await deployment.stored().latest == Self.first)
        }
    }

    @Test func twoBuildersRacingTakeTurnsAndBothCommitWhole() async throws {
        try await PostgresCluster.run { cluster in
            let deployment = try Deployment(cluster, yaml: try defaultConfig(miguiatv: "http://127.0.0.1:9/"))
            async let one = deployment.build(now: Self.first)
            async let two = deployment.build(now: Self.second)
            let (a, b) = try await (one, two)
            #expect(a.status == 0 && b.status == 0, "\(a.stderr)\(b.stderr)")
            let stored = try await deployment.stored()
            #expect(stored.all.sorted() == [Self.first, Self.second])
            #expect(stored.latest == stored.all.last)
            // That they took turns rather than only committing in turn: the builder lock, which
            // PostgresSnapshotStoreTests times to the millisecond.
        }
    }

    /// Waits until a connection's commit is stuck on the row the test holds (a lock wait on
    /// `tvguide_latest`), two minutes at most.
    private func waitForCommitBlocked(_ cluster: PostgresCluster) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let waiting = try await cluster.psql("""
                SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO tvguide_latest%'
                """)
            if waiting == "1\n" { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServeFailure("no builder's commit reached tvguide_latest within 2 minutes:\n\(cluster.log.suffix(2_000))")
    }
}
