import Foundation
import GuideCore
import GuideStorage
import Testing
import TestSupport

/// `playlist:` in providers.yaml, through the real binary: the build narrows the guide to the
/// playlist's channels and reports the matches; serve gives the playlist back.
@Suite struct PlaylistEndToEndTests {
    static let offline = "http://127.0.0.1:9/"

    static func scratch(playlist: String) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", try defaultConfig(miguiatv: offline) + "\nplaylist: \(playlist)\n")
        return scratch
    }

    @Test func theBuildKeepsThePlaylistsChannelsAndReportsEveryEntry() async throws {
        let scratch = try Self.scratch(playlist: Fixtures.url("playlist/spain.m3u").path)
        let run = try await CLI.run(["build", "--now", recordedNow], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("spain.m3u: 8 entries, 6 matched, 0 ambiguous, 2 unmatched"), "\(run.stdout)")
        #expect(run.stdout.contains("matched: 3 by tvg-id, 1 by tvg-name, 2 by name"), "\(run.stdout)")
        #expect(run.stdout.contains("unmatched: Canal Sur Andalucía (tvg-id CanalSur.es); Cine Clásico 24h"), "\(run.stdout)")

        let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        #expect(Set(snapshot.channels.map(\.id)) == ["La1.es", "Antena3.es", "LaSexta.es", "TV3.es", "La2.es"])
        #expect(Set(snapshot.programmes.map(\.channel)) == Set(snapshot.channels.map(\.id)))
        let report = try #require(snapshot.report.playlist)
        // A tvg-id the channel map lacks is asked of the providers; none serves it, so it stays unmatched.
        #expect(report.unmatched == [.init(entry: "Canal Sur Andalucía", tvgID: "CanalSur.es"), .init(entry: "Cine Clásico 24h", tvgID: nil)])
        #expect(report.ambiguous.isEmpty)
        // The snapshot names entries, never their stream URLs (which carry tokens and passwords).
        let text = try String(contentsOf: scratch.file("snapshots/latest.json"), encoding: .utf8)
        #expect(!text.contains("s3cr3t") && !text.contains("user:pass"))
    }

    @Test func aPlaylistThatCannotBeReadKeepsTheLastGoodChannelList() async throws {
        let scratch = try Self.scratch(playlist: "playlist.m3u")
        try FileManager.default.copyItem(at: Fixtures.url("playlist/spain.m3u"), to: scratch.file("playlist.m3u"))
        let good = try await CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url)
        #expect(good.status == 0, "\(good.stderr)")
        let channels = try SnapshotStore.load(scratch.file("snapshots/latest.json")).channels.map(\.id)

        for (broken, message) in [
            ("<html>not a playlist</html>\n", "not an M3U playlist: it must start with #EXTM3U"),
            ("#EXTM3U\n#EXTINF:-1 tvg-id=\"La1.es,La 1\nhttp://a\n", "line 2: broken #EXTINF attributes"),
        ] {
            try scratch.write("playlist.m3u", broken)
            let run = try await CLI.run(["build", "--now", recordedNow], in: scratch.url)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains(message), "\(run.stdout)")
            #expect(run.stdout.contains("the last good channel list stands"), "\(run.stdout)")
            let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
            #expect(snapshot.channels.map(\.id) == channels)
            #expect(snapshot.report.playlist?.error?.contains(message) == true)
        }
        // 50 MB, sparse: refused by its size before a byte is read.
        let huge = try FileHandle(forWritingTo: scratch.file("playlist.m3u"))
        try huge.truncate(atOffset: 50_000_000)
        try huge.close()
        let tooLarge = try await CLI.run(["build", "--now", recordedNow], in: scratch.url)
        #expect(tooLarge.stdout.contains("playlist.m3u: is 50000000 bytes, more than the 32 MiB allowed"), "\(tooLarge.stdout)")
        #expect(try SnapshotStore.load(scratch.file("snapshots/latest.json")).channels.map(\.id) == channels)

        try FileManager.default.removeItem(at: scratch.file("playlist.m3u"))
        try FileManager.default.createDirectory(at: scratch.file("playlist.m3u"), withIntermediateDirectories: false)
        let directory = try await CLI.run(["build", "--now", recordedNow], in: scratch.url)
        #expect(directory.stdout.contains("playlist.m3u: is a directory, not a file"), "\(directory.stdout)")
        #expect(try SnapshotStore.load(scratch.file("snapshots/latest.json")).channels.map(\.id) == channels)
    }

    @Test func anUnreachablePlaylistURLIsAClearError() async throws {
        let scratch = try Self.scratch(playlist: "http://127.0.0.1:9/playlist.m3u")
        let run = try await CLI.run(["build", "--now", recordedNow], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("✗ http://127.0.0.1:9/playlist.m3u: unreachable"), "\(run.stdout)")
        #expect(run.stdout.contains("no earlier run matched it, so the guide keeps every channel"), "\(run.stdout)")
        #expect(try SnapshotStore.load(scratch.file("snapshots/latest.json")).channels.count == 24)

        // An IPTV provider's playlist URL carries a password: never in the report or the snapshot.
        let secret = try Self.scratch(playlist: "\"http://127.0.0.1:9/get.php?username=me&password=hunter2&type=m3u\"")
        let withSecret = try await CLI.run(["build", "--now", recordedNow], in: secret.url)
        #expect(withSecret.stdout.contains("password=REDACTED"), "\(withSecret.stdout)")
        #expect(!withSecret.stdout.contains("hunter2") && !withSecret.stderr.contains("hunter2"))
        #expect(try !String(contentsOf: secret.file("snapshots/latest.json"), encoding: .utf8).contains("hunter2"))
    }

    @Test func servePlaysThePlaylistBackWithTheGuidesIDs() async throws {
        let scratch = try Self.scratch(playlist: Fixtures.url("playlist/spain.m3u").path)
        #expect(try await CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url).status == 0)
        let server = try await ServeProcess.start([
            "serve", "--config", scratch.file("providers.yaml").path, "--port", "0", "--no-refresh", "--now", recordedNow,
        ])
        let playlist = try await server.get("/playlist.m3u")
        let lines = playlist.split(separator: "\n").map(String.init)
        #expect(lines.first == "#EXTM3U url-tvg=\"http://127.0.0.1:\(server.port)/xmltv.xml\" x-tvg-url=\"http://127.0.0.1:\(server.port)/xmltv.xml\" catchup=\"shift\"")
        let original = try String(contentsOf: Fixtures.url("playlist/spain.m3u"), encoding: .utf8).split(separator: "\r\n").map(String.init)
        // Stream URLs and directives untouched, in order; only #EXTINF lines change.
        #expect(lines.filter { !$0.hasPrefix("#EXT") } == original.filter { !$0.hasPrefix("#EXT") })
        // An alias as tvg-id becomes the canonical id, and the entry gets the guide's logo.
        #expect(lines.contains("#EXTINF:-1 tvg-id=\"La1.es\" group-title=\"Nacionales\" tvg-logo=\"https://img.tvguide.example/logos/La1.es.png\",TVE 1"))
        #expect(lines.contains { $0.hasPrefix("#EXTINF:-1 tvg-name=\"ES: Antena 3 FHD\" tvg-logo=\"https://") && $0.hasSuffix(" tvg-id=\"Antena3.es\",Antena 3") })
        #expect(lines.contains("#EXTINF:-1,Cine Clásico 24h"))
        #expect(lines.contains("#EXTINF:-1 tvg-id=\"CanalSur.es\" tvg-name=\"Canal Sur\",Canal Sur Andalucía"))

        let lineup = try await server.get("/playlist.m3u?lineup=main")
        #expect(lineup.hasPrefix("#EXTM3U url-tvg=\"http://127.0.0.1:\(server.port)/xmltv.xml?lineup=main\""))
        #expect(lineup.components(separatedBy: "#EXTINF").count - 1 == 5)  // La 1 HD, TVE 1, Antena 3, laSexta FHD, La 2
        let guide = try await server.get("/xmltv.xml?lineup=main")
        #expect(Set(guide.components(separatedBy: "<channel id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
            == ["La1.es", "La2.es", "Antena3.es", "LaSexta.es"])
        await #expect { try await server.get("/xmltv.xml?lineup=nope") } throws: { "\($0)".contains("HTTP 404") }
        #expect(try await server.terminate() == 0)
    }
}
