import Foundation
import GuideCore

/// The HTTP cache shared by every run and process: responses kept in a storage (a folder by
/// default, or the PostgreSQL store replicas share), keyed by their URL without its credentials.
///
/// What it stores never holds a secret: the configuration's secrets are hidden in the stored URL,
/// where a user's `${VAR}` can sit in the path, and a body holding one (a server echoing the
/// request) is not stored at all. What it reads back is checked: an entry recording another URL
/// (a hash collision in a folder) or a body of another length than recorded is a miss, not a
/// wrong answer.
package struct HTTPCache: Sendable {
    package let storage: any HTTPCacheStorage
    /// Values never written to the storage (API keys and tokens from the environment).
    package var secrets = SecretScrubber([])

    /// A cache in the folder `directory`, created on first write.
    package init(directory: URL) {
        self.init(storage: HTTPCacheFolder(directory: directory))
    }

    package init(storage: any HTTPCacheStorage) {
        self.storage = storage
    }

    /// The stored entry for `url`, or nil when there is none or it is unreadable.
    package func entry(for url: URL) async -> HTTPCacheEntry? {
        let key = key(for: url)
        guard let entry = await storage.entry(for: key),
              entry.metadata.url == key.url, entry.metadata.bodyLength == entry.body.count
        else { return nil }
        return entry
    }

    /// Stores `body` for `url`, replacing any previous entry whole.
    @discardableResult
    package func store(_ body: Data, for url: URL, etag: String?, lastModified: String?, contentType: String?,
                       fetchedAt: Date) async throws(CacheStorageError) -> HTTPCacheEntry {
        let key = key(for: url)
        let metadata = HTTPCacheEntry.Metadata(url: key.url, etag: etag, lastModified: lastModified, fetchedAt: fetchedAt,
                                               contentType: contentType, bodyLength: body.count)
        let entry = HTTPCacheEntry(metadata: metadata, body: body)
        guard !secrets.holdsLongSecret(body) else { return entry }
        try await storage.store(entry, for: key)
        return entry
    }

    private func key(for url: URL) -> HTTPCacheKey {
        let identity = URLRedaction.withoutSecrets(url)
        return HTTPCacheKey(identity: identity, url: secrets.scrub(identity))
    }
}
