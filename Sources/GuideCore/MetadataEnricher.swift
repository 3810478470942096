import Foundation

/// What identifies a lookup: the kind, the title's normalised words, the year (given, or written
/// in the title as `Hermanos (2024)`) and the work ids the guide carries. Two airings with the
/// same key are the same question, asked once.
package struct MetadataQueryKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `movie|el laberinto del fauno|2006|tmdb=1417`.
    package let rawValue: String

    package init(_ query: MetadataQuery) {
        let title = TitleKey(query.title)
        let ids = query.providerIDs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        rawValue = [
            query.kind.rawValue,
            title.words.joined(separator: " "),
            (query.year ?? title.year).map(String.init) ?? "",
            ids.joined(separator: ","),
        ].joined(separator: "|")
    }

    package var description: String { rawValue }

    package static func < (lhs: MetadataQueryKey, rhs: MetadataQueryKey) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// One provider in a metadata chain.
public struct MetadataChainMember: Sendable {
    /// Whether the provider's answers are kept in the `MetadataLookupCache`.
    public enum Caching: Sendable, Hashable {
        /// Always asked (a provider answering from recordings is as fast as the cache).
        case disabled
        /// Kept under a fingerprint of the provider's settings (type, language, base URL…):
        /// answers given under another fingerprint are not reused.
        case enabled(fingerprint: String)
    }

    enum Availability: Sendable {
        case available(any MetadataProvider)
        case unavailable(ProviderError)
    }

    public let id: String
    /// The provider's `type:` in providers.yaml, for the report.
    public let type: String
    public let caching: Caching
    let availability: Availability

    public init(provider: any MetadataProvider, type: String, caching: Caching = .disabled) {
        self.id = provider.id
        self.type = type
        self.caching = caching
        self.availability = .available(provider)
    }

    /// A provider that could not be built (a missing API key): reported as skipped, never asked.
    public init(unavailable: UnavailableProvider) {
        self.id = unavailable.id
        self.type = unavailable.type
        self.caching = .disabled
        self.availability = .unavailable(unavailable.error)
    }
}

/// The enriched programmes, the works they point at, and what enrichment did.
public struct MetadataEnrichment: Sendable {
    /// The programmes given, in the same order, with `work` set on those looked up (those whose
    /// kind has a chain and that have a title or an id): nil when no provider matched.
    public var programmes: [Programme]
    /// By `Work.id`.
    public var works: [String: Work]
    public var report: MetadataReport
}

/// Enriches programmes with film and series details from a chain of metadata providers per
/// programme kind.
///
/// Work is done once: airings are grouped by `MetadataQueryKey` and each distinct query is looked
/// up once per run, the queries running concurrently up to `maxConcurrentLookups`. For one query
/// every available provider of the kind's chain is asked in order (a later provider fills the
/// fields an earlier one left empty, `MetadataMerge`), until the merge is complete. A provider that
/// finds nothing, finds several equally good candidates or fails is recorded and the chain moves
/// on. Answers come from the lookup cache when it has them within its TTL; a lookup that is
/// already in flight (from a concurrent `enrich` on the same enricher) is joined, not repeated.
public struct MetadataEnricher: Sendable {
    public var chains: [ProgrammeKind: [MetadataChainMember]]
    package var cache: MetadataLookupCache?
    /// Queries being looked up at once, across every chain; each transport bounds its own
    /// requests too.
    public var maxConcurrentLookups: Int
    private let inFlight = Coalescer<InFlightKey, StepOutcome>()

    public init(chains: [ProgrammeKind: [MetadataChainMember]], maxConcurrentLookups: Int = 16) {
        self.init(chains: chains, cache: nil, maxConcurrentLookups: maxConcurrentLookups)
    }

    /// With the lookup cache, which is tvguide's own (its layout, in a folder or a database, is not an API).
    package init(chains: [ProgrammeKind: [MetadataChainMember]], cache: MetadataLookupCache?, maxConcurrentLookups: Int = 16) {
        self.chains = chains
        self.cache = cache
        self.maxConcurrentLookups = maxConcurrentLookups
    }

    public func enrich(_ programmes: [Programme]) async -> MetadataEnrichment {
        await enrich(programmes, lastGood: { nil })
    }

