import Foundation
import Testing
import TestSupport
@testable import GuideCore

/// An audience provider answering from a table by day, recording the days it is asked and how
/// many it answers at once. Days missing from the table fail as `notFound`.
actor FakeAudienceProvider: AudienceProvider {
    nonisolated let id: String
    private let answers: [Day: Result<[AudienceRecord], ProviderError>]
    private let delay: Duration
    private let notes: [String]
    private(set) var asked: [Day] = []
    private var running = 0
    private(set) var mostRunningAtOnce = 0

    init(_ id: String, answers: [Day: Result<[AudienceRecord], ProviderError>], delay: Duration = .zero, notes: [String] = []) {
        self.id = id
        self.answers = answers
        self.delay = delay
        self.notes = notes
    }

    /// Serves every one of `days` with `ranking(day)`.
    init(_ id: String, serving days: [Day], delay: Duration = .zero) {
        self.init(id, answers: Dictionary(uniqueKeysWithValues: days.map { ($0, .success(AudienceSamples.ranking($0))) }), delay: delay)
    }

    func audiences(on day: Day) async throws -> [AudienceRecord] {
        asked.append(day)
        running += 1
        mostRunningAtOnce = max(mostRunningAtOnce, running)
        defer { running -= 1 }
        if delay > .zero { try await Task.sleep(for: delay) }
        return try (answers[day] ?? .failure(.notFound("no page for \(day)"))).get()
    }

    func reportNotes() -> [String] { notes }
}

extension AudienceChainResult {
    func provider(_ id: String) -> AudienceProviderReport? { providers.first { $0.id == id } }
}

@Suite struct AudienceChainTests {
    typealias S = AudienceSamples

