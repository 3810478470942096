import Foundation
import GuideCore
import GuideStorage
import GuideTransport
import Testing
import TestSupport

/// `tvguide serve` as a user runs it: the real binary, a real port, signals.
@Suite struct ServeEndToEndTests {
    static let goldenNow = "2026-10-21T19:00:00Z"

    @Test func warmStartAnswersOfflineAtOnceAndSIGTERMStopsCleanly() async throws {
        let scratch = try Scratch()
        try seedLatest(in: scratch)
        try scratch.write("providers.yaml", try defaultConfig(miguiatv: "http://127.0.0.1:9/"))
        let server = try await ServeProcess.start([
            "serve", "--config", scratch.file("providers.yaml").path, "--snapshots", scratch.file("snapshots").path,
            "--port", "0", "--no-refresh", "--now", Self.goldenNow,
        ])
        let health = try await server.json("/health")
        // The golden guide came from the recorded week after every live source failed: served, but said.
        #expect(health["status"] as? String == "degraded")
        #expect((health["reasons"] as? [String])?.first?.hasPrefix("every live guide source failed") == true)
        #expect(health["origin"] as? String == "latest.json")
        #expect(health["programmes"] as? Int == 4_010)
        let status = try await server.terminate()
        #expect(status == 0, "serve should exit 0 after SIGTERM; stderr: \(server.stderr)")
    }

    @Test func aFailedRefreshKeepsServingTheLastGoodGuideAndShowsInHealth() async throws {
        let scratch = try Scratch()
        try seedLatest(in: scratch)
        let before = try Data(contentsOf: scratch.file("snapshots/latest.json"))
        // Only a live source, and it is down: every rebuild serves nothing.
        try scratch.write("providers.yaml", """
            window: { past: 1d, days: 1 }
            cache: { dir: cache }
            channels:
              - { id: La1.es, name: La 1, miguiatv: 1 }
            guide: [miguiatv]
            providers:
              miguiatv: { type: miguiatv, base_url: "http://127.0.0.1:9/", timeout: 5s, retries: 0 }
            """)
        let server = try await ServeProcess.start([
            "serve", "--config", scratch.file("providers.yaml").path, "--snapshots", scratch.file("snapshots").path,
            "--port", "0", "--refresh-interval", "1s", "--now", Self.goldenNow,
        ])
        let health = try await server.waitForHealth { refresh in (refresh["failed"] as? Int ?? 0) >= 1 }
        #expect(health["status"] as? String == "degraded")
        #expect(health["programmes"] as? Int == 4_010)
        let refresh = try #require(health["refresh"] as? [String: Any])
        #expect((refresh["lastError"] as? String)?.contains("no provider served") == true, "\(refresh)")
        #expect(refresh["lastSuccess"] == nil)
        let metrics = try await server.get("/metrics")
        #expect(metrics.contains(#"tvguide_refreshes_total{outcome="failure"}"#))
        #expect(try Data(contentsOf: scratch.file("snapshots/latest.json")) == before, "a failed refresh must not touch latest.json")
        #expect(try await server.terminate() == 0)
    }

    @Test func aSuccessfulRefreshSwapsTheNewGuideIn() async throws {
        let scratch = try Scratch()
        try seedLatest(in: scratch)
        try scratch.write("providers.yaml", try defaultConfig(miguiatv: "http://127.0.0.1:9/"))
        // A day after the seeded guide was built: it is older than the interval, so the first
        // rebuild starts at once.
        let server = try await ServeProcess.start([
            "serve", "--config", scratch.file("providers.yaml").path, "--snapshots", scratch.file("snapshots").path,
            "--port", "0", "--refresh-interval", "1h", "--now", "2026-10-22T19:00:00Z",
        ])
        let health = try await server.waitForHealth { refresh in (refresh["succeeded"] as? Int ?? 0) >= 1 }
        #expect(health["origin"] as? String == "refresh")
        #expect(health["generatedAt"] as? String == "2026-10-22T19:00:00Z")
        let written = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        #expect(written.generatedAt == ISOTime.parse("2026-10-22T19:00:00Z"))
        #expect(try await server.terminate() == 0)
    }

