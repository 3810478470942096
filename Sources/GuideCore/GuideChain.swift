import Foundation

/// One provider in a guide chain, with how its own channel ids map to canonical ones.
public struct GuideChainMember: Sendable {
    public var provider: any GuideProvider
    /// The provider's `type:` in providers.yaml, for the report.
    public var type: String
    /// The provider's own channel id → canonical id. Nil: the provider's ids are canonical.
    public var channelMap: [String: String]?

    public init(provider: any GuideProvider, type: String, channelMap: [String: String]? = nil) {
        self.provider = provider
        self.type = type
        self.channelMap = channelMap
    }
}

extension GuideChainMember {
    /// Whether the provider would have served `channel` had it answered: by its channel map when
    /// it has one, else presumably.
    func mightServe(_ channel: String) -> Bool {
        channelMap.map { $0.values.contains(channel) } ?? true
    }
}

/// A provider that could not be built (a missing secret, say): reported, never asked.
public struct UnavailableProvider: Sendable {
    public var id: String
    public var type: String
    public var error: ProviderError

    public init(id: String, type: String, error: ProviderError) {
        self.id = id
        self.type = type
        self.error = error
    }
}

/// What the chain is doing, for a progress display.
public enum ChainProgress: Sendable {
    /// `total` schedule requests are about to be made.
    case planned(total: Int)
    case scheduleFinished(provider: String, channel: String, failed: Bool)
}

/// The outcome of asking every provider: channels, each channel's merged programmes, and who
/// served what.
public struct GuideChainResult: Sendable {
    public var channels: [Channel]
    public var programmes: [String: [Programme]]
    /// Canonical channel id → the provider that owns it. Channels nobody served are absent.
    public var owners: [String: String]
    /// True when the channel list came from the configuration rather than from the providers.
    public var channelListIsConfigured: Bool
    public var providers: [ProviderReport]
    public var normalisation: NormalisationReport
    public var warnings: [String]
}

/// Asks a list of guide providers in priority order and merges their answers per channel: the
/// first provider that serves a channel owns it; later ones fill channels it lacks and time gaps
/// in its schedule; a lower-priority airing that overlaps one already kept is dropped.
public struct GuideChain: Sendable {
    public var members: [GuideChainMember]
    public var unavailable: [UnavailableProvider]
    /// The configured channel list (canonical ids with their names). Empty: every channel any
    /// provider offers, under the provider's own ids.
    public var configuredChannels: [Channel]
    /// Schedule requests in flight at once across the chain; each transport bounds its own too.
    public var maxConcurrentRequests: Int

    public init(members: [GuideChainMember], unavailable: [UnavailableProvider] = [], configuredChannels: [Channel] = [], maxConcurrentRequests: Int = 8) {
        self.members = members
        self.unavailable = unavailable
        self.configuredChannels = configuredChannels
        self.maxConcurrentRequests = maxConcurrentRequests
    }

    public func run(window: TimeWindow, progress: @escaping @Sendable (ChainProgress) -> Void = { _ in }) async -> GuideChainResult {
        var warnings: [String] = []
        let listings = await listChannels()
        let offered = offeredChannels(listings, warnings: &warnings)
        let channels = mergedChannelList(offered)
        var requests: [(member: Int, ref: ChannelRef)] = []
        for channel in channels {
            for index in members.indices {
                if let own = offered[index][channel.id] {
                    requests.append((index, ChannelRef(id: channel.id, providerID: own.id)))
                }
            }
        }
        progress(.planned(total: requests.count))
        let answers = await fetchSchedules(requests, window: window, progress: progress)
        var merged = Merged(members: members.count)
        for channel in channels {
            merge(channel, listings: listings, offered: offered, answers: answers, window: window, into: &merged)
        }
        let reports = await providerReports(listings, stats: merged.stats)
        return GuideChainResult(channels: channels, programmes: merged.programmes, owners: merged.owners, channelListIsConfigured: !configuredChannels.isEmpty,
                                providers: reports, normalisation: merged.normalisation, warnings: warnings)
    }

    /// Per member, the channels it offers under their canonical ids; those the channel map does
    /// not know are left out with a warning.
    private func offeredChannels(_ listings: [Result<[Channel], ProviderError>], warnings: inout [String]) -> [[String: Channel]] {
        var offered: [[String: Channel]] = []
        for (index, member) in members.enumerated() {
            guard case .success(let channels) = listings[index] else {
                offered.append([:])
                continue
            }
            var byCanonical: [String: Channel] = [:]
            var unmapped: [String] = []
            for channel in channels {
                guard let canonical = canonicalID(of: channel.id, for: member) else {
                    unmapped.append(channel.id)
                    continue
                }
                byCanonical[canonical] = channel
            }
            if !unmapped.isEmpty {
                let sample = unmapped.sorted().prefix(5).joined(separator: ", ")
                warnings.append("\(member.provider.id): \(unmapped.count) channel(s) not in the channel map were ignored (\(sample)\(unmapped.count > 5 ? ", …" : ""))")
            }
            offered.append(byCanonical)
        }
        return offered
    }

