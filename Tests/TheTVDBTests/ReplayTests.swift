import Foundation
import GuideCore
import GuideTransport
import TestSupport
import TheTVDB
import Testing

@Suite("TheTVDB from recordings")
struct ReplayTests {
    /// A recording folder for `https://api4.thetvdb.com/v4/`: `login`, one search, one record.
    static let recording = Fixtures.url("thetvdb-cases/replay")

    static func replaying(apiKey: String?) -> TheTVDBProvider {
        TheTVDBProvider(id: "thetvdb-recorded", apiKey: apiKey,
                        transport: ReplayTransport(root: recording, baseURL: TheTVDBProvider.defaultBaseURL))
    }

    @Test("the login is answered from the `login` file, without a key, and the report says where answers came from")
    func replay() async throws {
        let thetvdb = Self.replaying(apiKey: nil)
        let lookup = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Hermanos", year: 2024))

        #expect(lookup.match == MetadataMatch(method: .exact, confidence: 0.95, providerID: "80200", title: "Hermanos"))
        let metadata = try #require(lookup.metadata)
        #expect(metadata.title == "Hermanos")
        #expect(metadata.originalTitle == nil)
        #expect(metadata.overview == "Dos hermanos separados en la infancia se reencuentran.")
        #expect(metadata.year == 2024)
        #expect(metadata.released == "2024-01-15")
        #expect(metadata.network == "Antena 3")
        #expect(metadata.contentRating == "12")
        #expect(metadata.seasons == 1)
        #expect(metadata.runtime == 70)
        #expect(metadata.poster == "https://artworks.thetvdb.com/banners/v4/series/80200/posters/p1.jpg")
        #expect(metadata.providerIDs == ["thetvdb": "80200", "imdb": "tt0080200"])

        // Known now by id: answered from the record already read, with no request.
        let again = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Hermanos", providerIDs: ["thetvdb": "80200"]))
        #expect(again.metadata == metadata)
        #expect(await thetvdb.reportNotes() == ["2 request(s): 2 from recordings; 1 login"])
    }

    @Test("every series the offline recordings search for is found in them, or has no result recorded")
    func offlineRecordings() async throws {
        let root = Fixtures.url("thetvdb")
        let searches = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix("search?") }.sorted()
        try #require(!searches.isEmpty)
        let thetvdb = TheTVDBProvider(id: "thetvdb-recorded", apiKey: nil,
                                      transport: ReplayTransport(root: root, baseURL: TheTVDBProvider.defaultBaseURL))
        var found = 0
        for search in searches {
            var query = URLComponents()
            query.percentEncodedQuery = String(search.dropFirst("search?".count))
            let title = try #require(query.queryItems?.first { $0.name == "query" }?.value)
            let recorded = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent(search)))
            let results = try #require((recorded as? [String: Any])?["data"] as? [Any])

            let lookup = try await thetvdb.lookup(MetadataQuery(kind: .series, title: title))
            if results.isEmpty {
                #expect(lookup == .noMatch, "\(title)")
                continue
            }
            let match = try #require(lookup.match, "\(title): \(lookup)")
            #expect(lookup.metadata?.providerIDs?["thetvdb"] == match.providerID)
            #expect(lookup.metadata?.title?.isEmpty == false)
            found += 1
        }
        #expect(await thetvdb.reportNotes() == ["\(searches.count + found) request(s): \(searches.count + found) from recordings; 1 login"])

        let simpsons = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Los Simpson"))
        #expect(simpsons.match?.providerID == "71663")
        #expect(simpsons.metadata?.originalTitle == "The Simpsons")
        #expect(simpsons.metadata?.providerIDs?["imdb"] == "tt0096697")
    }

    @Test("a replayed login is good for the whole run, whatever the clock says of its exp", arguments: [
        Date(timeIntervalSince1970: 0), Date(), Date(timeIntervalSince1970: 4_102_444_800 + 76 * 365 * 86_400),
    ])
    func replayedLoginOutlivesItsExp(now: Date) async throws {
        let thetvdb = TheTVDBProvider(id: "thetvdb-recorded", apiKey: nil,
                                      transport: ReplayTransport(root: Self.recording, baseURL: TheTVDBProvider.defaultBaseURL),
                                      now: { now })
        _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Hermanos", year: 2024))
        _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Hermanos", providerIDs: ["thetvdb": "80200"]))
        #expect(await thetvdb.reportNotes() == ["2 request(s): 2 from recordings; 1 login"])
    }

    @Test("a request without a recording is notFound, naming the file to add")
    func missingRecording() async throws {
        let thetvdb = Self.replaying(apiKey: "placeholder")
        let error = await providerError {
            _ = try await thetvdb.lookup(MetadataQuery(kind: .series, title: "Hermanos", year: 2023))
        }
        guard case .notFound(let detail)? = error else {
            Issue.record("expected notFound, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("search?query=Hermanos&type=series&year=2023"))
        #expect(await thetvdb.reportNotes() == ["1 request(s): 1 failed; 1 login"])
    }
}
