import Foundation
import GuideCore
import GuideServer
import Testing
import TestSupport

/// The web guide's views beyond the grid, in both languages, with the choices a person keeps in
/// cookies. On the golden snapshot at its clock, 2026-10-21T19:00:00Z (21:00 in Madrid).
@Suite struct WebViewsTests {
    static let film = WebTests.film
    static let national = ServerSettings(port: 0, lineups: ["national": ["La1.es", "Antena3.es", "La2.es"], "main": ["La1.es"]])

    /// The `name=value` a response's `Set-Cookie` gives `name`, as a `Cookie` header would send it back.
    static func cookie(_ response: ServerResponse, _ name: String) -> String? {
        response.setCookies.first { $0.hasPrefix(name + "=") }.map { String($0.prefix { $0 != ";" }) }
    }

    @Test func everyViewIsLinkedFromTheHeaderOfEveryPage() async throws {
        try await ServerHarness.run(settings: Self.national) { client in
            let views = ["/": "grid", "/coming-up": "coming-up", "/my-calendar": "calendar", "/ratings": "audiences", "/my-channels": "channels"]
            for path in views.keys.sorted() + ["/channel/La1.es", "/programme/\(Self.film)", "/find?q=gladiator", "/programme/\(Self.film)/airings", "/nope"] {
                let page = try await client.get(path, headers: ["Accept": "text/html"])
                #expect(page.status == (path == "/nope" ? 404 : 200), "\(path)")
                for (target, view) in views {
                    #expect(page.text.contains("<a data-view=\"\(view)\" href=\"\(target)\""), "\(path) lacks the link to \(view)")
                }
                #expect(page.text.contains("<form class=\"search\" role=\"search\" action=\"/find\" method=\"get\">"), "\(path)")
                if let view = views[path] {
                    #expect(page.text.contains("<a data-view=\"\(view)\" href=\"\(path)\" aria-current=\"page\">"), "\(path) marks itself")
                }
            }
        }
    }

    @Test func theLanguageFollowsAcceptLanguageThenTheFootersSwitch() async throws {
        try await ServerHarness.run { client in
            let english = try await client.get("/?at=2026-10-21T19:00:00Z")
            #expect(english.text.contains("<html lang=\"en\">"), "English without Accept-Language")
            #expect(english.headers["vary"]?.contains("Accept-Language") == true)
            let spanish = try await client.get("/?at=2026-10-21T19:00:00Z", headers: ["Accept-Language": "es-ES,es;q=0.9,en;q=0.8"])
            #expect(spanish.text.contains("<html lang=\"es\">"))
            #expect(spanish.text.contains("<h1>miércoles 21 de octubre <span class=\"span\">21:00–00:00</span></h1>"))
            #expect(spanish.text.contains(">Parrilla</a>") && spanish.text.contains(">Próximamente</a>"))
            #expect(spanish.text.contains("rel=\"prev\">← antes</a>"))
            let preferred = try await client.get("/", headers: ["Accept-Language": "fr;q=0.9, en;q=0.5, es;q=0.8"])
            #expect(preferred.text.contains("<html lang=\"es\">"), "the highest q among ours")

            // The footer's switch: a cookie, then back to the page.
            #expect(english.text.contains("<a data-lang=\"es\" lang=\"es\" hreflang=\"es\" href=\"/language?set=es&amp;back=%2F%3Fat%3D2026-10-21T19:00:00Z\">Español</a>"))
            let switched = try await client.get("/language?set=es&back=%2F%3Fat%3D2026-10-21T19%3A00%3A00Z")
            #expect(switched.status == 303)
            #expect(switched.headers["location"] == "/?at=2026-10-21T19:00:00Z")
            let cookie = try #require(Self.cookie(switched, "tvguide_lang"))
            #expect(cookie == "tvguide_lang=es")
            let remembered = try await client.get("/", headers: ["Cookie": cookie, "Accept-Language": "en"])
            #expect(remembered.text.contains("<html lang=\"es\">"), "the switch wins over the browser's language")
            #expect(try await client.get("/language?set=de").status == 400)
            let elsewhere = try await client.get("/language?set=en&back=//evil.example/")
            #expect(elsewhere.headers["location"] == "/", "back never leaves the site")
            let accented = try await client.get("/language?set=en&back=/find%3Fq%3D%C3%A1guila%20real%25")
            #expect(accented.headers["location"] == "/find?q=%C3%A1guila%20real%25", "a valid URI, whatever back held")
        }
    }