    /// - Parameter lastGood: the last good snapshot, asked for only when a title could not be
    ///   looked up because providers failed and none answered: its work for that title is kept
    ///   rather than lost while a source is down (noted on the failing providers' reports).
    package func enrich(_ programmes: [Programme], lastGood: @Sendable () async -> Snapshot?) async -> MetadataEnrichment {
        let (keys, groups) = group(programmes)
        let resolutions = await resolve(groups)
        await cache?.save()
        let kept = resolutions.contains { $0.merged == nil && $0.failedProviders.isEmpty == false } ? keptWorks(await lastGood()) : [:]

        var tallies: [String: Tally] = [:]
        var works: [String: Work] = [:]
        var workByKey: [MetadataQueryKey: String] = [:]
        var answeredIDs = Set<String>()
        var unmatched: [String] = []
        var ambiguous: [String] = []
        for resolution in resolutions.sorted(by: { $0.key < $1.key }) {
            let group = groups[resolution.key]!
            let label = "\(group.query.kind.rawValue): \(group.label)"
            for step in resolution.steps {
                tallies[step.providerID, default: Tally()].record(step)
            }
            for providerID in resolution.merged?.disagreeing ?? [] {
                tallies[providerID, default: Tally()].disagreeing.append(label)
            }
            if let candidates = resolution.steps.lazy.compactMap(\.outcome.ambiguousCandidates).first {
                ambiguous.append("\(label) — \(candidates.joined(separator: ", "))")
            }
            guard let merged = resolution.merged else {
                let failed = resolution.failedProviders
                guard !failed.isEmpty, let work = kept[resolution.key] else {
                    unmatched.append(label)
                    continue
                }
                for providerID in failed {
                    tallies[providerID, default: Tally()].kept.append(label)
                }
                workByKey[resolution.key] = work.id
                var keptWork = works[work.id] ?? work
                keptWork.guideTitles = Array(Set(keptWork.guideTitles).union(group.guideTitles)).sorted()
                works[work.id] = keptWork
                continue
            }
            let id = MetadataMerge.workID(
                kind: group.query.kind, providerIDs: merged.metadata.providerIDs,
                title: merged.metadata.title ?? group.query.title, year: merged.metadata.year ?? group.query.year)
            workByKey[resolution.key] = id
            if var work = works[id], answeredIDs.contains(id) {
                work.guideTitles = Array(Set(work.guideTitles).union(group.guideTitles)).sorted()
                works[id] = work
            } else {
                // Fresh answers replace a work kept from the last snapshot under the same id.
                let keptTitles = works[id]?.guideTitles ?? []
                works[id] = Work(id: id, kind: group.query.kind, metadata: merged.metadata, sources: merged.sources,
                                 matches: merged.matches, guideTitles: Set(keptTitles).union(group.guideTitles).sorted())
            }
            answeredIDs.insert(id)
        }
        // A kept work was given by a provider in an earlier run, not this one.
        for work in works.values where answeredIDs.contains(work.id) {
            for providerID in Set(work.sources.values) {
                tallies[providerID, default: Tally()].worksContributed += 1
            }
        }

        var enriched = programmes
        var programmesEnriched = 0
        for index in enriched.indices {
            guard let key = keys[index] else { continue }
            enriched[index].work = workByKey[key]
            if enriched[index].work != nil { programmesEnriched += 1 }
        }

        let report = MetadataReport(
            providers: await providerReports(tallies),
            titles: groups.count,
            works: works.count,
            programmesEnriched: programmesEnriched,
            unmatched: unmatched.sorted(),
            ambiguous: ambiguous.sorted())
        return MetadataEnrichment(programmes: enriched, works: works, report: report)
    }

    // MARK: - Grouping

    /// What an airing asks, when its kind has a chain.
    private func airingQuery(_ programme: Programme) -> AiringQuery? {
        guard let kind = programme.kind, chains[kind]?.isEmpty == false else { return nil }
        // A film's year is its release year; a series airing's `date` is the episode's, which
        // would split one series into a query per year and miss its first-air year.
        return AiringQuery(
            kind: kind, title: programme.title, year: kind == .movie ? programme.year : nil,
            providerIDs: (programme.providerIDs ?? [:]).filter {
                (MetadataMerge.workIDSystems.contains($0.key) || $0.key == ProviderIDKeys.tmdbMedia) && !$0.value.isEmpty
            })
    }

    /// The works of `snapshot` by the query key of the airings that pointed at them.
    private func keptWorks(_ snapshot: Snapshot?) -> [MetadataQueryKey: Work] {
        guard let snapshot, !snapshot.works.isEmpty else { return [:] }
        var kept: [MetadataQueryKey: Work] = [:]
        for programme in snapshot.programmes {
            guard let id = programme.work, let work = snapshot.works[id], let airing = airingQuery(programme) else { continue }
            let key = MetadataQueryKey(MetadataQuery(kind: airing.kind, title: airing.title, year: airing.year, providerIDs: airing.providerIDs))
            if kept[key] == nil { kept[key] = work }
        }
        return kept
    }

