import Foundation
import Testing
@testable import GuideConfig

@Suite struct ProviderOptionsTests {
    @Test func stringAccessors() throws {
        let options = try options("{ type: miguiatv, language: es_ES, empty: '', nothing: ~, number: 10 }")
        #expect(try options.string("language") == "es_ES")
        #expect(try options.string("number") == "10")
        #expect(try options.string("empty") == "")
        #expect(try options.optionalString("nothing") == nil)
        #expect(try options.optionalString("absent") == nil)
        #expect(try options.string("absent", default: "fallback") == "fallback")
        #expect(try options.string("nothing", default: "fallback") == "fallback")
    }

    @Test func aRequiredOptionThatIsAbsentPointsAtTheProvider() throws {
        let yaml = """
            providers:
              tmdb:
                type: tmdb
            guide: [tmdb]
            """
        let options = try parse(yaml).providers[0].options
        let error = thrownError { () throws(ConfigError) in try options.string("api_key") }
        #expect(error == .missingKey(key: "api_key", section: "provider 'tmdb' (type tmdb)", SourceLocation(file: configFile, line: 2, column: 3)))
        #expect(error?.description == "/srv/tvguide/providers.yaml:2:3: provider 'tmdb' (type tmdb) has no 'api_key', which is required")
    }

    @Test func aListWhereTextIsExpectedIsAnError() throws {
        let yaml = """
            providers:
              p:
                type: miguiatv
                language: [es, en]
            guide: [p]
            """
        let options = try parse(yaml).providers[0].options
        let error = thrownError { () throws(ConfigError) in try options.string("language") }
        #expect(error?.message == "expected text, got a list")
        #expect(error?.line == 4)
        #expect(error?.column == 15)
    }

    @Test func intAccessor() throws {
        let yaml = """
            providers:
              p:
                type: miguiatv
                retries: 3
                concurrency: 0
                pages: ten
            guide: [p]
            """
        let options = try parse(yaml).providers[0].options
        #expect(try options.int("retries") == 3)
        #expect(try options.int("absent", default: 2) == 2)
        #expect(try options.optionalInt("absent") == nil)
        let range = thrownError { () throws(ConfigError) in try options.int("concurrency", in: 1...64) }
        #expect(range?.message == "expected a whole number from 1 to 64, got '0'")
        #expect(range?.line == 5)
        #expect(range?.column == 18)
        let word = thrownError { () throws(ConfigError) in try options.int("pages") }
        #expect(word?.message == "expected a whole number, got 'ten'")
        #expect(word?.line == 6)
        #expect(word?.column == 12)
    }

    @Test func boolAccessor() throws {
        let options = try options("{ type: x, a: true, b: no, c: On, d: FALSE, e: maybe }")
        #expect(try options.bool("a"))
        #expect(try !options.bool("b"))
        #expect(try options.bool("c"))
        #expect(try !options.bool("d"))
        #expect(try options.bool("absent", default: true))
        let error = thrownError { () throws(ConfigError) in try options.bool("e") }
        #expect(error?.message == "expected true or false, got 'maybe'")
        #expect(error?.column == 53)
    }

    @Test(arguments: [
        ("500ms", 0.5), ("10s", 10), ("90m", 5_400), ("2h", 7_200), ("1d", 86_400), ("1w", 604_800),
        ("1h30m", 5_400), ("1d 12h", 129_600), ("2m500ms", 120.5), ("1.5h", 5_400), ("45", 45), ("0.25", 0.25), ("0", 0),
    ])
    func durations(text: String, seconds: Double) {
        #expect(DurationText.parse(text) == seconds)
    }

