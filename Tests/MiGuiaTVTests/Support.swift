import Foundation
import GuideTransport
import GuideCore
import MiGuiaTV
import TestSupport

/// The API's real base URL; the stub transports never reach it.
let apiBase = URL(string: "http://api.miguia.tv/1/")!

/// Answers requests below `apiBase` from a folder of recorded responses, as the replay transport
/// does, and remembers what was asked.
struct FixtureTransport: GetOnlyTransport {
    let folder: URL
    let log = URLLog()

    init(_ relativeFolder: String = "miguiatv") {
        folder = Fixtures.url(relativeFolder)
    }

    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        await log.append(url)
        let prefix = apiBase.absoluteString
        guard url.absoluteString.hasPrefix(prefix) else { throw ProviderError.notFound(url.absoluteString) }
        let file = folder.appendingPathComponent(String(url.absoluteString.dropFirst(prefix.count)))
        guard let body = try? Data(contentsOf: file) else { throw ProviderError.notFound(url.absoluteString) }
        return TransportResponse(status: 200, body: body, url: url, origin: .replay)
    }
}

/// Answers every request with the given body, or throws the given error.
struct ScriptedTransport: GetOnlyTransport {
    let answer: @Sendable (URL) throws -> Data

    init(_ answer: @escaping @Sendable (URL) throws -> Data) {
        self.answer = answer
    }

    init(json: String) {
        self.init { _ in Data(json.utf8) }
    }

    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        TransportResponse(status: 200, body: try answer(url), url: url)
    }
}

actor URLLog {
    private(set) var urls: [URL] = []
    func append(_ url: URL) { urls.append(url) }
}


func provider(_ transport: any HTTPTransport, base: URL = apiBase) -> MiGuiaTVProvider {
    MiGuiaTVProvider(id: "miguiatv", baseURL: base, transport: transport)
}

/// A Madrid wall-clock time with its UTC offset in hours (+2 summer, +1 winter).
func madrid(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, offset: Int) -> Date {
    let seconds = CivilTime.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute) - offset * 3_600
    return Date(timeIntervalSince1970: TimeInterval(seconds))
}

/// The recorded week: Monday 19 October 2026 06:00 +0200 to Monday 26 October 06:00 +0100.
let recordedWeek = DateInterval(start: madrid(2026, 10, 19, 6, offset: 2), end: madrid(2026, 10, 26, 6, offset: 1))

extension ProviderError {
    /// The detail of a `.malformed`, nil for any other case.
    var malformedDetail: String? {
        if case .malformed(let detail) = self { return detail }
        return nil
    }
}