    /// The guide as the channels are merged into it, and what each member gave.
    private struct Merged {
        var normalisation = NormalisationReport()
        var programmes: [String: [Programme]] = [:]
        var owners: [String: String] = [:]
        var stats: [MemberStats]

        init(members: Int) {
            stats = Array(repeating: MemberStats(), count: members)
        }
    }

    /// One channel's programmes: the first member in order that answered with any owns it, and
    /// the members after it fill its gaps.
    private func merge(_ channel: Channel, listings: [Result<[Channel], ProviderError>], offered: [[String: Channel]],
                       answers: [RequestKey: Result<[Programme], ProviderError>], window: TimeWindow, into merged: inout Merged) {
        var kept: [Programme] = []
        var owner: Int?
        var someoneFailedBefore = false
        for index in members.indices {
            if case .failure = listings[index], members[index].mightServe(channel.id), owner == nil {
                someoneFailedBefore = true
            }
            guard offered[index][channel.id] != nil else { continue }
            switch answers[RequestKey(member: index, channel: channel.id)] {
            case .failure(let error)?:
                merged.stats[index].failures.append(ProviderFailure(error, channel: channel.id))
                if owner == nil { someoneFailedBefore = true }
            case .success(let layer)?:
                merged.stats[index].answered += 1
                let layer = Normaliser.clip(Normaliser.normalise(layer, report: &merged.normalisation), to: window, report: &merged.normalisation)
                if owner == nil {
                    guard !layer.isEmpty else {
                        someoneFailedBefore = true
                        continue
                    }
                    owner = index
                    kept = layer
                    merged.stats[index].channelsServed += 1
                    if someoneFailedBefore { merged.stats[index].channelsFallenBack += 1 }
                    merged.stats[index].programmes += layer.count
                } else {
                    let filled = Self.fillGaps(kept, with: layer, report: &merged.normalisation)
                    merged.stats[index].gapsFilled += filled.count - kept.count
                    merged.stats[index].programmes += filled.count - kept.count
                    kept = filled
                }
            case nil:
                break
            }
        }
        if let owner {
            merged.owners[channel.id] = members[owner].provider.id
            let normalised = Normaliser.normalise(kept, report: &merged.normalisation)
            merged.normalisation.overlapping += Normaliser.overlapping(in: normalised)
            merged.programmes[channel.id] = normalised
        }
    }

    /// Each member's report, then one for each provider that could not be set up.
    private func providerReports(_ listings: [Result<[Channel], ProviderError>], stats: [MemberStats]) async -> [ProviderReport] {
        var reports: [ProviderReport] = []
        for (index, member) in members.enumerated() {
            var report = ProviderReport(id: member.provider.id, type: member.type, status: .standby)
            if case .failure(let error) = listings[index] {
                report.status = .failed
                report.errors = [ProviderFailure(error)]
            } else {
                let s = stats[index]
                report.channelsServed = s.channelsServed
                report.channelsFallenBack = s.channelsFallenBack
                report.programmes = s.programmes
                report.gapsFilled = s.gapsFilled
                report.errors = Self.summarise(s.failures)
                if s.channelsServed > 0 {
                    report.status = .served
                } else if s.answered == 0 && !s.failures.isEmpty {
                    report.status = .failed
                }
            }
            report.notes = await member.provider.reportNotes()
            reports.append(report)
        }
        for missing in unavailable {
            reports.append(ProviderReport(id: missing.id, type: missing.type, status: .skipped, errors: [ProviderFailure(missing.error)]))
        }
        return reports
    }

    /// Adds the airings of a lower-priority layer that fall entirely in the gaps of `kept`. Both
    /// are sorted by start.
    static func fillGaps(_ kept: [Programme], with layer: [Programme], report: inout NormalisationReport) -> [Programme] {
        // The time `kept` covers, as sorted disjoint spans: overlaps are kept, so the airing just
        // before a candidate is not the only one that can reach into it. A stopless airing covers
        // its start.
        var covered: [(start: Date, end: Date)] = []
        for programme in kept {
            let end = programme.stop ?? programme.start.addingTimeInterval(1)
            if let last = covered.last, programme.start <= last.end {
                covered[covered.count - 1].end = max(last.end, end)
            } else {
                covered.append((programme.start, end))
            }
        }
        var added: [Programme] = []
        for candidate in layer {
            let candidateStop = candidate.stop ?? candidate.start.addingTimeInterval(1)
            // The first span that starts at or after the candidate's stop; the one before it is
            // the only one that can clash.
            var low = 0, high = covered.count
            while low < high {
                let mid = (low + high) / 2
                if covered[mid].start < candidateStop { low = mid + 1 } else { high = mid }
            }
            if low > 0 && covered[low - 1].end > candidate.start {
                report.overlapsDropped += 1
                continue
            }
            covered.insert((candidate.start, candidateStop), at: low)
            added.append(candidate)
        }
        guard !added.isEmpty else { return kept }
        // Both by start: merged in one pass, `kept` first on equal starts.
        var merged: [Programme] = []
        merged.reserveCapacity(kept.count + added.count)
        var (k, a) = (0, 0)
        while k < kept.count || a < added.count {
            if a == added.count || (k < kept.count && kept[k].start <= added[a].start) {
                merged.append(kept[k])
                k += 1
            } else {
                merged.append(added[a])
                a += 1
            }
        }
        return merged
    }

