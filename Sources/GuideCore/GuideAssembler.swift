import Foundation

/// Turns what the chain gathered into a snapshot. A channel that no provider served keeps the
/// programmes the last good snapshot had for the window, marked stale, so nothing already known
/// is lost because a source is down.
package enum GuideAssembler {
    /// 8 MB of programmes.
    static let programmesBetweenReleases = 65_536

    /// - Parameter releaseFreedMemory: hands what the heap holds freed back to the system; called
    ///   every `programmesBetweenReleases` programmes moved into the guide.
    package static func assemble(_ result: consuming GuideChainResult, previous: Snapshot?, window: TimeWindow, now: Date,
                                 releaseFreedMemory: () -> Void = {}) -> Snapshot {
        var normalisation = result.normalisation
        var channelReports: [ChannelReport] = []
        var programmes: [Programme] = []
        var channels = result.channels
        if let previous, !result.channelListIsConfigured {
            // Without a configured list, the channels are whatever the providers offered: one whose
            // provider is down this time is still known from the last snapshot.
            let offered = Set(channels.map(\.id))
            channels += previous.channels.filter { !offered.contains($0.id) }
        }
        channels.sort { $0.id < $1.id }
        let previousByChannel = previous.map { Dictionary(grouping: $0.programmes, by: \.channel) } ?? [:]
        programmes.reserveCapacity(result.programmes.values.reduce(0) { $0 + $1.count })
        var movedSinceRelease = 0
        for channel in channels {
            // Each list is let go once moved, and what they held is given back every few megabytes:
            // the lists are small allocations, which the heap keeps for later, and the guide one
            // large one, which they cannot be reused for. Kept until the end, they were all resident
            // beside the guide (docs/internals.md).
            if movedSinceRelease >= Self.programmesBetweenReleases {
                releaseFreedMemory()
                movedSinceRelease = 0
            }
            if let owner = result.owners[channel.id], var served = result.programmes.removeValue(forKey: channel.id) {
                programmes.moveAppending(&served)
                movedSinceRelease += served.count
                channelReports.append(ChannelReport(id: channel.id, provider: owner, programmes: served.count))
            } else if let previous, let old = previousByChannel[channel.id], !old.isEmpty {
                let clipped = Normaliser.clip(old, to: window, report: &normalisation)
                programmes.append(contentsOf: clipped)
                channelReports.append(ChannelReport(id: channel.id, provider: nil, programmes: clipped.count, stale: true, staleSince: previous.generatedAt))
            } else {
                channelReports.append(ChannelReport(id: channel.id, provider: nil, programmes: 0))
            }
        }
        var warnings = result.warnings
        let stale = channelReports.filter(\.stale).map(\.id)
        if !stale.isEmpty {
            warnings.append("\(stale.count) channel(s) kept from the last good snapshot: \(stale.joined(separator: ", "))")
        }
        let empty = channelReports.filter { $0.provider == nil && !$0.stale }.map(\.id)
        if !empty.isEmpty {
            warnings.append("\(empty.count) channel(s) have no programmes: \(empty.joined(separator: ", "))")
        }
        // Already in (channel, start) order: channels are visited sorted and each list is normalised.
        let report = RunReport(providers: result.providers, channels: channelReports, normalisation: normalisation, warnings: warnings)
        return Snapshot(generatedAt: now, window: window, channels: channels, programmes: programmes, report: report)
    }
}

extension [Programme] {
    /// Appends `other`'s programmes by moving them, leaving `other` as many empty ones. Appending
    /// copied each (every field retained) and letting `other` go released them all again, on the
    /// one core assembling the guide.
    mutating func moveAppending(_ other: inout [Programme]) {
        other.withUnsafeMutableBufferPointer { moveAppending(from: $0) }
    }

    /// Appends the programmes `source` holds by moving them, leaving empty ones in their place.
    package mutating func moveAppending(from source: UnsafeMutableBufferPointer<Programme>) {
        guard let first = source.baseAddress else { return }
        // Nothing in it is counted: holding and dropping it touches no reference.
        let empty = Programme(channel: "", start: .distantPast, title: "", source: "")
        for place in first..<first + source.count {
            append(place.move())
            place.initialize(to: empty)
        }
    }
}
