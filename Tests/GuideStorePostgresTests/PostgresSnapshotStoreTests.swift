import Foundation
import GuideCore
import GuideStorage
import GuideStorePostgres
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import Testing
import TestSupport

/// The PostgreSQL store against a real server (a throw-away cluster per test): commits, `keep`,
/// the builder lock, notifications, and a server restart. No mock: what PostgreSQL does with
/// transactions, advisory locks and a cut connection is the point.
@Suite(.enabled(if: PostgresCluster.binaries != nil, "PostgreSQL's initdb and postgres were not found (apt-get install postgresql; .ci/run installs it)"))
struct PostgresSnapshotStoreTests {
    @Test func aCommitMovesLatestKeepsTheNewestAndStoresTheFileStoresBytes() async throws {
        try await PostgresCluster.run { cluster in
            let store = try Self.store(cluster, keep: 2)
            #expect(try await store.latest() == nil)
            var written: [Snapshot] = []
            for hour in 0..<4 {
                let snapshot = try Self.snapshot(hour: hour)
                let location = try await store.commit(snapshot)
                #expect(location.hasPrefix("postgres://127.0.0.1:\(cluster.port)/postgres#"))
                written.append(snapshot)
                #expect(try await store.latest() == snapshot)
            }
            #expect(try await cluster.psql("SELECT count(*) FROM tvguide_snapshot") == "2\n")
            // The same bytes the file store writes: a row copied out is a snapshot file.
            let length = try await cluster.psql("SELECT length(body) FROM tvguide_snapshot s JOIN tvguide_latest l ON l.snapshot_id = s.id")
            #expect(length == "\(try SnapshotCodec.encode(written[3]).count)\n")
        }
    }

    @Test func aSnapshotIsLoadedFromItsCompanionOrElseFromItsJSON() async throws {
        try await PostgresCluster.run { cluster in
            let snapshot = try Self.smallSnapshot(hour: 1)
            try await Self.store(cluster).commit(snapshot)
            #expect(try await cluster.psql("SELECT packed IS NOT NULL AND length(packed) < length(body) FROM tvguide_snapshot") == "t\n")
            // The JSON spoilt, its length kept: only the companion gives the snapshot back.
            _ = try await cluster.psql("UPDATE tvguide_snapshot SET body = overlay(body PLACING '\\x00'::bytea FROM 1 FOR 1)")
            #expect(try await Self.store(cluster).latest() == snapshot)
            // The JSON restored; a damaged companion, or none (a row an older tvguide wrote): the JSON is read.
            _ = try await cluster.psql("UPDATE tvguide_snapshot SET body = overlay(body PLACING '{'::bytea FROM 1 FOR 1)")
            for damage in ["substring(packed FROM 1 FOR 1000)", "NULL"] {
                _ = try await cluster.psql("UPDATE tvguide_snapshot SET packed = \(damage)")
                #expect(try await Self.store(cluster).latest() == snapshot)
            }
        }
    }

    @Test func aDatabaseFromBeforeTheCompanionGetsItsColumn() async throws {
        try await PostgresCluster.run { cluster in
            _ = try await cluster.psql("""
                CREATE TABLE tvguide_snapshot (id bigserial PRIMARY KEY, generated_at timestamptz NOT NULL,
                    committed_at timestamptz NOT NULL DEFAULT now(), body bytea NOT NULL);
                CREATE TABLE tvguide_latest (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                    snapshot_id bigint NOT NULL REFERENCES tvguide_snapshot (id))
                """)
            let snapshot = try Self.smallSnapshot(hour: 2)
            try await Self.store(cluster).commit(snapshot)
            #expect(try await cluster.psql("SELECT count(packed) FROM tvguide_snapshot") == "1\n")
            #expect(try await Self.store(cluster).latest() == snapshot)
        }
    }

    @Test func twoBuildersNeverOverlapAndABusyLockIsSkippedAtOnce() async throws {
        try await PostgresCluster.run { cluster in
            let turns = Turnstile()
            let first = try Self.store(cluster)
            let second = try Self.store(cluster)
            async let a: Void = first.asBuilder { try await turns.pass("a") }
            async let b: Void = second.asBuilder { try await turns.pass("b") }
            // While one holds the lock (and waits for the test), a replica's turn passes at once.
            try await turns.waitUntilInside()
            let skipped = try await Self.store(cluster).asBuilderIfDue(fresh: .zero) { "built" }
            #expect(skipped == nil)
            await turns.open()
            _ = try await (a, b)
            let spans = await turns.spans
            #expect(spans.count == 2)
            if spans.count == 2 {
                #expect(spans[0].end <= spans[1].start, "builders overlapped: \(spans)")
            }
            // Free again, and nothing committed yet: due.
            #expect(try await first.asBuilderIfDue(fresh: .seconds(60)) { "built" } == "built")
            // A snapshot committed just now is fresh for an hour's interval: not due.
            _ = try await first.commit(try Self.snapshot(hour: 0))
            #expect(try await second.asBuilderIfDue(fresh: .seconds(3_600)) { "built" } == nil)
        }
    }

