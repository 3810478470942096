import Foundation
import GuideCore
import MiGuiaTV
import TestSupport
import Testing

@Suite("MiGuiaTV channels")
struct ChannelsTests {
    @Test("variant 1: data is [id, name, type, language, image] rows")
    func flatVariant() async throws {
        let transport = FixtureTransport()
        let channels = try await provider(transport).channels()

        #expect(channels.count == 24)
        #expect(channels.map(\.id) == (1...24).map(String.init))
        let la1 = try #require(channels.first)
        #expect(la1 == Channel(id: "1", name: "La 1", type: "national", language: "es",
                               logo: "https://www.miguia.tv/img/channels/1.png", providerIDs: ["miguiatv": "1"]))
        let tv3 = try #require(channels.first { $0.name == "TV3" })
        #expect(tv3.id == "23" && tv3.type == "regional" && tv3.language == "ca")
        #expect(channels.first { $0.id == "24" }?.language == "eu")
        #expect(await transport.log.urls == [URL(string: "http://api.miguia.tv/1/es_ES/channels.json")!])
    }

    @Test("variant 2: data.channels is [id, name, type, image] rows, without a language")
    func nestedVariant() async throws {
        let channels = try await provider(FixtureTransport("miguiatv/variant-nested")).channels()
        let flat = try await provider(FixtureTransport()).channels()

        #expect(channels.count == 24)
        #expect(channels.allSatisfy { $0.language == nil })
        // Apart from the language, both variants describe the same line-up.
        #expect(channels == flat.map { var channel = $0; channel.language = nil; return channel })
    }

    @Test("ids as numbers or strings, null and empty fields as absent")
    func lenientRows() async throws {
        let json = #"""
        {"data": [[7, "24h", "national", "es", null], ["08", " Clan ", "", "es", ""], [9.0, "Teledeporte", null, null, "https://x/9.png"]]}
        """#
        let channels = try await provider(ScriptedTransport(json: json)).channels()

        #expect(channels.map(\.id) == ["7", "08", "9"])
        #expect(channels[0].logo == nil)
        #expect(channels[1].name == "Clan" && channels[1].type == nil && channels[1].logo == nil)
        #expect(channels[2].type == nil && channels[2].language == nil && channels[2].logo == "https://x/9.png")
    }

    @Test("the language and a base URL without a trailing slash shape the request")
    func requestURL() async throws {
        let transport = FixtureTransport()
        let catalan = MiGuiaTVProvider(id: "m", baseURL: URL(string: "http://api.miguia.tv/1")!, language: "ca_ES", transport: transport)
        let error = await providerError { _ = try await catalan.channels() }

        #expect(error == .notFound("http://api.miguia.tv/1/ca_ES/channels.json"))
        #expect(await transport.log.urls.map(\.absoluteString) == ["http://api.miguia.tv/1/ca_ES/channels.json"])
    }
}
