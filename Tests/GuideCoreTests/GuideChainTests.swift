import Foundation
import Testing
@testable import GuideCore

/// A provider answering from memory, failing where told to.
struct StubProvider: GuideProvider {
    var id: String
    var offered: [Channel]
    var schedules: [String: [Programme]]
    var failingChannels: [String: ProviderError] = [:]
    var listingError: ProviderError?

    func channels() async throws -> [Channel] {
        if let listingError { throw listingError }
        return offered
    }

    func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        if let error = failingChannels[channel.providerID] { throw error }
        return (schedules[channel.providerID] ?? []).map { programme in
            var programme = programme
            programme.channel = channel.id
            programme.source = id
            return programme
        }
    }
}

let base = Date(timeIntervalSince1970: 1_792_886_400)  // 2026-10-25T00:00:00Z

func at(_ hours: Double) -> Date { base.addingTimeInterval(hours * 3_600) }

func airing(_ channel: String, _ start: Double, _ stop: Double?, _ title: String, source: String = "stub") -> Programme {
    Programme(channel: channel, start: at(start), stop: stop.map(at), title: title, source: source)
}

let wholeDay = TimeWindow(from: at(-24), to: at(48))

@Suite struct GuideChainTests {
    @Test func firstProviderOwnsAChannelAndLaterOnesFillGapsAndMissingChannels() async {
        let live = StubProvider(
            id: "live", offered: [Channel(id: "1", name: "La 1")],
            schedules: ["1": [airing("1", 0, 1, "Telediario"), airing("1", 3, 4, "Cine")]])
        let sample = StubProvider(
            id: "sample", offered: [Channel(id: "La1.es", name: "La 1"), Channel(id: "La2.es", name: "La 2")],
            schedules: [
                "La1.es": [airing("", 0.5, 1.5, "Overlaps"), airing("", 1.5, 3, "Gap filler"), airing("", 4, 5, "After")],
                "La2.es": [airing("", 0, 2, "Documental")],
            ])
        let chain = GuideChain(
            members: [
                GuideChainMember(provider: live, type: "stub", channelMap: ["1": "La1.es"]),
                GuideChainMember(provider: sample, type: "stub"),
            ],
            configuredChannels: [Channel(id: "La1.es", name: "La 1"), Channel(id: "La2.es", name: "La 2")])
        let result = await chain.run(window: wholeDay)

        #expect(result.owners == ["La1.es": "live", "La2.es": "sample"])
        #expect(result.programmes["La1.es"]?.map(\.title) == ["Telediario", "Gap filler", "Cine", "After"])
        #expect(result.programmes["La1.es"]?.map(\.source) == ["live", "sample", "live", "sample"])
        #expect(result.programmes["La2.es"]?.map(\.title) == ["Documental"])
        #expect(result.normalisation.overlapsDropped == 1)
        let reports = Dictionary(uniqueKeysWithValues: result.providers.map { ($0.id, $0) })
        #expect(reports["live"]?.status == .served)
        #expect(reports["live"]?.channelsServed == 1)
        #expect(reports["sample"]?.channelsServed == 1)
        #expect(reports["sample"]?.gapsFilled == 2)
        #expect(reports["sample"]?.channelsFallenBack == 0)
        #expect(result.channels.first { $0.id == "La1.es" }?.providerIDs == ["live": "1", "sample": "La1.es"])
    }