    @Test func anUnreadableSnapshotOrABusyPortFailsWithExitOne() async throws {
        let scratch = try Scratch()
        try scratch.write("snapshots/latest.json", "{ not json")
        try scratch.write("providers.yaml", try defaultConfig(miguiatv: "http://127.0.0.1:9/"))
        let unreadable = try await CLI.run([
            "serve", "--config", scratch.file("providers.yaml").path, "--snapshots", scratch.file("snapshots").path, "--port", "0",
        ])
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.contains("could not read the last snapshot"))
        let badPort = try await CLI.run(["serve", "--config", scratch.file("providers.yaml").path, "--port", "70000"])
        #expect(badPort.status == 64)
        #expect(badPort.stderr.contains("--port must be between 0 and 65535"))
    }

    /// `server.cors_origins` in providers.yaml, replaced by `--cors-origin` when given; a
    /// malformed origin in either is refused before the server starts.
    @Test func corsOriginsComeFromTheConfigurationOrTheCommandLine() async throws {
        let scratch = try Scratch()
        try seedLatest(in: scratch)
        try scratch.write("providers.yaml", try defaultConfig(miguiatv: "http://127.0.0.1:9/")
            + "\nserver:\n  cors_origins: [https://configured.example]\n")
        let arguments = ["serve", "--config", scratch.file("providers.yaml").path, "--snapshots", scratch.file("snapshots").path,
                         "--port", "0", "--no-refresh", "--now", Self.goldenNow]
        for (extra, allowed, refused) in [([String](), "https://configured.example", "https://flag.example"),
                                          (["--cors-origin", "https://flag.example"], "https://flag.example", "https://configured.example")] {
            let server = try await ServeProcess.start(arguments + extra)
            #expect(try await server.allowedOrigin("/now", origin: allowed) == allowed, "\(extra)")
            #expect(try await server.allowedOrigin("/now", origin: refused) == nil, "\(extra)")
            #expect(try await server.allowedOrigin("/", origin: allowed) == nil, "pages never: \(extra)")
            #expect(try await server.terminate() == 0)
        }
        let badFlag = try await CLI.run(arguments + ["--cors-origin", "https://app.example/path"])
        #expect(badFlag.status == 64)
        #expect(badFlag.stderr.contains("--cors-origin 'https://app.example/path' is not an origin"))
        try scratch.write("bad.yaml", try defaultConfig(miguiatv: "http://127.0.0.1:9/") + "\nserver:\n  cors_origins: [app.example]\n")
        let badConfig = try await CLI.run(["serve", "--config", scratch.file("bad.yaml").path, "--port", "0"])
        #expect(badConfig.status == 2)
        #expect(badConfig.stderr.contains("'app.example' is not an origin"), "\(badConfig.stderr)")
    }

    /// Serving a snapshot needs no providers.yaml: from a folder without one, nor any in the
    /// places searched, `--snapshots` is served as it is, and the start-up says how to reach it
    /// from the network. Without `--snapshots` it stops, naming where it looked.
    @Test func aSnapshotFolderIsServedFromAnEmptyFolderWithoutAConfiguration() async throws {
        let scratch = try Scratch()
        try seedLatest(in: scratch)
        let empty = scratch.file("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let server = try await ServeProcess.start(["serve", "--snapshots", scratch.file("snapshots").path, "--port", "0", "--now", Self.goldenNow],
                                                  in: empty)
        let health = try await server.json("/health")
        #expect(health["programmes"] as? Int == 4_010)
        #expect(try await server.terminate() == 0)
        #expect(server.stderr.contains("Configuration: none found; serving the snapshots in \(scratch.file("snapshots").path) without rebuilding them"),
                "\(server.stderr)")
        #expect(server.stderr.contains("serve with --host 0.0.0.0"), "\(server.stderr)")

        let refused = try await CLI.run(["serve", "--port", "0"], in: empty, environment: ["XDG_CONFIG_HOME": scratch.file("xdg").path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("no providers.yaml: give --config FILE, or put one in \(empty.path)/providers.yaml (the working folder), "
                                        + "\(scratch.file("xdg").path)/tvguide/providers.yaml ($XDG_CONFIG_HOME/tvguide), /etc/tvguide/providers.yaml"),
                "\(refused.stderr)")
    }

    /// Without `--config`, the user's providers.yaml in `$XDG_CONFIG_HOME/tvguide/` is found from
    /// any folder, and the start-up names it; one in the working folder comes first.
    @Test func theConfigurationIsSearchedForAndNamed() async throws {
        let scratch = try Scratch()
        try seedLatest(in: scratch)
        let users = try scratch.write("xdg/tvguide/providers.yaml", try defaultConfig(miguiatv: "http://127.0.0.1:9/"))
        let empty = scratch.file("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let arguments = ["validate"]
        let found = try await CLI.run(arguments, in: empty, environment: ["XDG_CONFIG_HOME": scratch.file("xdg").path])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.split(separator: "\n").contains { $0.hasPrefix("\(users.path): valid") }, "\(found.stdout)")
        let server = try await ServeProcess.start(["serve", "--snapshots", scratch.file("snapshots").path, "--port", "0", "--no-refresh",
                                                   "--now", Self.goldenNow],
                                                  environment: ["XDG_CONFIG_HOME": scratch.file("xdg").path], in: empty)
        #expect(try await server.json("/health")["programmes"] as? Int == 4_010)
        #expect(try await server.terminate() == 0)
        #expect(server.stderr.contains("Configuration: \(users.path) ($XDG_CONFIG_HOME/tvguide)"), "\(server.stderr)")
        let local = try scratch.write("empty/providers.yaml", try defaultConfig(miguiatv: "http://127.0.0.1:9/"))
        let first = try await CLI.run(arguments, in: empty, environment: ["XDG_CONFIG_HOME": scratch.file("xdg").path])
        #expect(first.stdout.split(separator: "\n").contains { $0.hasPrefix("\(local.path): valid") }, "\(first.stdout)")
    }

    private func seedLatest(in scratch: Scratch) throws {
        let snapshots = scratch.file("snapshots")
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.url("golden/offline-default.json"), to: snapshots.appendingPathComponent("latest.json"))
    }
}

