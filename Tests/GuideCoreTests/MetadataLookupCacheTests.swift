import Foundation
import Testing
@testable import GuideCore
import GuideStorage

@Suite struct MetadataLookupCacheTests {
    private let lastRun = Date(timeIntervalSince1970: 1_792_886_400)
    private let twoHours: TimeInterval = 7_200
    private let settings = MetadataChainMember.Caching.enabled(fingerprint: "tmdb es-ES https://api.themoviedb.org/3/")

    private func run(_ provider: FakeMetadataProvider, in folder: URL, at now: Date, caching: MetadataChainMember.Caching? = nil,
                     airings: [Programme]? = nil) async -> MetadataEnrichment {
        let cache = MetadataLookupCache(directory: folder, ttl: twoHours, now: { now })
        let enricher = MetadataEnricher(chains: [.movie: [member(provider, caching: caching ?? settings)]], cache: cache)
        return await enricher.enrich(airings ?? [showing("Alien", minute: 0), showing("Días de cine", minute: 1)])
    }

    private func films() -> FakeMetadataProvider {
        FakeMetadataProvider("tmdb", answers: ["Alien": found("Alien", ids: ["tmdb": "348"], overview: "En el espacio…")])
    }

    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("metadata-cache-\(UUID().uuidString)")
    }

    @Test func aSecondRunWithinTheTTLAsksNoProvider() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = await run(films(), in: folder, at: lastRun)

        let provider = films()
        let second = await run(provider, in: folder, at: lastRun.addingTimeInterval(twoHours - 1))

        #expect(await provider.lookups == 0)
        #expect(second.works == first.works)
        #expect(second.programmes == first.programmes)
        let report = try #require(second.report.provider("tmdb"))
        #expect(report.lookups == 2)
        #expect(report.cached == 2)
        #expect(report.matched == 1)
        #expect(report.noMatch == 1)
        #expect(report.status == .served)
        #expect(second.report.unmatched == ["movie: Días de cine"])
    }

    @Test func pastTheTTLTheProviderIsAskedAgain() async {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = await run(films(), in: folder, at: lastRun)

        let provider = films()
        let later = await run(provider, in: folder, at: lastRun.addingTimeInterval(twoHours))

        #expect(await provider.lookups == 2)
        #expect(later.report.provider("tmdb")?.cached == 0)
    }

    @Test func aFileWrittenUnderOtherSettingsIsIgnored() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = await run(films(), in: folder, at: lastRun)

        let provider = films()
        let english = await run(provider, in: folder, at: lastRun.addingTimeInterval(60),
                                caching: .enabled(fingerprint: "tmdb en-US https://api.themoviedb.org/3/"))

        #expect(await provider.lookups == 2)
        let notes = try #require(english.report.provider("tmdb")?.notes)
        #expect(notes.count == 1)
        #expect(notes.first?.hasSuffix("was made with other settings and was ignored") == true)
    }

    @Test func aCorruptFileIsIgnoredNotedAndReplaced() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = MetadataLookupCache(directory: folder, ttl: twoHours)
        let file = MetadataLookupFolder(directory: folder).fileURL(for: "tmdb")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"version": 1, "entries": {"#.utf8).write(to: file)

        let provider = films()
        let result = await run(provider, in: folder, at: lastRun)

        #expect(await provider.lookups == 2)
        #expect(result.programmes.first?.work == "movie/tmdb/348")
        let notes = try #require(result.report.provider("tmdb")?.notes)
        #expect(notes.count == 1)
        #expect(notes.first?.contains("is unreadable and was ignored") == true)
        let again = films()
        _ = await run(again, in: folder, at: lastRun.addingTimeInterval(60))
        #expect(await again.lookups == 0, "the next save replaced the corrupt file")
    }

    @Test func errorsAreNeverCached() async {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let failing = FakeMetadataProvider("tmdb", answers: ["Alien": .failure(.unreachable("api.themoviedb.org: no route"))])
        _ = await run(failing, in: folder, at: lastRun)

        let provider = films()
        let second = await run(provider, in: folder, at: lastRun.addingTimeInterval(60))

        #expect(await provider.queries.map(\.title) == ["Alien"], "the failed lookup is asked again, the no-match is not")
        #expect(second.report.provider("tmdb")?.cached == 1)
        #expect(second.programmes.first?.work == "movie/tmdb/348")
    }

    @Test func aProviderWithCachingDisabledIsAlwaysAskedAndLeavesNoFile() async {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = await run(films(), in: folder, at: lastRun, caching: .disabled)

        let provider = films()
        _ = await run(provider, in: folder, at: lastRun.addingTimeInterval(60), caching: .disabled)

        #expect(await provider.lookups == 2)
        #expect(!FileManager.default.fileExists(atPath: MetadataLookupFolder(directory: folder).fileURL(for: "tmdb").path))
    }

    @Test func everyKindOfAnswerSurvivesTheFileAndTheBytesAreDeterministic() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var metadata = MetadataMergeTests.complete()
        metadata.voteAverage = 7.3
        let match = MetadataMatch(method: .nearYear, confidence: 0.7, providerID: "348", title: "Alien")
        let answers: [(MetadataQuery, MetadataLookup)] = [
            (MetadataQuery(kind: .movie, title: "Alien", year: 1979), .found(metadata, match)),
            (MetadataQuery(kind: .movie, title: "Titanic"), .ambiguous(["597 Titanic (1997)", "16535 Titanic (1953)"])),
            (MetadataQuery(kind: .series, title: "Días de cine", providerIDs: ["imdb": "tt1"]), .noMatch),
        ]
        let fingerprint = "fp"
        var files: [Data] = []
        for (index, order) in [answers, answers.reversed()].enumerated() {
            let writer = MetadataLookupCache(directory: folder.appendingPathComponent("\(index)"), ttl: twoHours, now: { lastRun })
            for (query, answer) in order {
                await writer.store(answer, provider: "tmdb", fingerprint: fingerprint, key: MetadataQueryKey(query))
            }
            await writer.save()
            files.append(try Data(contentsOf: MetadataLookupFolder(directory: folder.appendingPathComponent("\(index)")).fileURL(for: "tmdb")))
        }
        #expect(files[0] == files[1])

        let reader = MetadataLookupCache(directory: folder.appendingPathComponent("0"), ttl: twoHours, now: { lastRun.addingTimeInterval(1) })
        for (query, answer) in answers {
            #expect(await reader.answer(provider: "tmdb", fingerprint: fingerprint, key: MetadataQueryKey(query)) == answer)
        }
        #expect(await reader.answer(provider: "tmdb", fingerprint: fingerprint, key: MetadataQueryKey(MetadataQuery(kind: .movie, title: "Titanic", year: 1997))) == nil)
        #expect(await reader.answer(provider: "thetvdb", fingerprint: fingerprint, key: MetadataQueryKey(answers[0].0)) == nil)
        #expect(await reader.notes(for: "tmdb").isEmpty)
    }

    @Test func expiredEntriesAreDroppedWhenTheFileIsWritten() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = MetadataQueryKey(MetadataQuery(kind: .movie, title: "Old"))
        let fresh = MetadataQueryKey(MetadataQuery(kind: .movie, title: "Fresh"))
        let earlier = MetadataLookupCache(directory: folder, ttl: twoHours, now: { lastRun })
        await earlier.store(.noMatch, provider: "tmdb", fingerprint: "fp", key: old)
        await earlier.save()

        let later = MetadataLookupCache(directory: folder, ttl: twoHours, now: { lastRun.addingTimeInterval(twoHours) })
        #expect(await later.answer(provider: "tmdb", fingerprint: "fp", key: old) == nil)
        await later.store(.noMatch, provider: "tmdb", fingerprint: "fp", key: fresh)
        await later.save()

        let text = try String(contentsOf: MetadataLookupFolder(directory: folder).fileURL(for: "tmdb"), encoding: .utf8)
        #expect(text.contains(fresh.rawValue))
        #expect(!text.contains(old.rawValue))
    }

    @Test func aTTLOfZeroDisablesTheCache() async {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = MetadataLookupCache(directory: folder, ttl: 0)
        let key = MetadataQueryKey(MetadataQuery(kind: .movie, title: "Alien"))
        await cache.store(.noMatch, provider: "tmdb", fingerprint: "fp", key: key)
        await cache.save()

        #expect(await cache.answer(provider: "tmdb", fingerprint: "fp", key: key) == nil)
        #expect(!FileManager.default.fileExists(atPath: MetadataLookupFolder(directory: folder).fileURL(for: "tmdb").path))
    }
}