    /// Each programme's query key (nil: not enriched) and the distinct queries.
    private func group(_ programmes: [Programme]) -> (keys: [MetadataQueryKey?], groups: [MetadataQueryKey: QueryGroup]) {
        var keyOf: [AiringQuery: MetadataQueryKey?] = [:]
        var groups: [MetadataQueryKey: QueryGroup] = [:]
        let keys = programmes.map { programme -> MetadataQueryKey? in
            guard let airing = airingQuery(programme) else { return nil }
            let kind = airing.kind
            if let known = keyOf[airing] { return known }
            let query = MetadataQuery(kind: kind, title: airing.title, year: airing.year, providerIDs: airing.providerIDs)
            let key = MetadataQueryKey(query)
            let usable = TitleKey(airing.title).words.isEmpty && airing.providerIDs.isEmpty ? nil : key
            keyOf[airing] = usable
            if let usable {
                groups[usable, default: QueryGroup(query: query)].add(query)
            }
            return usable
        }
        return (keys, groups)
    }

    // MARK: - Lookups

    private func resolve(_ groups: [MetadataQueryKey: QueryGroup]) async -> [Resolution] {
        let pending = groups.sorted { $0.key < $1.key }
        return await withTaskGroup(of: Resolution.self) { taskGroup in
            var next = pending.makeIterator()
            func addNext() -> Bool {
                guard let (key, group) = next.next() else { return false }
                let chain = chains[group.query.kind] ?? []
                taskGroup.addTask { await resolve(group.query, key: key, chain: chain) }
                return true
            }
            for _ in 0..<max(1, maxConcurrentLookups) where addNext() {}
            var resolutions: [Resolution] = []
            resolutions.reserveCapacity(pending.count)
            for await resolution in taskGroup {
                resolutions.append(resolution)
                _ = addNext()
            }
            return resolutions
        }
    }

    private func resolve(_ query: MetadataQuery, key: MetadataQueryKey, chain: [MetadataChainMember]) async -> Resolution {
        var steps: [Step] = []
        var answers: [MetadataAnswer] = []
        var merged: MergedMetadata?
        for member in chain {
            guard case .available(let provider) = member.availability else { continue }
            if let merged, MetadataMerge.isComplete(merged.metadata) { break }
            let step = await ask(member, provider, query, key)
            steps.append(step)
            if case .found(let metadata, let match) = step.outcome {
                answers.append(MetadataAnswer(providerID: member.id, metadata: metadata, match: match))
                merged = MetadataMerge.merge(answers)
            }
        }
        return Resolution(key: key, steps: steps, merged: merged)
    }

    private func ask(_ member: MetadataChainMember, _ provider: any MetadataProvider, _ query: MetadataQuery, _ key: MetadataQueryKey) async -> Step {
        var fingerprint: String?
        if case .enabled(let value) = member.caching, let cache {
            fingerprint = value
            if let cached = await cache.answer(provider: member.id, fingerprint: value, key: key) {
                return Step(providerID: member.id, outcome: StepOutcome(cached), cached: true)
            }
        }
        let outcome = await inFlight.value(for: InFlightKey(providerID: member.id, query: key)) {
            do {
                return StepOutcome(try await provider.lookup(query))
            } catch {
                return .failed(ProviderError(error))
            }
        }
        if let fingerprint, let cache, let lookup = outcome.lookup {
            await cache.store(lookup, provider: member.id, fingerprint: fingerprint, key: key)
        }
        return Step(providerID: member.id, outcome: outcome, cached: false)
    }

    // MARK: - Report

    private func providerReports(_ tallies: [String: Tally]) async -> [MetadataProviderReport] {
        var seen = Set<String>()
        var reports: [MetadataProviderReport] = []
        for kind in ProgrammeKind.allCases {
            for member in chains[kind] ?? [] where seen.insert(member.id).inserted {
                reports.append(await report(member, tallies[member.id] ?? Tally()))
            }
        }
        return reports
    }

