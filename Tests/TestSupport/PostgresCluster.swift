import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throw-away PostgreSQL cluster for one test: `initdb` in a temporary folder, the server on a
/// free port of 127.0.0.1 with its socket in that folder, a superuser `tvguide` whose password
/// the URL carries (so the store's password handling is exercised), stopped and removed by `run`.
/// PostgreSQL refuses to run as root: as root (CI, containers) every command runs as `nobody`
/// (through setpriv), and the folder is handed to that user.
package final class PostgresCluster: @unchecked Sendable {
    // @unchecked: `server` is guarded by `lock`; the rest is set before a test is handed the
    // cluster (`port` once the server has bound it).
    package let folder: URL
    package private(set) var port: Int
    package let password: String
    private let binaries: URL
    private let lock = NSLock()
    private var server: RunningProcess?

    package static let user = "tvguide"
    package static let database = "postgres"

    /// The server programs' folder: Debian's newest `/usr/lib/postgresql/<version>/bin`, else
    /// the one holding `initdb` on PATH; nil when PostgreSQL is not installed.
    package static let binaries: URL? = {
        let debian = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: debian.path)) ?? []).compactMap(Int.init).sorted(by: >)
        for version in versions {
            let bin = debian.appendingPathComponent("\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let bin = URL(fileURLWithPath: String(folder))
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        return nil
    }()

    /// Why PostgreSQL tests are skipped, in the skip message.
    package static let missing = "PostgreSQL's initdb and postgres were not found (apt-get install postgresql; .ci/run installs it)"

    /// `postgres://tvguide:<password>@127.0.0.1:<port>/postgres`, the password given as `password`
    /// (`${VAR}` in providers.yaml), or as is.
    package func url(password shown: String? = nil) -> String {
        "postgres://\(Self.user):\(shown ?? password)@127.0.0.1:\(port)/\(Self.database)"
    }

    private init(folder: URL, port: Int, password: String, binaries: URL) {
        self.folder = folder
        self.port = port
        self.password = password
        self.binaries = binaries
    }

    /// Starts a cluster, runs `body` with it, and stops and removes it whatever `body` does.
    package static func run<T: Sendable>(_ body: (PostgresCluster) async throws -> T) async throws -> T {
        guard let binaries else { throw ClusterError(missing) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cluster = PostgresCluster(folder: folder, port: 0, password: "pw-\(UUID().uuidString.prefix(13))", binaries: binaries)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try await cluster.create()
            try await cluster.startOnAFreePort()
        } catch {
            try? await cluster.stop()
            throw error
        }
        do {
            let value = try await body(cluster)
            try await cluster.stop()
            return value
        } catch {
            try? await cluster.stop()
            throw error
        }
    }

    private func create() async throws {
        try Data(password.utf8).write(to: folder.appendingPathComponent("pwfile"))
        try handOver(folder)
        try await command("initdb", ["-D", data, "-U", Self.user, "--pwfile", folder.appendingPathComponent("pwfile").path,
                                     "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--no-sync"])
    }

    private var data: String { folder.appendingPathComponent("data").path }

    /// Starts the server, a child of this process (not daemonised by pg_ctl: Foundation's
    /// Process sees a child end only once every descendant has closed a descriptor it inherits,
    /// so `pg_ctl start`, whose server keeps it, never seemed to end), and waits until it
    /// accepts connections.
    package func start() async throws {
        let postgres = binaries.appendingPathComponent("postgres").path
        let (path, arguments) = Self.asUnprivileged(postgres, [
            "-D", data, "-p", String(port), "-k", folder.path, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200",
        ])
        let log = folder.appendingPathComponent("server.log")
        let process = try RunningProcess(URL(fileURLWithPath: path), arguments, environment: ["LC_ALL": "C"], currentDirectory: folder,
                                         stdout: log, stderr: log)
        lock.withLock { server = process }
        let deadline = ContinuousClock.now + .seconds(60)
        while (try? await command("pg_isready", ["-q", "-h", folder.path, "-p", String(port)])) == nil {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw ClusterError("PostgreSQL did not start:\n\(self.log.suffix(2_000))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Starts the server on a port the kernel says is free. Another process can take that port
    /// before the server binds it (CI saw "could not bind IPv4 address "127.0.0.1": Address
    /// already in use" once): the server is then started on another, up to five times.
    private func startOnAFreePort() async throws {
        for attempt in 1...5 {
            // A port bound and let go again at once: nothing listens on it now.
            port = try RefusingPort().port
            do {
                try await start()
                return
            } catch let error as ClusterError where attempt < 5 && error.description.contains("Address already in use") {
                try? await stop()
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("server.log"))
            }
        }
    }

    /// Stops the server at once (SIGQUIT, "immediate shutdown"), as a crash or a failover would:
    /// clients see their connections cut.
    package func stop() async throws {
        guard let process = lock.withLock({ server.take() }) else { return }
        process.send(SIGQUIT)
        _ = await process.termination()
    }

    /// The server's log, for a failing test's message.
    package var log: String {
        (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
    }

    /// Runs `psql` as the superuser on the cluster's socket; returns its unaligned output.
    package func psql(_ sql: String) async throws -> String {
        try await command("psql", ["-X", "-A", "-t", "-q", "-h", folder.path, "-p", String(port), "-U", Self.user, "-d", Self.database, "-c", sql])
    }

    @discardableResult
    private func command(_ program: String, _ arguments: [String]) async throws -> String {
        let executable = binaries.appendingPathComponent(program)
        let (path, fullArguments) = Self.asUnprivileged(executable.path, arguments)
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = nil
        environment["LC_ALL"] = "C"
        let result = try await Subprocess.run(URL(fileURLWithPath: path), fullArguments, environment: environment, currentDirectory: folder)
        guard result.status == 0 else {
            throw ClusterError("\(program) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)\(result.stdout)\n\(log.suffix(2_000))")
        }
        return result.stdout
    }

    /// As root, `setpriv` to `nobody`, then `program …`: PostgreSQL will not run as root.
    /// setpriv execs the program in place; runuser forks it under a PAM session, and Foundation's
    /// Process never saw such a runuser exit (it stayed a zombie and `waitUntilExit` spun).
    private static func asUnprivileged(_ program: String, _ arguments: [String]) -> (String, [String]) {
        guard geteuid() == 0, let nobody = Self.nobody else { return (program, arguments) }
        return ("/usr/bin/setpriv", ["--reuid=\(nobody.uid)", "--regid=\(nobody.gid)", "--clear-groups", "--", program] + arguments)
    }

    /// Looked up once: `getpwnam` answers in a buffer of its own that the next call overwrites,
    /// and tests start clusters on several threads at once (one was handed to a garbled user
    /// and initdb was refused its folder).
    private static let nobody: (uid: uid_t, gid: gid_t)? = getpwnam("nobody").map { ($0.pointee.pw_uid, $0.pointee.pw_gid) }

    /// As root, gives `folder` to `nobody`, who runs the server.
    private func handOver(_ folder: URL) throws {
        guard geteuid() == 0 else { return }
        guard let nobody = Self.nobody else { throw ClusterError("no user 'nobody' to run PostgreSQL as") }
        for path in [folder.path, folder.appendingPathComponent("pwfile").path] {
            guard chown(path, nobody.uid, nobody.gid) == 0 else {
                throw ClusterError("cannot give \(path) to nobody: \(String(cString: strerror(errno)))")
            }
        }
    }
}

package struct ClusterError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