    @Test func aFailingProviderFallsBackToTheNextAndIsReported() async {
        let live = StubProvider(id: "live", offered: [], schedules: [:], listingError: .unreachable("api.example: no route"))
        let partial = StubProvider(
            id: "partial", offered: [Channel(id: "A", name: "A"), Channel(id: "B", name: "B")],
            schedules: ["A": [airing("", 0, 1, "A1")]], failingChannels: ["B": .http(status: 500, url: "http://x/B")])
        let sample = StubProvider(
            id: "sample", offered: [Channel(id: "A", name: "A"), Channel(id: "B", name: "B")],
            schedules: ["A": [airing("", 0, 1, "sample A")], "B": [airing("", 0, 1, "sample B")]])
        let chain = GuideChain(members: [
            GuideChainMember(provider: live, type: "stub"),
            GuideChainMember(provider: partial, type: "stub"),
            GuideChainMember(provider: sample, type: "stub"),
        ])
        let result = await chain.run(window: wholeDay)
        #expect(result.owners == ["A": "partial", "B": "sample"])
        let reports = Dictionary(uniqueKeysWithValues: result.providers.map { ($0.id, $0) })
        #expect(reports["live"]?.status == .failed)
        #expect(reports["live"]?.errors.first?.kind == "unreachable")
        #expect(reports["partial"]?.errors == [ProviderFailure(kind: "http", message: "HTTP 500 from http://x/B", channel: "B")])
        #expect(reports["sample"]?.channelsFallenBack == 1)
        #expect(reports["sample"]?.status == .served)
    }

    @Test func mappedProvidersIgnoreAndReportUnknownChannelIDs() async {
        let provider = StubProvider(
            id: "mg", offered: [Channel(id: "1", name: "La 1"), Channel(id: "99", name: "Unknown")],
            schedules: ["1": [airing("", 0, 1, "x")], "99": [airing("", 0, 1, "y")]])
        let chain = GuideChain(
            members: [GuideChainMember(provider: provider, type: "stub", channelMap: ["1": "La1.es"])],
            configuredChannels: [Channel(id: "La1.es", name: "La 1")])
        let result = await chain.run(window: wholeDay)
        #expect(result.channels.map(\.id) == ["La1.es"])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.contains("99") == true)
    }

    @Test func unavailableProvidersAreReportedAsSkipped() async {
        let chain = GuideChain(
            members: [GuideChainMember(provider: StubProvider(id: "s", offered: [], schedules: [:]), type: "stub")],
            unavailable: [UnavailableProvider(id: "tmdb", type: "tmdb", error: .notConfigured("TMDB_API_KEY is not set"))])
        let result = await chain.run(window: wholeDay)
        #expect(result.providers.last?.status == .skipped)
        #expect(result.providers.last?.errors.first?.kind == "notConfigured")
    }

    @Test func progressCountsEveryScheduleRequest() async {
        let provider = StubProvider(
            id: "p", offered: (1...5).map { Channel(id: "\($0)", name: "\($0)") },
            schedules: [:], failingChannels: ["3": .timeout(seconds: 1)])
        let counter = Counter()
        _ = await GuideChain(members: [GuideChainMember(provider: provider, type: "stub")], maxConcurrentRequests: 2)
            .run(window: wholeDay) { event in
                if case .scheduleFinished(_, _, let failed) = event { counter.add(failed) }
            }
        #expect(counter.values.count == 5)
        #expect(counter.values.filter { $0 }.count == 1)
    }

    @Test func overlapsAndClumpsAreKeptAndCountedOnceInTheReport() async {
        let xmltv = StubProvider(
            id: "xmltv", offered: [Channel(id: "c", name: "C")],
            schedules: ["c": [airing("c", 0, 1, "Cartoon A"), airing("c", 0, 1.5, "Cartoon B"), airing("c", 1.25, 2, "News")]])
        let chain = GuideChain(members: [GuideChainMember(provider: xmltv, type: "stub")])
        let result = await chain.run(window: wholeDay)
        #expect(result.programmes["c"]?.map(\.title) == ["Cartoon A", "Cartoon B", "News"])
        #expect(result.programmes["c"]?.map(\.sameStartIndex) == [nil, 1, nil])
        // Normalised per provider and again once merged, each overlapping airing counts once.
        #expect(result.normalisation.overlapping == 2)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Bool] = []
    func add(_ value: Bool) { lock.withLock { stored.append(value) } }
    var values: [Bool] { lock.withLock { stored } }
}

@Suite struct NormaliserTests {
    @Test func fillsMissingStopsFromTheNextStartLikeTvSort() {
        var report = NormalisationReport()
        let result = Normaliser.normalise([airing("c", 2, nil, "b"), airing("c", 0, nil, "a"), airing("c", 3, nil, "c")], report: &report)
        #expect(result.map(\.stop) == [at(2), at(3), nil])
        #expect(report.stopsFilled == 2)
    }

