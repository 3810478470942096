import Foundation
import GuideTransport
import GuideCore
import TestSupport
import Testing
import XMLTV

@Suite("XMLTV provider")
struct XMLTVProviderTests {
    static let week = DateInterval(start: utc("2026-10-19T04:00:00Z"), end: utc("2026-10-26T05:00:00Z"))

    @Test("channels under the file's ids; one channel's programmes in a window, under the canonical id")
    func schedule() async throws {
        let provider = XMLTVProvider(id: "xmltv-sample", source: Fixtures.url("xmltv/sample.xml"), transport: nil)
        let channels = try await provider.channels()
        #expect(channels.count == 24)
        #expect(channels.map(\.id).contains("La1.es"))

        let window = DateInterval(start: utc("2026-10-21T19:00:00Z"), end: utc("2026-10-21T21:00:00Z"))
        let programmes = try await provider.schedule(for: ChannelRef(id: "la1", providerID: "La1.es"), in: window)
        #expect(!programmes.isEmpty)
        #expect(programmes.allSatisfy { $0.channel == "la1" && $0.source == "xmltv-sample" })
        #expect(programmes.allSatisfy { $0.start < window.end && ($0.stop ?? $0.start) > window.start })
        #expect(programmes.map(\.start) == programmes.map(\.start).sorted())
        // The programme on air when the window opens is included.
        #expect(try #require(programmes.first).start <= window.start)
        #expect(programmes.map(\.title).contains("Telediario 2"))

        let all = try await provider.schedule(for: ChannelRef(id: "la1", providerID: "La1.es"), in: Self.week)
        let document = try XMLTVParser(source: "xmltv-sample").parse(contentsOf: Fixtures.url("xmltv/sample.xml"))
        #expect(all.count == document.programmes.filter { $0.channel == "La1.es" }.count)
    }

    @Test("a channel the file does not have is an empty schedule, not an error")
    func unknownChannel() async throws {
        let provider = XMLTVProvider(id: "xmltv-sample", source: Fixtures.url("xmltv/sample.xml"), transport: nil)
        #expect(try await provider.schedule(for: ChannelRef(id: "x", providerID: "Nope.es"), in: Self.week).isEmpty)
    }

    @Test("a path without a scheme, and a .gz file")
    func pathsAndGzip() async throws {
        let plainPath = try #require(URL(string: Fixtures.url("xmltv/latin1.xml").path))
        #expect(plainPath.scheme == nil)
        #expect(try await XMLTVProvider(id: "p", source: plainPath, transport: nil).channels().count == 2)

        let gz = XMLTVProvider(id: "gz", source: Fixtures.url("xmltv/small.xml.gz"), transport: nil)
        let programmes = try await gz.schedule(for: ChannelRef(id: "clan", providerID: "Clan.es"), in: Self.week)
        #expect(programmes.map(\.title) == ["Peppa Pig", "La patrulla canina"])
    }

