import Foundation
import GuideConfig
import GuideCore
import GuideStorage
import GuideServer

/// Reads the playlist providers.yaml names (`playlist:`), from a file or over HTTP.
package struct PlaylistSource: Sendable {
    package let location: URL
    private let transport: (any HTTPTransport)?

    /// The playlist of `configuration`, nil when it names none.
    /// - Parameter caches: where the HTTP cache lives; nil for the folder `cache.dir`.
    package init?(configuration: GuideConfiguration, clock: RunClock = .wall, caches: CacheStorages? = nil) {
        guard let location = configuration.playlist else { return nil }
        self.location = location
        self.transport = location.isFileURL ? nil
            : TransportFactory(cache: configuration.cache, storage: caches?.http, secrets: configuration.environmentValues, clock: clock)
                .transport(bodyLimit: .playlist)
    }

    /// The location for reports and messages: a URL without its credentials or secret-looking
    /// query values (an IPTV provider's playlist URL often carries a password).
    package var description: String {
        location.isFileURL ? location.path : URLRedaction.redacted(location)
    }

    package func load() async throws(PlaylistReadError) -> Playlist {
        let data: Data
        if let transport {
            let response: TransportResponse
            do {
                response = try await transport.get(location)
            } catch {
                throw PlaylistReadError("\(description): \(error)")
            }
            guard response.status == 200 else { throw PlaylistReadError("\(description): HTTP \(response.status)") }
            data = response.body
        } else {
            do {
                data = try LocalFile.read(location, limit: Playlist.maximumBytes)
            } catch {
                throw PlaylistReadError(error.description)
            }
        }
        do {
            return try Playlist.parse(data)
        } catch {
            throw PlaylistReadError("\(description): \(error)")
        }
    }
}

package struct PlaylistReadError: Error, CustomStringConvertible, Sendable {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// How the playlist shapes a build: the channel list it asks for, and what it did, for the report.
struct PlaylistChannels {
    /// What was read this run; nil when it could not be, and the last good match list stands in.
    var playlist: Playlist?
    var source: String
    var error: String?
    /// The channels of the last good run, when this run could not read the playlist.
    var lastGood: PlaylistReport?
    /// Channels made from a `tvg-id` the channel map lacks: guessed, so kept only if served.
    var added: Set<String> = []

    /// Reads the playlist; on failure, the last snapshot's matches stand in.
    static func read(_ source: PlaylistSource, previous: () async -> Snapshot?) async -> PlaylistChannels {
        do {
            return PlaylistChannels(playlist: try await source.load(), source: source.description)
        } catch {
            return PlaylistChannels(playlist: nil, source: source.description, error: error.description, lastGood: await previous()?.report.playlist)
        }
    }

    /// The channel map narrowed to what the playlist lists, in playlist order: a channel it
    /// matches by `tvg-id`, alias or name, and a channel of its own for a `tvg-id` the map does
    /// not have (a provider with canonical ids, XMLTV, may serve it). Without a map, or when
    /// nothing matched, the map stays as it is and the guide is narrowed once built.
    mutating func channelMap(_ channels: [ChannelMapping], location: SourceLocation) -> [ChannelMapping] {
        guard !channels.isEmpty else { return channels }
        let byID = Dictionary(channels.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var narrowed: [ChannelMapping] = []
        var seen = Set<String>()
        if let playlist {
            let matcher = PlaylistMatcher(candidates: channels.map {
                PlaylistMatcher.Candidate(id: $0.id, names: [$0.name].compactMap { $0 }, aliases: $0.aliases, logo: $0.logo)
            })
            for entry in playlist.entries {
                switch matcher.match(entry) {
                case .matched(let id, _):
                    if seen.insert(id).inserted, let channel = byID[id] { narrowed.append(channel) }
                case .unmatched:
                    if let id = entry.tvgID, seen.insert(id).inserted {
                        added.insert(id)
                        narrowed.append(ChannelMapping(id: id, name: entry.tvgName ?? entry.label, logo: entry.attribute("tvg-logo"),
                                                       providerIDs: [:], location: location))
                    }
                case .ambiguous:
                    break
                }
            }
        } else if let lastGood {
            for id in lastGood.channelIDs where seen.insert(id).inserted {
                narrowed.append(byID[id] ?? ChannelMapping(id: id, providerIDs: [:], location: location))
            }
        }
        return narrowed.isEmpty ? channels : narrowed
    }

    /// Matches the playlist to the built guide and keeps only the channels it lists. Nothing
    /// matched keeps the whole guide, with a warning: an empty guide serves nobody.
    func narrow(_ snapshot: inout Snapshot, aliases: [String: [String]]) {
        let served = Set(snapshot.programmes.map(\.channel))
        snapshot.channels.removeAll { added.contains($0.id) && !served.contains($0.id) }
        snapshot.report.channels.removeAll { added.contains($0.id) && !served.contains($0.id) }
        var report: PlaylistReport
        if let playlist {
            report = PlaylistMatcher(channels: snapshot.channels, aliases: aliases).report(playlist, source: source)
        } else if var lastGood {
            lastGood.error = error
            report = lastGood
        } else {
            report = PlaylistReport(source: source, entries: 0)
            report.error = error
        }
        let keep = Set(report.channelIDs)
        if let error {
            snapshot.report.warnings.append("the playlist could not be read (\(error)); "
                + (lastGood == nil ? "no earlier run matched it, so the guide keeps every channel" : "the last good channel list stands"))
        }
        if keep.isEmpty {
            if playlist != nil {
                snapshot.report.warnings.append("no entry of the playlist matched a channel of the guide; the guide keeps every channel")
            }
        } else {
            snapshot.channels.removeAll { !keep.contains($0.id) }
            snapshot.programmes.removeAll { !keep.contains($0.channel) }
            snapshot.report.channels.removeAll { !keep.contains($0.id) }
        }
        snapshot.report.playlist = report
    }
}

/// The playlist as `tvguide serve` gives it back: read again at most once a minute, the last
/// good one kept when a read fails.
actor PlaylistKeeper {
    private let source: PlaylistSource
    private var playlist: Playlist?
    private var error: String?
    private var revision = 0
    private var readAt: ContinuousClock.Instant?

    private let rereadAfter: Duration

    init(source: PlaylistSource, rereadAfter: Duration = .seconds(60)) {
        self.source = source
        self.rereadAfter = rereadAfter
    }

    func current() async -> ServedPlaylist {
        if readAt.map({ ContinuousClock.now - $0 >= rereadAfter }) ?? true {
            readAt = .now
            do {
                let read = try await source.load()
                if read != playlist {
                    playlist = read
                    revision += 1
                }
                error = nil
            } catch {
                self.error = error.description
            }
        }
        return ServedPlaylist(playlist: playlist, error: error, revision: revision)
    }
}
