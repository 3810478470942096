import Foundation
import GzipCodec
import GuideConfig
import GuideCore
import GuideStorage
@testable import GuideServer
import Testing
import TestSupport
import TVGuideKit
import XMLTV

/// "Watch again" from the page a source gave, and catch-up from the playlist, on the programme
/// page and in `GET /programmes/{id}`.
@Suite struct WatchAgainTests {
    // MARK: The source's page

    /// `Fixtures/xmltv/features.xml`: on La1.es, the film (19:30–22:05 UTC on 25 October) has an
    /// rtve.es `<url>` and the programme after it has none.
    static func featuresSnapshot() throws -> Snapshot {
        let document = try XMLTVParser(source: "xmltv-features").parse(contentsOf: Fixtures.url("xmltv/features.xml"))
        var report = NormalisationReport()
        let programmes = Normaliser.normalise(document.programmes, report: &report)
        let start = try #require(ISOTime.parse("2026-10-25T00:00:00Z"))
        return Snapshot(generatedAt: start, window: TimeWindow(from: start, to: start.addingTimeInterval(2 * 86_400)),
                        channels: document.channels, programmes: programmes, report: RunReport())
    }

    static let film = "La1.es@20261025T193000Z"
    static let after = "La1.es@20261025T220500Z"
    static let rtve = "https://www.rtve.es/play/videos/somos-cine/el-laberinto-del-fauno/"

    @Test func anXMLTVUrlIsOfferedOnceTheAiringHasEnded() async throws {
        let snapshot = try Self.featuresSnapshot()
        let during = try #require(ISOTime.parse("2026-10-25T21:00:00Z"))
        try await ServerHarness.run(snapshot: snapshot, now: during) { client in
            let page = try await client.get("/programme/\(Self.film)").text
            #expect(page.contains("<h1>El laberinto del fauno</h1>"))
            #expect(!page.contains("data-action=\"watch-again\""), "not before it has aired")
            // The API says where the page is whatever the time: its body is the guide's, not the clock's.
            let detail = try await client.get("/programmes/\(Self.film)").object()
            let watchAgain = try #require(detail["watchAgain"] as? [String: Any])
            #expect(watchAgain["url"] as? String == Self.rtve)
            #expect(watchAgain["site"] as? String == "rtve.es")
        }
        let later = try #require(ISOTime.parse("2026-10-26T09:00:00Z"))
        try await ServerHarness.run(snapshot: snapshot, now: later) { client in
            let page = try await client.get("/programme/\(Self.film)").text
            #expect(page.contains("<a class=\"button\" data-action=\"watch-again\" href=\"\(Self.rtve)\" rel=\"noopener noreferrer\">Watch again on rtve.es</a>"))
            let spanish = try await client.get("/programme/\(Self.film)", headers: ["Accept-Language": "es"]).text
            #expect(spanish.contains(">Volver a verlo en rtve.es</a>"))
            // Aired too, but its source gave no page: nothing is made up.
            let next = try await client.get("/programme/\(Self.after)").text
            #expect(next.contains("<h1>"))
            #expect(!next.contains("watch-again"))
            #expect(try await client.get("/programmes/\(Self.after)").object()["watchAgain"] == nil)
        }
    }

    @Test func theGoldenGuideGaveNoPagesAndOffersNone() async throws {
        let later = ServerHarness.goldenNow.addingTimeInterval(86_400)
        try await ServerHarness.run(now: later) { client in
            let page = try await client.get("/programme/La1.es@20261021T190000Z").text
            #expect(page.contains("<h1>Telediario 2</h1>"))
            #expect(!page.contains("watch-again") && !page.contains("catch-up"))
            let detail = try await client.get("/programmes/La1.es@20261021T190000Z").object()
            #expect(detail["watchAgain"] == nil && detail["catchup"] == nil)
        }
    }

