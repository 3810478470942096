import Foundation
import GuideConfig
import GuideCore
import GuideServer
import Testing
import TestSupport
@testable import TVGuideKit

/// What `tvguide serve` gives back at `/playlist.m3u` while the file changes under it.
@Suite struct PlaylistKeeperTests {
    @Test func aReadThatFailsKeepsTheLastGoodPlaylistAndSaysWhy() async throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: Fixtures.url("playlist/spain.m3u"), to: scratch.file("playlist.m3u"))
        let configuration = try GuideConfiguration.parse(yaml: """
            playlist: playlist.m3u
            guide: [sample]
            providers: { sample: { type: xmltv, url: sample.xml } }
            """, file: scratch.file("providers.yaml"))
        let source = try #require(PlaylistSource(configuration: configuration))
        let keeper = PlaylistKeeper(source: source, rereadAfter: .zero)

        let first = await keeper.current()
        #expect(first.playlist?.entries.count == 8)
        #expect(first.error == nil)

        try scratch.write("playlist.m3u", "<html>moved</html>\n")
        let broken = await keeper.current()
        #expect(broken.playlist == first.playlist)
        #expect(broken.revision == first.revision)
        #expect(broken.error?.contains("not an M3U playlist") == true)

        try scratch.write("playlist.m3u", "#EXTM3U\n#EXTINF:-1 tvg-id=\"La1.es\",La 1\nhttp://a\n")
        let fixed = await keeper.current()
        #expect(fixed.playlist?.entries.map(\.name) == ["La 1"])
        #expect(fixed.revision == first.revision + 1)
        #expect(fixed.error == nil)
    }
}
