import Foundation

/// Where the HTTP cache keeps responses: a folder (`HTTPCacheFolder`, the default) or the
/// PostgreSQL store that replicas share, so that a response one builder fetched is not fetched
/// again by another. `HTTPCache` above it hides secrets and checks what it reads back; a storage
/// only keeps entries whole.
package protocol HTTPCacheStorage: Sendable {
    /// The entry stored for `key`; nil when there is none or it cannot be read, which costs a
    /// fetch, never the request.
    func entry(for key: HTTPCacheKey) async -> HTTPCacheEntry?
    /// Stores `entry` for `key`, replacing any previous one whole: a reader sees the old entry or
    /// the new one, never a part of either.
    func store(_ entry: HTTPCacheEntry, for key: HTTPCacheKey) async throws(CacheStorageError)
}

/// What a response is stored under.
package struct HTTPCacheKey: Sendable, Hashable {
    /// The URL without credential query items or user-info (`URLRedaction.withoutSecrets`). It may
    /// still hold a secret in its path, so a storage may hash it but never keeps it.
    package var identity: String
    /// `identity` with the configuration's secrets hidden: what an entry records, and what a
    /// storage may keep.
    package var url: String

    package init(identity: String, url: String) {
        self.identity = identity
        self.url = url
    }
}

/// One stored response.
package struct HTTPCacheEntry: Sendable, Hashable {
    /// What the cache knows about one stored response.
    package struct Metadata: Codable, Sendable, Hashable {
        /// The URL without credential query items, user-info or secrets (`HTTPCacheKey.url`).
        package var url: String
        package var etag: String?
        package var lastModified: String?
        /// When the body was last fetched or confirmed unchanged (304).
        package var fetchedAt: Date
        package var contentType: String?
        /// Guards against a truncated entry from outside (a copy, a full disk).
        package var bodyLength: Int

        package init(url: String, etag: String?, lastModified: String?, fetchedAt: Date, contentType: String?, bodyLength: Int) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.fetchedAt = fetchedAt
            self.contentType = contentType
            self.bodyLength = bodyLength
        }
    }

    package var metadata: Metadata
    package var body: Data

    package init(metadata: Metadata, body: Data) {
        self.metadata = metadata
        self.body = body
    }
}
