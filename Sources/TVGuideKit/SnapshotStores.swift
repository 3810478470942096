import Foundation
import GuideConfig
import GuideCore
import GuideStorage
import GuideStorePostgres
import Logging

/// The snapshot store providers.yaml asks for: PostgreSQL with `snapshots.store`, else the folder.
package enum SnapshotStores {
    /// - Parameter directory: `--snapshots`, which names a folder and so overrides both
    ///   `snapshots.dir` and `snapshots.store`.
    package static func make(_ configuration: GuideConfiguration, directory: URL? = nil) throws(PostgresStoreError) -> any SnapshotStorage {
        guard directory == nil, let url = configuration.snapshots.store else {
            return SnapshotStore(directory: directory ?? configuration.snapshots.directory, keep: configuration.snapshots.keep)
        }
        return PostgresSnapshotStore(address: try PostgresStoreAddress(url), keep: configuration.snapshots.keep,
                                     logger: Logger(label: "tvguide.store"))
    }
}
