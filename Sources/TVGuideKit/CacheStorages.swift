import Foundation
import GuideConfig
import GuideCore
import GuideStorage
import GuideStorePostgres
import GuideTransport

/// Where a run keeps its HTTP cache and its metadata lookups: beside its snapshots. With
/// `snapshots.store` that is the PostgreSQL store's tables, so every process building into the
/// store finds what any of them fetched; otherwise the folder `cache.dir`.
package struct CacheStorages: Sendable {
    package var http: any HTTPCacheStorage
    package var metadata: any MetadataLookupStorage

    /// The folder `cache.dir`.
    package init(folder settings: CacheSettings) {
        self.init(http: HTTPCacheFolder(directory: settings.directory), metadata: MetadataLookupFolder(directory: settings.directory))
    }

    /// The tables of `store` when it is PostgreSQL, else the folder `cache.dir`.
    package init(beside store: any SnapshotStorage, settings: CacheSettings) {
        if let postgres = store as? PostgresSnapshotStore {
            self.init(http: postgres.httpCache, metadata: postgres.metadataLookups)
        } else {
            self.init(folder: settings)
        }
    }

    private init(http: any HTTPCacheStorage, metadata: any MetadataLookupStorage) {
        self.http = http
        self.metadata = metadata
    }
}
