import Foundation
import GuideConfig
import GuideCore
import GuideStorage
import TestSupport
import TVGuideKit

/// One in-process `tvguide build` of a scenario.
enum ChaosRun {
    struct BadClock: Error, CustomStringConvertible {
        var description: String
    }

    /// Builds with `chaos` at `base`, writing providers.yaml and the snapshots into `folder`.
    static func build(_ scenario: ChaosScenario, base: URL, transport: String, in folder: URL, refresh: Bool) async throws -> (RunSummary, Duration) {
        let yaml = try scenario.configuration(base: base, transport: transport)
        let file = folder.appendingPathComponent("providers.yaml")
        try Data(yaml.utf8).write(to: file)
        let configuration = try GuideConfiguration.parse(yaml: yaml, file: file, environment: [:])
        let times = scenario.request
        guard let now = ISOTime.parse(times.now) else { throw BadClock(description: times.now) }
        let request = BuildRequest(now: now, from: times.from.flatMap(ISOTime.parse), to: times.to.flatMap(ISOTime.parse),
                                   refreshAudiences: refresh)
        let started = ContinuousClock.now
        let summary = try await GuideBuilder.build(configuration: configuration, request: request)
        return (summary, ContinuousClock.now - started)
    }
}

/// The healthy run of each scenario, made once and shared by its fault cases.
actor ChaosBaselines {
    static let shared = ChaosBaselines()

    struct Baseline: Sendable {
        var snapshot: Snapshot
        /// `latest.json` as written, for each fault case to start from.
        var latest: Data
        var elapsed: Duration

        func restore(into snapshots: URL) throws {
            try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
            try latest.write(to: snapshots.appendingPathComponent(SnapshotStore.latestName))
        }
    }

    private var runs: [ChaosScenario: Task<Baseline, any Error>] = [:]

    func baseline(for scenario: ChaosScenario) async throws -> Baseline {
        if let run = runs[scenario] { return try await run.value }
        let run = Task { try await Self.make(scenario) }
        runs[scenario] = run
        return try await run.value
    }

    private static func make(_ scenario: ChaosScenario) async throws -> Baseline {
        let scratch = try Scratch()
        try scenario.prepare(scratch.url)
        let (summary, elapsed) = try await ChaosServer.run([ChaosRoute(scenario.prefix, scenario.content)]) { server in
            try await ChaosRun.build(scenario, base: server.baseURL, transport: "timeout: 60s, retries: 0", in: scratch.url, refresh: false)
        }
        let latest = try Data(contentsOf: scratch.file("snapshots/\(SnapshotStore.latestName)"))
        return Baseline(snapshot: summary.snapshot, latest: latest, elapsed: elapsed)
    }
}

/// What held and what did not in one faulted run, as sentences.
struct ChaosVerdict {
    private(set) var failures: [String] = []
    /// What the run did, for the report: `failed; backup served 2 channel(s), 1 kept`.
    private(set) var outcome = ""

    mutating func check(_ condition: Bool, _ failure: @autoclosure () -> String) {
        if !condition { failures.append(failure()) }
    }

    mutating func judge(_ snapshot: Snapshot, baseline: Snapshot, scenario: ChaosScenario, faultCase: ChaosFaultCase) {
        checkBaseline(baseline, scenario: scenario)
        switch scenario.role {
        case .guide: judgeGuide(snapshot, baseline: baseline, scenario: scenario, faultCase: faultCase)
        case .metadata: judgeMetadata(snapshot, baseline: baseline, faultCase: faultCase, scenario: scenario)
        case .audience: judgeAudience(snapshot, baseline: baseline, faultCase: faultCase, scenario: scenario)
        }
    }

    /// The healthy run must have been served by `chaos`, or the comparison proves nothing.
    private mutating func checkBaseline(_ baseline: Snapshot, scenario: ChaosScenario) {
        switch scenario.role {
        case .guide:
            let owners = Set(baseline.report.channels.compactMap(\.provider))
            check(owners == ["chaos"], "healthy run: channels owned by \(owners), not by chaos alone")
        case .metadata:
            let chaos = baseline.report.metadata?.providers.first { $0.id == "chaos" }
            check(chaos?.status == .served && (chaos?.worksContributed ?? 0) > 0, "healthy run: chaos gave no works: \(String(describing: chaos))")
        case .audience:
            let chaos = baseline.report.audience?.providers.first { $0.id == "chaos" }
            check(chaos?.served.map(\.description) == ChaosScenario.fallbackDays + ChaosScenario.keptDays,
                  "healthy run: chaos served \(String(describing: chaos?.served))")
        }
    }