    @Test("what the run report is told")
    func notes() async throws {
        let clean = XMLTVProvider(id: "s", source: Fixtures.url("xmltv/small.xml.gz"), transport: nil)
        _ = try await clean.channels()
        // The file's own <tv> attributes stay in the report: an export names tvguide instead.
        #expect(await clean.reportNotes() == ["parsed 2 programmes on 1 channel from small.xml.gz", "<tv> generator-info-name 'tvguide fixtures'"])

        let bad = XMLTVProvider(id: "b", source: Fixtures.url("xmltv/bad-times.xml"), transport: nil)
        _ = try await bad.channels()
        #expect(await bad.reportNotes() == [
            "parsed 3 programmes on 2 channels from bad-times.xml, skipped 6 (2 unparsable start, 1 missing channel, "
                + "1 missing title, 1 stop before start, 1 unparsable stop)",
            "<tv> generator-info-name 'tvguide fixtures'",
        ])
    }

    @Test("errors: a missing file, a broken file, no transport for http, an unknown scheme")
    func errors() async throws {
        let missing = XMLTVProvider(id: "m", source: Fixtures.url("xmltv/nope.xml"), transport: nil)
        await #expect(throws: ProviderError.notConfigured("cannot read XMLTV file \(Fixtures.url("xmltv/nope.xml").path): no such file")) {
            try await missing.channels()
        }
        // Not files: named as what they are, never opened (a FIFO would block, /dev/zero never end).
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-fifo-\(UUID().uuidString)")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        for (url, what) in [(Fixtures.url("xmltv"), "is a directory, not a file"), (fifo, "is a FIFO (named pipe), not a file"),
                            (URL(fileURLWithPath: "/dev/zero"), "is a device, not a file")] {
            await #expect(throws: ProviderError.notConfigured("cannot read XMLTV file \(url.path): \(what)")) {
                try await XMLTVProvider(id: "x", source: url, transport: nil).channels()
            }
        }

        let truncated = XMLTVProvider(id: "t", source: Fixtures.url("xmltv/truncated.xml"), transport: nil)
        let first = await #expect(throws: ProviderError.self) { try await truncated.channels() }
        let second = await #expect(throws: ProviderError.self) {
            try await truncated.schedule(for: ChannelRef(id: "la1", providerID: "La1.es"), in: Self.week)
        }
        #expect(malformedMessage(first)?.hasPrefix("truncated.xml: line 12: ") == true)
        #expect(first == second)
        #expect(await truncated.reportNotes().isEmpty)

        let remote = XMLTVProvider(id: "r", source: URL(string: "http://127.0.0.1:9/guide.xml")!, transport: nil)
        let noTransport = await #expect(throws: ProviderError.self) { try await remote.channels() }
        #expect(noTransport?.kind == "notConfigured")

        let ftp = XMLTVProvider(id: "f", source: URL(string: "ftp://example.org/guide.xml")!, transport: nil)
        let unknownScheme = await #expect(throws: ProviderError.self) { try await ftp.channels() }
        #expect(unknownScheme?.kind == "notConfigured")
    }

    @Test("concurrent callers share one fetch and one parse")
    func parsedOnce() async throws {
        let transport = CountingTransport(body: try Data(contentsOf: Fixtures.url("xmltv/sample.xml")))
        let provider = XMLTVProvider(id: "x", source: URL(string: "http://guide.test/sample.xml")!, transport: transport)
        let ids = ["La1.es", "La2.es", "Antena3.es", "Cuatro.es", "Telecinco.es", "24h.es", "TV3.es", "ETB1.es"]
        // Every call starts before the first fetch has answered.
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in ids {
                group.addTask { try await provider.channels().count }
                group.addTask {
                    try await provider.schedule(for: ChannelRef(id: id, providerID: id), in: Self.week).count
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts.count == 2 * ids.count)
        #expect(counts.allSatisfy { $0 > 0 })
        #expect(await transport.requests == 1)
    }

    @Test("over HTTP from a loopback server: plain, gzip, and a 404 passed on")
    func overHTTP() async throws {
        let log = RequestLog()
        try await LoopbackServer.run(log: log, LoopbackServer.serving(directory: Fixtures.url("xmltv"))) { base in
            let sample = XMLTVProvider(id: "remote", source: base.appendingPathComponent("sample.xml"), transport: LiveTransport(policy: .loopbackExact))
            #expect(try await sample.channels().count == 24)
            let la2 = try await sample.schedule(for: ChannelRef(id: "la2", providerID: "La2.es"), in: Self.week)
            #expect(la2.first?.title == "That's English")
            #expect(la2.allSatisfy { $0.source == "remote" && $0.channel == "la2" })
            #expect(await log.count(path: "/sample.xml") == 1)
            #expect(await sample.reportNotes() == ["parsed 3501 programmes on 24 channels from \(base.absoluteString)sample.xml",
                                                   "<tv> date '20261019', source-info-name 'tvguide sample guide', generator-info-name 'make_xmltv_sample.py'"])

            let gzip = XMLTVProvider(id: "remote-gz", source: base.appendingPathComponent("small.xml.gz"), transport: LiveTransport(policy: .loopbackExact))
            #expect(try await gzip.channels().map(\.id) == ["Clan.es"])

            let missing = XMLTVProvider(id: "remote-404", source: base.appendingPathComponent("gone.xml"), transport: LiveTransport(policy: .loopbackExact))
            let error = await #expect(throws: ProviderError.self) { try await missing.channels() }
            #expect(error == .http(status: 404, url: base.appendingPathComponent("gone.xml").absoluteString))
        }
    }
}

/// Serves one body for every URL and counts the requests.
actor CountingTransport: GetOnlyTransport {
    let body: Data
    private(set) var requests = 0

    init(body: Data) {
        self.body = body
    }

    func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        requests += 1
        // Long enough for every concurrent caller to arrive while the first fetch is under way.
        try await Task.sleep(for: .milliseconds(50))
        return TransportResponse(status: 200, body: body, url: url)
    }
}

