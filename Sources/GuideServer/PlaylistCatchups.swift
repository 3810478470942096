import Foundation
import GuideCore
import NIOConcurrencyHelpers

/// The served playlist's catch-up per guide channel, made once per playlist revision and guide
/// version: matching a playlist of thousands of entries again for every programme page would
/// cost more than the page.
final class CatchupTables: Sendable {
    private struct Made: Sendable {
        var revision: Int
        var version: String
        var table: [String: PlaylistCatchup]
    }

    private let made = NIOLockedValueBox<Made?>(nil)

    func table(_ served: ServedPlaylist, index: GuideIndex, aliases: [String: [String]]) -> [String: PlaylistCatchup] {
        if let made = made.withLockedValue({ $0 }), made.revision == served.revision, made.version == index.version {
            return made.table
        }
        let table = served.playlist.map { Self.make($0, channels: index.snapshot.channels, aliases: aliases) } ?? [:]
        made.withLockedValue { $0 = Made(revision: served.revision, version: index.version, table: table) }
        return table
    }

    /// Channel id → the catch-up of its first entry that has one.
    static func make(_ playlist: Playlist, channels: [Channel], aliases: [String: [String]]) -> [String: PlaylistCatchup] {
        let offered = playlist.entries.compactMap { entry in PlaylistCatchup(entry, header: playlist.attributes).map { (entry, $0) } }
        guard !offered.isEmpty else { return [:] }
        let matcher = PlaylistMatcher(channels: channels, aliases: aliases)
        var table: [String: PlaylistCatchup] = [:]
        for (entry, catchup) in offered {
            if case .matched(let channel, _) = matcher.match(entry), table[channel] == nil {
                table[channel] = catchup
            }
        }
        return table
    }
}

/// The playlist's catch-up as one request sees it.
struct CatchupView: Sendable {
    let served: ServedPlaylist?
    let tables: CatchupTables
    let aliases: [String: [String]]

    /// For a cache key: a body that shows catch-up links changes with the playlist.
    var key: String {
        served.map { " playlist@\($0.revision)" } ?? ""
    }

    func table(_ index: GuideIndex) -> [String: PlaylistCatchup] {
        served.map { tables.table($0, index: index, aliases: aliases) } ?? [:]
    }
}

extension ServingContext {
    /// The playlist as last read, when providers.yaml names one.
    func catchups() async -> CatchupView {
        CatchupView(served: await source.playlist?(), tables: catchupTables, aliases: settings.channelAliases)
    }
}
