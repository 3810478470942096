import Foundation
import TestSupport

/// Runs the built `tvguide` binary, as a user would.
struct CLI {
    /// The `tvguide` executable beside the test bundle (both are products of the same build).
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("tvguide")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return Fixtures.root.deletingLastPathComponent().appendingPathComponent(".build/debug/tvguide")
    }()

    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) async throws -> ProcessResult {
        try await Subprocess.run(executable, arguments, environment: Self.environment(environment), currentDirectory: directory)
    }

    /// This process's environment without the variables that would change what `tvguide` does, plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["TVGUIDE_NOW"] = nil
        env["TVGUIDE_CONFIG"] = nil
        // A developer's own ~/.config/tvguide/providers.yaml would be found where a test has none.
        env["XDG_CONFIG_HOME"] = "/nonexistent/tvguide-tests"
        // A developer's own keys would send the default configuration's live providers to the internet.
        for key in ["TMDB_API_KEY", "TMDB_ACCESS_TOKEN", "THETVDB_API_KEY", "THETVDB_PIN"] { env[key] = nil }
        for (key, value) in extra { env[key] = value }
        return env
    }
}

/// A scratch folder removed when the test ends.
final class Scratch: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = file(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }
}

/// The default providers.yaml with the live MiGuiaTV base_url and formulatv's site replaced, so
/// that no test ever reaches the internet. The timeout is generous because a loopback server answers through the
/// test process's cooperative threads, which other suites' CPU-bound tests may hold for seconds.
func defaultConfig(miguiatv baseURL: String, extra: String = "") throws -> String {
    let original = try String(contentsOf: Fixtures.url("../providers.yaml"), encoding: .utf8)
    let sampleURL = Fixtures.url("xmltv/sample.xml").path
    return original
        .replacingOccurrences(of: "base_url: \"http://api.miguia.tv/1/\"", with: "base_url: \"\(baseURL)\"" + extra)
        // Port 9 (discard) on loopback refuses at once: the live audience source is down.
        .replacingOccurrences(of: "https://www.formulatv.com/", with: "http://127.0.0.1:9/")
        .replacingOccurrences(of: "timeout: 10s\n    retries: 1", with: "timeout: 60s\n    retries: 0")
        .replacingOccurrences(of: "url: Fixtures/xmltv/sample.xml", with: "url: \(sampleURL)")
        .replacingOccurrences(of: "replay: Fixtures/", with: "replay: \(Fixtures.root.path)/")
        .replacingOccurrences(of: "dir: .tvguide-cache", with: "dir: cache")
        // The live sites are down too: refused on loopback, never looked up on the internet.
        .replacingOccurrences(of: "    site: programacion-tv.elpais.com\n", with: """
                site: programacion-tv.elpais.com
                catalogue: \(catalogue)
                url: "http://127.0.0.1:9/elpais/parrilla_{date:ddMMyyyy}.json"
                details: {}

            """)
        .replacingOccurrences(of: "    site: movistarplus.es\n", with: """
                site: movistarplus.es
                catalogue: \(catalogue)
                url: "http://127.0.0.1:9/movistarplus/{channel}/{date:yyyy-MM-dd}"
                details: {}

            """)
}

/// The repository's catalogue of site recipes.
let catalogue = Fixtures.root.deletingLastPathComponent().appendingPathComponent("sources").path

/// The default channel list's lines (`  - { id: … }`), without the columns of the live sites
/// (`elpais`, `movistarplus`), which need those providers defined.
func defaultChannelLines() throws -> [String] {
    try String(contentsOf: Fixtures.url("../providers.yaml"), encoding: .utf8)
        .split(separator: "\n").filter { $0.hasPrefix("  - { id:") }
        .map { $0.replacingOccurrences(of: #", (elpais|movistarplus): "?[A-Za-z0-9]+"?"#, with: "", options: .regularExpression) }
}
