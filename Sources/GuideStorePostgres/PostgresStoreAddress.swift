import Foundation
import GuideCore
import PostgresNIO

/// `postgres://user:password@host:port/database` as a connection configuration, and as text fit
/// for a message (no password). Like libpq's URLs: `postgresql://` too, the port defaults to 5432,
/// the database to the user's name, and `?host=/run/postgresql` with no host reaches the server
/// through its Unix socket in that folder.
package struct PostgresStoreAddress: Sendable {
    package let configuration: PostgresConnection.Configuration
    /// The URL without user-info: what messages, `/health` and logs show.
    package let redacted: String

    package init(_ url: URL) throws(PostgresStoreError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme) else {
            throw .invalidAddress("expected a URL like postgres://user@host:5432/database")
        }
        redacted = URLRedaction.redacted(url)
        guard let user = components.user.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw .invalidAddress("\(redacted) names no user (postgres://user@host/database)")
        }
        let password = components.password.flatMap { $0.removingPercentEncoding }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        // TLS would need certificates configured here; the store is meant for a private network
        // or a local socket (docs/deployment.md), so asking for it is an error, not a silent downgrade.
        if let mode = query["sslmode"], !["disable", "allow", "prefer"].contains(mode) {
            throw .invalidAddress("\(redacted): sslmode=\(mode) is not supported; reach PostgreSQL on a private network or its Unix socket")
        }
        let port = components.port ?? 5432
        if let host = components.host, !host.isEmpty {
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: .disable)
        } else if let socketFolder = query["host"], socketFolder.hasPrefix("/") {
            configuration = .init(unixSocketPath: socketFolder + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            throw .invalidAddress("\(redacted) names no host (postgres://user@host/database, or ?host=/socket/folder)")
        }
    }
}