    @Test func dropsStopBeforeStartAndDuplicates() {
        var report = NormalisationReport()
        let result = Normaliser.normalise([airing("c", 2, 1, "backwards"), airing("c", 0, 1, "a"), airing("c", 0, 1, "a")], report: &report)
        #expect(result.map(\.title) == ["a"])
        #expect(report.invalidDropped == 1)
        #expect(report.duplicatesDropped == 1)
    }

    @Test func keepsOverlapsAndAiringsSharingAStartAsTvSortDoes() {
        var report = NormalisationReport()
        let result = Normaliser.normalise([
            airing("c", 0, 2, "long"), airing("c", 1, 3, "starts inside"),
            airing("c", 1.5, 2.5, "contained"), airing("c", 1, 1.2, "same start"),
        ], report: &report)
        // tv_sort's order: by start, the shorter first; stops untouched.
        #expect(result.map(\.title) == ["long", "same start", "starts inside", "contained"])
        #expect(result.map(\.stop) == [at(2), at(1.2), at(3), at(2.5)])
        #expect(result.map(\.sameStartIndex) == [nil, nil, 1, nil])
        #expect(Set(result.map(\.id)).count == 4)
        #expect(result[2].id == result[1].id + ".1")
        #expect(Normaliser.overlapping(in: result) == 3)
        #expect(report.overlapsDropped == 0)

        // Normalised again (each provider's layer, then the merged channel), nothing changes.
        var again = NormalisationReport()
        #expect(Normaliser.normalise(result, report: &again) == result)
        #expect(again == NormalisationReport())

        // One at a time, as the web grid shows them: the long one cut where "starts inside"
        // begins; the one sharing its start and the one inside hidden.
        let shown = OneAtATime.resolve(result)
        #expect(shown.map(\.programme.title) == ["long", "starts inside"])
        #expect(shown.map(\.end) == [at(1), at(3)])
    }

    @Test func aClumpInOrderButUnnumberedIsNumbered() {
        var report = NormalisationReport()
        let result = Normaliser.normalise([airing("c", 0, 1, "A"), airing("c", 0, 2, "B"), airing("c", 0, 3, "C")], report: &report)
        #expect(result.map(\.sameStartIndex) == [nil, 1, 2])
        #expect(Normaliser.overlapping(in: result) == 2)
    }

    @Test func aFallbackFillsOnlyTimeNoOverlappingAiringCovers() {
        var report = NormalisationReport()
        // "film" reaches past "short", which starts inside it: 1.5–2 is still covered.
        let kept = [airing("c", 0, 2, "film"), airing("c", 1, 1.2, "short"), airing("c", 3, 4, "late")]
        let layer = [airing("c", 1.5, 2, "clash"), airing("c", 2, 3, "gap"), airing("c", 2.5, 2.75, "clash with gap")]
        let merged = GuideChain.fillGaps(kept, with: layer, report: &report)
        #expect(merged.map(\.title) == ["film", "short", "gap", "late"])
        #expect(report.overlapsDropped == 2)
    }

    @Test func lengthIsNotAStop() {
        // xmltv.dtd: a length excludes adverts. tv_sort fills from the next start, and leaves the last without.
        var report = NormalisationReport()
        var first = airing("c", 0, nil, "film")
        first.length = 1_500
        var last = airing("c", 1, nil, "news")
        last.length = 3_600
        let result = Normaliser.normalise([last, first], report: &report)
        #expect(result.map(\.stop) == [at(1), nil])
        #expect(report.stopsFilled == 1)
    }