/// A running `tvguide serve`: started with `--port 0`, it is ready once it prints the port.
final class ServeProcess: @unchecked Sendable {
    // @unchecked: `stderrText` is guarded by `lock`; the rest is set once in `start`.
    let process: Process
    let port: Int
    private let lock = NSLock()
    private var stderrText = ""
    private let transport = LiveTransport(policy: .loopbackExact)

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    var stderr: String { lock.withLock { stderrText } }

    /// - Parameters:
    ///   - extra: variables set for the child after the developer's keys are removed.
    ///   - directory: the working folder; this process's when nil.
    static func start(_ arguments: [String], environment extra: [String: String] = [:], in directory: URL? = nil) async throws -> ServeProcess {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.environment = CLI.environment(extra)
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try ChildProcesses.start(process)
        // Reads happen on Dispatch threads, never on Swift's cooperative ones.
        let port: Int = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var seen = Data()
                var resumed = false
                while true {
                    let chunk = out.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    guard !resumed else { continue }
                    seen.append(chunk)
                    let text = String(decoding: seen, as: UTF8.self)
                    if let range = text.range(of: #"Serving the guide on http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
                       let port = Int(text[range].split(separator: ":").last?.dropLast() ?? "") {
                        resumed = true
                        continuation.resume(returning: port)
                    }
                }
                if !resumed { continuation.resume(throwing: ServeFailure("serve exited before listening")) }
            }
        }
        let server = ServeProcess(process: process, port: port)
        DispatchQueue.global().async {
            while true {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                server.lock.withLock { server.stderrText += String(decoding: chunk, as: UTF8.self) }
            }
        }
        return server
    }

    func get(_ path: String) async throws -> String {
        let response = try await transport.get(URL(string: "http://127.0.0.1:\(port)\(path)")!, headers: [:])
        return String(decoding: response.body, as: UTF8.self)
    }

    /// The `Access-Control-Allow-Origin` answered to a GET of `path` from `origin`.
    func allowedOrigin(_ path: String, origin: String) async throws -> String? {
        let response = try await transport.get(URL(string: "http://127.0.0.1:\(port)\(path)")!, headers: ["Origin": origin])
        return response.headers.first { $0.key.lowercased() == "access-control-allow-origin" }?.value
    }

    func json(_ path: String) async throws -> [String: Any] {
        let text = try await get(path)
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw ServeFailure("\(path) is not a JSON object: \(text.prefix(200))")
        }
        return object
    }

    /// Polls `/health` until its `refresh` section satisfies `condition` (two minutes at most).
    func waitForHealth(_ condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let health = try await json("/health")
            if let refresh = health["refresh"] as? [String: Any], condition(refresh) { return health }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw ServeFailure("/health never reached the expected state; stderr: \(stderr)")
    }

    /// SIGTERM, then the exit status (SIGKILL after 30 s, which fails the caller's expectation).
    func terminate() async throws -> Int32 {
        process.terminate()
        let process = self.process
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let deadline = Date().addingTimeInterval(30)
                while process.isRunning && Date() < deadline { usleep(20_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

struct ServeFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
