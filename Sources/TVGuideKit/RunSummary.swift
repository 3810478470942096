import Foundation
import GuideCore

/// The run report as people read it at the end of `tvguide build`: one line per provider, then
/// the channels that need attention, normalisation counts and warnings.
package struct RunSummary: Sendable {
    package var snapshot: Snapshot
    /// Provider id → wall time spent with it and requests made.
    package var timings: [String: (elapsed: Duration, requests: Int)]
    /// Wall time of metadata enrichment, when the configuration has metadata chains.
    package var metadataElapsed: Duration?
    package var total: Duration
    /// Where the snapshot went: a file's path, or the store's URL (no password) and its number.
    package var written: String?

    package func text() -> String {
        var lines: [String] = []
        let report = snapshot.report
        lines.append("Providers (in priority order):")
        let idWidth = report.providers.map(\.id.count).max() ?? 0
        for provider in report.providers {
            var line = "  " + provider.id.padding(toLength: idWidth, withPad: " ", startingAt: 0) + "  "
            line += provider.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            switch provider.status {
            case .served, .standby:
                line += "  \(provider.channelsServed) channel(s), \(provider.programmes) programme(s)"
                if provider.channelsFallenBack > 0 { line += ", fell back for \(provider.channelsFallenBack)" }
                if provider.gapsFilled > 0 { line += ", \(provider.gapsFilled) gap-filling" }
            case .failed, .skipped:
                break
            }
            if let timing = timings[provider.id] {
                line += "  [\(Self.format(timing.elapsed)), \(timing.requests) request(s)]"
            }
            lines.append(line)
            for error in provider.errors.prefix(Self.errorsShown) {
                lines.append("      ✗ \(error.channel.map { "\($0): " } ?? "")\(error.message)")
            }
            if provider.errors.count > Self.errorsShown {
                lines.append("      ✗ … and \(provider.errors.count - Self.errorsShown) more channel(s) (report.providers in the snapshot)")
            }
            for note in provider.notes {
                lines.append("      · \(note)")
            }
        }
        if let metadata = report.metadata {
            lines += metadataLines(metadata)
        }
        if let audience = report.audience {
            lines += audienceLines(audience)
        }
        if let playlist = report.playlist {
            lines += playlistLines(playlist)
        }
        let stale = report.channels.filter(\.stale)
        let empty = report.channels.filter { $0.provider == nil && !$0.stale }
        lines.append("Channels: \(report.channels.count) (\(report.channels.count - stale.count - empty.count) live, \(stale.count) stale, \(empty.count) empty); programmes: \(snapshot.programmes.count)")
        let n = report.normalisation
        let fixes = [
            ("stops filled", n.stopsFilled), ("overlapping kept (the web grid shows one at a time)", n.overlapping),
            ("fallback airings clashing", n.overlapsDropped),
            ("invalid dropped", n.invalidDropped), ("duplicates dropped", n.duplicatesDropped),
            ("outside window", n.outsideWindow), ("unknown channel", n.unknownChannel),
        ].filter { $0.1 > 0 }
        if !fixes.isEmpty {
            lines.append("Normalisation: " + fixes.map { "\($0.1) \($0.0)" }.joined(separator: ", "))
        }
        for warning in report.warnings {
            lines.append("Warning: \(warning)")
        }
        if let written {
            lines.append("Snapshot: \(written) (window \(ISOTime.format(snapshot.window.from)) → \(ISOTime.format(snapshot.window.to)))")
        }
        lines.append("Done in \(Self.format(total)).")
        // Messages quote what sources sent: shown, never obeyed by the terminal, cut when very long.
        return lines.map { TerminalText.escaped($0) }.joined(separator: "\n")
    }

    /// A provider's errors listed in the text report (a dead site fails every channel, each with
    /// its own URL); the snapshot keeps them all.
    static let errorsShown = 3

    /// Unmatched titles listed in the text report; the snapshot keeps them all.
    static let unmatchedShown = 12

    private func metadataLines(_ metadata: MetadataReport) -> [String] {
        var header = "Metadata: \(metadata.titles) title(s) → \(metadata.works) work(s), \(metadata.programmesEnriched) programme(s) enriched"
        if !metadata.unmatched.isEmpty { header += ", \(metadata.unmatched.count) unmatched" }
        if !metadata.ambiguous.isEmpty { header += ", \(metadata.ambiguous.count) ambiguous" }
        if let metadataElapsed { header += " [\(Self.format(metadataElapsed))]" }
        var lines = [header]
        let idWidth = metadata.providers.map(\.id.count).max() ?? 0
        for provider in metadata.providers {
            var line = "  " + provider.id.padding(toLength: idWidth, withPad: " ", startingAt: 0) + "  "
            line += provider.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            if provider.lookups > 0 {
                let outcomes = [("matched", provider.matched), ("no match", provider.noMatch), ("ambiguous", provider.ambiguous),
                                ("failed", provider.failed), ("from the lookup cache", provider.cached)]
                    .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
                line += "  \(provider.lookups) looked up: " + outcomes.joined(separator: ", ")
                if provider.worksContributed > 0 { line += "; fields kept for \(provider.worksContributed) work(s)" }
            }
            lines.append(line.replacingOccurrences(of: " +$", with: "", options: .regularExpression))
            for error in provider.errors {
                lines.append("      ✗ \(error.message)")
            }
            for note in provider.notes {
                lines.append("      · \(note)")
            }
        }
        if !metadata.unmatched.isEmpty {
            let shown = metadata.unmatched.prefix(Self.unmatchedShown)
            let more = metadata.unmatched.count - shown.count
            lines.append("  unmatched: " + shown.joined(separator: "; ") + (more > 0 ? "; … and \(more) more (report.metadata.unmatched in the snapshot)" : ""))
        }
        for ambiguous in metadata.ambiguous {
            lines.append("  ambiguous, rejected: \(ambiguous)")
        }
        return lines
    }

    private func playlistLines(_ playlist: PlaylistReport) -> [String] {
        var lines = ["Playlist: \(playlist.source): \(playlist.entries) entr\(playlist.entries == 1 ? "y" : "ies"), \(playlist.matched.count) matched, "
            + "\(playlist.ambiguous.count) ambiguous, \(playlist.unmatched.count) unmatched"]
        if let error = playlist.error {
            lines.append("  ✗ \(error)")
        }
        let byKey = Dictionary(grouping: playlist.matched, by: \.by)
        let counts = [PlaylistReport.Match.Key.tvgID, .tvgName, .name].compactMap { key in byKey[key].map { "\($0.count) by \(key.rawValue)" } }
        if !counts.isEmpty { lines.append("  matched: " + counts.joined(separator: ", ")) }
        for ambiguous in playlist.ambiguous.prefix(Self.unmatchedShown) {
            lines.append("  ambiguous: \(ambiguous.entry) could be \(ambiguous.candidates.joined(separator: " or "))")
        }
        if !playlist.unmatched.isEmpty {
            let shown = playlist.unmatched.prefix(Self.unmatchedShown).map { entry in
                entry.entry + (entry.tvgID.map { " (tvg-id \($0))" } ?? "")
            }
            let more = playlist.unmatched.count - shown.count
            lines.append("  unmatched: " + shown.joined(separator: "; ") + (more > 0 ? "; … and \(more) more (report.playlist in the snapshot)" : ""))
        }
        return lines
    }

    /// Failed days listed per audience provider in the text report; the snapshot keeps them all.
    static let dailyErrorsShown = 2

    private func audienceLines(_ audience: AudienceReport) -> [String] {
        var header = "Audiences: \(audience.days) day(s), \(audience.records) record(s), \(audience.joined) joined to the guide"
        header += "; \(audience.fetched.count) day(s) fetched"
        if !audience.failed.isEmpty { header += ", \(audience.failed.count) failed" }
        if !audience.stale.isEmpty { header += ", \(audience.stale.count) kept from the last snapshot" }
        var lines = [header]
        let idWidth = audience.providers.map(\.id.count).max() ?? 0
        for provider in audience.providers {
            var line = "  " + provider.id.padding(toLength: idWidth, withPad: " ", startingAt: 0) + "  "
            line += provider.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            var parts: [String] = []
            if !provider.served.isEmpty { parts.append("\(provider.served.count) day(s), \(provider.records) record(s)") }
            if !provider.failed.isEmpty { parts.append("failed for \(provider.failed.count) day(s)") }
            if !provider.kept.isEmpty { parts.append("\(provider.kept.count) day(s) kept from the last snapshot") }
            line += parts.isEmpty ? "" : "  " + parts.joined(separator: "; ")
            lines.append(line.replacingOccurrences(of: " +$", with: "", options: .regularExpression))
            // A source that is down fails the same way every day: the first days tell the story.
            for error in provider.errors.prefix(Self.dailyErrorsShown) {
                lines.append("      ✗ \(error.day.map { "\($0): " } ?? "")\(error.message)")
            }
            if provider.errors.count > Self.dailyErrorsShown {
                lines.append("      ✗ … and \(provider.errors.count - Self.dailyErrorsShown) more day(s) (report.audience in the snapshot)")
            }
            for note in provider.notes {
                lines.append("      · \(note)")
            }
        }
        return lines
    }

    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let millis = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return millis < 1_000 ? String(format: "%.0f ms", millis) : String(format: "%.2f s", millis / 1_000)
    }
}
