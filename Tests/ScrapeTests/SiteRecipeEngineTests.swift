import Foundation
import GuideCore
@testable import Scrape
import Testing

@Suite("Site recipes: jq, templates, times and programme objects")
struct SiteRecipeEngineTests {
    // MARK: jq

    @Test("a filter reads its input and the variables it is given")
    func jqVariables() throws {
        let filter = try JQFilter(".[] | select(.idCanal == $channel.id) | .title + \" \" + $date", variables: ["channel", "date"])
        let input = Data(#"[{"idCanal": "3", "title": "A"}, {"idCanal": "4", "title": "B"}]"#.utf8)
        let results = try filter.run(.json(input), ["channel": .value(.object(["id": .string("3")])), "date": .value(.string("2022-10-04"))])
        #expect(results == [.string("A 2022-10-04")])
    }

    @Test("recipes cannot read the environment, other inputs, files or the clock", arguments: [
        ("$ENV.TMDB_API_KEY", "$ENV"), ("env.HOME", "env"), ("{k: env}", "env"), ("\"\\(env.HOME)\"", "env"), ("input", "input"),
        ("[inputs]", "inputs"), ("input_filename", "input_filename"), ("now", "now"), ("debug", "debug"),
        ("import \"a\" as a; .", "import"), ("1 | localtime", "localtime"), ("$__loc__", "$__loc__"),
    ])
    func forbidden(source: String, name: String) {
        #expect(throws: JQError.forbidden(name: name)) { try JQFilter(source, variables: []) }
    }

    @Test("fields and strings named like forbidden functions are fine", arguments: [".env", ".input.now", "\"env\"", "{\"input\": 1}", "# env\n."])
    func notForbidden(source: String) throws {
        _ = try JQFilter(source, variables: [])
    }

    @Test("a syntax error quotes jq and counts lines from the filter's first")
    func syntaxError() {
        #expect {
            try JQFilter(".a |\n| .b", variables: ["channel"])
        } throws: { error in
            guard case .syntax(let message) = error as? JQError else { return false }
            return message.contains("syntax error") && message.contains("line 2 of the filter")
        }
    }

