import Foundation
import GuideCore
import Scrape
import Testing

/// What real sites need from a recipe, each run as a user runs it: a catalogue folder (recipe,
/// channel list, tests.yaml, recordings) checked by `SiteTests`, the harness of `tvguide
/// sources test`.
@Suite("Site recipe capabilities")
struct SiteCapabilityTests {
    /// A catalogue of one site, `files` (relative path → text) written into its folder.
    static func run(_ files: [String: String]) async throws -> SiteTests.Result {
        let catalogue = FileManager.default.temporaryDirectory.appendingPathComponent("site-capabilities-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: catalogue) }
        let folder = catalogue.appendingPathComponent("x.test", isDirectory: true)
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let site = try #require(SiteCatalogue(directory: catalogue).site("x.test"))
        return await SiteTests.run(site)
    }

    static func expectPasses(_ files: [String: String], _ comment: Comment? = nil) async throws {
        let result = try await run(files)
        #expect(result.passed, "\(result.failures.joined(separator: "\n"))")
    }

    @Test("channel attributes: the list's lang in the URL, a header and XPath, one site id in two lists")
    func channelAttributes() async throws {
        try await Self.expectPasses([
            "site.yaml": """
            site: x.test
            format: html
            request:
              url: "https://x.test/{channel.lang}/tvguide/{channel}/"
              headers: { Cookie: "pll_language={channel.lang}" }
            items:
              xpath: "//li[@lang=$channel.lang]"
              fields: { time: "string(@data-start)", title: "string(.)" }
            programme: '{start: .time, title: (.title + " (" + $channel.lang + ")")}'
            """,
            "x.test_en.channels.xml": #"<channels><channel site="x.test" site_id="1101" lang="en" xmltv_id="One.eg@SD">One</channel></channels>"#,
            "x.test_ar.channels.xml": #"<channels><channel site="x.test" site_id="1101" lang="ar" xmltv_id="One.eg@SD">الأولى</channel></channels>"#,
            "recordings/en.html": #"<ul><li lang="en" data-start="2026-10-25T06:00:00Z">News</li><li lang="ar" data-start="2026-10-25T06:00:00Z">x</li></ul>"#,
            "recordings/ar.html": #"<ul><li lang="ar" data-start="2026-10-25T07:00:00Z">أخبار</li></ul>"#,
            "tests.yaml": """
            - channel: "1101"
              lang: en
              date: 2026-10-25
              responses: { "https://x.test/en/tvguide/1101/": recordings/en.html }
              request: { headers: { cookie: pll_language=en } }
              programmes: [{ start: 2026-10-25T06:00:00Z, title: News (en) }]
              count: 1
            - channel: "1101"
              lang: ar
              date: 2026-10-25
              responses: { "https://x.test/ar/tvguide/1101/": recordings/ar.html }
              programmes: [{ title: أخبار (ar) }]
            """,
        ])
    }

    @Test("a channel without the attribute a template names is an error that lists what it has")
    func missingAttribute() async throws {
        let result = try await Self.run([
            "site.yaml": "site: x.test\nurl: \"https://x.test/{channel.region}/{channel}\"\nitems: .items[]\n",
            "x.test.channels.xml": #"<channels><channel site="x.test" site_id="7" lang="nl" xmltv_id="Seven.nl">Seven</channel></channels>"#,
            "tests.yaml": "- { channel: \"7\", date: 2026-10-25, responses: {}, error: \"channel '7' has no attribute region in its channel list (it has id, lang, name, xmltv_id)\" }\n",
        ])
        #expect(result.passed, "\(result.failures)")
    }

    @Test("steps: a token, cookies from Set-Cookie, an HTML page's build id, a computed path, in order")
    func chainedSteps() async throws {
        try await Self.expectPasses([
            "site.yaml": """
            site: x.test
            steps:
              login:
                url: https://x.test/init
                method: POST
                body: "channel={channel}"
                value: '{token: .token, csrf: $cookies["XSRF-TOKEN"], server: $headers["x-server"]}'
              build:
                url: "https://x.test/tv-gids?t={steps.login.token}"
                format: html
                fields: { id: "string(//script[@id='__NEXT_DATA__']/@data-build)" }
              path:
                value: 'if $channel.lang == "en" then "en/" else "" end'
            request:
              url: "https://x.test/{steps.path:raw}_next/{steps.build.id}/{date:yyyy-MM-dd}.json"
              headers: { X-XSRF-TOKEN: "{steps.login.csrf}", X-Server: "{steps.login.server}" }
            items: .items[]
            """,
            "x.test.channels.xml": #"<channels><channel site="x.test" site_id="7" lang="en" xmltv_id="Seven.nl">Seven</channel></channels>"#,
            "recordings/init.json": #"{"token": "t 1"}"#,
            "recordings/gids.html": #"<html><script id="__NEXT_DATA__" data-build="b42"></script></html>"#,
            "recordings/day.json": #"{"items": [{"start": "2026-10-25T06:00:00Z", "title": "News"}]}"#,
            "tests.yaml": """
            - channel: "7"
              date: 2026-10-25
              responses:
                - { method: POST, url: https://x.test/init, body: channel=7, file: recordings/init.json,
                    answer_headers: { set-cookie: ["XSRF-TOKEN=abc%3D; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "dir_session=s1; Path=/; HttpOnly"], x-server: eu1 } }
                - { url: "https://x.test/tv-gids?t=t%201", headers: { cookie: "XSRF-TOKEN=abc%3D; dir_session=s1" }, file: recordings/gids.html }
                - { url: https://x.test/en/_next/b42/2026-10-25.json, file: recordings/day.json }
              url: https://x.test/en/_next/b42/2026-10-25.json
              request:
                headers: { X-XSRF-TOKEN: abc%3D, X-Server: eu1, Cookie: "XSRF-TOKEN=abc%3D; dir_session=s1" }
              programmes: [{ title: News }]
            """,
        ])
    }

    @Test("a computed step may give an empty text; a case may give the lang of a channel the lists lack")
    func emptyComputedStep() async throws {
        try await Self.expectPasses([
            "site.yaml": """
            site: x.test
            steps: { path: { value: 'if $channel.lang == "en" then "en/" else "" end' } }
            url: "https://x.test/{steps.path:raw}tvguide/{channel}/day.json"
            items: .items[]
            """,
            "x.test.channels.xml": #"<channels><channel site="x.test" site_id="1" lang="ar" xmltv_id="One.eg">One</channel></channels>"#,
            "recordings/day.json": #"{"items": [{"start": "2026-10-25T06:00:00Z", "title": "News"}]}"#,
            "tests.yaml": """
            - { channel: "1", date: 2026-10-25, responses: { "https://x.test/tvguide/1/day.json": recordings/day.json }, count: 1 }
            - { channel: "1254", lang: en, date: 2026-10-25, responses: { "https://x.test/en/tvguide/1254/day.json": recordings/day.json }, count: 1 }
            """,
        ])
    }

    @Test("channel_timezone gives each channel its zone; a name that is no zone is an error that says so")
    func channelTimezones() async throws {
        let files = [
            "site.yaml": """
            site: x.test
            channel_timezone: '{"ny": "America/New_York", "mars": "Mars/Base"}[$channel.id]'
            url: "https://x.test/{channel}/{date:yyyy-MM-dd}"
            items: .items[]
            programme: '{start: ($date + " " + .t), title}'
            time_format: "yyyy-MM-dd HH:mm"
            """,
            "recordings/day.json": #"{"items": [{"t": "20:00", "title": "Game"}]}"#,
            "tests.yaml": """
            - { channel: ny, date: 2026-10-25, responses: { "https://x.test/ny/2026-10-25": recordings/day.json }, programmes: [{ start: 2026-10-26T00:00:00Z }] }
            - { channel: eu, date: 2026-10-25, responses: { "https://x.test/eu/2026-10-25": recordings/day.json }, programmes: [{ start: 2026-10-25T20:00:00Z }] }
            - { channel: mars, date: 2026-10-25, responses: {}, error: "channel_timezone gave 'Mars/Base' for channel 'mars', not a known time zone" }
            """,
        ]
        try await Self.expectPasses(files)
    }

    @Test("a step's request may use only the steps before it")
    func stepOrder() async throws {
        let result = try await Self.run([
            "site.yaml": """
            site: x.test
            steps:
              first: { url: "https://x.test/a?b={steps.second}", value: .a }
              second: { url: "https://x.test/b", value: .b }
            url: https://x.test/day
            items: .items[]
            """,
            "tests.yaml": "- { channel: \"1\", date: 2026-10-25, responses: {}, count: 0 }\n",
        ])
        #expect(result.failures.contains { $0.contains("steps.first: {steps.second} is not a step before it (it is the first)") }, "\(result.failures)")
    }

    @Test("two POSTs to one URL are told apart by their bodies; details read as HTML; missing answers fail unless allowed")
    func bodiesDetailsAndMissing() async throws {
        var files = [
            "site.yaml": """
            site: x.test
            request: { url: https://x.test/epg, method: POST, body: "dateDebut={date:yyyy-MM-dd}T{page}" }
            pages: ["00:00", "12:00"]
            details:
              page:
                url: "https://x.test/p/{key}"
                key: .id
                format: html
                fields: { image: "string(//meta[@property='og:image']/@content)", text: "//p[@class='synopsis']" }
            items: .items[]
            programme: '{start, title, images: $detail.page.image, description: $detail.page.text}'
            """,
            "recordings/am.json": #"{"items": [{"id": "a", "start": "2026-10-25T06:00:00Z", "title": "Morning"}]}"#,
            "recordings/pm.json": #"{"items": [{"id": "b", "start": "2026-10-25T13:00:00Z", "title": "Afternoon"}]}"#,
            "recordings/a.html": #"<html><head><meta property="og:image" content="https://img.x.test/a.jpg"></head><p class="synopsis"> Early  news </p></html>"#,
        ]
        let responses = """
              responses:
                - { method: POST, url: https://x.test/epg, body: "dateDebut=2026-10-25T00:00", file: recordings/am.json }
                - { method: POST, url: https://x.test/epg, body: "dateDebut=2026-10-25T12:00", file: recordings/pm.json }
                - { url: https://x.test/p/a, file: recordings/a.html }
              request: { method: POST, body: "dateDebut=2026-10-25T00:00" }
              programmes:
                - { title: Morning, images: https://img.x.test/a.jpg, description: Early news }
                - { title: Afternoon, images: ~ }
            """
        files["tests.yaml"] = "- channel: \"1\"\n  date: 2026-10-25\n" + responses + "\n"
        let strict = try await Self.run(files)
        #expect(!strict.passed)
        #expect(strict.failures == ["case 1: no recording for https://x.test/p/b (record it under responses, or say missing: allowed when the case means it to fail)"])
        files["tests.yaml"] = "- channel: \"1\"\n  date: 2026-10-25\n  missing: allowed\n" + responses + "\n"
        try await Self.expectPasses(files)
    }

    @Test("HTML inside a JSON answer is read with XPath, not cut with regular expressions")
    func htmlInJSON() async throws {
        try await Self.expectPasses([
            "site.yaml": """
            site: x.test
            url: "https://x.test/grid?d={date:yyyyMMdd}"
            items:
              html: .data.html
              xpath: "//li"
              fields: { time: "string(@data-t)", title: "string(b)" }
            programme: '{start: .time, title}'
            time_format: "HH:mm"
            timezone: Europe/Madrid
            """,
            "recordings/grid.json": #"{"data": {"html": "<ul><li data-t=\"21:00\"><b>Cine &amp; series</b></li><li data-t=\"23:30\"><b>Noticias</b></li></ul>"}}"#,
            "tests.yaml": """
            - channel: "1"
              date: 2026-10-25
              responses: { "https://x.test/grid?d=20261025": recordings/grid.json }
              programmes: [{ start: 2026-10-25T20:00:00Z, stop: 2026-10-25T22:30:00Z, title: Cine & series }, { title: Noticias }]
            """,
        ])
    }

    @Test("html_xpath reads HTML held in a JSON string; its faults name the XPath")
    func htmlXPathFunction() throws {
        let filter = try JQFilter(#"[.[] | html_xpath("//li")], (.[0] | xml_xpath("count(//li)"))"#, variables: SiteRecipe.variables)
        let html = JSONValue.array([.string("<ul><li>A &amp; B</li><li> C </li></ul>"), .string("<p>x</p>"), .string("")])
        #expect(try filter.run(.value(html)) == [.array([.array([.string("A & B"), .string("C")]), .null, .null]), .number(2)])
        #expect { try JQFilter(#"html_xpath("//b[")"#, variables: []).run(.value(.string("<b>x</b>"))) } throws: {
            "\($0)".contains(#"html_xpath("//b["): XPath '//b[' could not be evaluated: invalid expression"#)
        }
        #expect { try JQFilter(#"html_xpath("//b")"#, variables: []).run(.value(.number(1))) } throws: {
            "\($0)".contains(#"html_xpath("//b"): its input is a number, not the text of a page"#)
        }
        // The hooks it rests on stay closed to recipes.
        #expect { try JQFilter("input", variables: []) } throws: { "\($0)".contains("input") }
    }

    @Test("keep: starts_on_day keeps the day's programmes of an answer that runs on")
    func keepStartsOnDay() async throws {
        try await Self.expectPasses([
            "site.yaml": """
            site: x.test
            url: https://x.test/week.json
            items: '.items[]'
            timezone: Europe/Madrid
            keep: starts_on_day
            """,
            "recordings/week.json": #"{"items": [{"start": "2026-10-24T23:30:00+02:00", "title": "Before"}, {"start": "2026-10-25T00:30:00+02:00", "title": "Night"}, {"start": "2026-10-25T23:59:00+01:00", "title": "Late"}, {"start": "2026-10-26T00:10:00+01:00", "title": "Next"}]}"#,
            "tests.yaml": """
            - channel: "1"
              date: 2026-10-25
              responses: { "https://x.test/week.json": recordings/week.json }
              count: 2
              programmes: [{ title: Night }, { title: Late, stop: 2026-10-25T23:10:00Z }]
            """,
        ])
    }

    @Test("keep: starts_on_day over a window of two days reads the one answer once per day")
    func keepStartsOnDayOverWindow() async throws {
        let recipe = SiteRecipe(
            site: "x.test", format: .json, request: SiteRequest(url: try SiteTemplate("https://x.test/week.json")), items: .jq(try JQFilter(".items[]", variables: SiteRecipe.variables)),
            programme: nil, timezone: .gmt, keep: .startsOnDay)
        let week = #"{"items": [{"start": "2026-10-25T06:00:00Z", "title": "Sunday"}, {"start": "2026-10-26T06:00:00Z", "title": "Monday"}, {"start": "2026-10-27T06:00:00Z", "title": "Tuesday"}]}"#
        let provider = SiteGuideProvider(id: "x", recipe: recipe, channels: [Channel(id: "1", name: "One")], transport: PageTransport(page: Data(week.utf8)))
        let window = DateInterval(start: try #require(ISOTime.parse("2026-10-25T00:00:00Z")), duration: 2 * 86_400)
        let programmes = try await provider.schedule(for: ChannelRef(id: "One", providerID: "1"), in: window)
        #expect(programmes.map(\.title) == ["Sunday", "Monday"])
    }

    @Test("day_words name days from today; literal URL characters are kept, values encoded")
    func dayWordsAndLiterals() async throws {
        try await Self.expectPasses([
            "site.yaml": """
            site: x.test
            url: "https://x.test/api?ids[]={channel}&f=a|b&since={date:yyyy-MM-dd}T00:00%2B0200&day={day_word}"
            day_words: [hoy, mañana, pasado mañana]
            items: .items[]
            """,
            "recordings/day.json": #"{"items": [{"start": "2026-10-25T06:00:00Z", "title": "News"}]}"#,
            "tests.yaml": """
            - channel: "la 1"
              date: 2026-10-25
              today: 2026-10-24
              responses: { "https://x.test/api?ids[]=la%201&f=a|b&since=2026-10-25T00:00%2B0200&day=ma%C3%B1ana": recordings/day.json }
              url: "https://x.test/api?ids[]=la%201&f=a|b&since=2026-10-25T00:00%2B0200&day=ma%C3%B1ana"
              count: 1
            """,
        ])
    }

    @Test("empty answers: an error by default, a day without programmes where the recipe says so")
    func emptyAnswers() async throws {
        let recipe = "site: x.test\nurl: https://x.test/day.json\nitems: .items[]\n"
        let tests = """
        - { channel: "1", date: 2026-10-25, responses: { "https://x.test/day.json": recordings/blank.json }, count: 0 }
        - { channel: "1", date: 2026-10-25, responses: { "https://x.test/day.json": recordings/list.json }, count: 0 }
        """
        let recordings = ["recordings/blank.json": " \n", "recordings/list.json": "[]"]
        let strict = try await Self.run(recordings.merging(["site.yaml": recipe, "tests.yaml": tests]) { $1 })
        #expect(strict.failures.contains { $0.contains("the response is empty (https://x.test/day.json); if an empty answer means a day without programmes, say so with `empty: body`") },
                "\(strict.failures)")
        try await Self.expectPasses(recordings.merging(["site.yaml": recipe + "empty: [body, \"[]\"]\n", "tests.yaml": tests]) { $1 })
    }

    @Test("a scalar or a mapping expected matches a one-element list, for every key")
    func uniformComparison() async throws {
        try await Self.expectPasses([
            "site.yaml": "site: x.test\nurl: https://x.test/day.json\nitems: .items[]\n",
            "recordings/day.json": #"{"items": [{"start": "2026-10-25T06:00:00Z", "title": "News", "rating": ["TV-14"], "star_rating": [{"system": "IMDb", "value": "7/10"}], "categories": ["Noticias"]}]}"#,
            "tests.yaml": """
            - channel: "1"
              date: 2026-10-25
              responses: { "https://x.test/day.json": recordings/day.json }
              programmes: [{ rating: TV-14, star_rating: { system: IMDb, value: 7/10 }, categories: Noticias }]
            """,
        ])
    }
}
