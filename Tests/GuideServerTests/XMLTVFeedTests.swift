import Foundation
import GuideCore
import NIOHTTP1
@testable import GuideServer
import TestSupport
import Testing

@Suite struct XMLTVFeedTests {
    @Test func theServedGuidePassesTvValidateFile() async throws {
        try await ServerHarness.run { client in
            let response = try await client.get("/xmltv.xml")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/xml; charset=utf-8")
            #expect(response.headers["cache-control"] == "public, max-age=300")
            #expect(response.text.components(separatedBy: "<programme ").count - 1 == ServerHarness.golden.programmes.count)
            #expect(response.text.components(separatedBy: "<channel ").count - 1 == ServerHarness.golden.channels.count)

            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-xmltv-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("guide.xml")
            try response.body.write(to: file)
            let tool = "/usr/bin/tv_validate_file"
            #expect(FileManager.default.isExecutableFile(atPath: tool), "tv_validate_file is missing: run scripts/install-deps (Debian package xmltv-util)")
            let validation = try await Subprocess.run(URL(fileURLWithPath: tool), [file.path],
                                                      environment: ["XMLTV_SUPPLEMENT": "/usr/share/xmltv", "PATH": "/usr/bin:/bin"])
            #expect(validation.status == 0, "tv_validate_file: \(validation.stdout)\(validation.stderr)")
        }
    }