    @Test func bothCataloguesHoldEveryStringTheTemplatesUse() throws {
        let resources = Fixtures.url("../Sources/GuideServer/Resources")
        let english = try JSONSerialization.jsonObject(with: Data(contentsOf: resources.appendingPathComponent("strings-en.json"))) as! [String: String]
        let spanish = try JSONSerialization.jsonObject(with: Data(contentsOf: resources.appendingPathComponent("strings-es.json"))) as! [String: String]
        #expect(Set(english.keys) == Set(spanish.keys))
        let templates = try FileManager.default.contentsOfDirectory(atPath: resources.path).filter { $0.hasSuffix(".mustache") }
        #expect(templates.count >= 10)
        var used = Set<String>()
        for name in templates {
            let text = try String(contentsOf: resources.appendingPathComponent(name), encoding: .utf8)
            for part in text.components(separatedBy: "{{t.").dropFirst() { used.insert(String(part.prefix { $0 != "}" })) }
        }
        #expect(used.count > 40)
        #expect(used.subtracting(english.keys).sorted() == [])
        #expect(english.values.allSatisfy { !$0.isEmpty } && spanish.values.allSatisfy { !$0.isEmpty })
    }

    @Test func firstStartOffersTheLineupsAndTheChoiceFiltersEveryView() async throws {
        try await ServerHarness.run(settings: Self.national) { client in
            let first = try await client.get("/?at=2026-10-21T19:00:00Z").text
            #expect(first.contains("<section class=\"first-start\""))
            #expect(first.contains("<a class=\"button\" data-lineup=\"national\" href=\"/my-channels/save?lineup=national&amp;back=%2F%3Fat%3D2026-10-21T19:00:00Z\"><b>national</b> <small>3</small></a>"))
            let saved = try await client.get("/my-channels/save?lineup=national&back=/")
            #expect(saved.status == 303)
            #expect(saved.headers["location"] == "/")
            #expect(saved.headers["cache-control"] == "no-store")
            let cookie = try #require(Self.cookie(saved, "tvguide_channels"))
            #expect(cookie == "tvguide_channels=lineup:national")
            let chosen = ["Cookie": cookie]
            let grid = try await client.get("/?at=2026-10-21T19:00:00Z", headers: chosen).text
            #expect(!grid.contains("first-start"), "asked once")
            #expect(WebTests.count("<div class=\"row\" data-channel=", in: grid) == 3)
            #expect(grid.contains("<option value=\"national\" selected>national</option>"))
            // Coming up and search show only the chosen channels.
            let films = try await client.get("/coming-up?kind=movie", headers: chosen).text
            #expect(films.contains("data-programme=\"\(Self.film)\""))
            #expect(!films.contains("data-programme=\"BeMad.es@"), "Be Mad is not in the line-up")
            let all = try await client.get("/coming-up?kind=movie").text
            #expect(all.contains("data-programme=\"BeMad.es@"))
            let found = try await client.get("/find?q=soldado%20ryan", headers: chosen).text
            #expect(found.contains("class=\"empty\""), "Ryan airs on Paramount Network only, outside the line-up")
            // One by one, and back to all.
            let ticked = try await client.get("/my-channels/save?channel=La2.es&channel=Nowhere.es&back=/my-channels")
            #expect(Self.cookie(ticked, "tvguide_channels") == "tvguide_channels=ids:La2.es")
            let page = try await client.get("/my-channels", headers: ["Cookie": "tvguide_channels=ids:La2.es"]).text
            #expect(page.contains("<input type=\"checkbox\" name=\"channel\" value=\"La2.es\" checked>"))
            #expect(page.contains("<input type=\"checkbox\" name=\"channel\" value=\"La1.es\">"))
            let reset = try await client.get("/my-channels/save?all=1")
            #expect(Self.cookie(reset, "tvguide_channels") == "tvguide_channels=all")
            #expect(try await client.get("/my-channels/save?lineup=cable").status == 404)
        }
    }