    /// A recorded site: ctc.ru's recipe on its recorded day (STS, 22 June 2025, Moscow time),
    /// built by `GuideBuilder` from the recording, as `tvguide build` does.
    @Test func aRecordedSitesProgrammePageIsOfferedOnceAired() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watch-again-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let replay = folder.appendingPathComponent("replay/api/page/v2")
        try FileManager.default.createDirectory(at: replay, withIntermediateDirectories: true)
        let catalogue = Fixtures.root.deletingLastPathComponent().appendingPathComponent("sources")
        try FileManager.default.copyItem(at: catalogue.appendingPathComponent("ctc.ru/recordings/content.json"),
                                         to: replay.appendingPathComponent("programm?date=22-06-2025"))
        let yaml = """
            version: 1
            snapshots: { dir: snapshots }
            channels:
              - { id: STS.ru, name: STS, ctc: ctc }
            guide: [ctc]
            providers:
              ctc: { type: site, site: ctc.ru, catalogue: "\(catalogue.path)", replay: replay }
            """
        let file = folder.appendingPathComponent("providers.yaml")
        try Data(yaml.utf8).write(to: file)
        let configuration = try GuideConfiguration.parse(yaml: yaml, file: file, environment: [:])
        let morning = try #require(ISOTime.parse("2025-06-22T10:00:00Z"))
        _ = try await GuideBuilder.build(configuration: configuration, request: BuildRequest(
            now: morning, from: ISOTime.parse("2025-06-21T21:00:00Z"), to: ISOTime.parse("2025-06-22T21:00:00Z")))
        let snapshot = try SnapshotStore.load(folder.appendingPathComponent("snapshots/latest.json"))

