import Foundation
import GuideCore
import GuideStorage
import Testing
import TestSupport

/// The catalogue of site recipes (`sources/`), `tvguide sources`, and `type: site` providers.
@Suite("Site catalogue")
struct SiteCatalogueTests {
    static let repository = Fixtures.root.deletingLastPathComponent()
    static let catalogue = repository.appendingPathComponent("sources", isDirectory: true)

    @Test("every catalogue site reproduces its recorded test, field by field")
    func everySitePasses() async throws {
        let run = try await CLI.run(["sources", "test", "--catalogue", Self.catalogue.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let last = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let passed = Int(last.split(separator: " ").first ?? "") ?? 0
        #expect(last == "\(passed) passed, 0 failed", "\(run.stdout)")
        #expect(passed >= 40, "the catalogue holds \(passed) passing sites")
    }

    @Test("sources test --format json lists {site, passed, fields} per site")
    func jsonReport() async throws {
        let run = try await CLI.run(["sources", "test", "--catalogue", Self.catalogue.path, "--format", "json", "programacion-tv.elpais.com"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(report.count == 1)
        #expect(report.first?["site"] as? String == "programacion-tv.elpais.com")
        #expect(report.first?["passed"] as? Bool == true)
        let fields = try #require(report.first?["fields"] as? [String: Bool])
        #expect(fields["credits"] == true && fields["images"] == true && fields["start"] == true)
    }

    @Test("a site whose recording no longer matches fails, naming the field and both values")
    func aChangedSiteFails() async throws {
        let scratch = try Scratch()
        let site = scratch.url.appendingPathComponent("programacion-tv.elpais.com")
        try FileManager.default.copyItem(at: Self.catalogue.appendingPathComponent("programacion-tv.elpais.com"), to: site)
        let tests = site.appendingPathComponent("tests.yaml")
        let text = try String(contentsOf: tests, encoding: .utf8).replacingOccurrences(of: "subtitle: París", with: "subtitle: Roma")
        try Data(text.utf8).write(to: tests)
        let run = try await CLI.run(["sources", "test", "--catalogue", scratch.url.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("✗ subtitle"))
        #expect(run.stdout.contains("programme 1 subtitle: expected 'Roma', got \"París\""), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test("sources list names every site with its channels; sources new scaffolds a folder that test runs")
    func listAndNew() async throws {
        let list = try await CLI.run(["sources", "list", "--catalogue", Self.catalogue.path])
        #expect(list.status == 0)
        #expect(list.stdout.contains("programacion-tv.elpais.com"))
        #expect(list.stdout.contains("gives: "))
        // What a site gives is what its recipe produced on its recordings, not the words of its tests.
        let spanish = try await CLI.run(["sources", "list", "--catalogue", Self.catalogue.path, "--country", "es", "--gives", "images,credits"])
        #expect(spanish.status == 0, "\(spanish.stderr)")
        let lines = spanish.stdout.split(separator: "\n")
        let sites = lines.filter { $0.hasPrefix("es  ") }
        #expect(!sites.isEmpty && sites.contains { $0.contains("programacion-tv.elpais.com") }, "\(spanish.stdout)")
        #expect(lines.filter { $0.contains("gives: ") }.allSatisfy { $0.contains("images") && $0.contains("credits") && !$0.contains(" url,") })
        #expect(lines.last?.hasSuffix("site(s)") == true && lines.last?.contains(" of ") == true)
        let unknown = try await CLI.run(["sources", "list", "--catalogue", Self.catalogue.path, "--gives", "poster"])
        #expect(unknown.status == 2 && unknown.stderr.contains("'poster' is not a programme key"))

        let scratch = try Scratch()
        let made = try await CLI.run(["sources", "new", "tv.example.org", "--catalogue", scratch.url.path])
        #expect(made.status == 0, "\(made.stderr)")
        for file in ["site.yaml", "tests.yaml", "tv.example.org.channels.xml", "recordings"] {
            #expect(FileManager.default.fileExists(atPath: scratch.file("tv.example.org/\(file)").path), "\(file)")
        }
        let test = try await CLI.run(["sources", "test", "--catalogue", scratch.url.path])
        #expect(test.status == 1)
        #expect(test.stdout.contains("no recording for https://tv.example.org/guide/1/2026-01-01.json") || test.stdout.contains("recordings/content.json"), "\(test.stdout)")
        let again = try await CLI.run(["sources", "new", "tv.example.org", "--catalogue", scratch.url.path])
        #expect(again.status == 2)
    }

    /// docs/sources.md's tutorial, as written: its answer, recipe, channel line and tests are
    /// taken from the page and must pass.
    @Test("the tutorial 'Add a site in 15 minutes' works as written")
    func tutorial() async throws {
        let docs = try String(contentsOf: Self.repository.appendingPathComponent("docs/sources.md"), encoding: .utf8)
        let start = try #require(docs.range(of: "### Add a site in 15 minutes"))
        let end = try #require(docs.range(of: "### Recipe reference"))
        let tutorial = String(docs[start.upperBound..<end.lowerBound])
        let blocks = Self.codeBlocks(in: tutorial)
        let answer = try #require(blocks.first { $0.language == "json" }?.text)
        let yamls = blocks.filter { $0.language == "yaml" }.map(\.text)
        try #require(yamls.count == 2)
        let channelLine = try #require(tutorial.split(separator: "\n").first { $0.contains("<channel site=") })
        let channel = String(channelLine[channelLine.range(of: "<channel")!.lowerBound...]).replacingOccurrences(of: "`.", with: "")

        let scratch = try Scratch()
        try scratch.write("tv.example.com/recordings/la1.json", answer)
        try scratch.write("tv.example.com/site.yaml", yamls[0])
        try scratch.write("tv.example.com/tests.yaml", yamls[1])
        try scratch.write("tv.example.com/tv.example.com.channels.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<channels>\n  \(channel)\n</channels>\n")
        let run = try await CLI.run(["sources", "test", "--catalogue", scratch.url.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("PASS  tv.example.com"))
        #expect(run.stdout.contains("✓ images") && run.stdout.contains("✓ episode"))
    }

    /// docs/sources.md's recipes for harder sites: each subsection is a catalogue folder whose
    /// files are its code blocks (named after the language), and each must pass as written.
    @Test("every example of 'Recipes for harder sites' passes as written")
    func harderSiteExamples() async throws {
        let docs = try String(contentsOf: Self.repository.appendingPathComponent("docs/sources.md"), encoding: .utf8)
        let start = try #require(docs.range(of: "### Recipes for harder sites"))
        let end = try #require(docs.range(of: "### Why jq"))
        let examples = docs[start.upperBound..<end.lowerBound].components(separatedBy: "\n#### ").dropFirst()
        try #require(examples.count >= 6)
        let scratch = try Scratch()
        for (index, example) in examples.enumerated() {
            let files = Self.codeBlocks(in: example).compactMap { block -> (String, String)? in
                let words = block.language.split(separator: " ")
                return words.count == 2 ? (String(words[1]), block.text) : nil
            }
            #expect(files.contains { $0.0 == "site.yaml" } && files.contains { $0.0 == "tests.yaml" }, "example \(index + 1) lacks a recipe or tests")
            for (path, text) in files { try scratch.write("example-\(index + 1)/\(path)", text) }
        }
        let run = try await CLI.run(["sources", "test", "--catalogue", scratch.url.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("\(examples.count) passed, 0 failed\n"), "\(run.stdout)")
    }

    static func codeBlocks(in text: String) -> [(language: String, text: String)] {
        var blocks: [(String, String)] = []
        var current: (language: String, lines: [String], indent: Int)?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                if let open = current {
                    blocks.append((open.language, open.lines.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    current = (String(trimmed.dropFirst(3)), [], line.count - trimmed.count)
                }
            } else if current != nil {
                current!.lines.append(String(line.dropFirst(min(current!.indent, line.prefix { $0 == " " }.count))))
            }
        }
        return blocks
    }

    @Test("a catalogue site in providers.yaml, its url overridden to a mirror, builds a guide with credits and images")
    func siteProviderBuilds() async throws {
        let scratch = try Scratch()
        let recordings = Self.catalogue.appendingPathComponent("programacion-tv.elpais.com/recordings")
        let log = RequestLog()
        try await LoopbackServer.run(log: log, { request in
            switch request.path {
            case "/data/parrilla_04102022.json": .file(recordings.appendingPathComponent("content.json"))
            case "/data/programas/3.json": .file(recordings.appendingPathComponent("programs.json"))
            default: .status(404)
            }
        }) { base in
            let host = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
            try scratch.write("providers.yaml", """
                version: 1
                window: { past: 1d, days: 2 }
                cache: { ttl: 0s, dir: cache }
                snapshots: { dir: snapshots, keep: 2 }
                channels:
                  - { id: La1.es, name: La 1 }
                guide: [elpais]
                providers:
                  elpais:
                    type: site
                    site: programacion-tv.elpais.com
                    catalogue: \(Self.catalogue.path)
                    url: "\(host)/data/parrilla_{date:ddMMyyyy}.json"
                    details:
                      programas: "\(host)/data/programas/{channel}.json"
                """)
            let run = try await CLI.run(["build", "--from", "2022-10-04T00:00:00+02:00", "--to", "2022-10-05T00:00:00+02:00", "--now", "2022-10-04T12:00:00Z"], in: scratch.url)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("read 1 page(s): 1 item(s), 1 programme(s)"), "\(run.stdout)")
            // The report counts the requests the server saw, not the calls the chain made.
            #expect(run.stdout.contains(", 2 request(s)]"), "\(run.stdout)")
        }
        // The day's page is asked for once, the channel's details once.
        #expect(await log.requests.map(\.path).sorted() == ["/data/parrilla_04102022.json", "/data/programas/3.json"])
        let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        let programme = try #require(snapshot.programmes.first)
        #expect(programme.channel == "La1.es" && programme.title == "Comerse el mundo" && programme.subtitle == "París")
        #expect(programme.credits?.contains(Credit(role: .presenter, name: "Javier Peña")) == true)
        #expect(programme.images?.first?.url == "https://programacion-tv.elpais.com/imagenes/programas/2099957.jpg")
    }

    @Test("over real HTTP: a session kept in cookies, and a provider's lang picking one of two channel lists")
    func cookiesAndLanguageOverHTTP() async throws {
        let scratch = try Scratch()
        try await LoopbackServer.run({ request in
            switch request.path {
            case "/init":
                // Two cookies, one with an Expires date whose comma must not split it.
                return .json(#"{"token": "t1"}"#, headers: ["set-cookie": "XSRF-TOKEN=abc; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT\nsid=s1; Path=/; HttpOnly"])
            case "/en/guide/1101/2022-10-04.json":
                guard request.headers["cookie"] == "XSRF-TOKEN=abc; sid=s1", request.headers["x-xsrf-token"] == "abc" else { return .status(403) }
                return .json(#"{"items": [{"start": "2022-10-04T08:00:00Z", "stop": "2022-10-04T09:00:00Z", "title": "News"}]}"#)
            default:
                return .status(404)
            }
        }) { base in
            let host = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
            try scratch.write("sources/x.test/site.yaml", """
                site: x.test
                steps:
                  login: { url: "\(host)/init", method: POST, body: "c={channel}", value: '{token, csrf: $cookies["XSRF-TOKEN"]}' }
                request:
                  url: "\(host)/{channel.lang}/guide/{channel}/{date:yyyy-MM-dd}.json"
                  headers: { X-XSRF-TOKEN: "{steps.login.csrf}" }
                items: .items[]
                """)
            try scratch.write("sources/x.test/x.test_ar.channels.xml", #"<channels><channel site="x.test" site_id="1101" lang="ar" xmltv_id="One.eg">الأولى</channel></channels>"#)
            try scratch.write("sources/x.test/x.test_en.channels.xml", #"<channels><channel site="x.test" site_id="1101" lang="en" xmltv_id="One.eg">One</channel></channels>"#)
            try scratch.write("providers.yaml", """
                version: 1
                window: { past: 1d, days: 2 }
                cache: { ttl: 0s, dir: cache }
                snapshots: { dir: snapshots, keep: 2 }
                channels:
                  - { id: One.eg, name: One }
                guide: [x]
                providers:
                  x: { type: site, site: x.test, catalogue: sources, lang: en }
                """)
            let run = try await CLI.run(["build", "--from", "2022-10-04T00:00:00Z", "--to", "2022-10-05T00:00:00Z", "--now", "2022-10-04T12:00:00Z"], in: scratch.url)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
            #expect(snapshot.programmes.map(\.title) == ["News"])

            try scratch.write("providers.yaml", try String(contentsOf: scratch.file("providers.yaml"), encoding: .utf8).replacingOccurrences(of: "lang: en", with: "lang: fr"))
            let refused = try await CLI.run(["validate"], in: scratch.url)
            #expect(refused.status != 0 && refused.stderr.contains("lang: x.test's channel lists have no channel in 'fr' (they have ar, en)"), "\(refused.stderr)")
        }
    }

    @Test("recipe errors name the file, line and column of the value at fault", arguments: [
        ("items: '.[] | select(.id == $channel.id'", "providers.yaml:10:12", "syntax error"),
        ("items: '.[] | env.TMDB_API_KEY'", "providers.yaml:10:12", "'env' is not available in recipes"),
        ("itmes: '.[]'", "providers.yaml:10:5", "did you mean 'items'"),
        ("items: '.[]'\n    time_format: 'YYYY HH'", "providers.yaml:11:18", "unknown letters 'YYYY'"),
        ("items: '.[]'\n    details: { d: 'https://x.es/{key}' }", "providers.yaml:11:19", "a programme detail"),
    ])
    func recipeErrorsAreLocated(line: String, location: String, message: String) async throws {
        let stderr = try await Self.refused("""
            version: 1
            channels:
              - { id: La1.es, name: La 1, mine: "3" }
            guide: [mine]
            providers:
              mine:
                type: site
                timezone: Europe/Madrid
                url: "https://tv.example.com/{channel}/{date:yyyy-MM-dd}.json"
                \(line)
            """)
        #expect(stderr.contains(location), "\(stderr)")
        #expect(stderr.contains(message), "\(stderr)")
    }

    /// `tvguide validate` on `yaml`, which must be refused (exit 2).
    static func refused(_ yaml: String) async throws -> String {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", yaml)
        let run = try await CLI.run(["validate"], in: scratch.url)
        #expect(run.status == 2)
        return run.stderr
    }

    @Test("validate refuses a json-feed that cannot tell its channels apart, as build would")
    func jsonFeedWithoutChannel() async throws {
        let stderr = try await Self.refused("""
            version: 1
            channels:
              - { id: La1.es, name: La 1, feed: la1 }
              - { id: La2.es, name: La 2, feed: la2 }
            guide: [feed]
            providers:
              feed:
                type: json-feed
                url: "http://127.0.0.1:9/guide/{date:yyyy-MM-dd}.json"
                items: data
                fields: { start: begin, title: name }
            """)
        #expect(stderr.contains("providers.yaml:9:10: url: 'http://127.0.0.1:9/guide/{date:yyyy-MM-dd}.json' has no {channel} placeholder, so it cannot tell the 2 channels apart"), "\(stderr)")
    }

    @Test("an unknown json-feed field is reported at its own line, with a did-you-mean")
    func jsonFeedUnknownField() async throws {
        let stderr = try await Self.refused("""
            version: 1
            guide: [feed]
            providers:
              feed:
                type: json-feed
                url: "http://127.0.0.1:9/guide/{date:yyyy-MM-dd}.json"
                items: data
                fields:
                  start: begin
                  title: name
                  descripton: info
            """)
        #expect(stderr.contains("providers.yaml:11:7:"), "\(stderr)")
        #expect(stderr.contains("did you mean 'description'"), "\(stderr)")
    }

    @Test("format: text hands a JSONP answer to jq as one string, &amp; and all, to unwrap")
    func textAnswersAreUnwrappedInJQ() async throws {
        let scratch = try Scratch()
        try scratch.write("jsonp.test/recordings/day.js", #"guide_cb({"items": [{"t": "2025-10-25T20:00:00Z", "n": "Tom &amp; Jerry"}]});"#)
        try scratch.write("jsonp.test/jsonp.test.channels.xml", #"<channels><channel site="jsonp.test" site_id="1" xmltv_id="La1.es">La 1</channel></channels>"#)
        try scratch.write("jsonp.test/site.yaml", #"""
            site: jsonp.test
            format: text
            url: "https://jsonp.test/{channel}/{date:yyyy-MM-dd}.js"
            items: 'capture("^[^(]*[(](?<json>.*)[)][^)]*$").json | fromjson | .items[]'
            programme: '{start: .t, title: .n}'
            """#)
        try scratch.write("jsonp.test/tests.yaml", """
            - channel: "1"
              date: 2025-10-25
              responses:
                https://jsonp.test/1/2025-10-25.js: recordings/day.js
              count: 1
              programmes:
                - start: 2025-10-25T20:00:00Z
                  title: Tom &amp; Jerry
            """)
        let run = try await CLI.run(["sources", "test", "--catalogue", scratch.url.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ title"), "\(run.stdout)")
    }

    @Test("times decades from the page's day are an error that says why, never programmes silently dropped")
    func millisecondsReadAsSeconds() async throws {
        let scratch = try Scratch()
        try scratch.write("ms.test/recordings/day.json", #"[{"t": 1761375600000, "n": "Telediario"}]"#)
        try scratch.write("ms.test/ms.test.channels.xml", #"<channels><channel site="ms.test" site_id="1" xmltv_id="La1.es">La 1</channel></channels>"#)
        try scratch.write("ms.test/site.yaml", """
            site: ms.test
            url: "https://ms.test/{channel}/{date:yyyy-MM-dd}.json"
            items: '.[]'
            programme: '{start: .t, title: .n}'
            time_format: unix
            """)
        try scratch.write("ms.test/tests.yaml", """
            - channel: "1"
              date: 2025-10-25
              responses:
                https://ms.test/1/2025-10-25.json: recordings/day.json
              error: "times look like milliseconds? (time_format: unix_ms)"
            """)
        let run = try await CLI.run(["sources", "test", "--catalogue", scratch.url.path])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("✓ error"))
    }
}
