import Foundation
import GuideCore
@testable import Scrape
import Testing

@Suite("JSON feed recipes")
struct JSONFeedRecipeTests {
    /// The brief's example entry.
    private func recipe(
        url: String = "http://127.0.0.1:8080/guide/{channel}/{date:yyyy-MM-dd}.json",
        items: String = "data.programmes",
        fields: [JSONFeedRecipe.Field: String] = [.start: "begin", .stop: "end", .title: "name", .description: "info.text", .category: "genre"],
        timeFormat: JSONFeedRecipe.TimeFormat = .iso8601,
        timezone: String = JSONFeedRecipe.defaultTimeZone
    ) throws -> JSONFeedRecipe {
        JSONFeedRecipe(url: try SiteTemplate(shorthandURL: url), items: items, fields: fields, timeFormat: timeFormat, timezone: timezone)
    }

    @Test("the brief's example is valid, in every time format")
    func validRecipes() throws {
        try recipe().validate()
        try recipe(timeFormat: .unix).validate()
        try recipe(timeFormat: .clock("HH:mm"), timezone: "Atlantic/Canary").validate()
        try recipe(url: "http://h/epg/{channel}.json", items: "result[0].events", fields: [.start: "t0", .title: "title", .category: "genres[0]"]).validate()
        try recipe(items: "$", fields: [.start: "hora", .title: "titulo", .episode: "$.meta.episode"]).validate()
    }

    @Test("a time format is read from its providers.yaml spelling")
    func timeFormatSpelling() {
        #expect(JSONFeedRecipe.TimeFormat("iso8601") == .iso8601)
        #expect(JSONFeedRecipe.TimeFormat("unix") == .unix)
        #expect(JSONFeedRecipe.TimeFormat("HH:mm") == .clock("HH:mm"))
        #expect(JSONFeedRecipe.TimeFormat.clock("H.mm").description == "H.mm")
    }

