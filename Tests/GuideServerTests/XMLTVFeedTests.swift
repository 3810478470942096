import Foundation
import GuideCore
import GuideServer
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