    /// The failing provider's errors: every one of the expected kind and saying what happened.
    private mutating func checkErrors(_ errors: [ProviderFailure], status: ProviderReport.Status?, faultCase: ChaosFaultCase, scenario: ChaosScenario) {
        guard let kind = faultCase.kind else {
            check(errors.isEmpty, "an accepted answer gave errors: \(errors.map(\.message))")
            return
        }
        check(status == .failed, "chaos is \(String(describing: status)), not failed")
        check(!errors.isEmpty && Set(errors.map(\.kind)) == [kind], "chaos's errors are \(errors.map(\.kind)), not \(kind): \(errors.map(\.message))")
        let words = faultCase.message(for: scenario)
        check(errors.allSatisfy { $0.message.contains(words) }, "chaos's errors do not all say '\(words)': \(errors.map(\.message))")
    }

    private mutating func judgeGuide(_ snapshot: Snapshot, baseline: Snapshot, scenario: ChaosScenario, faultCase: ChaosFaultCase) {
        let chaos = snapshot.report.providers.first { $0.id == "chaos" }
        checkErrors(chaos?.errors ?? [], status: chaos?.status, faultCase: faultCase, scenario: scenario)
        guard faultCase.kind != nil else {
            check(snapshot.programmes == baseline.programmes, "an accepted answer changed the programmes")
            outcome = "served (\(snapshot.programmes.count) programmes, as healthy)"
            return
        }
        let byChannel = Dictionary(grouping: snapshot.programmes, by: \.channel)
        let before = Dictionary(grouping: baseline.programmes, by: \.channel)
        let reports = Dictionary(uniqueKeysWithValues: snapshot.report.channels.map { ($0.id, $0) })
        for channel in scenario.fallbackChannels.sorted() {
            let programmes = byChannel[channel] ?? []
            check(reports[channel]?.provider == "backup", "\(channel) is owned by \(String(describing: reports[channel]?.provider)), not backup")
            check(!programmes.isEmpty && programmes.allSatisfy { $0.source == "backup" }, "\(channel) does not hold backup's programmes")
        }
        for channel in scenario.staleChannels.sorted() {
            check(reports[channel]?.stale == true, "\(channel) is not marked stale")
            check(byChannel[channel] == before[channel] && before[channel]?.isEmpty == false, "\(channel) lost its last good programmes")
        }
        let backup = snapshot.report.providers.first { $0.id == "backup" }
        check(backup?.channelsFallenBack == scenario.fallbackChannels.count, "backup fell back for \(backup?.channelsFallenBack ?? 0) channel(s)")
        outcome = "failed; backup served \(backup?.channelsFallenBack ?? 0) channel(s), \(scenario.staleChannels.count) kept stale"
    }

    private mutating func judgeMetadata(_ snapshot: Snapshot, baseline: Snapshot, faultCase: ChaosFaultCase, scenario: ChaosScenario) {
        let report = snapshot.report.metadata
        let chaos = report?.providers.first { $0.id == "chaos" }
        checkErrors(chaos?.errors ?? [], status: chaos?.status, faultCase: faultCase, scenario: scenario)
        guard faultCase.kind != nil else {
            check(snapshot.works == baseline.works, "an accepted answer changed the works")
            outcome = "served (\(snapshot.works.count) works, as healthy)"
            return
        }
        let backup = report?.providers.first { $0.id == "backup" }
        check(backup?.status == .served && (backup?.worksContributed ?? 0) > 0, "backup did not answer for chaos: \(String(describing: backup))")
        let enrichedBefore = Set(baseline.programmes.filter { $0.work != nil }.map(\.id))
        let enrichedNow = Set(snapshot.programmes.filter { $0.work != nil }.map(\.id))
        check(enrichedBefore.isSubset(of: enrichedNow), "\(enrichedBefore.subtracting(enrichedNow).count) programme(s) lost their work")
        // A work no provider gave this run is the last snapshot's, unchanged.
        let kept = snapshot.works.values.filter { !$0.sources.values.contains("backup") }
        check(kept.allSatisfy { baseline.works[$0.id]?.metadata == $0.metadata }, "a kept work differs from the last snapshot's")
        if !kept.isEmpty {
            check(chaos?.notes.contains { $0.contains("title(s) kept their work from the last snapshot") } == true,
                  "chaos's report does not say that works were kept: \(chaos?.notes ?? [])")
        }
        outcome = "failed; backup served \(backup?.worksContributed ?? 0) work(s), \(kept.count) kept"
    }

