import Foundation
import GuideConfig
import GuideCore
import GuideServer

/// `tvguide recommend`: the day's picks from a snapshot, as the server's recommendations
/// choose them.
package enum Recommendations {
    /// What the picks are made from and for.
    package struct Request: Sendable {
        /// The snapshot folder whose latest.json is read.
        package var snapshots: String
        package var date: Day
        /// Today's picks start from it; nil for another day.
        package var from: Date?
        package var zone: TimeZone
        package var saved: [String]
        package var likes: [String]
        package var dislikes: [String]
        package var kinds: [String]
        package var genres: [String]
        /// Only the channels of this line-up of the configuration.
        package var lineup: String?
        package var limit: Int
        package var language: String

        package init(snapshots: String, date: Day, from: Date?, zone: TimeZone, saved: [String], likes: [String], dislikes: [String],
                     kinds: [String], genres: [String], lineup: String?, limit: Int, language: String) {
            self.snapshots = snapshots
            self.date = date
            self.from = from
            self.zone = zone
            self.saved = saved
            self.likes = likes
            self.dislikes = dislikes
            self.kinds = kinds
            self.genres = genres
            self.lineup = lineup
            self.limit = limit
            self.language = language
        }
    }

    /// The picks as text and as JSON. `configurationFile`, the providers.yaml found if any,
    /// gives the line-ups and the channels' order (a snapshot alone is enough without a line-up);
    /// it is read after the snapshot, so an unreadable snapshot is what a command reports first.
    package static func picks(_ request: Request, configurationFile: URL?) throws(CommandFailure) -> (json: Data, text: String) {
        let snapshot = try SnapshotFiles.latest(in: request.snapshots)
        let configuration = try configurationFile.map { file throws(CommandFailure) in try ConfigurationLoading.load(file) }
        var channels: [String]?
        if let lineup = request.lineup {
            guard let ids = configuration?.lineups[lineup] else {
                let known = (configuration?.lineups.keys.sorted() ?? []).joined(separator: ", ")
                throw CommandFailure(.usage, "--lineup: no line-up '\(lineup)' in \(configurationFile?.path ?? "providers.yaml (none found)"); known: \(known)")
            }
            channels = ids
        }
        do {
            return try CommandLineRecommendations.render(
                snapshot: snapshot, channelOrder: configuration?.channels.map(\.id) ?? [], channels: channels, date: request.date,
                from: request.from, zone: request.zone, saved: request.saved, likes: request.likes, dislikes: request.dislikes,
                kinds: request.kinds, genres: request.genres, limit: request.limit, language: request.language)
        } catch {
            throw CommandFailure(.invalid, "\(error)")
        }
    }
}