        let aired = "STS.ru@20250622T030000Z", coming = "STS.ru@20250622T140000Z"
        #expect(snapshot.programmes.first { $0.id == aired }?.urls == ["https://ctc.ru/collections/multiki/"])
        try await ServerHarness.run(snapshot: snapshot, now: morning) { client in
            let page = try await client.get("/programme/\(aired)").text
            #expect(page.contains("<a class=\"button\" data-action=\"watch-again\" href=\"https://ctc.ru/collections/multiki/\" rel=\"noopener noreferrer\">Watch again on ctc.ru</a>"))
            let later = try await client.get("/programme/\(coming)").text
            #expect(later.contains("<h1>Суперниндзя. Дети</h1>"))
            #expect(!later.contains("watch-again"), "it has not aired yet")
            let detail = try await client.get("/programmes/\(coming)").object()
            #expect((detail["watchAgain"] as? [String: Any])?["url"] as? String == "https://ctc.ru/projects/show/supernindzya-deti/")
        }
    }

    @Test(arguments: [
        ("https://www.rtve.es/play/x/", "rtve.es"), ("http://WWW.ctc.ru/a", "ctc.ru"), ("https://play.example.tv:8443/p?id=1", "play.example.tv"),
    ])
    func theSiteIsTheHostWithoutWWW(url: String, site: String) {
        #expect(WatchAgain(page: url)?.site == site)
    }

    @Test func filmDatabasesAndNonWebURLsAreNoPlaceToWatch() {
        for url in ["https://www.imdb.com/title/tt0457430/", "https://m.imdb.com/title/tt1/", "https://www.themoviedb.org/movie/1417",
                    "https://thetvdb.com/series/x", "javascript:alert(1)", "ftp://files.example/a", "rtve.es/play", "https:///nohost"] {
            #expect(WatchAgain(page: url)?.site == nil, "\(url)")
        }
    }

    @Test func aSeriesHomepageCountsAFilmsDoesNotAndTheAiringsOwnPageComesFirst() {
        var programme = Programme(channel: "La1.es", start: ServerHarness.goldenNow, title: "Cuéntame", source: "test")
        programme.stop = ServerHarness.goldenNow.addingTimeInterval(3_600)
        var metadata = Metadata()
        metadata.homepage = "https://www.rtve.es/play/videos/cuentame-como-paso/"
        let series = Work(id: "series/tmdb/1", kind: .series, metadata: metadata, sources: [:], matches: [:], guideTitles: [])
        var film = series
        film.kind = .movie
        #expect(WatchAgain(programme, work: series)?.url == metadata.homepage)
        #expect(WatchAgain(programme, work: film)?.url == nil)
        programme.urls = ["https://www.imdb.com/title/tt1/", "https://www.rtve.es/play/videos/cuentame-como-paso/1/"]
        #expect(WatchAgain(programme, work: series)?.url == "https://www.rtve.es/play/videos/cuentame-como-paso/1/")
    }

    // MARK: The playlist's catch-up

    static func served(_ file: String, revision: Int) throws -> ServedPlaylist {
        ServedPlaylist(playlist: try Playlist.parse(Data(contentsOf: Fixtures.url(file))), error: nil, revision: revision)
    }

    /// The day after the golden guide's evening, at noon UTC (14:00 in Madrid).
    static let nextNoon = ISOTime.parse("2026-10-22T12:00:00Z")!

    @Test func aChannelWithCatchupLinksItsAiringsWithinCatchupDays() async throws {
        let playlist = try Self.served("playlist/catchup.m3u", revision: 1)
        try await ServerHarness.run(now: Self.nextNoon, playlist: { playlist }) { client in
            // default: catchup-source whole, its date fields on the reader's clock (Madrid, 21:00).
            let la1 = try await client.get("/programme/La1.es@20261021T190000Z").text
            #expect(la1.contains("<a class=\"button\" data-action=\"catch-up\" href=\"https://archive.example/la1/2026/10/21/210000.m3u8?duration=55&amp;token=t0k3n\" rel=\"noopener noreferrer\">Watch catch-up</a>"))
            #expect(la1.contains("<p class=\"catchup-note\">Catch-up until Wednesday 28 October</p>"))
            // append, from the #EXTM3U defaults, without Kodi's |user-agent option.
            let la2 = try await client.get("/programme/La2.es@20261021T190000Z?tz=UTC").text
            #expect(la2.contains("href=\"https://streams.example/live/la2.m3u8?utc=1792609200&amp;lutc=1792670400\""))
            // shift.
            let a3 = try await client.get("/programme/Antena3.es@20261021T190000Z").text
            #expect(a3.contains("href=\"https://streams.example/a3.m3u8?auth=x&amp;utc=1792609200&amp;lutc=1792670400\""))
            let spanish = try await client.get("/programme/Antena3.es@20261021T190000Z", headers: ["Accept-Language": "es"]).text
            #expect(spanish.contains(">Ver en diferido</a>"))
            #expect(spanish.contains("En diferido hasta el viernes 23 de octubre"))
            // A mode tvguide does not build, a stream that is no web URL, a channel with no entry.
            for id in ["Cuatro.es@20261021T193000Z", "TV3.es@20261021T190000Z", "Telecinco.es@20261021T190000Z", "Neox.es@20261021T190000Z"] {
                let response = try await client.get("/programme/\(id)")
                #expect(!response.text.contains("catch-up"), "\(id): \(response.status)")
            }
            // Not before it has ended.
            let tonight = try await client.get("/programme/La1.es@20261022T190000Z").text
            #expect(tonight.contains("<h1>Telediario 2</h1>") && !tonight.contains("catch-up"))

            let detail = try await client.get("/programmes/La1.es@20261021T190000Z?tz=Europe/Madrid")
            #expect(detail.headers["cache-control"] == "public, max-age=1")
            let catchup = try #require(try detail.object()["catchup"] as? [String: Any])
            #expect(catchup["url"] as? String == "https://archive.example/la1/2026/10/21/210000.m3u8?duration=55&token=t0k3n")
            #expect(catchup["until"] as? String == "2026-10-28T20:00:00+01:00")
            // A channel without catch-up keeps its guide-long caching.
            #expect(try await client.get("/programmes/Cuatro.es@20261021T193000Z").headers["cache-control"] == "public, max-age=300")
        }
        // Three days on: La2's 3 days and Antena 3's 2 are over, La 1's 7 are not.
        try await ServerHarness.run(now: Self.nextNoon.addingTimeInterval(3 * 86_400), playlist: { playlist }) { client in
            let (la1, la2, a3) = (try await client.get("/programme/La1.es@20261021T190000Z").text,
                                  try await client.get("/programme/La2.es@20261021T190000Z").text,
                                  try await client.get("/programme/Antena3.es@20261021T190000Z").text)
            #expect(la1.contains("data-action=\"catch-up\""))
            #expect(!la2.contains("catch-up") && !a3.contains("catch-up"))
            let detail = try await client.get("/programmes/La2.es@20261021T190000Z").object()
            #expect(detail["catchup"] == nil)
        }
    }

    @Test func anotherPlaylistRevisionIsAnotherPage() async throws {
        let box = PlaylistBox(try Self.served("playlist/catchup.m3u", revision: 1))
        try await ServerHarness.run(now: Self.nextNoon, playlist: { await box.current }) { client in
            let path = "/programme/La1.es@20261021T190000Z"
            #expect(try await client.get(path).text.contains("data-action=\"catch-up\""))
            #expect(try await client.get("/programmes/La1.es@20261021T190000Z").object()["catchup"] != nil)
            let without = try Playlist.parse(Data("#EXTM3U\n#EXTINF:-1 tvg-id=\"La1.es\",La 1\nhttps://streams.example/la1.m3u8\n".utf8))
            await box.replace(with: ServedPlaylist(playlist: without, error: nil, revision: 2))
            #expect(!(try await client.get(path).text.contains("data-action=\"catch-up\"")), "the page rendered for revision 1 is not served for 2")
            #expect(try await client.get("/programmes/La1.es@20261021T190000Z").object()["catchup"] == nil)
        }
    }

    /// Behind a TLS proxy the URLs the server writes take `server.public_url`, or what a trusted
    /// proxy says (`Forwarded`, else `X-Forwarded-*`); an untrusted proxy's fields change nothing.
    @Test func theURLsWrittenFollowThePublicURLOrATrustedProxy() async throws {
        let playlist = try Self.served("playlist/catchup.m3u", revision: 1)
        let reminder = "/reminders.ics?programme=La1.es@20261021T190000Z"
        func guideLine(_ client: ServerClient, _ headers: [String: String] = [:]) async throws -> String {
            String(try await client.get("/playlist.m3u", headers: headers).text.split(separator: " ").dropFirst().first ?? "")
        }
        func eventURL(_ client: ServerClient, _ headers: [String: String] = [:]) async throws -> String? {
            try await client.get(reminder, headers: headers).text.split(separator: "\r\n").first { $0.hasPrefix("URL:") }.map { String($0.dropFirst(4)) }
        }
        var settings = ServerHarness.patientSettings
        settings.publicURL = "https://tv.example.org/guide"
        let configured = try await ServerHarness.run(settings: settings, playlist: { playlist }) { client in
            (try await guideLine(client, ["X-Forwarded-Host": "evil.example"]), try await eventURL(client))
        }
        #expect(configured.0 == "url-tvg=\"https://tv.example.org/guide/xmltv.xml\"")
        #expect(configured.1 == "https://tv.example.org/guide/programme/La1.es@20261021T190000Z")
        settings.publicURL = nil
        settings.trustForwarded = true
        let trusted = try await ServerHarness.run(settings: settings, playlist: { playlist }) { client in
            (try await guideLine(client, ["Forwarded": "for=192.0.2.1;proto=https;host=tv.example.net, for=10.0.0.1"]),
             try await eventURL(client, ["X-Forwarded-Proto": "https", "X-Forwarded-Host": "tv.example.net"]))
        }
        #expect(trusted.0 == "url-tvg=\"https://tv.example.net/xmltv.xml\"")
        #expect(trusted.1 == "https://tv.example.net/programme/La1.es@20261021T190000Z")
        let untrusted = try await ServerHarness.run(playlist: { playlist }) { client in
            ("http://127.0.0.1:\(client.port)",
             try await guideLine(client, ["X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"]),
             try await eventURL(client, ["Forwarded": "proto=https;host=evil.example"]))
        }
        #expect(untrusted.1 == "url-tvg=\"\(untrusted.0)/xmltv.xml\"")
        #expect(untrusted.2 == "\(untrusted.0)/programme/La1.es@20261021T190000Z")
    }

    /// A playlist of thousands of channels is megabytes: held in a temporary file rather than in
    /// memory, and sent whole, revalidated and compressed as any rendered body.
    @Test func aLargePlaylistIsSentWholeFromItsFile() async throws {
        let entries = (0..<12_000).map { "#EXTINF:-1 tvg-id=\"extra\($0).example\",Extra channel \($0)\nhttps://streams.example/extra/\($0).m3u8" }
        let text = "#EXTM3U\n" + entries.joined(separator: "\n") + "\n"
        let playlist = ServedPlaylist(playlist: try Playlist.parse(Data(text.utf8)), error: nil, revision: 1)
        try await ServerHarness.run(playlist: { playlist }) { client in
            let first = try await client.get("/playlist.m3u")
            #expect(first.status == 200)
            #expect(first.body.count >= RenderedResponse.fileThreshold)
            #expect(first.headers["content-length"] == String(first.body.count))
            let again = try await client.get("/playlist.m3u")
            #expect(again.body == first.body)
            let etag = try #require(again.headers["etag"])
            #expect(etag == first.headers["etag"])
            #expect(try await client.get("/playlist.m3u", headers: ["If-None-Match": etag]).status == 304)
            let compressed = try await client.get("/playlist.m3u", headers: ["Accept-Encoding": "gzip"])
            #expect(compressed.headers["content-encoding"] == "gzip")
            #expect(try Gzip.decompress(compressed.body, name: "test") == first.body)
        }
    }

    @Test func playlistM3UPassesTheCatchupAttributesThroughUntouched() async throws {
        let playlist = try Self.served("playlist/catchup.m3u", revision: 1)
        try await ServerHarness.run(playlist: { playlist }) { client in
            let response = try await client.get("/playlist.m3u")
            #expect(response.status == 200)
            let lines = response.text.split(separator: "\n", omittingEmptySubsequences: false)
            let original = try String(contentsOf: Fixtures.url("playlist/catchup.m3u"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let guide = "http://127.0.0.1:\(client.port)/xmltv.xml"
            #expect(lines.first == "#EXTM3U url-tvg=\"\(guide)\" x-tvg-url=\"\(guide)\" catchup=\"append\" catchup-days=\"3\" catchup-source=\"?utc={utc}&lutc={lutc}\"")
            // Each entry as it was, with the guide's logo added where it had none.
            let expected = original.dropFirst().map { line -> String in
                guard line.hasPrefix("#EXTINF"), let id = line.firstMatch(of: /tvg-id="([^"]+)"/)?.output.1,
                      let comma = line.range(of: "\",") else { return String(line) }
                return String(line[..<comma.lowerBound]) + "\" tvg-logo=\"https://img.tvguide.example/logos/\(id).png\"," + line[comma.upperBound...]
            }
            #expect(lines.dropFirst().map(String.init) == expected)
        }
    }
}

/// The served playlist, changed by a test between requests.
actor PlaylistBox {
    private(set) var current: ServedPlaylist

    init(_ served: ServedPlaylist) {
        current = served
    }

    func replace(with served: ServedPlaylist) {
        current = served
    }
}