    @Test func comingUpFiltersByKindGenreAndTonightGroupedByDay() async throws {
        try await ServerHarness.run { client in
            let tonight = try await client.get("/coming-up?kind=movie&tonight=1").text
            #expect(tonight.contains("<a data-kind=\"movie\" href=\"/coming-up?kind=movie&amp;tonight=1\" aria-current=\"true\">Films</a>"))
            #expect(tonight.contains("data-filter=\"tonight\" href=\"/coming-up?kind=movie\" aria-current=\"true\">Tonight</a>"))
            #expect(WebTests.count("<section class=\"day-group\"", in: tonight) == 1, "tonight is one evening")
            #expect(tonight.contains("<a class=\"title\" href=\"/programme/\(Self.film)\">Gladiator</a>"))
            #expect(tonight.contains("<time datetime=\"2026-10-21T22:50:00+02:00\">22:50</time> · Antena 3 · <span class=\"kind-label movie\">Film</span> · <span class=\"rating\">★ 8.2</span>"))
            let starts = tonight.components(separatedBy: "<time datetime=\"").dropFirst().map { String($0.prefix(25)) }
            #expect(starts == starts.sorted() && !starts.isEmpty, "by time")
            #expect(starts.allSatisfy { $0 >= "2026-10-21T21:00:00+02:00" && $0 < "2026-10-22T00:00:00+02:00" }, "\(starts)")
            #expect(!tonight.contains("kind-label series"), "films only")

            let week = try await client.get("/coming-up?kind=movie").text
            #expect(WebTests.count("<section class=\"day-group\"", in: week) > 2, "the days ahead")
            #expect(week.contains("<h2>Today · Wednesday 21 October</h2>") && week.contains("<h2>Tomorrow · Thursday 22 October</h2>"))

            let westerns = try await client.get("/coming-up?genre=western", headers: ["Accept-Language": "es"]).text
            #expect(westerns.contains("<option value=\"western\" selected>Western</option>"))
            #expect(westerns.contains("Río Bravo"))
            #expect(!westerns.contains("Gladiator"))
            #expect(try await client.get("/coming-up?kind=film").status == 400)
            #expect(try await client.get("/coming-up?genre=nonsense").status == 400)
        }
    }

    @Test func searchFindsTitlesAndPeopleGroupedByTitleWithTheirNextAirings() async throws {
        try await ServerHarness.run { client in
            let byTitle = try await client.get("/find?q=gladiator").text
            #expect(WebTests.count("<section class=\"result", in: byTitle) == 1, "one result for the film's two airings")
            #expect(byTitle.contains("<h2><a href=\"/programme/\(Self.film)\">Gladiator</a>"))
            #expect(byTitle.contains("href=\"/programme/\(WebTests.filmAgain)\""), "with its next airing")
            #expect(byTitle.contains("<input id=\"search-q\" type=\"search\" name=\"q\" value=\"gladiator\""), "the header keeps the text")
            let byPerson = try await client.get("/find?q=ridley%20scott").text
            #expect(byPerson.contains(">Gladiator</a>"))
            #expect(byPerson.contains("<p class=\"people\">With Ridley Scott</p>"))
            let nothing = try await client.get("/find?q=zzzzzz", headers: ["Accept-Language": "es"]).text
            #expect(nothing.contains("Nada en la guía coincide con «zzzzzz»."))
            #expect(try await client.get("/find").status == 400)
        }
    }

