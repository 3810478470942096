import Foundation
import GuideCore
import Testing
import TestSupport

/// Three replicas and a builder on one PostgreSQL store: every replica serves each commit within
/// 2 s of the builder's exit. A deadline this short times the machine as much as the code, so
/// `make test` runs this suite last and alone (CONVERGENCE_SUITES): beside ReplicaTests' clusters
/// and processes, on CI's 2 cores, a follow once took 3.6 s while alone they take under 1 s.
@Suite(.enabled(if: PostgresCluster.binaries != nil, "PostgreSQL's initdb and postgres were not found (apt-get install postgresql; .ci/run installs it)"))
struct ReplicaConvergenceTests {
    @Test func threeReplicasAndABuilderConvergeWithinTwoSecondsOfTheCommit() async throws {
        try await PostgresCluster.run { cluster in
            // One day of one XMLTV file, no metadata or audiences: the 2 s are the store's to keep,
            // not a debug build's decoding of a large guide three times at once on a loaded CI
            // machine (bench/replicas.sh times large guides).
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
                // The builder has committed by the time it exits: from here every replica has 2 s.
                let committed = ContinuousClock.now
                #expect(built.status == 0, "\(built.stderr)")
                for replica in replicas {
                    try await replica.wait("\(now) served", within: .seconds(10)) { try await $0.servedGeneratedAt() == now }
                }
                let converged = ContinuousClock.now - committed
                print("ReplicaConvergenceTests: 3 replicas serve the build of \(now) \(converged) after its builder exited")
                #expect(converged < .seconds(2))
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
