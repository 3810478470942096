import Foundation
import GuideCore
import PostgresNIO

extension PostgresSnapshotStore {
    /// Waits for the builder lock (`pg_advisory_lock`), then builds. The lock lives on its own
    /// connection: PostgreSQL frees it when that connection ends, however the builder ends (a
    /// SIGKILL included), and the commit goes through it.
    package func asBuilder<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let connection = try await connect()
        do {
            try await attempt("wait for the builder lock") {
                try await prepareSchema(connection)
                try await connection.run("SELECT pg_advisory_lock(\(Self.builderLock))", logger: logger)
            }
        } catch {
            try? await connection.close()
            throw error
        }
        return try await build(holding: connection, body)
    }

    /// Takes the builder lock if it is free (`pg_try_advisory_lock`) and `latest` was committed
    /// longer than 90% of `fresh` ago (by the database's clock, the one all replicas share;
    /// 90% because the replicas' timers drift), then builds; else nil at once.
    package func asBuilderIfDue<T: Sendable>(fresh: Duration, _ body: @Sendable () async throws -> T) async throws -> T? {
        let connection = try await connect()
        let turn: (locked: Bool, due: Bool)
        do {
            turn = try await attempt("take the builder lock") {
                try await prepareSchema(connection)
                var locked = false
                for try await row in try await connection.run("SELECT pg_try_advisory_lock(\(Self.builderLock))", logger: logger).decode(Bool.self) {
                    locked = row
                }
                guard locked else { return (false, false) }
                let ages = try await connection.run("""
                    SELECT extract(epoch FROM now() - s.committed_at)::float8
                    FROM tvguide_latest l JOIN tvguide_snapshot s ON s.id = l.snapshot_id
                    """, logger: logger).decode(Double.self)
                for try await age in ages where age < 0.9 * Double(fresh.components.seconds) { return (true, false) }
                return (true, true)
            }
        } catch {
            try? await connection.close()
            throw error
        }
        guard turn.due else {
            if turn.locked { await release(connection) } else { try? await connection.close() }
            return nil
        }
        return try await build(holding: connection, body)
    }

    /// Runs `body` with `connection` as the builder's, then frees the lock.
    private func build<T: Sendable>(holding connection: PostgresConnection, _ body: @Sendable () async throws -> T) async throws -> T {
        do {
            let value = try await Self.$builderConnection.withValue(connection) { try await body() }
            await release(connection)
            return value
        } catch {
            await release(connection)
            throw error
        }
    }

    /// Unlocks, then closes. Closing alone frees the lock too, but only once the server has seen
    /// the connection end: a replica whose turn came just after would find it still taken.
    private func release(_ connection: PostgresConnection) async {
        _ = try? await connection.run("SELECT pg_advisory_unlock(\(Self.builderLock))", logger: logger)
        try? await connection.close()
    }
}