    @Test func gridMovesThroughTheGuidesDaysAndStopsAtItsEdges() async throws {
        try await ServerHarness.run { client in
            let html = try await client.get("/?at=2026-10-21T19:00:00Z").text
            // The golden window is 2026-10-20T19:00Z to 2026-10-28T19:00Z: nine local days.
            #expect(WebTests.count("data-day=\"2026-10-", in: html) == 9)
            #expect(html.contains("<a href=\"/?at=2026-10-22T19:00:00Z\" data-day=\"2026-10-22\">Tomorrow</a>"))
            #expect(html.contains("<a data-jump=\"prime\" href=\"/?at=2026-10-21T19:00:00Z\">Prime time</a>"))
            #expect(html.contains("<ul class=\"legend\""))
            let first = try await client.get("/?at=2026-10-20T19:00:00Z").text
            #expect(!first.contains("rel=\"prev\""), "nothing before the guide's first moment")
            let last = try await client.get("/?at=2026-10-28T17:00:00Z").text
            #expect(!last.contains("rel=\"next\""), "nothing after its last")
            let outside = try await client.get("/?at=2026-11-02T12:00:00Z").text
            #expect(outside.contains("<p class=\"empty outside\">The guide has nothing at this time"))
            #expect(!outside.contains("rel=\"next\""))
            // A time as people type it: on the day asked, in Madrid.
            let typed = try await client.get("/?at=22:30&date=2026-10-22").text
            #expect(typed.contains("<h1>Thursday 22 October <span class=\"span\">22:30–01:30</span></h1>"))
            let minutes = try await client.get("/?at=2026-10-22T22:30").text
            #expect(minutes.contains("<span class=\"span\">22:30–01:30</span>"))
            #expect(try await client.get("/?at=25:00").status == 400)
            // The phone's list of what is on now and next, one row a channel.
            #expect(html.contains("<ol class=\"now-next\">"))
            #expect(html.contains("<li data-channel=\"La1.es\"><a class=\"name\""))
        }
    }

    @Test func audiencesRankADayWithAPickerAndLinkTheirProgrammes() async throws {
        let days = ServerHarness.golden.audiences.map(\.day)
        let latest = try #require(days.last)
        let joined = try #require(ServerHarness.golden.audiences.flatMap(\.records).first { $0.programme != nil })
        try await ServerHarness.run { client in
            let page = try await client.get("/ratings")
            #expect(page.status == 200)
            #expect(WebTests.count("data-day=\"", in: page.text) == days.count)
            #expect(page.text.contains("data-day=\"\(latest)\" aria-current=\"date\""))
            let ranked = try await client.get("/ratings?date=\(joined.day)").text
            #expect(ranked.contains("<a href=\"/programme/\(joined.programme!)\">"), "joined entries open their programme")
            let viewers = ranked.components(separatedBy: "<td class=\"number\">").dropFirst().enumerated()
                .filter { $0.offset % 2 == 0 }.map { Int($0.element.prefix { $0 != "<" }.replacingOccurrences(of: ",", with: "")) ?? -1 }
            #expect(viewers == viewers.sorted(by: >) && !viewers.isEmpty, "most watched first")
            let programme = try await client.get("/programme/\(joined.programme!)").text
            #expect(programme.contains("<ul class=\"audience-figures\">"), "the programme shows its figures")
            #expect(try await client.get("/ratings?date=1999-01-01").status == 404)
        }
    }