    /// Failures of one provider, one line per kind and message, with the channels they hit.
    static func summarise(_ failures: [ProviderFailure]) -> [ProviderFailure] {
        var byProblem: [String: (failure: ProviderFailure, channels: [String])] = [:]
        for failure in failures {
            let key = failure.kind + "\u{0}" + failure.message
            byProblem[key, default: (ProviderFailure(kind: failure.kind, message: failure.message), [])].channels.append(failure.channel ?? "")
        }
        return byProblem.values.map { entry in
            var failure = entry.failure
            let channels = entry.channels.filter { !$0.isEmpty }.sorted()
            if channels.count == 1 {
                failure.channel = channels[0]
            } else if channels.count > 1 {
                failure.message += " (\(channels.count) channels)"
            }
            return failure
        }.sorted()
    }

    private func canonicalID(of ownID: String, for member: GuideChainMember) -> String? {
        if let map = member.channelMap { return map[ownID] }
        if configuredChannels.isEmpty { return ownID }
        return configuredChannels.contains { $0.id == ownID } ? ownID : nil
    }

    /// The configured channels when there are any, else every offered channel; details the
    /// configuration leaves empty come from the first provider that has them.
    private func mergedChannelList(_ offered: [[String: Channel]]) -> [Channel] {
        var byID: [String: Channel] = [:]
        for channel in configuredChannels { byID[channel.id] = channel }
        for (index, member) in members.enumerated() {
            for (canonical, own) in offered[index] {
                if configuredChannels.isEmpty, byID[canonical] == nil {
                    byID[canonical] = Channel(id: canonical, name: own.name)
                }
                guard var channel = byID[canonical] else { continue }
                if channel.name.isEmpty { channel.name = own.name }
                channel.otherNames = channel.otherNames ?? own.otherNames
                channel.type = channel.type ?? own.type
                channel.language = channel.language ?? own.language
                // Every icon and page with the first ones, from the provider that gave those.
                if channel.logo == nil {
                    channel.logo = own.logo
                    channel.icons = own.icons
                }
                if channel.url == nil {
                    channel.url = own.url
                    channel.links = own.links
                }
                var ids = channel.providerIDs ?? [:]
                ids[member.provider.id] = own.id
                channel.providerIDs = ids
                byID[canonical] = channel
            }
        }
        return byID.values.sorted { $0.id < $1.id }
    }

    private func listChannels() async -> [Result<[Channel], ProviderError>] {
        await withTaskGroup(of: Answer<[Channel]>.self) { group in
            for (index, member) in members.enumerated() {
                group.addTask {
                    do { return Answer(member: index, channel: "", result: .success(try await member.provider.channels())) }
                    catch { return Answer(member: index, channel: "", result: .failure(ProviderError(error))) }
                }
            }
            var byMember: [Int: Result<[Channel], ProviderError>] = [:]
            for await answer in group { byMember[answer.member] = answer.result }
            return members.indices.map { byMember[$0] ?? .success([]) }
        }
    }

    private func fetchSchedules(
        _ requests: [(member: Int, ref: ChannelRef)], window: TimeWindow,
        progress: @escaping @Sendable (ChainProgress) -> Void
    ) async -> [RequestKey: Result<[Programme], ProviderError>] {
        await withTaskGroup(of: Answer<[Programme]>.self) { group in
            var results: [RequestKey: Result<[Programme], ProviderError>] = [:]
            var pending = requests.makeIterator()
            func addNext() -> Bool {
                guard let (index, ref) = pending.next() else { return false }
                let provider = members[index].provider
                group.addTask {
                    do {
                        let programmes = try await provider.schedule(for: ref, in: window.interval)
                        let onChannel = programmes.allSatisfy { $0.channel == ref.id } ? programmes : programmes.map { var p = $0; p.channel = ref.id; return p }
                        return Answer(member: index, channel: ref.id, result: .success(onChannel))
                    } catch {
                        return Answer(member: index, channel: ref.id, result: .failure(ProviderError(error)))
                    }
                }
                return true
            }
            for _ in 0..<max(1, maxConcurrentRequests) where addNext() {}
            for await answer in group {
                results[RequestKey(member: answer.member, channel: answer.channel)] = answer.result
                var failed = false
                if case .failure = answer.result { failed = true }
                progress(.scheduleFinished(provider: members[answer.member].provider.id, channel: answer.channel, failed: failed))
                _ = addNext()
            }
            return results
        }
    }
}

/// One provider's answer to one request of the chain.
private struct Answer<Value: Sendable>: Sendable {
    var member: Int
    var channel: String
    var result: Result<Value, ProviderError>
}

private struct RequestKey: Hashable {
    var member: Int
    var channel: String
}

private struct MemberStats {
    var answered = 0
    var channelsServed = 0
    var channelsFallenBack = 0
    var programmes = 0
    var gapsFilled = 0
    var failures: [ProviderFailure] = []
}
