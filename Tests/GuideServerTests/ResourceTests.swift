import Foundation
import Testing

/// The texts kept as files under Sources/GuideServer/Resources reach clients as written.
@Suite struct ResourceTests {
    static let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/GuideServer/Resources")

    @Test func assetsAreServedAsTheirFiles() async throws {
        try await ServerHarness.run { client in
            for name in ["guide.css", "guide.js"] {
                let response = try await client.get("/assets/\(name)")
                #expect(response.status == 200)
                #expect(response.body == (try Data(contentsOf: Self.resources.appendingPathComponent(name))), "\(name)")
            }
        }
    }

    /// The layout's asset links are filled in with the assets' checksums; no tag is left over.
    @Test func pagesLinkTheAssetsByChecksum() async throws {
        try await ServerHarness.run { client in
            let page = try await client.get("/").text
            let stylesheet = try #require(page.firstMatch(of: /href="\/assets\/guide\.css\?v=([0-9a-f]+)"/))
            let script = try #require(page.firstMatch(of: /src="\/assets\/guide\.js\?v=([0-9a-f]+)"/))
            #expect(stylesheet.1 != script.1)
            #expect(!page.contains("{{") && !page.contains("}}"))
            let layout = try String(contentsOf: Self.resources.appendingPathComponent("layout.mustache"), encoding: .utf8)
            #expect(layout.contains(#"href="{{stylesheetPath}}""#) && layout.contains(#"src="{{scriptPath}}""#))
        }
    }
}
