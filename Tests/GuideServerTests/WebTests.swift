import Foundation
import GuideConfig
import GuideCore
import GuideServer
import NIOHTTP1
import Testing
import TestSupport
import TVGuideKit

/// The web guide on the golden snapshot at its clock, 2026-10-21T19:00:00Z (21:00 in Madrid,
/// summer time until the 25th).
@Suite struct WebTests {
    /// Gladiator on Antena 3, a film with a poster that airs again on Saturday.
    static let film = "Antena3.es@20261021T205000Z"
    static let filmAgain = "Antena3.es@20261024T161500Z"

    /// The grid's line for one channel: its name cell and its programme blocks.
    static func row(_ html: String, channel: String) -> String? {
        html.split(separator: "\n").first { $0.hasPrefix("<div class=\"row\" data-channel=\"\(channel)\">") }.map(String.init)
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func webRoutesAreRegistered() async throws {
        try await ServerHarness.run { client in
            for route in ["GET /", "GET /channel/{id}", "GET /programme/{id}", "GET /assets/{name}"] {
                #expect(client.routes.contains(route), "\(route) missing from \(client.routes)")
            }
        }
    }

    @Test func gridListsEveryChannelWithLa1sNewsOnAirAtSevenUTC() async throws {
        try await ServerHarness.run { client in
            let page = try await client.get("/?at=2026-10-21T19:00:00Z")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
            #expect(page.headers["etag"] != nil)
            let html = page.text
            #expect(Self.count("<div class=\"row\" data-channel=", in: html) == ServerHarness.golden.channels.count)
            for channel in ServerHarness.golden.channels {
                #expect(html.contains("<a class=\"ch\" href=\"/channel/\(channel.id)#on-air\" title=\"\(channel.name)\">\(channel.name)</a>"), "no row for \(channel.id)")
            }
            let la1 = try #require(Self.row(html, channel: "La1.es"))
            #expect(la1.contains("<a class=\"block news on-air\" style=\"left:0.000%;width:30.556%\" href=\"/programme/La1.es@20261021T190000Z\""))
            #expect(la1.contains("<b>Telediario 2</b><small>21:00–21:55</small>"))
            #expect(la1.contains("<b>La Revuelta</b>"))
            #expect(html.contains("<h1>Wednesday 21 October <span class=\"span\">21:00–00:00</span></h1>"))
            #expect(html.contains("<script src=\"/assets/guide.js?v="))
            #expect(html.contains("<meta name=\"viewport\""))
        }
    }

    @Test func nowLineIsDrawnAtTheServersMinuteWithinTheSpanOnly() async throws {
        try await ServerHarness.run { client in
            let during = try await client.get("/?at=2026-10-21T18:00:00Z").text
            #expect(during.contains("data-now=\"\(Int(ServerHarness.goldenNow.timeIntervalSince1970))\""))
            // 19:00 is one hour into 18:00–21:00.
            #expect(during.contains("<div class=\"now-line\" style=\"left:33.333%\"></div>"))
            let byDefault = try await client.get("/").text
            #expect(byDefault.contains("<div class=\"now-line\" style=\"left:0.000%\"></div>"), "the default grid starts at now's half hour")
            let tomorrow = try await client.get("/?at=2026-10-22T18:00:00Z").text
            #expect(tomorrow.contains("<div class=\"now-line\" style=\"left:0.000%\" hidden></div>"))
            #expect(tomorrow.contains("<a class=\"ch\" href=\"/channel/La1.es?date=2026-10-22\" title=\"La 1\">La 1</a>"), "names open the grid's day")
        }
    }

    @Test func earlierLaterAndNowLinksSlideBySpanAndKeepTheQuery() async throws {
        try await ServerHarness.run { client in
            let html = try await client.get("/?at=2026-10-21T19:10:00Z&hours=2&tz=UTC").text
            // 19:10 starts the grid at its half hour, 19:00; links keep hours and tz (& escaped in HTML).
            #expect(html.contains("<a href=\"/?at=2026-10-21T17:00:00Z&amp;hours=2&amp;tz=UTC\" rel=\"prev\">← earlier</a>"))
            #expect(html.contains("<a href=\"/?at=2026-10-21T21:00:00Z&amp;hours=2&amp;tz=UTC\" rel=\"next\">later →</a>"))
            #expect(html.contains("<a class=\"now-link\" href=\"/?hours=2&amp;tz=UTC\">Now</a>"))
            #expect(html.contains("<span class=\"span\">19:00–21:00</span>"), "times in the zone asked")
            #expect(Self.count("class=\"tick\"", in: html) == 4)
            let local = try await client.get("/?at=2026-10-21T22:00:00").text
            #expect(local.contains("<span class=\"span\">22:00–01:00</span>"), "a time without an offset is Madrid's")
        }
    }

    @Test func hoursOutOfRangeOrBadZoneIsA400Page() async throws {
        try await ServerHarness.run { client in
            for query in ["hours=13", "hours=0", "hours=many", "tz=Mars/Olympus", "at=yesterday"] {
                let page = try await client.get("/?" + query)
                #expect(page.status == 400, "\(query)")
                #expect(page.headers["content-type"] == "text/html; charset=utf-8", "\(query)")
                #expect(page.text.contains("<h1>Bad request</h1>"), "\(query)")
                let name = String(query.prefix { $0 != "=" })
                #expect(page.text.contains("parameter &#39;\(name)&#39;"), "\(query): \(page.text)")
            }
            #expect(try await client.get("/?hours=12").status == 200)
        }
    }

    @Test func lineupShowsOnlyItsChannelsAndAnUnknownOneIs404() async throws {
        let settings = ServerSettings(port: 0, lineups: ["national": ["La1.es", "Antena3.es", "Nowhere.es"]])
        try await ServerHarness.run(settings: settings) { client in
            let html = try await client.get("/?lineup=national&at=2026-10-21T19:00:00Z").text
            #expect(Self.count("<div class=\"row\" data-channel=", in: html) == 2)
            #expect(Self.row(html, channel: "La1.es") != nil)
            #expect(Self.row(html, channel: "Antena3.es") != nil)
            #expect(html.contains("<option value=\"national\" selected>national</option>"))
            #expect(html.contains("<form class=\"lineup\" method=\"get\" action=\"/my-channels/save\">"), "choosing a line-up keeps it")
            #expect(html.contains("<input type=\"hidden\" name=\"back\" value=\"/?lineup=national&amp;at=2026-10-21T19:00:00Z\">"))
            #expect(html.contains("<a href=\"/?at=2026-10-21T22:00:00Z&amp;lineup=national\" rel=\"next\">"), "sliding keeps the line-up")
            let all = try await client.get("/").text
            #expect(all.contains("<option value=\"\" selected>All channels</option>"))
            let unknown = try await client.get("/?lineup=cable")
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("unknown line-up &#39;cable&#39;; known: national"))
        }
    }

