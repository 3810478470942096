import Foundation
import GuideTransport
import GuideCore
import MiGuiaTV
import TestSupport
import Testing

@Suite("MiGuiaTV over HTTP")
struct LoopbackTests {
    @Test("channels, a schedule and now-on-air from a real server serving the recordings")
    func recordedAPI() async throws {
        let log = RequestLog()
        let handler = LoopbackServer.serving(directory: Fixtures.url("miguiatv"), mountPath: "/1/")
        try await LoopbackServer.run(log: log, handler) { root in
            let miguia = provider(LiveTransport(policy: .loopbackExact), base: root.appendingPathComponent("1"))

            let channels = try await miguia.channels()
            #expect(channels.count == 24)
            let antena3 = try #require(channels.first { $0.name == "Antena 3" })

            let programmes = try await miguia.schedule(for: ChannelRef(id: "Antena3.es", providerID: antena3.id), in: recordedWeek)
            #expect(programmes.count == 103)
            #expect(programmes.allSatisfy { $0.channel == "Antena3.es" })
            #expect(programmes.filter { $0.title == "El Hormiguero" }.count == 5)
            #expect(programmes.filter { $0.title == "Pasapalabra" }.count == 7)

            #expect(try await miguia.nowOnAir().count == 24)

            let missing = await providerError {
                _ = try await miguia.schedule(for: ChannelRef(id: "X", providerID: "99"), in: recordedWeek)
            }
            #expect(missing?.kind == "http")
        }
        #expect(await log.requests.map(\.path) == [
            "/1/es_ES/channels.json", "/1/es_ES/channel/3.json", "/1/es_ES/channel/now.json", "/1/es_ES/channel/99.json",
        ])
    }
}
