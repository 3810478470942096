import Foundation
import GuideCore

/// The MiGuiaTV REST API (`http://api.miguia.tv/1/`), the guide source of the original app.
///
/// Requests, relative to `baseURL` and the language (`es_ES`):
/// - `{lang}/channels.json`: the channel list, as positional arrays (see `ChannelRow`);
/// - `{lang}/channel/{id}.json`: one channel's schedule;
/// - `{lang}/channel/now.json`: what every channel airs now.
///
/// A schedule and now-on-air are `{"data": [show, …]}`; `{"data": {"shows": [show, …]}}` is
/// accepted too. A show's fields are described in `Show`.
package struct MiGuiaTVProvider: GuideProvider {
    package let id: String
    package let baseURL: URL
    package let language: String
    private let transport: any HTTPTransport

    package init(id: String, baseURL: URL, language: String = "es_ES", transport: any HTTPTransport) {
        self.id = id
        self.baseURL = baseURL
        self.language = language
        self.transport = transport
    }

    /// The channels under MiGuiaTV's own ids; `providerIDs["miguiatv"]` repeats the id.
    package func channels() async throws -> [Channel] {
        let url = endpoint("channels.json")
        let envelope = try await fetch(ChannelsEnvelope.self, from: url)
        return envelope.data.rows.map { row in
            Channel(
                id: row.id, name: row.name, type: row.type, language: row.language, logo: row.image,
                providerIDs: [MiGuiaTVShowMapping.system: row.id]
            )
        }
    }

    /// The airings of `channel.providerID` that overlap `window`, under the canonical `channel.id`.
    /// The request names the channel, so the shows' own `channelID` is not consulted.
    package func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        let url = endpoint("channel", "\(channel.providerID).json")
        let shows = try await fetch(ShowsEnvelope.self, from: url).data.shows
        let mapping = MiGuiaTVShowMapping(source: id)
        return shows.filter { Self.overlaps($0, window) }.map { mapping.programme($0, channel: channel.id) }
    }

    /// What every channel airs now. No channel map applies to this call, so each programme's
    /// `channel` is the show's own MiGuiaTV `channelID` (as a string); a show without one makes
    /// the response malformed.
    package func nowOnAir() async throws -> [Programme] {
        let url = endpoint("channel", "now.json")
        let shows = try await fetch(ShowsEnvelope.self, from: url).data.shows
        let mapping = MiGuiaTVShowMapping(source: id)
        return try shows.enumerated().map { index, show in
            guard let channelID = show.channelID else {
                throw ProviderError.malformed("\(url.path): data[\(index)].channelID is missing")
            }
            return mapping.programme(show, channel: channelID)
        }
    }

    private func endpoint(_ components: String...) -> URL {
        components.reduce(baseURL.appendingPathComponent(language)) { $0.appendingPathComponent($1) }
    }

    private func fetch<Body: Decodable>(_ type: Body.Type, from url: URL) async throws -> Body {
        let response: TransportResponse
        do {
            response = try await transport.get(url)
        } catch let error as ProviderError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw ProviderError(error)
        }
        do {
            return try JSONDecoder().decode(Body.self, from: response.body)
        } catch let error as DecodingError {
            throw ProviderError.htmlPage(in: response.body, contentType: response.headers["content-type"], expected: "JSON", source: url.path)
                ?? ProviderError.malformed("\(url.path): \(DecodingErrorDescription(error))")
        } catch {
            throw ProviderError.malformed("\(url.path): \(error)")
        }
    }

    /// An airing without a stop is kept when it starts inside the window, as `TimeWindow` does.
    private static func overlaps(_ show: Show, _ window: DateInterval) -> Bool {
        let start = TimeInterval(show.inittime)
        let from = window.start.timeIntervalSince1970
        let to = window.end.timeIntervalSince1970
        guard let stop = show.endtime.map(TimeInterval.init) else { return start >= from && start < to }
        return start < to && stop > from
    }
}