    @Test("a compile error says nothing of a shell: a recipe's filter goes through none")
    func noShellHint() {
        #expect {
            try JQFilter(".a | \"unclosed", variables: [])
        } throws: { error in
            guard case .syntax(let message) = error as? JQError else { return false }
            return !message.contains("Unix shell") && message.contains("line 1 of the filter")
        }
    }

    @Test("an answer that is not JSON is quoted by its first 200 bytes, with its length")
    func notJSONIsQuotedShort() throws {
        let page = "<!doctype html><html><body>" + String(repeating: "<p>not json</p>", count: 10_000) + "</body></html>"
        let filter = try JQFilter(".", variables: [])
        #expect {
            try filter.run(.json(Data(page.utf8)))
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("the response is not JSON: ") && message.count < 500
                && message.contains("(while parsing '<!doctype html>") && message.hasSuffix("…' (\(page.utf8.count) bytes))")
        }
    }

    @Test("a filter that never ends is stopped at its time limit, and the next run works")
    func timeLimit() throws {
        let filter = try JQFilter("def f: f; f", variables: [], limits: .init(time: .milliseconds(200)))
        let started = ContinuousClock.now
        #expect(throws: JQError.timeLimit(.milliseconds(200))) { try filter.run(.value(.null)) }
        #expect(ContinuousClock.now - started < .seconds(5))
        let quick = try JQFilter(". + 1", variables: [], limits: .init(time: .milliseconds(200)))
        #expect(try quick.run(.value(.number(1))) == [.number(2)])
    }

    @Test("at most `outputs` results")
    func outputLimit() throws {
        let filter = try JQFilter("range(100)", variables: [], limits: .init(outputs: 10))
        #expect(throws: JQError.tooManyResults(10)) { try filter.run(.value(.null)) }
    }

    @Test("a body that is not JSON is an input error with jq's reason")
    func notJSON() throws {
        let filter = try JQFilter(".", variables: [])
        #expect { try filter.run(.json(Data("<html>".utf8))) } throws: { error in
            if case .input = error as? JQError { return true }
            return false
        }
    }

    @Test("values survive the trip through jq: unicode, numbers, nesting")
    func roundTrip() throws {
        let value: JSONValue = .object(["título": .string("Niño ☃"), "n": .number(1.5), "list": .array([.null, .bool(true), .object([:])])])
        #expect(try JQFilter(".", variables: []).run(.value(value)) == [value])
        #expect(JSONValue(json: Data(value.jsonText.utf8)) == value)
    }

    @Test("mktime and fromdateiso8601 are UTC whatever the process's TZ (jq 1.6's read it)")
    func utcTimes() throws {
        let filter = try JQFilter(#"[("2025-08-25T00:00:00Z" | fromdateiso8601), ("20240229235959" | strptime("%Y%m%d%H%M%S") | mktime), ("19000301" | strptime("%Y%m%d") | mktime), (1756080000 | todate)]"#, variables: [])
        #expect(try filter.run(.value(.null)) == [.array([.number(1_756_080_000), .number(1_709_251_199), .number(-2_203_891_200), .string("2025-08-25T00:00:00Z")])])
    }

    // MARK: templates

    @Test("templates: channel parts, day offsets, epoch days, escaping only in URLs")
    func templates() throws {
        let template = try SiteTemplate("https://x.es/{channel.region}/{date-1:yyyyMMdd}/{date:unix}-{date+1:unix_ms}?c={channel}", channelParts: ["region", "id"])
        let values = SiteTemplate.Values(channel: "Sydney#ABC 1", channelParts: ["region": "Sydney", "id": "ABC 1"],
                                         day: Day(year: 2026, month: 10, day: 25), zone: TimeZone(identifier: "Europe/Madrid")!)
        // 25 October 2026 starts at 00:00 CEST (22:00 UTC the day before); the 26th at 00:00 CET.
        #expect(template.render(values, escaping: true) == "https://x.es/Sydney/20261024/1792879200-1792969200000?c=Sydney%23ABC%201")
        #expect(try SiteTemplate("{{\"c\": \"{channel}\"}}").render(values, escaping: false) == "{\"c\": \"Sydney#ABC 1\"}")
    }

    @Test("templates: weekday names, the zone's offset, raw ids, days from today, session fields")
    func moreTemplates() throws {
        let madrid = TimeZone(identifier: "Europe/Madrid")!
        // Sunday 25 October 2026 starts in summer time (+02:00); Monday the 26th in winter time.
        var values = SiteTemplate.Values(channel: "1873/programme ln24", day: Day(year: 2026, month: 10, day: 25), zone: madrid,
                                         steps: ["session": .object(["token": .string("t0k")])], today: Day(year: 2026, month: 10, day: 23))
        let template = try SiteTemplate("https://x.es/{channel:raw}/{date:EEE}-{date:EEEE}/{date:yyyy-MM-dd}T00:00{date:ZZ}/{date+1:Z}?d={days_ahead}&t={session.token}")
        #expect(template.render(values, escaping: true) == "https://x.es/1873/programme%20ln24/Sun-Sunday/2026-10-25T00:00%2B02:00/%2B0100?d=2&t=t0k")
        values.dayNames = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]
        #expect(try SiteTemplate("{date:EEEE}").render(values, escaping: false) == "domingo")
        #expect(try SiteTemplate("{channel}").render(values, escaping: true) == "1873%2Fprogramme%20ln24")
    }

    @Test("`:raw` writes a part or a key as it is: a path, or a whole URL an item gives")
    func rawPartsAndKeys() throws {
        var values = SiteTemplate.Values(channel: "nl#a/b", channelParts: ["region": "nl", "path": "a/b"], day: Day(year: 2026, month: 10, day: 25),
                                         zone: .gmt, key: "crid:~~2F~~2Fbds.tv~~2F1,2")
        let template = try SiteTemplate("https://x.es/{channel.region}/{channel.path:raw}/{channel.path}/replay/{key:raw}?k={key}",
                                        channelParts: ["region", "path"])
        #expect(template.render(values, escaping: true)
                == "https://x.es/nl/a/b/a%2Fb/replay/crid:~~2F~~2Fbds.tv~~2F1,2?k=crid%3A~~2F~~2Fbds.tv~~2F1%2C2")
        values.key = "https://cdn.example/programme/42?lang=en"
        #expect(try SiteTemplate("{key:raw}").render(values, escaping: true) == "https://cdn.example/programme/42?lang=en")
        #expect(try SiteTemplate("{key:raw}").usesKey)
    }

    @Test("template errors name the placeholder and its position", arguments: [
        ("https://x/{chanel}", "unknown placeholder {chanel} at position 11"),
        ("https://x/{channel.}", "unknown placeholder {channel.} at position 11"),
        ("https://x/{channel.lang:rav}", "unknown placeholder {channel.lang:rav} at position 11"),
        ("https://x/{steps.}", "unknown placeholder {steps.} at position 11"),
        ("https://x/{key:rav}", "unknown placeholder {key:rav} at position 11"),
        ("https://x/{date:yyyy-MMM}", "unknown date pattern 'MMM' at position 22"),
        ("https://x/{date}", "needs a format"),
        ("https://x/{channel", "not closed"),
    ])
    func templateErrors(text: String, message: String) {
        #expect { try SiteTemplate(text) } throws: { "\($0)".contains(message) }
    }

    // MARK: times

    static let madrid = TimeZone(identifier: "Europe/Madrid")!

    @Test("patterns with a day, in the recipe's zone or with an offset")
    func datedPatterns() throws {
        var times = SiteDayTimes(format: try SiteTimeFormat("yyyy-MM-dd HH:mm:ss"), zone: Self.madrid, day: Day(year: 2022, month: 10, day: 4))
        #expect(times.start(.string("2022-10-04 01:30:00")) == ISOTime.parse("2022-10-03T23:30:00Z"))
        var offsets = SiteDayTimes(format: try SiteTimeFormat("dd/MM/yyyy HH:mm Z"), zone: Self.madrid, day: Day(year: 2022, month: 10, day: 4))
        #expect(offsets.start(.string("04/10/2022 01:30 +0000")) == ISOTime.parse("2022-10-04T01:30:00Z"))
        var twelve = SiteDayTimes(format: try SiteTimeFormat("h:mm a"), zone: TimeZone(identifier: "UTC")!, day: Day(year: 2022, month: 10, day: 4))
        #expect(twelve.start(.string("12:15 AM")) == ISOTime.parse("2022-10-04T00:15:00Z"))
        #expect(twelve.start(.string("1:05 pm")) == ISOTime.parse("2022-10-04T13:05:00Z"))
    }

    @Test("clock times roll over midnight in page order, across the autumn clock change")
    func clockTimes() throws {
        var times = SiteDayTimes(format: try SiteTimeFormat("HH:mm"), zone: Self.madrid, day: Day(year: 2026, month: 10, day: 24))
        #expect(times.start(.string("23:30")) == ISOTime.parse("2026-10-24T21:30:00Z"))
        #expect(times.start(.string("02.15")) == ISOTime.parse("2026-10-25T00:15:00Z"))
        // 02:15 again after 02:45: the second 02:15, in CET.
        #expect(times.start(.string("02:45")) == ISOTime.parse("2026-10-25T00:45:00Z"))
        #expect(times.start(.string("02:15")) == ISOTime.parse("2026-10-25T01:15:00Z"))
    }

    @Test("a page of several days keeps rolling over, day after day")
    func longPage() throws {
        var times = SiteDayTimes(format: try SiteTimeFormat("HH:mm"), zone: TimeZone(identifier: "UTC")!, day: Day(year: 2026, month: 1, day: 5))
        let starts = ["06:00", "23:00", "05:00", "23:00", "05:00", "23:00", "05:00"].compactMap { times.start(.string($0)) }
        #expect(starts.last == ISOTime.parse("2026-01-08T05:00:00Z"))
        #expect(starts.count == 7)
    }

    @Test("unix seconds and milliseconds, as numbers or texts")
    func epochs() throws {
        var seconds = SiteDayTimes(format: .unix, zone: Self.madrid, day: Day(year: 2025, month: 10, day: 25))
        #expect(seconds.start(.number(1_761_375_600)) == Date(timeIntervalSince1970: 1_761_375_600))
        var milliseconds = SiteDayTimes(format: .unixMilliseconds, zone: Self.madrid, day: Day(year: 2025, month: 10, day: 25))
        #expect(milliseconds.start(.string("1761375600000")) == Date(timeIntervalSince1970: 1_761_375_600))
    }

    @Test("time pattern errors", arguments: ["yyyy-MM-dd", "HH:mm:ss.SSS", "YYYY HH"])
    func patternErrors(text: String) {
        #expect(throws: SiteTimePatternError.self) { try SiteTimeFormat(text) }
    }

    // MARK: programme objects

    static func reader() -> (SiteProgrammeReader, SiteDayTimes) {
        (SiteProgrammeReader(channel: "La1.es", source: "site", base: URL(string: "https://x.es/data/a.json")),
         SiteDayTimes(format: .iso8601, zone: madrid, day: Day(year: 2026, month: 10, day: 25)))
    }

    @Test("every key of a programme object reaches the programme")
    func programmeObject() throws {
        var (reader, times) = Self.reader()
        let object = JSONValue(json: Data("""
        {"start": "2026-10-25T21:30:00+01:00", "duration": "1h 30m", "title": " Cuéntame\\ncómo pasó ", "subtitle": "Ep. 4",
         "description": "Una familia.", "categories": ["Serie", "Drama"], "keywords": ["familia", " años 60 "], "images": ["/img/1.jpg", "//cdn.x.es/2.jpg"],
         "credits": {"actor": [{"name": "Imanol Arias", "character": "Antonio"}, "Ana Duato", {"name": "Pablo Rivero", "guest": true}], "director": "Agustín Crespi"},
         "season": "23", "episode": 4, "rating": {"system": "ES", "value": "12"}, "star_rating": "7.5/10", "url": "/p/1",
         "year": 2001, "countries": "ES", "language": "es", "new": true, "premiere": false, "kind": "series", "_id": 77}
        """.utf8))!
        let programme = try reader.programme(object, times: &times)
        #expect(programme.title == "Cuéntame cómo pasó")
        #expect(programme.stop == ISOTime.parse("2026-10-25T22:00:00Z"))
        #expect(programme.images?.map(\.url) == ["https://x.es/img/1.jpg", "https://cdn.x.es/2.jpg"])
        #expect(programme.credits == [Credit(role: .director, name: "Agustín Crespi"), Credit(role: .actor, name: "Imanol Arias", character: "Antonio"),
                                      Credit(role: .actor, name: "Ana Duato"), Credit(role: .actor, name: "Pablo Rivero", guest: true)])
        #expect(programme.keywords == [LocalizedText("familia"), LocalizedText("años 60")])
        #expect(programme.episode == Episode(season: 23, number: 4))
        #expect(programme.ratings == [Rating(system: "ES", value: "12")])
        #expect(programme.starRatings == [Rating(value: "7.5/10")])
        #expect(programme.urls == ["https://x.es/p/1"])
        #expect(programme.isNew == true && programme.premiere == nil && programme.kind == .series && programme.year == 2001)
        #expect(programme.recipeObject["categories"] == .array([.string("Serie"), .string("Drama")]))
        #expect(programme.recipeObject["keywords"] == .array([.string("familia"), .string("años 60")]))
        #expect(programme.recipeObject["credits"]?["actor"] == .array([.object(["name": .string("Imanol Arias"), "character": .string("Antonio")]),
                                                                       .string("Ana Duato"), .object(["name": .string("Pablo Rivero"), "guest": .bool(true)])]))
    }

    @Test("an unknown key is an error with a did-you-mean; a key starting with _ is ignored")
    func unknownKey() {
        var (reader, times) = Self.reader()
        #expect {
            try reader.programme(.object(["start": .string("2026-10-25T21:30:00Z"), "title": .string("A"), "desc": .string("x")]), times: &times)
        } throws: { error in
            (error as? SiteProgrammeReader.Failure)?.reason.contains("did you mean 'description'") == true
        }
    }

    @Test("durations", arguments: [
        (JSONValue.number(50), 3_000.0), (.string("50 min"), 3_000), (.string("1h 30m"), 5_400), (.string("01:30:00"), 5_400),
        (.string("PT1H30M"), 5_400), (.string("90'"), 5_400), (.string("1,5 h"), 5_400),
    ])
    func durations(value: JSONValue, seconds: Double) {
        #expect(SiteProgrammeReader.duration(value) == seconds)
    }

    // MARK: pages

    @Test("an HTML table is read as a browser lays it out: rowspan and colspan fill their slots")
    func table() throws {
        let html = """
        <table class="t"><tr><th></th><th>LUNES 13</th><th>MARTES 14</th></tr>
        <tr><td>7:00</td><td rowspan="2">A</td><td>B</td></tr>
        <tr><td>7:30</td><td>C</td></tr>
        <tr><td>8:00</td><td colspan="2">D</td></tr></table>
        """
        let items = try SitePage.items(Data(html.utf8), format: .html, contentType: "text/html", encoding: nil,
                                       spec: .init(xpath: "//table", fields: [], isTable: true), variables: ["date": "2025-01-13", "channel": "1"])
        #expect(items.map { $0["cells"] } == [
            .array([.string(""), .string("LUNES 13"), .string("MARTES 14")]),
            .array([.string("7:00"), .string("A"), .string("B")]),
            .array([.string("7:30"), .string("A"), .string("C")]),
            .array([.string("8:00"), .string("D"), .string("D")]),
        ])
        #expect(items[2]["row"] == .number(2) && items[2]["rows"] == .number(4))
    }

    @Test("XPath fields: texts, lists, null, and $date to pick a day")
    func xpathFields() throws {
        let html = """
        <div data-day="2025-01-13"><li><b>7:00</b> <i>A</i><i>B</i></li></div>
        <div data-day="2025-01-14"><li><b>8:00</b> <i>C</i></li><li><b>9:00</b></li></div>
        """
        let spec = SiteRecipe.PageItems(xpath: "//div[@data-day=$date]/li", fields: [("time", "string(b)"), ("tags", "i")])
        let items = try SitePage.items(Data(html.utf8), format: .html, contentType: nil, encoding: nil, spec: spec, variables: ["date": "2025-01-14", "channel": "1"])
        #expect(items == [.object(["time": .string("8:00"), "tags": .string("C")]), .object(["time": .string("9:00"), "tags": .null])])
        let monday = try SitePage.items(Data(html.utf8), format: .html, contentType: nil, encoding: nil, spec: spec, variables: ["date": "2025-01-13", "channel": "1"])
        #expect(monday.first?["tags"] == .array([.string("A"), .string("B")]))
    }

    @Test("an XPath that fails when evaluated says why in its message, not on stderr apart")
    func xpathEvaluationErrorSaysWhy() {
        let spec = SiteRecipe.PageItems(xpath: "//li[@data-day=$day]", fields: [("time", "string(b)")])
        #expect {
            try SitePage.items(Data("<ul><li>x</li></ul>".utf8), format: .html, contentType: nil, encoding: nil, spec: spec, variables: ["date": "2025-01-14", "channel": "1"])
        } throws: { error in
            "\(error)".contains("XPath '//li[@data-day=$day]' could not be evaluated: undefined variable")
        }
    }
}
