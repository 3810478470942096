import Foundation

/// One provider in the audience chain, or one that could not be built and is only reported.
public struct AudienceChainMember: Sendable {
    enum Availability: Sendable {
        case available(any AudienceProvider)
        case unavailable(ProviderError)
    }

    public let id: String
    /// The provider's `type:` in providers.yaml, for the report.
    public let type: String
    let availability: Availability

    public init(provider: any AudienceProvider, type: String) {
        self.id = provider.id
        self.type = type
        self.availability = .available(provider)
    }

    /// A provider that could not be built (a missing secret): reported as skipped, never asked.
    public init(unavailable: UnavailableProvider) {
        self.id = unavailable.id
        self.type = unavailable.type
        self.availability = .unavailable(unavailable.error)
    }
}

/// What the chain fetched: each day's rows from the provider that served it, the days nobody
/// served, and what each provider did.
public struct AudienceChainResult: Sendable {
    /// The days asked, sorted, each once.
    public var asked: [Day]
    /// Days a provider served, with its rows in the provider's order: `day` and `source` set,
    /// `programme` nil.
    public var served: [Day: [AudienceRecord]]
    /// Days asked that no provider served, sorted.
    public var failed: [Day]
    /// In chain order. `kept` is empty: which stored days a provider gave before is the store's
    /// business (`AudienceStore.merge`).
    public var providers: [AudienceProviderReport]
}

/// Asks audience providers in priority order, day by day: for each day the first provider that
/// returns rows wins; one that throws (a `malformed` page whose layout changed, an unreachable
/// site) or returns no rows is reported for that day, and the next provider is asked. Days are
/// fetched concurrently, up to `maxConcurrentDays` at once; within a day the providers are asked
/// one after the other, so a later provider is asked only for the days the ones before it failed.
public struct AudienceChain: Sendable {
    public var members: [AudienceChainMember]
    /// Days being fetched at once; each transport bounds its own requests too.
    public var maxConcurrentDays: Int

    public init(members: [AudienceChainMember], maxConcurrentDays: Int = 4) {
        self.members = members
        self.maxConcurrentDays = maxConcurrentDays
    }

    public func fetch(_ days: [Day]) async -> AudienceChainResult {
        let asked = Array(Set(days)).sorted()
        let outcomes = await withTaskGroup(of: DayOutcome.self) { group in
            var pending = asked.makeIterator()
            func addNext() -> Bool {
                guard let day = pending.next() else { return false }
                group.addTask { await walk(day) }
                return true
            }
            for _ in 0..<max(1, maxConcurrentDays) where addNext() {}
            var outcomes: [DayOutcome] = []
            outcomes.reserveCapacity(asked.count)
            for await outcome in group {
                outcomes.append(outcome)
                _ = addNext()
            }
            return outcomes.sorted { $0.day < $1.day }
        }

        var served: [Day: [AudienceRecord]] = [:]
        var failed: [Day] = []
        var tallies = members.map { _ in Tally() }
        for outcome in outcomes {
            for (member, error) in outcome.failures {
                tallies[member].failed.append(outcome.day)
                tallies[member].errors.append(ProviderFailure(error, day: outcome.day))
            }
            if let member = outcome.servedBy {
                tallies[member].served.append(outcome.day)
                tallies[member].records += outcome.records.count
                served[outcome.day] = outcome.records
            } else {
                failed.append(outcome.day)
            }
        }

        var reports: [AudienceProviderReport] = []
        for (index, member) in members.enumerated() {
            let tally = tallies[index]
            var report = AudienceProviderReport(id: member.id, type: member.type, status: .skipped, served: tally.served,
                                                failed: tally.failed, records: tally.records, errors: tally.errors.sorted())
            switch member.availability {
            case .unavailable(let error):
                report.errors = [ProviderFailure(error)]
            case .available(let provider):
                if !tally.served.isEmpty {
                    report.status = .served
                } else if !tally.failed.isEmpty {
                    report.status = .failed
                }
                report.notes = await provider.reportNotes()
            }
            reports.append(report)
        }
        return AudienceChainResult(asked: asked, served: served, failed: failed, providers: reports)
    }

    /// Asks the available providers in order for one day until one returns rows.
    private func walk(_ day: Day) async -> DayOutcome {
        var failures: [(member: Int, error: ProviderError)] = []
        for (index, member) in members.enumerated() {
            guard case .available(let provider) = member.availability else { continue }
            do {
                let rows = try await provider.audiences(on: day)
                guard !rows.isEmpty else {
                    // An empty ranking is no ranking: the next provider may have the day.
                    failures.append((index, .notFound("no audience rows for \(day)")))
                    continue
                }
                let records = rows.map { row in
                    var record = row
                    record.day = day
                    record.source = provider.id
                    record.programme = nil
                    return record
                }
                return DayOutcome(day: day, servedBy: index, records: records, failures: failures)
            } catch {
                failures.append((index, ProviderError(error)))
            }
        }
        return DayOutcome(day: day, servedBy: nil, records: [], failures: failures)
    }
}

/// One day's walk down the chain.
private struct DayOutcome: Sendable {
    var day: Day
    /// The member that served the day; nil when none did.
    var servedBy: Int?
    var records: [AudienceRecord]
    /// The members asked before it (or all, when none served) and why each failed.
    var failures: [(member: Int, error: ProviderError)]
}

private struct Tally {
    var served: [Day] = []
    var failed: [Day] = []
    var records = 0
    var errors: [ProviderFailure] = []
}