    private func report(_ member: MetadataChainMember, _ tally: Tally) async -> MetadataProviderReport {
        var report = MetadataProviderReport(
            id: member.id, type: member.type, status: .skipped, lookups: tally.lookups, matched: tally.matched,
            noMatch: tally.noMatch, ambiguous: tally.ambiguous, failed: tally.failures.count, cached: tally.cached,
            worksContributed: tally.worksContributed, errors: Array(Set(tally.failures)).sorted())
        switch member.availability {
        case .unavailable(let error):
            report.errors = [ProviderFailure(error)]
            return report
        case .available(let provider):
            report.notes = await provider.reportNotes()
        }
        if tally.worksContributed > 0 {
            report.status = .served
        } else if tally.lookups > tally.cached, tally.failures.count == tally.lookups - tally.cached {
            report.status = .failed
        } else if tally.lookups > 0 {
            report.status = .standby
        }
        if !tally.kept.isEmpty {
            let titles = tally.kept.sorted()
            let sample = titles.prefix(5).joined(separator: "; ") + (titles.count > 5 ? "; …" : "")
            report.notes.append("\(titles.count) title(s) kept their work from the last snapshot, as this provider failed and none other answered (\(sample))")
        }
        if !tally.disagreeing.isEmpty {
            let titles = tally.disagreeing.sorted()
            let sample = titles.prefix(5).joined(separator: "; ") + (titles.count > 5 ? "; …" : "")
            report.notes.append("\(titles.count) answer(s) left out: their ids name another work than the providers before it gave (\(sample))")
        }
        if let cache {
            report.notes += await cache.notes(for: member.id)
        }
        return report
    }
}

// MARK: - Working types

/// The fields of an airing that make its query, before normalising the title: airings sharing
/// them share the key without normalising again.
private struct AiringQuery: Hashable {
    var kind: ProgrammeKind
    var title: String
    var year: Int?
    var providerIDs: [String: String]
}

/// The airings asking one query: the query sent (the first spelling in sort order, so the same
/// guide sends the same request) and every guide title that asked it.
private struct QueryGroup: Sendable {
    var query: MetadataQuery
    var guideTitles: Set<String> = []

    init(query: MetadataQuery) {
        self.query = query
    }

    mutating func add(_ other: MetadataQuery) {
        guideTitles.insert(Self.guideTitle(other))
        if (other.title, other.year ?? 0) < (query.title, query.year ?? 0) { query = other }
    }

    /// `Alien, el octavo pasajero (1979)`.
    var label: String { Self.guideTitle(query) }

    private static func guideTitle(_ query: MetadataQuery) -> String {
        query.year.map { "\(query.title) (\($0))" } ?? query.title
    }
}

private struct InFlightKey: Hashable, Sendable {
    var providerID: String
    var query: MetadataQueryKey
}

/// A provider's answer to one query, or its failure.
private enum StepOutcome: Sendable {
    case found(Metadata, MetadataMatch)
    case noMatch
    case ambiguous([String])
    case failed(ProviderError)

    init(_ lookup: MetadataLookup) {
        switch lookup {
        case .found(let metadata, let match): self = .found(metadata, match)
        case .noMatch: self = .noMatch
        case .ambiguous(let candidates): self = .ambiguous(candidates)
        }
    }

    /// The answer to keep in the lookup cache: nil for a failure.
    var lookup: MetadataLookup? {
        switch self {
        case .found(let metadata, let match): .found(metadata, match)
        case .noMatch: .noMatch
        case .ambiguous(let candidates): .ambiguous(candidates)
        case .failed: nil
        }
    }

    var ambiguousCandidates: [String]? {
        if case .ambiguous(let candidates) = self { return candidates }
        return nil
    }
}

private struct Step: Sendable {
    var providerID: String
    var outcome: StepOutcome
    var cached: Bool
}

/// One query's chain walk: what each provider asked answered, and the merge of those that found it.
private struct Resolution: Sendable {
    var key: MetadataQueryKey
    var steps: [Step]
    var merged: MergedMetadata?

    /// The providers that failed for this query, in chain order.
    var failedProviders: [String] {
        steps.compactMap { step in
            if case .failed = step.outcome { return step.providerID }
            return nil
        }
    }
}

private struct Tally {
    var lookups = 0
    var matched = 0
    var noMatch = 0
    var ambiguous = 0
    var cached = 0
    var failures: [ProviderFailure] = []
    var worksContributed = 0
    var disagreeing: [String] = []
    /// Queries whose work was kept from the last snapshot because this provider failed.
    var kept: [String] = []

    mutating func record(_ step: Step) {
        lookups += 1
        if step.cached { cached += 1 }
        switch step.outcome {
        case .found: matched += 1
        case .noMatch: noMatch += 1
        case .ambiguous: ambiguous += 1
        case .failed(let error): failures.append(ProviderFailure(error))
        }
    }
}
