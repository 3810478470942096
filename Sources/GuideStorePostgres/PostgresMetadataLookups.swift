import Foundation
import GuideCore
import PostgresNIO

extension PostgresSnapshotStore {
    /// The metadata lookup cache in this store's database, shared by every process that names it.
    package var metadataLookups: PostgresMetadataLookups { PostgresMetadataLookups(store: self) }
}

/// Metadata lookups in `tvguide_metadata_cache`: one row per provider, settings fingerprint and
/// query, with when it was fetched and the answer as JSON. Rows are kept apart, so a save writes
/// only the answers of its run (each an `INSERT … ON CONFLICT DO UPDATE`, which two builders
/// saving the same answer at once both complete) and drops the provider's answers past the TTL,
/// as the folder's rewritten file leaves them out.
package struct PostgresMetadataLookups: MetadataLookupStorage {
    let store: PostgresSnapshotStore

    private var cache: String { "the lookup cache in \(store.location)" }

    package func answers(provider: String, fingerprint: String) async throws(CacheStorageError) -> [String: StoredMetadataLookup] {
        let rows: [(String, Data)]
        do {
            rows = try await store.withConnection("read the lookup cache") { connection in
                try await store.prepareSchema(connection)
                var rows: [(String, Data)] = []
                let query = "SELECT query, answer FROM tvguide_metadata_cache WHERE provider = \(provider) AND fingerprint = \(fingerprint)" as PostgresQuery
                for try await row in try await connection.run(query, logger: store.logger).decode((String, Data).self) {
                    rows.append(row)
                }
                return rows
            }
        } catch {
            throw .unreadable(cache: cache, reason: String(describing: error))
        }
        var answers: [String: StoredMetadataLookup] = [:]
        for (query, json) in rows {
            // One unreadable answer costs its lookup, not the provider's other answers.
            if let answer = try? StoredMetadataLookup(json: json) { answers[query] = answer }
        }
        return answers
    }

    /// Writes in key order, one statement each: two builders saving overlapping answers then take
    /// the rows' locks in the same order and never deadlock.
    package func save(provider: String, fingerprint: String, answers: [String: StoredMetadataLookup], changed: Set<String>,
                      expiredUpTo: Date) async throws(CacheStorageError) {
        let rows: [(query: String, fetchedAt: Date, json: Data)]
        do {
            rows = try changed.sorted().compactMap { query in
                try answers[query].map { (query: query, fetchedAt: $0.fetchedAt, json: try $0.json()) }
            }
        } catch {
            throw .unwritable(cache: cache, reason: "\(error)")
        }
        do {
            try await store.withConnection("write the lookup cache") { connection in
                try await store.prepareSchema(connection)
                for row in rows {
                    try await connection.run("""
                        INSERT INTO tvguide_metadata_cache (provider, fingerprint, query_md5, query, fetched_at, answer)
                        VALUES (\(provider), \(fingerprint), md5(\(row.query)), \(row.query), \(row.fetchedAt), \(row.json))
                        ON CONFLICT (provider, fingerprint, query_md5) DO UPDATE
                        SET query = EXCLUDED.query, fetched_at = EXCLUDED.fetched_at, answer = EXCLUDED.answer
                        """, logger: store.logger)
                }
                try await connection.run(
                    "DELETE FROM tvguide_metadata_cache WHERE provider = \(provider) AND fetched_at <= \(expiredUpTo)",
                    logger: store.logger)
            }
        } catch {
            throw .unwritable(cache: cache, reason: String(describing: error))
        }
    }

    /// Nothing to remove: a write cut off is a transaction PostgreSQL rolled back.
    package func removeAbandonedWrites() async {}
}