    @Test func theGzipFeedInflatesToTheSameDocument() async throws {
        try await ServerHarness.run { client in
            let plain = try await client.get("/xmltv.xml")
            let compressed = try await client.get("/xmltv.xml.gz")
            #expect(compressed.status == 200)
            #expect(compressed.headers["content-type"] == "application/gzip")
            #expect(compressed.headers["cache-control"] == "public, max-age=300")
            #expect(Array(compressed.body.prefix(2)) == [0x1F, 0x8B])
            #expect(compressed.body.count < plain.body.count / 4)

            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-xmltv-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let gz = folder.appendingPathComponent("guide.xml.gz")
            let xml = folder.appendingPathComponent("guide.xml")
            try compressed.body.write(to: gz)
            try plain.body.write(to: xml)
            // Foundation cannot inflate gzip; Python's gzip module is an independent reader.
            let script = """
                import gzip, sys
                inflated = gzip.decompress(open(sys.argv[1], "rb").read())
                print(len(inflated), inflated == open(sys.argv[2], "rb").read())
                """
            let python = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, gz.path, xml.path])
            #expect(python.status == 0, "python3 said: \(python.stderr)")
            #expect(python.stdout == "\(plain.body.count) True\n")
        }
    }

    @Test func bothFeedsAnswer304ToTheirOwnETag() async throws {
        try await ServerHarness.run { client in
            for path in ["/xmltv.xml", "/xmltv.xml.gz"] {
                let first = try await client.get(path)
                let etag = try #require(first.headers["etag"])
                let again = try await client.get(path, headers: ["If-None-Match": etag])
                #expect(again.status == 304, "\(path)")
                #expect(again.body.isEmpty, "\(path)")
                #expect(again.headers["etag"] == etag, "\(path)")
                let stale = try await client.get(path, headers: ["If-None-Match": #""0000000000000000""#])
                #expect(stale.status == 200, "\(path)")
                #expect(stale.body == first.body, "\(path)")
            }
            let plain = try await client.get("/xmltv.xml")
            let compressed = try await client.get("/xmltv.xml.gz")
            #expect(plain.headers["etag"] != compressed.headers["etag"])
        }
    }
}

/// The feeds are files, written when the guide is served and sent from disk, with what players
/// and proxies expect of a static file: validators, conditions, ranges, HEAD as GET.
@Suite struct FeedFileTests {
    static let lineups = ["main": ["La1.es", "La2.es"]]

    /// Waits until `path` exists; the feeds are written in the background.
    static func waitForFile(_ path: String) async throws {
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: path) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(FileManager.default.fileExists(atPath: path), "\(path) was never written")
    }

    @Test func theFeedsAreWrittenWhenTheGuideIsServedAndSentFromTheirFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-feeds-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = ServerHarness.patientSettings
        settings.lineups = Self.lineups
        let version = GuideIndex(ServerHarness.golden).version
        let written = folder.appendingPathComponent(version)
        try await ServerHarness.run(settings: settings, feedDirectory: folder) { client in
            // Nobody asked yet: the files come with the guide, not with the first request.
            for name in ["xmltv.xml", "xmltv.xml.gz", "xmltv-lineup-main.xml", "xmltv-lineup-main.xml.gz"] {
                try await Self.waitForFile(written.appendingPathComponent(name).path)
            }
            let whole = try await client.get("/xmltv.xml")
            #expect(whole.body == (try Data(contentsOf: written.appendingPathComponent("xmltv.xml"))))
            let lineup = try await client.get("/xmltv.xml?lineup=main")
            #expect(lineup.body == (try Data(contentsOf: written.appendingPathComponent("xmltv-lineup-main.xml"))))
            let channels = lineup.text.matches(of: /<channel id="([^"]+)"/).map { String($0.output.1) }
            #expect(channels == ["La1.es", "La2.es"])
            let compressed = try await client.get("/xmltv.xml.gz?lineup=main")
            #expect(compressed.body == (try Data(contentsOf: written.appendingPathComponent("xmltv-lineup-main.xml.gz"))))
            // No partial file is left behind.
            let names = try FileManager.default.contentsOfDirectory(atPath: written.path).sorted()
            #expect(names == ["xmltv-lineup-main.xml", "xmltv-lineup-main.xml.gz", "xmltv.xml", "xmltv.xml.gz"])
        }
        // A folder given by the configuration keeps the files: the next start serves them as they are.
        #expect(FileManager.default.fileExists(atPath: written.appendingPathComponent("xmltv.xml").path))
    }

    /// The conditions and ranges of a static file, answered the same by the fast lane (a plain
    /// request) and by the router (a request with `Origin`, which the fast lane leaves to it).
    @Test func conditionsRangesAndHeadAreAStaticFilesOnBothPaths() async throws {
        try await ServerHarness.run { client in
            let full = try await client.get("/xmltv.xml")
            let size = full.body.count
            let etag = try #require(full.headers["etag"])
            let modified = try #require(full.headers["last-modified"])
            #expect(!etag.hasPrefix("W/"))
            #expect(full.headers["accept-ranges"] == "bytes")
            #expect(full.headers["vary"] == "Accept-Encoding")
            typealias Case = (headers: [String: String], status: Int, range: Range<Int>?, contentRange: String?)
            let cases: [Case] = [
                (["Range": "bytes=0-99"], 206, 0..<100, "bytes 0-99/\(size)"),
                (["Range": "bytes=100-"], 206, 100..<size, "bytes 100-\(size - 1)/\(size)"),
                (["Range": "bytes=-50"], 206, (size - 50)..<size, "bytes \(size - 50)-\(size - 1)/\(size)"),
                (["Range": "bytes=10-\(size + 500)"], 206, 10..<size, "bytes 10-\(size - 1)/\(size)"),
                (["Range": "bytes=\(size)-"], 416, nil, "bytes */\(size)"),
                (["Range": "bytes=0-1,5-6"], 200, 0..<size, nil),
                (["Range": "lines=1-2"], 200, 0..<size, nil),
                (["Range": "bytes=0-99", "If-Range": etag], 206, 0..<100, "bytes 0-99/\(size)"),
                (["Range": "bytes=0-99", "If-Range": "\"other\""], 200, 0..<size, nil),
                (["Range": "bytes=0-99", "If-Range": modified], 206, 0..<100, "bytes 0-99/\(size)"),
                (["If-None-Match": etag], 304, nil, nil),
                (["If-None-Match": "W/\(etag)"], 304, nil, nil),
                (["If-Modified-Since": modified], 304, nil, nil),
                (["If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"], 200, 0..<size, nil),
                (["If-None-Match": "\"other\"", "If-Modified-Since": modified], 200, 0..<size, nil),
                (["If-Match": etag], 200, 0..<size, nil),
                (["If-Match": "\"other\""], 412, nil, nil),
                (["If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"], 412, nil, nil),
            ]
            for (headers, status, range, contentRange) in cases {
                for origin in [[:], ["Origin": "https://elsewhere.example"]] {
                    let label = "\(headers) \(origin)"
                    let answer = try await client.get("/xmltv.xml", headers: headers.merging(origin) { a, _ in a })
                    #expect(answer.status == status, "\(label)")
                    #expect(answer.headers["content-range"] == contentRange, "\(label)")
                    if let range {
                        #expect(answer.body == full.body.subdata(in: range), "\(label)")
                        #expect(answer.headers["content-length"] == String(range.count), "\(label)")
                        #expect(answer.headers["etag"] == etag, "\(label)")
                    } else if status == 304 {
                        #expect(answer.body.isEmpty, "\(label)")
                        #expect(answer.headers["etag"] == etag, "\(label)")
                    }
                    // HEAD answers what GET does, without the body.
                    let head = try await client.send(.HEAD, "/xmltv.xml", headers: headers.merging(origin) { a, _ in a })
                    #expect(head.status == answer.status, "HEAD \(label)")
                    #expect(head.body.isEmpty, "HEAD \(label)")
                    for name in ["content-length", "content-range", "etag", "last-modified", "content-type", "accept-ranges", "cache-control"] {
                        #expect(head.headers[name] == answer.headers[name], "HEAD \(name) \(label)")
                    }
                }
            }
            // A client that takes gzip gets the gzip file as the coding of /xmltv.xml.
            let gzip = try await client.get("/xmltv.xml", headers: ["Accept-Encoding": "gzip"])
            let file = try await client.get("/xmltv.xml.gz")
            #expect(gzip.headers["content-encoding"] == "gzip")
            #expect(gzip.headers["content-type"] == "application/xml; charset=utf-8")
            #expect(gzip.body == file.body)
            #expect(gzip.headers["etag"] == file.headers["etag"])
            #expect(gzip.headers["etag"] != etag)
            #expect(file.headers["content-encoding"] == nil)
            #expect(file.headers["vary"] == nil)
        }
    }

    /// While a new guide's feeds are written, requests get the previous guide's whole files; a
    /// first guide's feed is waited for; a feed that cannot be written is a 503 that says why,
    /// and leaves no partial file.
    @Test func aSwapServesThePreviousFilesUntilTheNewOnesAreWhole() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-feeds-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let gate = Gate()
        let real = ServerHarness.source(snapshot: nil).writeXMLTV
        let feeds = FeedFiles(directory: folder, lineups: [:]) { snapshot, keeping, plain, compressed in
            gate.wait()
            if snapshot.programmes.count == ServerHarness.golden.programmes.count - 2 { throw CocoaError(.fileWriteOutOfSpace) }
            try real(snapshot, keeping, plain, compressed)
        }
        let first = GuideIndex(ServerHarness.golden)
        feeds.serve(first)
        #expect(feeds.ready("") == nil)
        let waiting = Task { await feeds.feed("") }
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        let firstFeed = try await waiting.value.get()
        #expect(firstFeed.plain.version == first.version)

        gate.close()
        var changed = ServerHarness.golden
        changed.programmes.removeLast()
        let second = GuideIndex(changed)
        feeds.serve(second)
        // Meanwhile: the previous guide's file, whole.
        #expect(feeds.ready("")?.plain.etag == firstFeed.plain.etag)
        #expect(try await feeds.feed("").get().plain.path == firstFeed.plain.path)
        gate.open()
        for _ in 0..<600 where feeds.ready("")?.plain.version != second.version { try await Task.sleep(for: .milliseconds(50)) }
        #expect(feeds.ready("")?.plain.version == second.version)

        var empty = changed
        empty.programmes.removeLast()
        feeds.serve(GuideIndex(empty))
        let failure = await feeds.feed("")
        // The second guide's files stay served while the third's fail.
        #expect(try failure.get().plain.version == second.version)
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(GuideIndex(empty).version).path) {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(200))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(GuideIndex(empty).version).path)
        #expect(leftovers.isEmpty, "\(leftovers)")

        let alone = FeedFiles(directory: folder.appendingPathComponent("alone"), lineups: [:]) { _, _, _, _ in throw CocoaError(.fileWriteOutOfSpace) }
        alone.serve(GuideIndex(ServerHarness.golden))
        guard case .failure(let unavailable) = await alone.feed("") else {
            Issue.record("a feed that cannot be written must not be served")
            return
        }
        #expect(unavailable.reason.hasPrefix("the XMLTV feed could not be written to "), "\(unavailable.reason)")
    }
}

/// A door the feed writer waits at, for tests that hold a write back.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    func close() {
        condition.lock()
        isOpen = false
        condition.unlock()
    }
}