    @Test func remindersAreSavedListedByDayWeekAndMonthAndSubscribedToAsOneFeed() async throws {
        try await ServerHarness.run { client in
            let empty = try await client.get("/my-calendar").text
            #expect(empty.contains("<p class=\"empty\">Nothing saved yet."))
            #expect(!empty.contains("data-action=\"subscribe\""))

            let added = try await client.get("/my-calendar/add?programme=\(Self.film)")
            #expect(added.status == 303)
            #expect(added.headers["location"] == "/my-calendar")
            let reminders = try #require(Self.cookie(added, "tvguide_reminders"))
            let series = try await client.get("/my-calendar/add?series=Telediario%202", headers: ["Cookie": reminders])
            let seriesCookie = try #require(Self.cookie(series, "tvguide_series"))
            #expect(Self.cookie(series, "tvguide_reminders") == reminders, "adding a title keeps the programmes")
            let both = ["Cookie": reminders + "; " + seriesCookie]

            let list = try await client.get("/my-calendar", headers: both).text
            #expect(list.contains("<li class=\"item\" data-programme=\"\(Self.film)\">"))
            #expect(list.contains("<li data-series=\"Telediario 2\">"))
            #expect(list.contains("data-programme=\"La1.es@20261022T190000Z\""), "every airing of the saved title")
            let feed = "/reminders.ics?programme=\(Self.film)&amp;series=Telediario%202"
            #expect(list.contains("<a class=\"button primary subscribe\" data-action=\"subscribe\" href=\"\(feed)\" data-href=\"\(feed)\">"))
            let week = try await client.get("/my-calendar?view=week&date=2026-10-21", headers: both).text
            #expect(WebTests.count("<section class=\"day-group\"", in: week) == 7)
            #expect(week.contains("<h1>My calendar <span class=\"span\">Mon 19 Oct – Sun 25 Oct</span></h1>"))
            let month = try await client.get("/my-calendar?view=month&date=2026-10-21", headers: both).text
            #expect(month.contains("<td class=\" today\" data-day=\"2026-10-21\">"))
            #expect(month.contains("data-programme=\"\(Self.film)\""))

            // The programme page knows it is saved and offers to remove it.
            let detail = try await client.get("/programme/\(Self.film)", headers: both).text
            #expect(detail.contains("data-saved"))
            #expect(!detail.contains("data-action=\"add-reminder\""))
            let removed = try await client.get("/my-calendar/remove?programme=\(Self.film)", headers: both)
            #expect(removed.setCookies.contains { $0.hasPrefix("tvguide_reminders=;") && $0.contains("Max-Age=0") })

            // The feed a phone subscribes to: one event per saved airing, each linking back.
            let ics = try await client.get("/reminders.ics?programme=\(Self.film)&series=Telediario%202")
            let parsed = try await PythonICalendar.parse(ics.body)
            let telediarios = ServerHarness.golden.programmes.filter { $0.title == "Telediario 2" }
            #expect(parsed.events.count == telediarios.count + 1)
            #expect(ICalendarText.values(of: "URL", in: ics.text).contains("\(client.baseURL)/programme/\(Self.film)"))
            #expect(parsed.events.allSatisfy { $0.alarms.map(\.trigger) == [-300] })
        }
    }

    @Test func aProgrammeThatEndedOffersNoReminderAndAnOnAirOneSaysSo() async throws {
        try await ServerHarness.run { client in
            let ended = try await client.get("/programme/La1.es@20261021T173000Z").text
            #expect(ended.contains("<p class=\"status\">Already aired</p>"))
            #expect(!ended.contains("data-action=\"add-reminder\""))
            let onAir = try await client.get("/programme/La1.es@20261021T190000Z", headers: ["Accept-Language": "es"]).text
            #expect(onAir.contains("data-action=\"add-reminder\""))
            #expect(onAir.contains("<p class=\"on-air-note\">Se está emitiendo ahora"))
            #expect(onAir.contains("<button type=\"button\" class=\"button\" data-action=\"share\" hidden>Compartir</button>"))
            #expect(onAir.contains("data-action=\"speak\" hidden>Leer en voz alta</button>"))
        }
    }

    @Test func theBannerSaysWhenTheGuideComesFromAFallback() async throws {
        try await ServerHarness.run { client in
            let html = try await client.get("/").text
            #expect(html.contains("<div class=\"banner degraded\" role=\"status\">The live guide sources could not be reached (elpais, movistarplus, miguiatv); what you see comes from xmltv-sample"))
        }
    }
}
