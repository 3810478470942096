import Foundation
import Logging
import PostgresNIO
import Testing
import TestSupport

/// A folder for one replicated deployment: providers.yaml pointing at a cluster, its password
/// only in the environment (`${TVGUIDE_PG_PASSWORD}`), as docs/deployment.md has it.
struct Deployment {
    let scratch: Scratch
    let cluster: PostgresCluster
    let config: URL

    /// - Parameter yaml: a configuration whose `snapshots:` line is replaced by the store's.
    init(_ cluster: PostgresCluster, yaml: String, keep: Int = 10) throws {
        scratch = try Scratch()
        self.cluster = cluster
        let store = #"snapshots: { store: "\#(cluster.url(password: "${TVGUIDE_PG_PASSWORD}"))", keep: \#(keep) }"#
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("snapshots:") ? Substring(store) : $0 }
        config = try scratch.write("providers.yaml", lines.joined(separator: "\n"))
    }

    var environment: [String: String] { ["TVGUIDE_PG_PASSWORD": cluster.password] }

    func build(now: String) async throws -> ProcessResult {
        try await CLI.run(["build", "--config", config.path, "--now", now, "--quiet"], in: scratch.url, environment: environment)
    }

    func serve(_ extra: [String]) async throws -> ServeProcess {
        try await ServeProcess.start(["serve", "--config", config.path, "--port", "0"] + extra, environment: environment)
    }

    /// `generated_at` of every stored snapshot, oldest first, and of `latest`, as ISO 8601.
    func stored() async throws -> (all: [String], latest: String?) {
        let all = try await cluster.psql("SELECT to_char(generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM tvguide_snapshot ORDER BY id")
        let latest = try await cluster.psql("""
            SELECT to_char(s.generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
            FROM tvguide_latest l JOIN tvguide_snapshot s ON s.id = l.snapshot_id
            """)
        return (all.split(separator: "\n").map(String.init), latest.split(separator: "\n").first.map(String.init))
    }

    /// A connection of the test's own, to hold locks a builder will run into.
    func connect() async throws -> PostgresConnection {
        var logger = Logger(label: "test.replicas")
        logger.logLevel = .critical
        let configuration = PostgresConnection.Configuration(host: "127.0.0.1", port: cluster.port, username: PostgresCluster.user,
                                                             password: cluster.password, database: PostgresCluster.database, tls: .disable)
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    }
}

extension ServeProcess {
    /// `generatedAt` of the guide `/health` reports, nil while it serves none.
    func servedGeneratedAt() async throws -> String? {
        try await json("/health")["generatedAt"] as? String
    }

    /// The `store` section of `/health`.
    func storeHealth() async throws -> [String: Any] {
        try await json("/health")["store"] as? [String: Any] ?? [:]
    }

    /// Polls `probe` every 50 ms until it holds, `within` at most; returns how long it took.
    @discardableResult
    func wait(_ what: String, within limit: Duration = .seconds(60), _ probe: (ServeProcess) async throws -> Bool) async throws -> Duration {
        let started = ContinuousClock.now
        while try await !probe(self) {
            guard ContinuousClock.now - started < limit else { throw ServeFailure("\(what) not within \(limit); stderr: \(stderr)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        return ContinuousClock.now - started
    }
}