    @Test func stopsAreFilledBeforeAnythingIsDroppedAsTvSortDoes() {
        var report = NormalisationReport()
        let result = Normaliser.normalise([
            airing("c", 0, nil, "M"), airing("c", 0.5, 0.5, "zero-length"), airing("c", 1, 2, "N"),
            airing("c", 3, nil, "P"), airing("c", 3, 3.25, "Q"),
            airing("c", 4, nil, "twin"), airing("c", 4, 4.5, "twin"),
        ], report: &report)
        // M's stop is the zero-length airing's start; P shares Q's stop, and both are kept; the
        // stopless twin takes its twin's stop and is then a duplicate.
        #expect(result.map(\.title) == ["M", "zero-length", "N", "P", "Q", "twin"])
        #expect(result.map(\.stop) == [at(0.5), at(0.5), at(2), at(3.25), at(3.25), at(4.5)])
        #expect(result.map(\.sameStartIndex) == [nil, nil, nil, nil, 1, nil])
        #expect(report.stopsFilled == 3)
        #expect(report.duplicatesDropped == 1)
        #expect(Normaliser.overlapping(in: result) == 1)
        #expect(report.invalidDropped == 0)
    }

    @Test func clipKeepsOnlyAiringsOverlappingTheWindow() {
        var report = NormalisationReport()
        let window = TimeWindow(from: at(1), to: at(3))
        let kept = Normaliser.clip([airing("c", 0, 1, "before"), airing("c", 0.5, 1.5, "straddles"), airing("c", 3, 4, "after")], to: window, report: &report)
        #expect(kept.map(\.title) == ["straddles"])
        #expect(report.outsideWindow == 2)
    }
}

@Suite struct WeekShiftTests {
    let recorded = StubProvider(
        id: "sample", offered: [Channel(id: "X", name: "X")],
        schedules: ["X": [airing("", 0, 1, "first"), airing("", 24 * 6, 24 * 6 + 1, "last")]])

    @Test func autoRepeatsTheRecordedWeekAcrossTheWholeWindow() async throws {
        let now = at(24 * 7 * 5 + 30)  // five weeks and 30 hours after the recording starts
        let shifted = WeekShiftedGuideProvider(recorded, mode: .auto, now: now)
        let window = DateInterval(start: now.addingTimeInterval(-86_400 * 2), end: now.addingTimeInterval(86_400 * 7))
        let programmes = try await shifted.schedule(for: ChannelRef(id: "X", providerID: "X"), in: window)
        #expect(programmes.map(\.start) == [at(24 * 7 * 5), at(24 * 7 * 5 + 24 * 6), at(24 * 7 * 6)])
        #expect(programmes.map(\.title) == ["first", "last", "first"])
        #expect(await shifted.reportNotes() == ["recorded week shifted by +5, +6 week(s) to cover the window"])
    }

    @Test func autoCopiesTileWithoutOverlapWhenTheRecordingRunsPastAWeek() async throws {
        // A recording a week and an hour long (it spans the end of summer time).
        let long = StubProvider(id: "sample", offered: [Channel(id: "X", name: "X")], schedules: ["X": [
            airing("", 0, 2, "Monday morning"), airing("", 24 * 7 - 1, 24 * 7 + 1, "late"), airing("", 24 * 7, 24 * 7 + 1, "next Monday"),
        ]])
        let shifted = WeekShiftedGuideProvider(long, mode: .auto, now: at(24 * 7 + 12))
        let programmes = try await shifted.schedule(for: ChannelRef(id: "X", providerID: "X"), in: DateInterval(start: at(0), end: at(24 * 14)))
        #expect(programmes.map(\.title) == ["Monday morning", "late", "Monday morning", "late"])
        #expect(programmes.map(\.start) == [at(0), at(24 * 7 - 1), at(24 * 7), at(24 * 14 - 1)])
    }

