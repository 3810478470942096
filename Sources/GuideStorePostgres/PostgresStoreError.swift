import Foundation
import PostgresNIO

/// What can go wrong with the PostgreSQL store. Messages name the store by its URL without
/// password, and show the server's own message, never a query's bound values (a whole snapshot).
package enum PostgresStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `snapshots.store` is not a URL this store reads.
    case invalidAddress(String)
    /// No connection could be made, or it was lost.
    case unreachable(store: String, detail: String)
    /// A statement failed on a working connection.
    case failed(store: String, operation: String, detail: String)
    /// The stored bytes are not a snapshot.
    case corrupt(store: String, snapshot: Int64, detail: String)

    package var description: String {
        switch self {
        case .invalidAddress(let reason): "snapshots.store: \(reason)"
        case .unreachable(let store, let detail): "cannot reach the snapshot store \(store): \(detail)"
        case .failed(let store, let operation, let detail): "cannot \(operation) in the snapshot store \(store): \(detail)"
        case .corrupt(let store, let snapshot, let detail): "snapshot \(snapshot) in \(store) is corrupt: \(detail)"
        }
    }

    /// What PostgreSQL or the connection said: the server's message (with its SQLSTATE) or the
    /// network's error. `PSQLError.description` hides everything; its debug text carries the query.
    static func detail(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] {
            return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// True when the connection itself failed, rather than a statement on it.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return true }
        return error.serverInfo == nil
    }
}
