import Foundation
import GuideCore
import GuideStorage
import PostgresNIO

extension PostgresSnapshotStore {
    /// LISTEN on a connection of its own and load `latest` whenever a commit notifies it; poll
    /// every `pollInterval` as well, which both catches a commit made while the connection was
    /// being made and proves the connection alive (a server that vanished without closing it
    /// leaves a LISTEN waiting forever). Without a connection, try again every `pollInterval`,
    /// loading anything committed meanwhile as soon as a query answers, even where LISTEN
    /// fails (a pooler in transaction mode).
    package func follow(_ handle: @escaping @Sendable (SnapshotFeedEvent) async -> Void) async {
        var live: Bool?
        while !Task.isCancelled {
            do {
                let connection = try await connect()
                do {
                    try await attempt("follow the latest snapshot") {
                        try await catchUp(connection, handle)
                        try await connection.listen(on: Self.notifyChannel) { notifications in
                            live = true
                            await handle(.live)
                            try await catchUp(connection, handle)
                            try await watch(connection, notifications, handle)
                        }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
            } catch {
                guard !Task.isCancelled else { return }
                if live != false {
                    live = false
                    logger.warning("snapshot store lost; serving the guide in hand and reconnecting: \(error)")
                    await handle(.lost(reason: String(describing: error)))
                }
            }
            try? await Task.sleep(for: pollInterval)
        }
    }

    /// Until the connection fails: a load after each notification, and a poll every
    /// `pollInterval` that closes the connection when it gets no answer within `pollDeadline`.
    private func watch(_ connection: PostgresConnection, _ notifications: PostgresNotificationSequence,
                       _ handle: @escaping @Sendable (SnapshotFeedEvent) async -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await _ in notifications {
                    try await self.catchUp(connection, handle)
                }
                throw PostgresStoreError.unreachable(store: self.location, detail: "the listening connection closed")
            }
            group.addTask {
                while true {
                    try await Task.sleep(for: self.pollInterval)
                    // Closing fails the pending query, and so this task, and so the group.
                    let watchdog = Task {
                        try await Task.sleep(for: self.pollDeadline)
                        try? await connection.close()
                    }
                    defer { watchdog.cancel() }
                    try await self.catchUp(connection, handle)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Loads `latest` when it is not the snapshot this process serves, and hands it over.
    func catchUp(_ connection: PostgresConnection, _ handle: @Sendable (SnapshotFeedEvent) async -> Void) async throws {
        guard let id = try await latestID(connection), let claim = await book.claim(id) else { return }
        do {
            guard let snapshot = try await load(id, connection) else {
                // Pruned by a newer commit, whose notification follows.
                await book.release(claim)
                return
            }
            await handle(.committed(snapshot))
        } catch {
            await book.release(claim)
            throw error
        }
    }
}