    @Test func channelDayMarksTheProgrammeOnAirWithItsTimeLeft() async throws {
        try await ServerHarness.run { client in
            let page = try await client.get("/channel/La1.es?date=2026-10-21")
            #expect(page.status == 200)
            let html = page.text
            #expect(html.contains("<h1>La 1 <span class=\"span\">Wednesday 21 October</span></h1>"))
            #expect(html.contains("<li class=\"on-air\" id=\"on-air\"><time datetime=\"2026-10-21T21:00:00+02:00\">21:00</time><div class=\"what\"><a href=\"/programme/La1.es@20261021T190000Z\">Telediario 2</a><span class=\"left\">On air · 55 min left</span>"))
            #expect(Self.count("<li class=\"on-air\"", in: html) == 1)
            #expect(html.contains("<a class=\"now-link\" href=\"/channel/La1.es#on-air\">Today</a>"))
            #expect(html.contains("<a href=\"/channel/La1.es?date=2026-10-20\" rel=\"prev\">← Tue 20 Oct</a>"))
            #expect(html.contains("<a href=\"/channel/La1.es?date=2026-10-22\" rel=\"next\">Thu 22 Oct →</a>"))
            // The programme on air at midnight started the day before.
            #expect(html.contains("<time datetime=\"2026-10-20T23:30:00+02:00\">23:30<small>Tue</small></time>"))

            let today = try await client.get("/channel/La1.es")
            #expect(today.text.contains("Wednesday 21 October"), "without a date: today in Madrid")
            let tomorrow = try await client.get("/channel/La1.es?date=2026-10-22").text
            #expect(!tomorrow.contains("class=\"on-air\""))
            #expect(tomorrow.contains("<li class=\"later\">"))
            let badDate = try await client.get("/channel/La1.es?date=21/10/2026")
            #expect(badDate.status == 400)
            #expect(badDate.text.contains("parameter &#39;date&#39;"))
        }
    }

