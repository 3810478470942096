import Foundation
import GuideCore
import Testing
import TestSupport

/// Three replicas and a builder on one PostgreSQL store: every replica serves each commit, without
/// a build of its own. How soon is a figure of the machine as much as of the code: `bench/replicas.sh`
/// measures it; the time each took here is printed, and the wait only tells a slow follow from none.
@Suite(.enabled(if: PostgresCluster.binaries != nil, "PostgreSQL's initdb and postgres were not found (apt-get install postgresql; .ci/run installs it)"))
struct ReplicaConvergenceTests {
    @Test func threeReplicasAndABuilderConvergeOnEachCommit() async throws {
        try await PostgresCluster.run { cluster in
            // One day of one XMLTV file, no metadata or audiences: small enough for three replicas
            // of a debug build to decode at once (bench/replicas.sh follows large guides).
            let deployment = try Deployment(cluster, yaml: """
                window: { past: 0d, days: 1 }
                snapshots: {}
                guide: [sample]
                providers:
                  sample: { type: xmltv, url: \(Fixtures.url("xmltv/sample.xml").path) }
                """)
            let seeded = try await deployment.build(now: ReplicaTests.first)
            #expect(seeded.status == 0, "\(seeded.stderr)")
            var replicas: [ServeProcess] = []
            for _ in 0..<3 {
                replicas.append(try await deployment.serve(["--no-refresh"]))
            }
            for replica in replicas {
                #expect(try await replica.servedGeneratedAt() == ReplicaTests.first)
                try await replica.wait("the store live") { try await $0.storeHealth()["state"] as? String == "live" }
            }
            for now in [ReplicaTests.second, ReplicaTests.third] {
                let built = try await deployment.build(now: now)
                // The builder has committed by the time it exits.
                let committed = ContinuousClock.now
                #expect(built.status == 0, "\(built.stderr)")
                for replica in replicas {
                    try await replica.wait("\(now) served") { try await $0.servedGeneratedAt() == now }
                }
                let converged = ContinuousClock.now - committed
                print("ReplicaConvergenceTests: 3 replicas serve the build of \(now) \(converged) after its builder exited")
            }
            let health = try await replicas[0].json("/health")
            #expect(health["origin"] as? String == "store")
            #expect((health["store"] as? [String: Any])?["followed"] as? Int == 2)
            #expect((try await replicas[0].get("/metrics")).contains("tvguide_store_snapshots_total 2"))
            for replica in replicas {
                let health = try await replica.get("/health")
                #expect(!health.contains(cluster.password) && !replica.stderr.contains(cluster.password), "the store's password leaked")
                #expect(health.contains("postgres://127.0.0.1:\(cluster.port)/postgres"))
                #expect(try await replica.terminate() == 0)
            }
        }
    }
}
