import Foundation
import GuideCore
import PostgresNIO

extension PostgresSnapshotStore {
    /// The HTTP cache in this store's database, shared by every process that names it.
    package var httpCache: PostgresHTTPCache { PostgresHTTPCache(store: self) }
}

/// The HTTP cache in `tvguide_http_cache`: one row per URL (without credentials or secrets), the
/// response's validators, when it was fetched and its body. Like the folder's files, a row is
/// never removed: past `cache.ttl` it is revalidated (ETag, Last-Modified) rather than fetched
/// again, and a write replaces it whole (one `INSERT … ON CONFLICT DO UPDATE`, which two
/// builders writing the same URL at once both complete, the later one winning).
package struct PostgresHTTPCache: HTTPCacheStorage {
    let store: PostgresSnapshotStore

    /// A store that cannot be reached is a miss: the response is fetched, and storing it says why.
    package func entry(for key: HTTPCacheKey) async -> HTTPCacheEntry? {
        let url = key.url
        return try? await store.withConnection("read the HTTP cache") { connection -> HTTPCacheEntry? in
            try await store.prepareSchema(connection)
            let rows = try await connection.run("""
                SELECT fetched_at, etag, last_modified, content_type, body FROM tvguide_http_cache
                WHERE url_md5 = md5(\(url)) AND url = \(url)
                """, logger: store.logger).decode((Date, String?, String?, String?, Data).self)
            for try await (fetchedAt, etag, lastModified, contentType, body) in rows {
                return HTTPCacheEntry(metadata: .init(url: url, etag: etag, lastModified: lastModified, fetchedAt: fetchedAt,
                                                      contentType: contentType, bodyLength: body.count), body: body)
            }
            return nil
        }
    }

    package func store(_ entry: HTTPCacheEntry, for key: HTTPCacheKey) async throws(CacheStorageError) {
        let metadata = entry.metadata
        do {
            try await store.withConnection("write the HTTP cache") { connection in
                try await store.prepareSchema(connection)
                try await connection.run("""
                    INSERT INTO tvguide_http_cache (url_md5, url, fetched_at, etag, last_modified, content_type, body)
                    VALUES (md5(\(key.url)), \(key.url), \(metadata.fetchedAt), \(metadata.etag), \(metadata.lastModified),
                            \(metadata.contentType), \(entry.body))
                    ON CONFLICT (url_md5) DO UPDATE SET url = EXCLUDED.url, fetched_at = EXCLUDED.fetched_at, etag = EXCLUDED.etag,
                        last_modified = EXCLUDED.last_modified, content_type = EXCLUDED.content_type, body = EXCLUDED.body
                    """, logger: store.logger)
            }
        } catch {
            throw .unwritable(cache: "the HTTP cache in \(store.location)", reason: String(describing: error))
        }
    }
}
