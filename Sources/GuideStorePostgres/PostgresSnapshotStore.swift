import Foundation
import GuideCore
import GuideStorage
import Logging
import PostgresNIO

/// Snapshots in PostgreSQL (`snapshots: { store: postgres://… }`), shared by every `tvguide`
/// that names the same database: builders commit there, and every server follows it.
///
/// `tvguide_snapshot` holds each snapshot's bytes exactly as `SnapshotCodec` writes them (the
/// file store's JSON, so `psql -c "COPY …"` gives a file `tvguide diff` reads), and beside them
/// in `packed` the binary companion that servers load instead (`PackedSnapshot`); `tvguide_latest`
/// is one row naming the latest. A commit is one transaction (insert, move `latest`, prune to
/// `keep`, NOTIFY), so a reader sees the old snapshot or the new one, never part of either, and a
/// builder killed mid-commit leaves nothing behind: PostgreSQL rolls back a transaction whose
/// connection is gone.
///
/// Connections are short-lived, one per operation (a commit or a load every few minutes needs no
/// pool), besides the follower's listening one and the builder's, which holds the builder lock.
///
/// The same database keeps the HTTP cache (`httpCache`) and the metadata lookups
/// (`metadataLookups`), so that whichever process builds finds what the previous builder fetched.
package final class PostgresSnapshotStore: SharedSnapshotStorage {
    package let location: String
    let address: PostgresStoreAddress
    let keep: Int
    let logger: Logger
    /// How often a follower asks for `latest` when no notification came: after a lost
    /// connection it reconnects this often, and while connected it checks that the connection
    /// still answers.
    let pollInterval: Duration
    /// A poll with no answer after this long means the connection is dead (a server gone
    /// without closing it): it is closed and made again.
    let pollDeadline: Duration
    let book = Bookkeeping()

    static let notifyChannel = "tvguide_latest"
    /// `pg_advisory_lock` keys, per database: the builder's, held through a whole build on its own
    /// connection; and the one that serialises commits and schema creation, held in a
    /// transaction. ASCII "tvguide" and a number, unlikely to meet another application's keys.
    static let builderLock: Int64 = 0x7476_6775_6964_6501
    static let commitLock: Int64 = 0x7476_6775_6964_6502

    /// The connection holding the builder lock, for the builder's task: its commit goes through
    /// that connection, so a builder whose connection (and so its lock) was lost cannot commit.
    @TaskLocal static var builderConnection: PostgresConnection?

    package init(address: PostgresStoreAddress, keep: Int, logger: Logger,
                 pollInterval: Duration = .seconds(1), pollDeadline: Duration = .seconds(5)) {
        self.address = address
        self.location = address.redacted
        self.keep = max(1, keep)
        self.logger = logger
        self.pollInterval = pollInterval
        self.pollDeadline = pollDeadline
    }

    package func latest() async throws -> Snapshot? {
        try await withConnection("read the latest snapshot") { connection in
            guard let id = try await self.latestID(connection) else { return nil }
            return try await self.load(id, connection)
        }
    }

    package func latestToServe() async throws -> Snapshot? {
        try await withConnection("read the latest snapshot") { connection in
            guard let id = try await self.latestID(connection) else { return nil }
            let snapshot = try await self.load(id, connection)
            if snapshot != nil { await self.book.serve(id) }
            return snapshot
        }
    }

    package func commit(_ snapshot: Snapshot) async throws -> String {
        let (data, packed) = try await offCooperativeThreads {
            let canonical = SnapshotCodec.canonical(snapshot)
            // The companion's contents need only the JSON's length: made on another core meanwhile.
            let (data, contents) = try concurrently({ Data(try SnapshotCodec.encodedBytes(canonical: canonical)) },
                                                    { Result { try PackedSnapshot.Contents(canonical: canonical) } })
            return (data, Data(try contents.get().bytes(for: .init(storedWithJSONOf: data.count))))
        }
        let commit = { @Sendable (connection: PostgresConnection) async throws -> Int64 in
            try await self.prepareSchema(connection)
            return try await connection.inTransaction(logger: self.logger) { connection in
                try await connection.run("SELECT pg_advisory_xact_lock(\(Self.commitLock))", logger: self.logger)
                var id: Int64?
                let inserted = try await connection.run(
                    "INSERT INTO tvguide_snapshot (generated_at, body, packed) VALUES (\(snapshot.generatedAt), \(data), \(packed)) RETURNING id",
                    logger: self.logger)
                for try await row in inserted.decode(Int64.self) { id = row }
                guard let id else { throw PostgresStoreError.failed(store: self.location, operation: "commit a snapshot", detail: "INSERT returned no id") }
                try await connection.run("""
                    INSERT INTO tvguide_latest (singleton, snapshot_id) VALUES (true, \(id))
                    ON CONFLICT (singleton) DO UPDATE SET snapshot_id = EXCLUDED.snapshot_id
                    """, logger: self.logger)
                // Ids grow in commit order (the commit lock), so the newest `keep` are the last ones.
                try await connection.run(
                    "DELETE FROM tvguide_snapshot WHERE id NOT IN (SELECT id FROM tvguide_snapshot ORDER BY id DESC LIMIT \(self.keep))",
                    logger: self.logger)
                // Delivered at COMMIT only: a rolled-back build wakes nobody.
                try await connection.run("SELECT pg_notify(\(Self.notifyChannel), \(String(id)))", logger: self.logger)
                // This process serves what it built (GuideRefresher swaps it in): its follower
                // need not load it again. Should COMMIT fail, the follower finds `latest` is
                // not this id and loads whatever it is.
                await self.book.beginCommit(id)
                return id
            }
        }
        let id: Int64
        do {
            if let connection = Self.builderConnection {
                id = try await attempt("commit a snapshot") { try await commit(connection) }
            } else {
                id = try await withConnection("commit a snapshot", commit)
            }
        } catch {
            await book.endCommit()
            throw error
        }
        await book.endCommit()
        return "\(location)#\(id)"
    }

    // MARK: - Connections and statements

    func connect() async throws(PostgresStoreError) -> PostgresConnection {
        let id = await book.nextConnectionID()
        do {
            return try await PostgresConnection.connect(configuration: address.configuration, id: id, logger: logger)
        } catch {
            throw .unreachable(store: location, detail: PostgresStoreError.detail(error))
        }
    }

    /// Runs `body` on a new connection, closed afterwards whatever happens.
    func withConnection<T: Sendable>(_ operation: String, _ body: @Sendable (PostgresConnection) async throws -> T) async throws(PostgresStoreError) -> T {
        let connection = try await connect()
        do {
            let value = try await attempt(operation) { try await body(connection) }
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// `body`'s errors as `PostgresStoreError`: a lost connection, or a failed `operation`.
    func attempt<T>(_ operation: String, _ body: () async throws -> T) async throws(PostgresStoreError) -> T {
        do {
            return try await body()
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            let detail = PostgresStoreError.detail(error)
            throw PostgresStoreError.isConnectionLoss(error)
                ? .unreachable(store: location, detail: detail)
                : .failed(store: location, operation: operation, detail: detail)
        }
    }

    /// Creates the tables once per database, under the commit lock: two processes starting on an
    /// empty database would otherwise race on `CREATE TABLE IF NOT EXISTS`, which is not atomic.
    /// Tables already there are only looked up, without the lock: a replica starting while a
    /// commit is in flight (or stuck behind a dead builder's lock) must not wait for it.
    func prepareSchema(_ connection: PostgresConnection) async throws {
        guard await !book.schemaReady else { return }
        var present = false
        let lookup = "SELECT " + Self.tables.map { "to_regclass('\($0)') IS NOT NULL" }.joined(separator: " AND ")
            + " AND EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'tvguide_snapshot' AND column_name = 'packed')"
        for try await row in try await connection.run(PostgresQuery(unsafeSQL: lookup), logger: logger).decode(Bool.self) {
            present = row
        }
        if !present { try await createSchema(connection) }
        await book.schemaIsReady()
    }

    private func createSchema(_ connection: PostgresConnection) async throws {
        try await connection.inTransaction(logger: logger) { connection in
            try await connection.run("SELECT pg_advisory_xact_lock(\(Self.commitLock))", logger: self.logger)
            try await connection.run("""
                CREATE TABLE IF NOT EXISTS tvguide_snapshot (
                    id bigserial PRIMARY KEY,
                    generated_at timestamptz NOT NULL,
                    committed_at timestamptz NOT NULL DEFAULT now(),
                    body bytea NOT NULL)
                """, logger: self.logger)
            // Added after the table first shipped: a database made before has its rows without it.
            try await connection.run("ALTER TABLE tvguide_snapshot ADD COLUMN IF NOT EXISTS packed bytea", logger: self.logger)
            try await connection.run("""
                CREATE TABLE IF NOT EXISTS tvguide_latest (
                    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                    snapshot_id bigint NOT NULL REFERENCES tvguide_snapshot (id))
                """, logger: self.logger)
            // Keyed by md5 of the URL rather than the URL: a btree entry holds at most about 2.7 kB.
            try await connection.run("""
                CREATE TABLE IF NOT EXISTS tvguide_http_cache (
                    url_md5 text PRIMARY KEY,
                    url text NOT NULL,
                    fetched_at timestamptz NOT NULL,
                    etag text,
                    last_modified text,
                    content_type text,
                    body bytea NOT NULL)
                """, logger: self.logger)
            try await connection.run("""
                CREATE TABLE IF NOT EXISTS tvguide_metadata_cache (
                    provider text NOT NULL,
                    fingerprint text NOT NULL,
                    query_md5 text NOT NULL,
                    query text NOT NULL,
                    fetched_at timestamptz NOT NULL,
                    answer bytea NOT NULL,
                    PRIMARY KEY (provider, fingerprint, query_md5))
                """, logger: self.logger)
        }
    }

    /// Every table the store uses; a database missing any of them (one made before the caches
    /// were shared) gets it at the first connection.
    static let tables = ["tvguide_snapshot", "tvguide_latest", "tvguide_http_cache", "tvguide_metadata_cache"]

    func latestID(_ connection: PostgresConnection) async throws -> Int64? {
        try await prepareSchema(connection)
        var id: Int64?
        for try await row in try await connection.run("SELECT snapshot_id FROM tvguide_latest", logger: logger).decode(Int64.self) {
            id = row
        }
        return id
    }

    /// Snapshot `id`, or nil when a later commit has pruned it meanwhile: from its companion,
    /// or from its JSON when the row has none (written by an older tvguide) or it does not read.
    func load(_ id: Int64, _ connection: PostgresConnection) async throws -> Snapshot? {
        var companion: (packed: Data?, length: Int64)?
        let rows = try await connection.run("SELECT packed, octet_length(body)::bigint FROM tvguide_snapshot WHERE id = \(id)", logger: logger)
        for try await row in rows.decode((Data?, Int64).self) {
            companion = row
        }
        guard let companion else { return nil }
        if let packed = companion.packed, let snapshot = await offCooperativeThreads({
            PackedSnapshot.decode(packed, expecting: .init(storedWithJSONOf: Int(companion.length)))
        }) {
            return snapshot
        }
        var body: Data?
        for try await row in try await connection.run("SELECT body FROM tvguide_snapshot WHERE id = \(id)", logger: logger).decode(Data.self) {
            body = row
        }
        guard let body else { return nil }
        do {
            return try await offCooperativeThreads { try SnapshotCodec.decode(body) }
        } catch {
            throw PostgresStoreError.corrupt(store: location, snapshot: id, detail: String(describing: error))
        }
    }
}

/// The little a store remembers between operations.
actor Bookkeeping {
    private(set) var schemaReady = false
    /// The snapshot this process serves (loaded to serve, or committed itself): the follower
    /// loads only another.
    private(set) var served: Int64?
    private var connections = 0

    func schemaIsReady() { schemaReady = true }

    func serve(_ id: Int64) { served = id }

    /// This process's own commit, counted as served from just before its COMMIT until COMMIT
    /// returns. Until then `latest` still names an older snapshot, which a poll in between
    /// must not load again (it did, under load: the follower was handed the previous
    /// snapshot twice, then this process's own).
    private var committing: Int64?

    func beginCommit(_ id: Int64) {
        served = id
        committing = id
    }

    func endCommit() { committing = nil }

    struct Claim: Sendable {
        var id: Int64
        var previous: Int64?
    }

    /// `id` counted as served, unless it already is (nil): two polls racing on the same new
    /// snapshot load it once.
    func claim(_ id: Int64) -> Claim? {
        guard served != id, committing.map({ id > $0 }) ?? true else { return nil }
        defer { served = id }
        return Claim(id: id, previous: served)
    }

    /// Undoes `claim` after the load failed, so that the next poll tries again.
    func release(_ claim: Claim) {
        if served == claim.id { served = claim.previous }
    }

    func nextConnectionID() -> Int {
        connections += 1
        return connections
    }
}