    @Test func aDayTheFirstProviderCannotParseIsServedByTheNextAndTheFailureIsReported() async throws {
        let days = S.days("2026-10-19", through: "2026-10-21")
        var answers = Dictionary(uniqueKeysWithValues: days.map { ($0, Result<[AudienceRecord], ProviderError>.success(S.ranking($0))) })
        answers[S.day("2026-10-20")] = .failure(S.layoutChanged)
        let site = FakeAudienceProvider("formulatv", answers: answers)
        let archive = FakeAudienceProvider("formulatv-archive", serving: days)
        let chain = AudienceChain(members: [AudienceChainMember(provider: site, type: "scrape"),
                                            AudienceChainMember(provider: archive, type: "scrape")])

        let result = await chain.fetch(days)

        #expect(result.asked == days)
        #expect(result.failed == [])
        #expect(result.served[S.day("2026-10-19")]?.map(\.source) == ["formulatv", "formulatv", "formulatv"])
        #expect(result.served[S.day("2026-10-20")]?.map(\.source) == ["formulatv-archive", "formulatv-archive", "formulatv-archive"])
        #expect(result.served[S.day("2026-10-21")]?.first?.source == "formulatv")
        // The archive is asked for the failed day only.
        #expect(await archive.asked == [S.day("2026-10-20")])
        #expect(result.provider("formulatv") == AudienceProviderReport(
            id: "formulatv", type: "scrape", status: .served, served: [S.day("2026-10-19"), S.day("2026-10-21")],
            failed: [S.day("2026-10-20")], records: 6,
            errors: [ProviderFailure(kind: "malformed", message: "malformed response: field 'viewers' (xpath td[4], parse number): '—' is not a number",
                                     day: S.day("2026-10-20"))]))
        #expect(result.provider("formulatv-archive") == AudienceProviderReport(
            id: "formulatv-archive", type: "scrape", status: .served, served: [S.day("2026-10-20")], records: 3))
    }

    @Test func aDayNoProviderServesIsFailedWithEachProvidersReason() async {
        let day = S.day("2026-10-20")
        let site = FakeAudienceProvider("formulatv", answers: [day: .failure(S.layoutChanged)])
        let archive = FakeAudienceProvider("formulatv-archive", answers: [day: .failure(.unreachable("connection refused"))])
        let chain = AudienceChain(members: [AudienceChainMember(provider: site, type: "scrape"),
                                            AudienceChainMember(provider: archive, type: "scrape")])

        let result = await chain.fetch([day])

        #expect(result.served.isEmpty)
        #expect(result.failed == [day])
        #expect(result.provider("formulatv")?.status == .failed)
        #expect(result.provider("formulatv")?.errors.map(\.kind) == ["malformed"])
        #expect(result.provider("formulatv-archive")?.status == .failed)
        #expect(result.provider("formulatv-archive")?.errors == [ProviderFailure(kind: "unreachable", message: "unreachable: connection refused", day: day)])
    }

    @Test func anEmptyRankingIsNoRankingAndTheNextProviderIsAsked() async {
        let day = S.day("2026-10-20")
        let empty = FakeAudienceProvider("empty", answers: [day: .success([])])
        let archive = FakeAudienceProvider("archive", serving: [day])
        let result = await AudienceChain(members: [AudienceChainMember(provider: empty, type: "scrape"),
                                                   AudienceChainMember(provider: archive, type: "scrape")]).fetch([day])

        #expect(result.served[day]?.count == 3)
        #expect(result.provider("empty")?.status == .failed)
        #expect(result.provider("empty")?.errors == [ProviderFailure(kind: "notFound", message: "not found: no audience rows for 2026-10-20", day: day)])
    }

    @Test func rowsAreStampedWithTheirProviderAndDayAndCarryNoProgrammeYet() async throws {
        let day = S.day("2026-10-20")
        var row = AudienceRecord(day: S.day("1999-01-01"), title: "Telediario 2", channel: "La1.es", viewers: 2_100_000,
                                 source: "something else", programme: "La1.es@20261020T190000Z")
        row.share = 16.4
        let provider = FakeAudienceProvider("formulatv", answers: [day: .success([row])])
        let result = await AudienceChain(members: [AudienceChainMember(provider: provider, type: "scrape")]).fetch([day])

        let record = try #require(result.served[day]?.first)
        #expect(record.day == day)
        #expect(record.source == "formulatv")
        #expect(record.programme == nil)
        #expect(record.share == 16.4)
    }

    @Test func anUnavailableProviderIsReportedAsSkippedAndTheNextOneServes() async {
        let day = S.day("2026-10-20")
        let archive = FakeAudienceProvider("archive", serving: [day])
        let chain = AudienceChain(members: [
            AudienceChainMember(unavailable: UnavailableProvider(id: "paid-site", type: "scrape", error: .notConfigured("AUDIENCE_TOKEN is not set"))),
            AudienceChainMember(provider: archive, type: "scrape"),
        ])

        let result = await chain.fetch([day])

        #expect(result.providers.map(\.id) == ["paid-site", "archive"])
        #expect(result.provider("paid-site") == AudienceProviderReport(
            id: "paid-site", type: "scrape", status: .skipped,
            errors: [ProviderFailure(kind: "notConfigured", message: "not configured: AUDIENCE_TOKEN is not set")]))
        #expect(result.provider("archive")?.status == .served)
    }

    @Test func aProviderNotNeededIsSkippedAndItsNotesAreKept() async {
        let day = S.day("2026-10-20")
        let site = FakeAudienceProvider("formulatv", answers: [day: .success(S.ranking(day))], notes: ["1 advert row skipped"])
        let archive = FakeAudienceProvider("archive", serving: [day])
        let result = await AudienceChain(members: [AudienceChainMember(provider: site, type: "scrape"),
                                                   AudienceChainMember(provider: archive, type: "scrape")]).fetch([day, day])

        #expect(result.asked == [day])
        #expect(await site.asked == [day])
        #expect(result.provider("formulatv")?.notes == ["1 advert row skipped"])
        #expect(result.provider("archive")?.status == .skipped)
        #expect(await archive.asked == [])
    }

    @Test func daysAreFetchedConcurrentlyWithinTheBound() async {
        let days = S.days("2026-10-12", through: "2026-10-25")
        let site = FakeAudienceProvider("formulatv", serving: days, delay: .milliseconds(50))
        let result = await AudienceChain(members: [AudienceChainMember(provider: site, type: "scrape")], maxConcurrentDays: 3).fetch(days)

        #expect(result.served.count == 14)
        #expect(await site.mostRunningAtOnce == 3)
        #expect(await Set(site.asked) == Set(days))
    }

    /// A token in a page's URL reaches the error message; the report written to disk must not keep it.
    @Test func aSecretInAnAudienceErrorOrNoteIsRedactedFromTheReport() async {
        let day = S.day("2026-10-20")
        let site = FakeAudienceProvider("paid-site", answers: [day: .failure(.http(status: 500, url: "https://audiences.example/s3cr3t-token/20-10-2026"))],
                                        notes: ["signed in as s3cr3t-token"])
        let result = await AudienceChain(members: [AudienceChainMember(provider: site, type: "scrape")]).fetch([day])
        let report = RunReport(audience: AudienceStore().merge(previous: [], fetched: result, today: S.day("2026-10-21")).report)

        let redacted = report.redacting(["s3cr3t-token"]).audience?.providers.first
        #expect(redacted?.errors.map(\.message) == ["HTTP 500 from https://audiences.example/\(URLRedaction.placeholder)/20-10-2026"])
        #expect(redacted?.notes == ["signed in as \(URLRedaction.placeholder)"])
    }
}