    @Test func aFailingBuildKeepsLatestAndFreesTheLock() async throws {
        try await PostgresCluster.run { cluster in
            let store = try Self.store(cluster)
            let good = try Self.snapshot(hour: 0)
            _ = try await store.commit(good)
            await #expect(throws: BuildFailed.self) {
                try await store.asBuilder { () async throws -> String in throw BuildFailed() }
            }
            #expect(try await store.latest() == good)
            #expect(try await Self.store(cluster).asBuilderIfDue(fresh: .zero) { "built" } == "built")
        }
    }

    @Test func aRestartIsReportedLostThenLiveAndCommitsAfterItArrive() async throws {
        try await PostgresCluster.run { cluster in
            let follower = try Self.store(cluster)
            let events = EventLog()
            let following = Task { await follower.follow { await events.append($0) } }
            defer { following.cancel() }
            try await events.wait(for: "live") { $0.live == 1 }
            try await cluster.stop()
            try await events.wait(for: "lost") { !$0.lost.isEmpty }
            let lost = await events.lost.joined()
            #expect(!lost.contains(cluster.password), "\(lost)")
            try await cluster.start()
            // At least twice: on a loaded machine a poll can miss its deadline and reconnect once more.
            try await events.wait(for: "live again") { $0.live >= 2 }
            _ = try await Self.store(cluster).commit(try Self.snapshot(hour: 5))
            try await events.wait(for: "the commit after the restart") { $0.committed == [Self.time(hour: 5)] }
        }
    }

    /// postgres-nio never answers a statement written to a connection that has already closed,
    /// nor lets its wait be cancelled; `run` gives up on it. A follower polling just as its
    /// server went away waited so for ever, and never reported the store lost.
    @Test func aStatementToAClosedConnectionOrCancelledFailsRatherThanWaitingForever() async throws {
        try await PostgresCluster.run { cluster in
            var logger = Logger(label: "test.run")
            logger.logLevel = .critical
            let configuration = try PostgresStoreAddress(URL(string: cluster.url())!).configuration
            let waiting = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            let sleeping = Task { try await waiting.run("SELECT pg_sleep(60)", logger: logger) }
            try await Task.sleep(for: .milliseconds(300))
            sleeping.cancel()
            #expect(try await Outcome.of(sleeping, within: .seconds(15)) == "CancellationError()")
            try? await waiting.close()

            let connection = try await PostgresConnection.connect(configuration: configuration, id: 2, logger: logger)
            #expect(try await connection.run("SELECT 1", logger: logger).collect().count == 1)
            try await cluster.stop()
            let deadline = ContinuousClock.now + .seconds(20)
            while !connection.isClosed, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(connection.isClosed)
            let asked = Task { try await connection.run("SELECT 1", logger: logger) }
            #expect(try await Outcome.of(asked, within: .seconds(15)) == String(describing: ConnectionClosedUnanswered()))
        }
    }

    @Test func theAddressHidesItsPasswordAndRefusesWhatItCannotDo() throws {
        let address = try PostgresStoreAddress(URL(string: "postgres://tv:s3cr%40t@db.internal:6543/guide")!)
        #expect(address.redacted == "postgres://db.internal:6543/guide")
        #expect(address.configuration.password == "s3cr@t")
        #expect(address.configuration.database == "guide")
        let socket = try PostgresStoreAddress(URL(string: "postgresql://tv@/guide?host=/run/postgresql")!)
        #expect(socket.configuration.unixSocketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(throws: PostgresStoreError.self) { try PostgresStoreAddress(URL(string: "postgres://tv:pw@db/guide?sslmode=require")!) }
        #expect(throws: PostgresStoreError.self) { try PostgresStoreAddress(URL(string: "postgres://db/guide")!) }
        do {
            _ = try PostgresStoreAddress(URL(string: "postgres://tv:hunter22@db/guide?sslmode=verify-full")!)
        } catch {
            #expect(!error.description.contains("hunter22"))
        }
    }

    @Test func aFollowerHearsAnotherProcesssCommitButNotItsOwn() async throws {
        try await PostgresCluster.run { cluster in
            let follower = try Self.store(cluster)
            let builder = try Self.store(cluster)
            _ = try await builder.commit(try Self.snapshot(hour: 0))
            #expect(try await follower.latestToServe()?.generatedAt == Self.time(hour: 0))
            let events = EventLog()
            let following = Task { await follower.follow { await events.append($0) } }
            defer { following.cancel() }
            try await events.wait(for: "live") { $0.live > 0 }
            _ = try await builder.commit(try Self.snapshot(hour: 1))
            try await events.wait(for: "the commit") { $0.committed == [Self.time(hour: 1)] }
            // Its own commit is in service already (the refresh swapped it in): not handed again.
            _ = try await follower.commit(try Self.snapshot(hour: 2))
            _ = try await builder.commit(try Self.snapshot(hour: 3))
            try await events.wait(for: "the second commit") { $0.committed.count == 2 }
            #expect(await events.committed == [Self.time(hour: 1), Self.time(hour: 3)])
        }
    }

    // MARK: -

    static func store(_ cluster: PostgresCluster, keep: Int = 3) throws -> PostgresSnapshotStore {
        var logger = Logger(label: "test.store")
        logger.logLevel = .critical
        return PostgresSnapshotStore(address: try PostgresStoreAddress(URL(string: cluster.url())!), keep: keep, logger: logger,
                                     pollInterval: .milliseconds(200), pollDeadline: .seconds(2))
    }

    static func time(hour: Int) -> Date {
        Date(timeIntervalSince1970: 1_792_609_200 + TimeInterval(hour * 3_600))
    }

    /// The golden snapshot's first 300 programmes: the companion's tests load it several times,
    /// beside suites whose timing matters (a debug build decodes the whole guide slowly).
    static func smallSnapshot(hour: Int) throws -> Snapshot {
        var snapshot = try snapshot(hour: hour)
        snapshot.programmes = Array(snapshot.programmes.prefix(300))
        return snapshot
    }

    /// The golden snapshot, told apart by when it was built.
    static func snapshot(hour: Int) throws -> Snapshot {
        var snapshot = try SnapshotCodec.decode(Data(contentsOf: Fixtures.url("golden/offline-default.json")))
        snapshot.generatedAt = time(hour: hour)
        return snapshot
    }
}