    @Test func unknownIdsAre404PagesWithAWayHome() async throws {
        try await ServerHarness.run { client in
            for (path, id) in [("/channel/Nowhere.es", "Nowhere.es"), ("/programme/La1.es@20300101T000000Z", "La1.es@20300101T000000Z")] {
                let page = try await client.get(path)
                #expect(page.status == 404, "\(path)")
                #expect(page.headers["content-type"] == "text/html; charset=utf-8", "\(path)")
                #expect(page.headers["cache-control"] == "no-cache", "\(path)")
                #expect(page.text.contains("<h1>Not found</h1>"), "\(path)")
                #expect(page.text.contains("&#39;\(id)&#39;"), "\(path) names the id")
                #expect(page.text.contains("<a class=\"button\" href=\"/\">Back to the guide</a>"), "\(path)")
            }
        }
    }

    @Test func filmDetailShowsPosterFactsReminderAndItsOtherAiring() async throws {
        let work = try #require(ServerHarness.golden.works["movie/tmdb/98"]?.metadata)
        let poster = try #require(work.poster)
        try await ServerHarness.run { client in
            let page = try await client.get("/programme/\(Self.film)")
            #expect(page.status == 200)
            let html = page.text
            #expect(html.contains("<h1>Gladiator</h1>"))
            // Over the placeholder naming the film; its `alt` is what the stylesheet shows when the poster does not load.
            #expect(html.contains("<div class=\"poster\"><span>Gladiator</span><img src=\"\(poster)\" alt=\"Gladiator\" data-fallback></div>"))
            if let backdrop = work.backdrop { #expect(html.contains("<img src=\"\(backdrop)\" alt=\"\" data-fallback>")) }
            #expect(html.contains("<a href=\"/channel/Antena3.es?date=2026-10-21\">Antena 3</a>"))
            #expect(html.contains("Wednesday 21 October · 22:50–01:15</time> · 2 h 25 min · Film"))
            #expect(html.contains("<p class=\"status\">Starts in 1 h 50 min</p>"))
            #expect(html.contains("<a class=\"button primary\" data-action=\"add-reminder\" href=\"/my-calendar/add?programme=\(Self.film)&amp;back=%2Fprogramme%2F\(Self.film)\">Add reminder</a>"))
            #expect(html.contains("<a class=\"button\" data-action=\"add-series\" href=\"/my-calendar/add?series=Gladiator&amp;back=%2Fprogramme%2F\(Self.film)\">Every airing of this title</a>"))
            #expect(!html.contains("class=\"on-air-note\""), "not on air")
            #expect(html.contains("<a class=\"button\" href=\"https://www.youtube.com/watch?v=as_UCZsZaSZ\""))
            #expect(html.contains("<dt>Director</dt><dd>Ridley Scott</dd>"))
            #expect(html.contains("<dt>Rating</dt><dd>8.2/10 (19,400 votes)</dd>"))
            #expect(html.contains("<dt>Year</dt><dd>2000</dd>"))
            #expect(html.contains("<li>Russell Crowe <span>as Maximus</span></li>"))
            let airings = try #require(html.components(separatedBy: "<h2>Next airings</h2>").last)
            #expect(airings.contains("<a href=\"/programme/\(Self.filmAgain)\"><time datetime=\"2026-10-24T18:15:00+02:00\">Sat 24 Oct 18:15</time> Antena 3</a>"))
            #expect(Self.count("<li class=", in: airings) == 1, "the film airs twice: the other airing only")
        }
    }

    @Test func programmeWithoutAWorkListsLaterAiringsOfTheSameTitle() async throws {
        try await ServerHarness.run { client in
            let html = try await client.get("/programme/La1.es@20261021T190000Z").text
            #expect(html.contains("<p class=\"status\">On air · 55 min left</p>"))
            #expect(html.contains("<p class=\"on-air-note\">It is on air now"), "a reminder of a programme on air says so")
            let airings = try #require(html.components(separatedBy: "<h2>Next airings</h2>").last?.components(separatedBy: "</section>").first)
            #expect(!airings.contains("La1.es@20261021T190000Z"), "not itself")
            #expect(airings.contains("<li class=\"on-air\"><a href=\"/programme/24h.es@20261021T190000Z\">"), "the same news on 24h, on air too")
            #expect(airings.contains("href=\"/programme/La1.es@20261022T190000Z\""))
            #expect(Self.count("<li class=", in: airings) == 9)
            #expect(html.contains("<div class=\"poster\"><span>Telediario 2</span></div>"), "no poster: the placeholder only")
        }
    }

    @Test func assetsAreServedFromAFixedListWithALongCache() async throws {
        try await ServerHarness.run { client in
            let script = try await client.get("/assets/guide.js")
            #expect(script.status == 200)
            #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(script.headers["cache-control"] == "public, max-age=86400")
            #expect(script.text.contains("data-js"))
            let etag = try #require(script.headers["etag"])
            #expect(try await client.get("/assets/guide.js", headers: ["If-None-Match": etag]).status == 304)
            let stylesheet = try await client.get("/assets/guide.css?v=anything")
            #expect(stylesheet.status == 200)
            #expect(stylesheet.headers["content-type"] == "text/css; charset=utf-8")
            for path in ["/assets/../Package.swift", "/assets/%2e%2e%2fPackage.swift", "/assets/..%2FPackage.swift",
                         "/assets/Package.swift", "/assets/guide.js.map", "/assets/"] {
                let response = try await client.get(path)
                #expect(response.status == 404, "\(path)")
                #expect(!response.text.contains("swift-tools-version"), "\(path)")
            }
        }
    }

    /// The guide keeps airings sharing a start and overlapping ones, as XMLTV has them: the API
    /// lists them all, while the grid and "now" show one at a time.
    @Test func overlappingAiringsAreListedButTheGridShowsOneAtATime() async throws {
        let start = ServerHarness.goldenNow
        func airing(_ title: String, _ from: Double, _ to: Double) -> Programme {
            Programme(channel: "C.es", start: start.addingTimeInterval(from * 60), stop: start.addingTimeInterval(to * 60), title: title, source: "test")
        }
        var report = NormalisationReport()
        // A and B share 19:00 (a clump); Late starts inside A; Inside ends inside Late.
        let programmes = Normaliser.normalise([airing("A", 0, 60), airing("B", 0, 60), airing("Late", 30, 120), airing("Inside", 60, 90)], report: &report)
        #expect(programmes.map(\.id) == ["C.es@20261021T190000Z", "C.es@20261021T190000Z.1", "C.es@20261021T193000Z", "C.es@20261021T200000Z"])
        let snapshot = Snapshot(generatedAt: start, window: TimeWindow(from: start, to: start.addingTimeInterval(86_400)),
                                channels: [Channel(id: "C.es", name: "C")], programmes: programmes, report: RunReport())
        try await ServerHarness.run(snapshot: snapshot) { client in
            let grid = try await client.get("/?at=2026-10-21T19:00:00Z").text
            let row = try #require(Self.row(grid, channel: "C.es"))
            #expect(Self.count("class=\"block", in: row) == 2)
            // A ends where Late begins (30 of 180 minutes); its label keeps its own times.
            #expect(row.contains("<a class=\"block on-air\" style=\"left:0.000%;width:16.667%\" href=\"/programme/C.es@20261021T190000Z\""))
            #expect(row.contains("<b>A</b><small>21:00–22:00</small>"))
            #expect(row.contains("style=\"left:16.667%;width:50.000%\" href=\"/programme/C.es@20261021T193000Z\""))

            let now = try await client.get("/now").text
            #expect(now.contains("\"id\":\"C.es@20261021T190000Z\""))
            #expect(now.contains("\"id\":\"C.es@20261021T193000Z\""))
            #expect(!now.contains("C.es@20261021T190000Z.1"))

            let schedule = try await client.get("/channels/C.es/schedule?date=2026-10-21").text
            for programme in programmes { #expect(schedule.contains("\"id\":\"\(programme.id)\""), "\(programme.id)") }
            #expect(try await client.get("/programme/C.es@20261021T190000Z.1").text.contains("<h1>B"))
        }
    }

    @Test func guideTextIsEscapedInPagesAndAttributes() async throws {
        let start = ServerHarness.goldenNow
        let evil = Channel(id: "Evil.es", name: "\"><img src=x onerror=alert(2)>")
        var programme = Programme(channel: "Evil.es", start: start, stop: start.addingTimeInterval(3_600),
                                  title: "<script>alert(1)</script>", source: "test")
        programme.synopsis = "Tom & Jerry's <b>best</b>"
        let snapshot = Snapshot(generatedAt: start, window: TimeWindow(from: start, to: start.addingTimeInterval(86_400)),
                                channels: [evil], programmes: [programme], report: RunReport())
        try await ServerHarness.run(snapshot: snapshot) { client in
            for path in ["/", "/channel/Evil.es", "/programme/\(programme.id)"] {
                let html = try await client.get(path).text
                #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(path)")
                #expect(!html.contains("<script>alert"), "\(path)")
                #expect(!html.contains("<img src=x"), "\(path)")
            }
            let grid = try await client.get("/").text
            #expect(grid.contains("title=\"&lt;script&gt;alert(1)&lt;/script&gt; · 21:00–22:00\""))
            #expect(grid.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
            let detail = try await client.get("/programme/\(programme.id)").text
            #expect(detail.contains("Tom &amp; Jerry&#39;s &lt;b&gt;best&lt;/b&gt;"))
        }
    }

    @Test func pagesAreRenderedOncePerMinuteAndRevalidate() async throws {
        try await ServerHarness.run { client in
            let first = try await client.get("/programme/\(Self.film)")
            let second = try await client.get("/programme/\(Self.film)")
            #expect(first.body == second.body)
            #expect(first.headers["cache-control"] == "public, max-age=30")
            let etag = try #require(first.headers["etag"])
            #expect(second.headers["etag"] == etag)
            let revalidated = try await client.get("/programme/\(Self.film)", headers: ["If-None-Match": etag])
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)
        }
    }

    @Test func aProgrammeIdMayArrivePercentEncoded() async throws {
        try await ServerHarness.run { client in
            let page = try await client.get("/programme/Antena3.es%40" + Self.film.split(separator: "@")[1])
            #expect(page.status == 200)
            #expect(page.text.contains("<h1>Gladiator</h1>"))
        }
    }

    // MARK: As a person sees it

    /// What a browser sends when it opens a page.
    static let browser = ["Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]

    /// The channel ids of the grid's rows, top to bottom.
    static func rowChannels(_ html: String) -> [String] {
        let start = "<div class=\"row\" data-channel=\""
        return html.split(separator: "\n").filter { $0.hasPrefix(start) }.map { String($0.dropFirst(start.count).prefix { $0 != "\"" }) }
    }

    /// The declarations of the stylesheet's first rule for exactly `selector`.
    static func rule(_ selector: String, in css: String) -> [String: String]? {
        guard let open = css.range(of: "\n" + selector + "{"), let close = css[open.upperBound...].firstIndex(of: "}") else { return nil }
        var declarations: [String: String] = [:]
        for declaration in css[open.upperBound..<close].split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if parts.count == 2 { declarations[parts[0]] = parts[1] }
        }
        return declarations
    }

    @Test func unknownPathsAreHTMLPagesForBrowsersAndUnderWebRoutes() async throws {
        try await ServerHarness.run { client in
            let pages: [(String, [String: String])] = [("/nope", Self.browser), ("/index.html", Self.browser),
                                                        ("/channel/La1.es/today", [:]), ("/assets/missing.css", [:])]
            for (path, headers) in pages {
                let page = try await client.get(path, headers: headers)
                #expect(page.status == 404, "\(path)")
                #expect(page.headers["content-type"] == "text/html; charset=utf-8", "\(path)")
                #expect(page.headers["cache-control"] == "no-cache", "\(path)")
                #expect(page.text.contains("<h1>Not found</h1>"), "\(path)")
                #expect(page.text.contains("<a class=\"button\" href=\"/\">Back to the guide</a>"), "\(path)")
            }
            #expect(try await client.get("/nope", headers: Self.browser).text.contains("<p>There is no page &#39;/nope&#39;.</p>"))
            let head = try await client.send(.HEAD, "/nope", headers: Self.browser)
            #expect(head.status == 404)
            #expect(head.headers["content-type"] == "text/html; charset=utf-8")
            #expect(head.body.isEmpty)
            let post = try await client.send(.POST, "/")
            #expect(post.status == 405)
            #expect(post.headers["content-type"] == "text/html; charset=utf-8")
            #expect(post.headers["allow"] == "GET, HEAD")
            #expect(post.text.contains("<h1>Method Not Allowed</h1>"))

            // An API client anywhere, and anyone under an API route: JSON.
            let json: [(String, [String: String])] = [("/nope", [:]), ("/nope", ["Accept": "application/json"]),
                                                       ("/channels/La1.es/nope", Self.browser), ("/now/later", Self.browser)]
            for (path, headers) in json {
                let answer = try await client.get(path, headers: headers)
                #expect(answer.status == 404, "\(path)")
                #expect(answer.headers["content-type"] == "application/json; charset=utf-8", "\(path) \(headers)")
                let error = try answer.object()["error"] as? [String: Any]
                #expect(error?["status"] as? Int == 404, "\(path)")
            }
        }
    }

    @Test func faviconIsARealIconFile() async throws {
        try await ServerHarness.run { client in
            let icon = try await client.get("/favicon.ico", headers: Self.browser)
            #expect(icon.status == 200)
            #expect(icon.headers["content-type"] == "image/vnd.microsoft.icon")
            #expect(icon.headers["cache-control"] == "public, max-age=86400")
            let bytes = [UInt8](icon.body)
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
            // The directory, a 40-byte BMP header, 32×32 BGRA pixels and a 1-bit mask of 4 bytes a row.
            let expected: Int = 22 + 40 + 32 * 32 * 4 + 32 * 4
            try #require(bytes.count == expected)
            #expect(Array(bytes.prefix(6)) == [0, 0, 1, 0, 1, 0], "an icon file holding one image")
            #expect(bytes[6] == 32 && bytes[7] == 32, "32×32")
            #expect(u16(10) == 1 && u16(12) == 32, "one plane, 32 bits a pixel")
            #expect(u32(14) == bytes.count - 22 && u32(18) == 22, "the image fills the rest of the file")
            #expect(u32(22) == 40 && u32(26) == 32 && u32(30) == 64 && u16(36) == 32, "a BMP header, the height counting the mask")
            let alphas = (0..<1_024).map { bytes[62 + $0 * 4 + 3] }
            #expect(alphas.filter { $0 == 255 }.count > 300, "a drawing")
            #expect(alphas.filter { $0 == 0 }.count > 100, "on a clear ground")
            let maskStart = 62 + 32 * 32 * 4
            let disagreeing = (0..<1_024).filter { pixel in
                let (row, x) = (pixel / 32, pixel % 32)
                let masked = bytes[maskStart + row * 4 + x / 8] & (0x80 >> UInt8(x % 8)) != 0
                return masked != (alphas[pixel] == 0)
            }
            #expect(disagreeing.isEmpty, "the mask is set exactly where the pixel is clear")
        }
    }

    @Test func repeatedOrUnknownTrackingParametersDoNotBreakAPage() async throws {
        try await ServerHarness.run { client in
            let tracking = "utm_source=a&utm_source=b&fbclid=x&fbclid=y&utm_medium="
            let grid = try await client.get("/?at=2026-10-21T19:00:00Z&" + tracking)
            #expect(grid.status == 200)
            #expect(Self.row(grid.text, channel: "La1.es")?.contains("<b>Telediario 2</b>") == true)
            for path in ["/channel/La1.es?", "/programme/\(Self.film)?", "/now?", "/channels?", "/reminders.ics?programme=\(Self.film)&"] {
                let answer = try await client.get(path + tracking)
                #expect(answer.status == 200, "\(path)")
            }
            // A parameter the pages read still counts once, and a page says so.
            let twice = try await client.get("/?tz=UTC&tz=Europe/Madrid&" + tracking)
            #expect(twice.status == 400)
            #expect(twice.headers["content-type"] == "text/html; charset=utf-8")
            #expect(twice.text.contains("<p>parameter &#39;tz&#39;: given more than once; give it once</p>"))
            let many = try await client.get("/channel/La1.es?" + (0...128).map { "utm_\($0)=1" }.joined(separator: "&"))
            #expect(many.status == 400)
            #expect(many.text.contains("<p>129 query parameters, at most 128 are allowed</p>"))
        }
    }

    @Test func channelsFollowTheChannelMapOnPagesAndInTheAPI() async throws {
        let configuration = try GuideConfiguration.load(from: Fixtures.url("../providers.yaml"))
        let settings = ServeSetup.settings(configuration: configuration, host: "127.0.0.1", port: 0, refreshInterval: 0, reminderMinutes: 5)
        let guide = Set(ServerHarness.golden.channels.map(\.id))
        let mapped = configuration.channels.map(\.id).filter(guide.contains)
        try #require(mapped.count == guide.count, "the golden guide's channels are all in the map")
        // The snapshot holds them by id, where La 1 is fourteenth and DKISS comes before DMAX and Divinity.
        #expect(ServerHarness.golden.channels.map(\.id) != mapped)
        #expect(mapped.first == "La1.es")
        #expect(mapped.filter { ["DKiss.es", "DMAX.es", "Divinity.es"].contains($0) } == ["Divinity.es", "DMAX.es", "DKiss.es"])
        try await ServerHarness.run(settings: settings) { client in
            let html = try await client.get("/").text
            #expect(Self.rowChannels(html) == mapped)
            let choice = try await client.get("/my-channels").text
            let checks = choice.components(separatedBy: "<input type=\"checkbox\" name=\"channel\" value=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            #expect(checks == mapped, "My channels lists them in the same order")
            for path in ["/channels?limit=1000", "/now?limit=1000", "/grid?limit=1000"] {
                let answer = try await client.get(path).object()
                let items = try #require(answer["items"] as? [[String: Any]], "\(path)")
                // `/channels` lists channels; `/now` and `/grid` list rows, each with its channel.
                let ids = items.compactMap { (($0["channel"] as? [String: Any])?["id"] ?? $0["id"]) as? String }
                #expect(ids == mapped, "\(path)")
            }
        }
    }

    @Test func channelsTheOrderLeavesOutFollowByID() async throws {
        let start = ServerHarness.goldenNow
        let snapshot = Snapshot(generatedAt: start, window: TimeWindow(from: start, to: start.addingTimeInterval(86_400)),
                                channels: ["A.es", "B.es", "C.es", "D.es"].map { Channel(id: $0, name: $0) }, programmes: [], report: RunReport())
        var settings = ServerHarness.patientSettings
        settings.channelOrder = ["C.es", "Nowhere.es", "A.es", "C.es"]
        try await ServerHarness.run(snapshot: snapshot, settings: settings) { client in
            let html = try await client.get("/").text
            #expect(Self.rowChannels(html) == ["C.es", "A.es", "B.es", "D.es"])
        }
    }

    @Test func stylesheetEllipsesNamesKeepsTheNowLineUnderTitlesAndABrokenPosterBlank() async throws {
        try await ServerHarness.run { client in
            let css = try await client.get("/assets/guide.css").text
            let name = try #require(Self.rule(".ch", in: css))
            // `text-overflow` needs a block container: in a flex box the name is an anonymous item, cut without the ellipsis.
            #expect(name["display"] == "block")
            #expect(name["overflow"] == "hidden")
            #expect(name["white-space"] == "nowrap")
            #expect(name["text-overflow"] == "ellipsis")
            func layer(_ selector: String) -> Int? {
                guard let value = Self.rule(selector, in: css)?["z-index"] else { return nil }
                return Int(value)
            }
            let line = try #require(layer(".now-layer"))
            let block = try #require(layer(".block"))
            let tick = try #require(layer(".tick"))
            #expect(line < block && line < tick, "titles and times are drawn over the now line")
            // Without JavaScript, a poster or backdrop that fails to load is covered by its placeholder
            // again, the poster's drawn from its `alt` (the title): browsers draw `::after` only on a
            // broken image.
            let broken = try #require(Self.rule(".poster img::after,.backdrop img::after", in: css))
            #expect(broken["content"] == "attr(alt)")
            #expect(broken["position"] == "absolute" && broken["inset"] == "0")
            #expect(broken["background"] == "var(--placeholder)")
            #expect(Self.rule(".poster", in: css)?["background"] == "var(--placeholder)")
            #expect(Self.rule(".detail .backdrop", in: css)?["background"] == "var(--placeholder)")
        }
    }
}