    @Test("start and title are required")
    func requiredFields() throws {
        #expect(throws: JSONFeedRecipeError.missingField(.title)) {
            try recipe(fields: [.start: "begin", .stop: "end"]).validate()
        }
        #expect(throws: JSONFeedRecipeError.missingField(.start)) {
            try recipe(fields: [.title: "name"]).validate()
        }
        #expect(JSONFeedRecipeError.missingField(.title).description == "fields: 'title' is required (the path to each item's title)")
        #expect(JSONFeedRecipe.Field.allCases.filter(\.isRequired) == [.start, .title])
    }

    @Test("a malformed path names its key in providers.yaml and what is wrong", arguments: [
        ("data..programmes", "items", "an empty key before a '.'"),
        ("data.programmes.", "items", "it ends with '.'"),
        ("", "items", "it is empty"),
        ("result[0", "items", "a '[' without its ']'"),
        ("result[first].events", "items", "'[first]' is not an array index such as [0]"),
        ("result[-1]", "items", "'[-1]' is not an array index such as [0]"),
        ("result[0]events", "items", "a key right after ']' needs a '.' before it"),
        ("result]", "items", "a ']' without its '['"),
    ])
    func badItemsPath(path: String, key: String, reason: String) throws {
        #expect(throws: JSONFeedRecipeError.badPath(key: key, path: path, reason: reason)) {
            try recipe(items: path).validate()
        }
    }

    @Test("a malformed field path is named by its field")
    func badFieldPath() throws {
        let error = JSONFeedRecipeError.badPath(key: "fields.category", path: "genres[x]", reason: "'[x]' is not an array index such as [0]")
        #expect(throws: error) {
            try recipe(fields: [.start: "begin", .title: "name", .category: "genres[x]"]).validate()
        }
        #expect(error.description == "fields.category: 'genres[x]' is not a path: '[x]' is not an array index such as [0]")
    }

    @Test("an unknown time zone is refused")
    func unknownTimeZone() throws {
        #expect(throws: JSONFeedRecipeError.unknownTimeZone("Europe/Madird")) {
            try recipe(timezone: "Europe/Madird").validate()
        }
    }

    @Test("a misspelt time format is refused as a clock pattern it cannot be", arguments: [
        ("iso-8601", "unknown letter 'i' (H hours, m minutes, s seconds)"),
        ("hh:mm", "unknown letter 'h' (H hours, m minutes, s seconds)"),
        ("HH", "it needs 'm' exactly once"),
        ("mm:ss", "it needs 'H' exactly once"),
        ("HH:mm:ss:ss", "it has 's' more than once"),
        ("HHH:mm", "'HHH' has too many letters"),
    ])
    func badTimeFormat(text: String, reason: String) throws {
        #expect(throws: JSONFeedRecipeError.badTimeFormat(text, reason: reason)) {
            try recipe(timeFormat: JSONFeedRecipe.TimeFormat(text)).validate()
        }
    }

    @Test("clock times need a date in the URL to know their day")
    func clockNeedsDate() throws {
        let error = JSONFeedRecipeError.clockWithoutDate("HH:mm")
        #expect(throws: error) {
            try recipe(url: "http://h/epg/{channel}.json", timeFormat: .clock("HH:mm")).validate()
        }
        #expect(error.description.contains("needs a {date:…} placeholder"))
    }

    @Test("paths follow keys and array indexes; a miss says where it stopped")
    func pathResolution() throws {
        let document = #"""
        {"result": [{"channel": "la1", "events": [{"title": "Telediario", "genres": ["Informativos"], "start": "2026-10-24T21:00:00+02:00"}]}], "count": 1}
        """#
        let read = try programmes(items: "result[0].events", fields: [.start: "start", .title: "title", .category: "$.genres[0]"], in: document)
        #expect(read.map(\.["title"]) == [.string("Telediario")])
        #expect(read.map(\.["categories"]) == [.array([.string("Informativos")])])
        #expect(try programmes(items: "$", fields: [.start: "$", .title: "$"], in: #"["Telediario"]"#).first?["title"] == .string("Telediario"))

        #expect(try failure(items: "result[0].programmes", in: document)
            == "items 'result[0].programmes' not found: 'result[0]' has no key 'programmes' (its keys: channel, events)")
        #expect(try failure(items: "result[3]", in: document) == "items 'result[3]' not found: 'result' has no element [3] (an array of 1)")
        #expect(try failure(items: "count.value", in: document) == "items 'count.value' not found: 'count' is a number, not an object with key 'value'")
        #expect(try failure(items: "count", in: document) == "items 'count' is a number, not an array")
        #expect(try failure(items: "data.programmes", in: document) == "items 'data.programmes' not found: the response has no key 'data' (its keys: count, result)")
        #expect(try failure(items: "result", fields: [.start: "[0]", .title: "title"], in: document)
            == "result[0]: field 'start' (path '[0]') is missing: the item is an object, not an array to take [0] from")
    }

    @Test("the compiled recipe is a site recipe: the URL, the zone and the time format carry over")
    func compiledRecipe() throws {
        let site = try recipe(timeFormat: .clock("HH:mm"), timezone: "Atlantic/Canary").compile()
        #expect(site.format == .json)
        #expect(site.request.url.description == "http://127.0.0.1:8080/guide/{channel}/{date:yyyy-MM-dd}.json")
        #expect(site.timezone.identifier == "Atlantic/Canary")
        #expect(site.times.description == "HH:mm")
        #expect(site.programme == nil)
    }

    /// The programme objects the compiled filter gives for `document`.
    private func programmes(items: String, fields: [JSONFeedRecipe.Field: String], in document: String) throws -> [JSONValue] {
        guard case .jq(let filter) = try recipe(items: items, fields: fields).compile().items else { return [] }
        return try filter.run(.json(Data(document.utf8)))
    }

    /// The message the compiled filter stops with on `document`; nil when it reads it.
    private func failure(items: String, fields: [JSONFeedRecipe.Field: String] = [.start: "begin", .title: "name"], in document: String) throws -> String? {
        guard case .jq(let filter) = try recipe(items: items, fields: fields).compile().items else { return nil }
        do {
            _ = try filter.run(.json(Data(document.utf8)))
            return nil
        } catch .runtime(let message) {
            return message
        }
    }
}