    @Test(arguments: ["soon", "", "h", "1x", "30m1h", "1h1h", "-5", "-5m", "1.2.3s", "1 h", "0x10", "inf"])
    func notDurations(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test func durationAccessor() throws {
        let yaml = """
            providers:
              p:
                type: miguiatv
                timeout: 1m30s
                backoff: soon
            guide: [p]
            """
        let options = try parse(yaml).providers[0].options
        #expect(try options.duration("timeout") == 90)
        #expect(try options.duration("absent", default: 10) == 10)
        #expect(try options.optionalDuration("absent") == nil)
        let error = thrownError { () throws(ConfigError) in try options.duration("backoff") }
        #expect(error?.description == "/srv/tvguide/providers.yaml:5:14: expected a duration like 2h, got 'soon' (units: ms, s, m, h, d, w; combined like 1h30m)")
    }

    @Test func urlAccessor() throws {
        let yaml = """
            providers:
              p:
                type: xmltv
                live: "http://api.miguia.tv/1/"
                secure: https://example.org/guide.xml.gz?x=1
                file: file:///var/lib/guide.xml
                relative: Fixtures/xmltv/sample.xml
                parent: ../shared/guide.xml
                absolute: /data/guide.xml
                ftp: ftp://example.org/guide.xml
                hostless: "http:///path"
            guide: [p]
            """
        let options = try parse(yaml).providers[0].options
        #expect(try options.url("live").absoluteString == "http://api.miguia.tv/1/")
        #expect(try options.url("secure").absoluteString == "https://example.org/guide.xml.gz?x=1")
        #expect(try options.url("file").path == "/var/lib/guide.xml")
        #expect(try options.url("relative").path == "/srv/tvguide/Fixtures/xmltv/sample.xml")
        #expect(try options.url("relative").isFileURL)
        #expect(try options.url("parent").path == "/srv/shared/guide.xml")
        #expect(try options.url("absolute").path == "/data/guide.xml")
        #expect(try options.optionalURL("absent") == nil)
        let ftp = thrownError { () throws(ConfigError) in try options.url("ftp") }
        #expect(ftp?.message == "expected an http(s) or file URL or a path, got 'ftp://example.org/guide.xml' (scheme 'ftp' is not supported)")
        #expect(ftp?.line == 10)
        #expect(ftp?.column == 10)
        let hostless = thrownError { () throws(ConfigError) in try options.url("hostless") }
        #expect(hostless?.message == "expected an http(s) or file URL or a path, got 'http:///path', which is not a valid http URL")
    }

    @Test func pathAccessor() throws {
        let options = try options("{ type: x, replay: Fixtures/miguiatv, out: /tmp/out, blank: '' }")
        #expect(try options.path("replay").path == "/srv/tvguide/Fixtures/miguiatv")
        #expect(try options.path("out").path == "/tmp/out")
        #expect(try options.optionalPath("absent") == nil)
        #expect(try options.path("absent", default: URL(fileURLWithPath: "/default")).path == "/default")
        #expect(thrownError { () throws(ConfigError) in try options.path("blank") }?.message == "expected a path, got ''")
    }

    @Test func weekShiftAccessor() throws {
        let options = try options("{ type: x, a: auto, b: 2, c: -1, d: soon }")
        #expect(try options.weekShift("a") == .auto)
        #expect(try options.weekShift("b") == .weeks(2))
        #expect(try options.weekShift("c") == .weeks(-1))
        #expect(try options.weekShift("absent", default: .weeks(0)) == .weeks(0))
        let error = thrownError { () throws(ConfigError) in try options.weekShift("d") }
        #expect(error?.message == "expected 'auto' or a whole number of weeks, got 'soon'")
    }

    @Test func tableAccessorKeepsFileOrderAndLocations() throws {
        let yaml = """
            providers:
              p:
                type: x
                fields:
                  viewers: { xpath: "td[4]", parse: number }
                  rank: { xpath: "td[1]", parse: integer, regex: '(\\d+)' }
                flat: { a: b }
            guide: [p]
            """
        let options = try parse(yaml).providers[0].options
        let rows = try #require(try options.table("fields"))
        #expect(rows.map(\.name) == ["viewers", "rank"])
        #expect(rows[1].values == ["xpath": "td[1]", "parse": "integer", "regex": #"(\d+)"#])
        #expect(rows[0].location.line == 5)
        #expect(try options.table("absent") == nil)
        let flat = thrownError { () throws(ConfigError) in try options.table("flat") }
        #expect(flat?.message == "expected a mapping like { key: value }, got 'b'")
    }

    @Test func listAndMapAccessors() throws {
        let yaml = """
            providers:
              p:
                type: x
                languages: [es, 1, "ca"]
                headers: { Accept: application/json, X-Version: 2 }
                single: es
                nested: [[a]]
            guide: [p]
            """
        let options = try parse(yaml).providers[0].options
        #expect(try options.stringList("languages") == ["es", "1", "ca"])
        #expect(try options.stringList("absent", default: []) == [])
        #expect(try options.stringMap("headers") == ["Accept": "application/json", "X-Version": "2"])
        let single = thrownError { () throws(ConfigError) in try options.stringList("single") }
        #expect(single?.message == "expected a list like [a, b], got 'es'")
        #expect(single?.line == 6)
        let nested = thrownError { () throws(ConfigError) in try options.stringList("nested") }
        #expect(nested?.message == "expected text in the list, got a list")
        #expect(nested?.column == 14)
        let notMap = thrownError { () throws(ConfigError) in try options.stringMap("languages") }
        #expect(notMap?.message == "expected a mapping like { key: value }, got a list")
    }

    @Test func unknownKeysSuggestTheClosestKnownOption() throws {
        let yaml = """
            providers:
              miguiatv:
                type: miguiatv
                base_ur: "http://api.miguia.tv/1/"
                timeout: 10s
            guide: [miguiatv]
            """
        let options = try parse(yaml).providers[0].options
        let error = options.unknownKeys(known: ["base_url", "language", "timeout", "retries", "concurrency", "replay", "shift_weeks"])
        #expect(error?.description == "/srv/tvguide/providers.yaml:4:5: unknown option 'base_ur' for provider 'miguiatv' (type miguiatv); known options: base_url, language, timeout, retries, concurrency, replay, shift_weeks — did you mean 'base_url'?")
        #expect(options.unknownKeys(known: ["base_ur", "timeout"]) == nil)
    }

    @Test func keysReadByAnAccessorCountAsKnown() throws {
        let options = try options("{ type: x, timeout: 5s, langauge: es }")
        _ = try options.duration("timeout")
        _ = try options.optionalString("language")
        let error = options.unknownKeys(known: [])
        #expect(error?.message == "unknown option 'langauge' for provider 'p' (type x); known options: timeout, language — did you mean 'language'?")
        _ = try options.optionalString("langauge")
        #expect(options.unknownKeys(known: []) == nil)
    }

    @Test func keysAndLocations() throws {
        let options = try options("{ type: x, b: 1, a: 2 }")
        #expect(options.keys == ["b", "a"])
        #expect(options.contains("a"))
        #expect(!options.contains("type"))
        #expect(options.location(of: "a") == SourceLocation(file: configFile, line: 2, column: 26))
    }

    @Test func unknownTypeMessageListsTheCatalogue() throws {
        let yaml = """
            providers:
              xmltv-sample: { type: xmlt, url: Fixtures/xmltv/sample.xml }
            guide: [xmltv-sample]
            """
        let provider = try parse(yaml).providers[0]
        let error = provider.unknownType(known: ["xmltv", "miguiatv"])
        #expect(error == .unknownType(type: "xmlt", provider: "xmltv-sample", known: ["xmltv", "miguiatv"], SourceLocation(file: configFile, line: 2, column: 25)))
        #expect(error.description == "/srv/tvguide/providers.yaml:2:25: unknown provider type 'xmlt' for 'xmltv-sample'; known types: miguiatv, xmltv — did you mean 'xmltv'?")
    }
}
