import Foundation
import GuideCore
import GuideStorage
import Logging
import ServiceLifecycle

/// Follows the store replicas share: every snapshot another process commits is swapped in as
/// a refresh's would be, and whether the store can be reached shows in `/health` and `/metrics`.
/// While it cannot, the guide in hand stays in service.
struct StoreFollower: Service {
    let serving: ServingContext
    let store: any SharedSnapshotStorage

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await store.follow { event in await handle(event) }
        }
    }

    func handle(_ event: SnapshotFeedEvent) async {
        switch event {
        case .live:
            let reconnected = serving.state.storeReachable(true, at: serving.now)
            serving.metrics.recordStore(live: true, reconnected: reconnected)
        case .lost(let reason):
            serving.state.storeReachable(false, error: reason, at: serving.now)
            serving.metrics.recordStore(live: false, reconnected: false)
        case .committed(let snapshot):
            await serving.serve(snapshot, origin: .store)
            serving.metrics.recordFollowedSnapshot()
            serving.logger.info("guide from the store: \(snapshot.programmes.count) programmes on \(snapshot.channels.count) channels, built \(ISOTime.format(snapshot.generatedAt))")
        }
    }
}