    @Test func fixedWeeksShiftBothWays() async throws {
        let shifted = WeekShiftedGuideProvider(recorded, mode: .weeks(-1), now: base)
        let programmes = try await shifted.schedule(for: ChannelRef(id: "X", providerID: "X"), in: DateInterval(start: at(-24 * 8), end: at(0)))
        #expect(programmes.map(\.title) == ["first", "last"])
        #expect(programmes.first?.start == at(-24 * 7))
    }
}

@Suite struct GuideAssemblerTests {
    @Test func aChannelNobodyServedKeepsTheLastGoodProgrammesMarkedStale() async {
        let previous = Snapshot(
            generatedAt: at(-12), window: wholeDay,
            channels: [Channel(id: "A", name: "A"), Channel(id: "B", name: "B")],
            programmes: [airing("A", 0, 1, "old A"), airing("B", 0, 1, "old B"), airing("B", -30, -29, "too old")],
            report: RunReport())
        let provider = StubProvider(id: "p", offered: [Channel(id: "A", name: "A"), Channel(id: "B", name: "B")],
                                    schedules: ["A": [airing("", 0, 1, "new A")]], failingChannels: ["B": .timeout(seconds: 10)])
        let result = await GuideChain(members: [GuideChainMember(provider: provider, type: "stub")]).run(window: wholeDay)
        let snapshot = GuideAssembler.assemble(result, previous: previous, window: wholeDay, now: at(0))
        #expect(snapshot.programmes.map(\.title) == ["new A", "old B"])
        let b = snapshot.report.channels.first { $0.id == "B" }
        #expect(b?.stale == true)
        #expect(b?.staleSince == at(-12))
        #expect(snapshot.report.warnings.contains { $0.contains("last good snapshot") })
    }

    @Test func withoutAChannelListAChannelWhoseProviderIsDownIsStillKnown() async {
        let previous = Snapshot(generatedAt: at(-1), window: wholeDay, channels: [Channel(id: "Z", name: "Z")],
                                programmes: [airing("Z", 0, 1, "z")], report: RunReport())
        let result = await GuideChain(members: [GuideChainMember(provider: StubProvider(id: "p", offered: [], schedules: [:], listingError: .timeout(seconds: 1)), type: "stub")]).run(window: wholeDay)
        let snapshot = GuideAssembler.assemble(result, previous: previous, window: wholeDay, now: at(0))
        #expect(snapshot.channels.map(\.id) == ["Z"])
        #expect(snapshot.programmes.map(\.title) == ["z"])
    }

    @Test func programmesMovedIntoTheGuideAreWholeAndLeaveEmptyOnesBehind() {
        var detailed = airing("A", 1, 2, "detailed")
        detailed.synopsis = "A synopsis long enough to be kept on the heap"
        detailed.credits = [Credit(role: .actor, name: "Actriz", character: "Papel")]
        var guide = [airing("A", 0, 1, "first")]
        var served = [detailed, airing("A", 2, 3, "last")]
        let expected = guide + served
        guide.moveAppending(&served)
        #expect(guide == expected)
        #expect(served.count == 2)
        #expect(served.allSatisfy { $0.title.isEmpty && $0.channel.isEmpty && $0.synopsis == nil && $0.credits == nil })
        var none: [Programme] = []
        guide.moveAppending(&none)
        #expect(guide == expected)
    }
}

@Suite struct TimeTests {
    @Test func civilTimeRoundTripsAcrossCenturiesAndLeapDays() {
        for seconds in stride(from: -2_208_988_800, through: 4_102_444_800, by: 86_400 * 37 + 3_671) {
            let c = CivilTime.components(epochSeconds: seconds)
            #expect(CivilTime.epochSeconds(year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second) == seconds)
        }
        #expect(CivilTime.epochSeconds(year: 2024, month: 2, day: 29) == 1_709_164_800)
    }

    @Test func isoTimeFormatsAndParsesOffsets() {
        #expect(ISOTime.format(base) == "2026-10-25T00:00:00Z")
        #expect(ISOTime.parse("2026-10-25T02:30:00+02:00") == at(0.5))
        #expect(ISOTime.parse("2026-10-25T00:30:00.250Z") == at(0.5))
        #expect(ISOTime.parse("2026-13-25T00:30:00Z") == nil)
        #expect(ISOTime.parse("yesterday") == nil)
        #expect(CompactTime.format(at(20.5)) == "20261025T203000Z")
        #expect(Day("2026-10-25")?.description == "2026-10-25")
    }
}