struct BuildFailed: Error {}

/// What a follower heard, for a test to wait on.
actor EventLog {
    private(set) var live = 0
    private(set) var lost: [String] = []
    private(set) var committed: [Date] = []

    func append(_ event: SnapshotFeedEvent) {
        switch event {
        case .live: live += 1
        case .lost(let reason): lost.append(reason)
        case .committed(let snapshot): committed.append(snapshot.generatedAt)
        }
    }

    /// Waits up to a minute for `condition`: the deadline only bounds a broken run, however busy the machine.
    func wait(for what: String, _ condition: @Sendable (isolated EventLog) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(self) {
            guard ContinuousClock.now < deadline else {
                throw ClusterError("no \(what) within 60 s: live \(live), lost \(lost), committed \(committed)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// How a task ended, waited for without awaiting it: a task that never ends fails the test
/// instead of hanging it.
enum Outcome {
    static func of<T>(_ task: Task<T, any Error>, within limit: Duration) async throws -> String {
        let outcome = NIOLockedValueBox<String?>(nil)
        Task {
            let ended: String
            do { ended = "answered: \(try await task.value)" } catch { ended = String(describing: error) }
            outcome.withLockedValue { $0 = ended }
        }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let ended = outcome.withLockedValue({ $0 }) { return ended }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ClusterError("the task did not end within \(limit)")
    }
}

/// Builders that wait inside the lock until the test opens the gate, and when each ran: a gate,
/// not a sleep, so that a loaded machine cannot make the test's check miss the lock.
actor Turnstile {
    private(set) var spans: [(name: String, start: ContinuousClock.Instant, end: ContinuousClock.Instant)] = []
    private var inside = 0
    private var isOpen = false

    func pass(_ name: String) async throws {
        let start = ContinuousClock.now
        inside += 1
        while !isOpen { try await Task.sleep(for: .milliseconds(10)) }
        inside -= 1
        spans.append((name, start, ContinuousClock.now))
    }

    func waitUntilInside() async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while inside == 0 {
            guard ContinuousClock.now < deadline else { throw ClusterError("no builder took the lock within 20 s") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func open() { isOpen = true }
}
