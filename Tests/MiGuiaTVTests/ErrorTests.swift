import Foundation
import GuideCore
import MiGuiaTV
import TestSupport
import Testing

@Suite("MiGuiaTV errors")
struct ErrorTests {
    let la1 = ChannelRef(id: "La1.es", providerID: "1")

    func scheduleError(_ json: String) async -> ProviderError? {
        await providerError { _ = try await provider(ScriptedTransport(json: json)).schedule(for: la1, in: recordedWeek) }
    }

    func channelsError(_ json: String) async -> ProviderError? {
        await providerError { _ = try await provider(ScriptedTransport(json: json)).channels() }
    }

    @Test("a body that is not JSON, or is cut short, is malformed and names the request")
    func brokenJSON() async throws {
        let html = await scheduleError("<html><body>Mantenimiento</body></html>")
        #expect(html?.malformedDetail == "/1/es_ES/channel/1.json: expected JSON, got an HTML page")

        let full = try String(contentsOf: Fixtures.url("miguiatv/es_ES/channel/1.json"), encoding: .utf8)
        let truncated = await scheduleError(String(full.prefix(full.count / 2)))
        #expect(truncated?.malformedDetail?.hasPrefix("/1/es_ES/channel/1.json: not valid JSON") == true)

        let empty = await channelsError("")
        #expect(empty?.malformedDetail?.hasPrefix("/1/es_ES/channels.json: not valid JSON") == true)
    }

    @Test("a schedule of the wrong shape names the field", arguments: [
        (#"{"items": []}"#, "data is missing"),
        (#"[]"#, "the document: "),
        (#"{"data": "none"}"#, "data: expected an array of shows or an object with `shows`"),
        (#"{"data": {"programmes": []}}"#, "data.shows is missing"),
        (#"{"data": [{"title": "Telediario 2"}]}"#, "data[0].inittime is missing"),
        (#"{"data": [{"inittime": 1, "title": "A"}, {"inittime": 2}]}"#, "data[1].title is missing"),
        (#"{"data": [{"inittime": "mañana", "title": "A"}]}"#, "data[0].inittime: expected Unix seconds, found \"mañana\""),
        (#"{"data": [{"inittime": 1, "endtime": 1.5, "title": "A"}]}"#, "data[0].endtime: expected Unix seconds, found 1.5"),
        (#"{"data": [{"inittime": 1, "title": "A", "rate": "alta"}]}"#, "data[0].rate: expected a rating number, found \"alta\""),
        (#"{"data": [{"inittime": 1, "title": {"es": "A"}}]}"#, "data[0].title: expected a string or a number"),
    ])
    func wrongScheduleShape(json: String, expected: String) async {
        let detail = await scheduleError(json)?.malformedDetail
        #expect(detail?.hasPrefix("/1/es_ES/channel/1.json: ") == true)
        #expect(detail?.contains(expected) == true, "\(detail ?? "no malformed error")")
    }

    @Test("channels of the wrong shape name the field", arguments: [
        (#"{"data": 24}"#, "data: expected an array of channels or an object with `channels`"),
        (#"{"data": {"list": []}}"#, "data.channels is missing"),
        (#"{"data": [[1, "La 1", "national", "es", null], [2, "La 2", "national"]]}"#, "data[1]: a channel has 3 fields"),
        (#"{"data": [[1, null, "national", "es", null]]}"#, "data[0].name is null or empty"),
        (#"{"data": {"channels": [["", "La 1", "national", null]]}}"#, "data.channels[0].id is null or empty"),
        (#"{"data": [{"id": 1}]}"#, "data[0]: "),
    ])
    func wrongChannelShape(json: String, expected: String) async {
        let detail = await channelsError(json)?.malformedDetail
        #expect(detail?.hasPrefix("/1/es_ES/channels.json: ") == true)
        #expect(detail?.contains(expected) == true, "\(detail ?? "no malformed error")")
    }

    @Test("transport errors pass through unchanged", arguments: [
        ProviderError.timeout(seconds: 10),
        .http(status: 503, url: "http://api.miguia.tv/1/es_ES/channel/1.json"),
        .rateLimited(retryAfter: 30),
        .unreachable("connection refused"),
        .notFound("http://api.miguia.tv/1/es_ES/channel/1.json"),
    ])
    func transportErrors(error: ProviderError) async {
        let miguia = provider(ScriptedTransport { _ in throw error })
        #expect(await providerError { _ = try await miguia.channels() } == error)
        #expect(await providerError { _ = try await miguia.schedule(for: la1, in: recordedWeek) } == error)
        #expect(await providerError { _ = try await miguia.nowOnAir() } == error)
    }

    @Test("an error that is not a ProviderError becomes one")
    func foreignError() async {
        struct SocketClosed: Error {}
        let miguia = provider(ScriptedTransport { _ in throw SocketClosed() })
        let error = await providerError { _ = try await miguia.channels() }
        #expect(error?.kind == "unreachable")
    }

    @Test("cancellation is not turned into a provider failure")
    func cancellation() async {
        let miguia = provider(ScriptedTransport { _ in throw CancellationError() })
        await #expect(throws: CancellationError.self) { _ = try await miguia.channels() }
    }
}