    private mutating func judgeAudience(_ snapshot: Snapshot, baseline: Snapshot, faultCase: ChaosFaultCase, scenario: ChaosScenario) {
        let report = snapshot.report.audience
        let chaos = report?.providers.first { $0.id == "chaos" }
        checkErrors(chaos?.errors ?? [], status: chaos?.status, faultCase: faultCase, scenario: scenario)
        guard faultCase.kind != nil else {
            check(snapshot.audiences == baseline.audiences, "an accepted answer changed the audiences")
            outcome = "served (\(snapshot.audiences.count) days, as healthy)"
            return
        }
        let backup = report?.providers.first { $0.id == "backup" }
        check(backup?.served.map(\.description) == ChaosScenario.fallbackDays, "backup served \(String(describing: backup?.served))")
        check(snapshot.audiences.map(\.day.description) == ChaosScenario.fallbackDays + ChaosScenario.keptDays,
              "the snapshot has days \(snapshot.audiences.map(\.day.description))")
        for day in ChaosScenario.keptDays {
            let now = snapshot.audiences.first { $0.day.description == day }
            let before = baseline.audiences.first { $0.day.description == day }
            check(now != nil && now == before, "\(day) lost its last good records")
        }
        check(report?.stale.map(\.description) == ChaosScenario.keptDays, "stale days are \(String(describing: report?.stale))")
        outcome = "failed; backup served \(backup?.served.count ?? 0) day(s), \(report?.stale.count ?? 0) kept stale"
    }
}

/// chaos.tsv for bench/reliability.sh, when `RELIABILITY_OUT` names a folder.
enum ChaosReport {
    private static let lock = NSLock()
    static let header = "provider\tfault\toutcome\terror\tseconds\theld"

    static func append(scenario: ChaosScenario, fault: ChaosFault, verdict: ChaosVerdict, snapshot: Snapshot, elapsed: Duration) {
        guard let folder = ProcessInfo.processInfo.environment["RELIABILITY_OUT"], !folder.isEmpty else { return }
        let errors: [ProviderFailure] = switch scenario.role {
        case .guide: snapshot.report.providers.first { $0.id == "chaos" }?.errors ?? []
        case .metadata: snapshot.report.metadata?.providers.first { $0.id == "chaos" }?.errors ?? []
        case .audience: snapshot.report.audience?.providers.first { $0.id == "chaos" }?.errors ?? []
        }
        // `kind: message`, the message without the kind's own words at its start.
        let error = errors.first.map { failure in
            let message = failure.message.replacingOccurrences(of: #"^(\#(failure.kind)|malformed response): "#, with: "", options: .regularExpression)
            return "\(failure.kind): \(stable(message))"
        } ?? "-"
        let seconds = String(format: "%.2f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        let outcome = verdict.failures.isEmpty ? verdict.outcome : "broken: " + stable(verdict.failures.joined(separator: "; "))
        let row = [scenario.rawValue, fault.description, outcome, error, seconds, verdict.failures.isEmpty ? "yes" : "no"]
        let file = URL(fileURLWithPath: folder).appendingPathComponent("chaos.tsv")
        lock.withLock {
            let existing = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            let text = (existing.hasPrefix(header) ? "" : header + "\n") + row.joined(separator: "\t") + "\n"
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            if existing.hasPrefix(header), let handle = try? FileHandle(forWritingTo: file) {
                defer { try? handle.close() }
                _ = try? handle.seekToEnd()
                try? handle.write(contentsOf: Data(text.utf8))
            } else {
                try? Data(text.utf8).write(to: file)
            }
        }
    }

    /// One line, the same from run to run: no port numbers, no tabs, at most 160 characters.
    private static func stable(_ text: String) -> String {
        let line = text.replacingOccurrences(of: #"127\.0\.0\.1:\d+"#, with: "127.0.0.1:PORT", options: .regularExpression)
            .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        return line.count > 160 ? String(line.prefix(159)) + "…" : line
    }
}
