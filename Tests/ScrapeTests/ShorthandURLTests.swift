import Foundation
import GuideCore
import Scrape
import Testing

@Suite("Shorthand recipes' URLs")
struct ShorthandURLTests {
    @Test("every date pattern, padded and unpadded", arguments: [
        (Day(year: 2026, month: 3, day: 7), "http://h/2026/26/03/3/07/7"),
        (Day(year: 2026, month: 11, day: 25), "http://h/2026/26/11/11/25/25"),
        (Day(year: 2005, month: 1, day: 1), "http://h/2005/05/01/1/01/1"),
    ])
    func datePatterns(day: Day, expected: String) throws {
        let template = try SiteTemplate(shorthandURL: "http://h/{date:yyyy}/{date:yy}/{date:MM}/{date:M}/{date:dd}/{date:d}")
        #expect(template.url(day: day, channel: nil)?.absoluteString == expected)
    }

    @Test("literal separators inside a date format are copied", arguments: [
        ("https://www.formulatv.com/audiencias/{date:dd-MM-yyyy}/", "https://www.formulatv.com/audiencias/25-10-2026/"),
        ("http://h/{date:yyyy/MM/dd}.json", "http://h/2026/10/25.json"),
        ("http://h/{date:yyyyMMdd}", "http://h/20261025"),
        ("http://h/?dia={date:d.M.yy}&x=1", "http://h/?dia=25.10.26&x=1"),
    ])
    func separators(text: String, expected: String) throws {
        let url = try SiteTemplate(shorthandURL: text).url(day: Day(year: 2026, month: 10, day: 25), channel: nil)
        #expect(url?.absoluteString == expected)
    }

    @Test("{channel} is escaped as one path segment: slashes, spaces, plus signs and accents too")
    func channelEscaping() throws {
        let template = try SiteTemplate(shorthandURL: "http://127.0.0.1:8080/guide/{channel}/{date:yyyy-MM-dd}.json")
        let url = template.url(day: Day(year: 2026, month: 10, day: 25), channel: "Canal Sur/Andalucía+HD")
        #expect(url?.absoluteString == "http://127.0.0.1:8080/guide/Canal%20Sur%2FAndaluc%C3%ADa%2BHD/2026-10-25.json")
        #expect(template.url(day: Day(year: 2026, month: 10, day: 25), channel: "la1")?.absoluteString
            == "http://127.0.0.1:8080/guide/la1/2026-10-25.json")
    }

    @Test("usesChannel and usesDate say which placeholders a template has")
    func placeholdersUsed() throws {
        let both = try SiteTemplate(shorthandURL: "http://h/{channel}/{date:yyyy-MM-dd}")
        let channelOnly = try SiteTemplate(shorthandURL: "http://h/epg/{channel}.json")
        let dateOnly = try SiteTemplate(shorthandURL: "http://h/{date:dd-MM-yyyy}/")
        let neither = try SiteTemplate(shorthandURL: "http://h/all.json")

        #expect(both.usesChannel && both.usesDate)
        #expect(channelOnly.usesChannel && !channelOnly.usesDate)
        #expect(!dateOnly.usesChannel && dateOnly.usesDate)
        #expect(!neither.usesChannel && !neither.usesDate)
        #expect(neither.url(day: Day(year: 2026, month: 10, day: 25), channel: "ignored")?.absoluteString == "http://h/all.json")
        #expect(both.description == "http://h/{channel}/{date:yyyy-MM-dd}")
    }

    @Test("a template with {channel} makes no URL without a channel")
    func channelRequired() throws {
        let template = try SiteTemplate(shorthandURL: "http://h/epg/{channel}.json")
        #expect(template.url(day: Day(year: 2026, month: 10, day: 25), channel: nil) == nil)
    }

    @Test("bad templates are refused naming the placeholder and its position", arguments: [
        ("http://h/{chanel}/x", ShorthandURLError.unknownPlaceholder(name: "chanel", position: 10)),
        ("http://h/{day:yyyy}", .unknownPlaceholder(name: "day:yyyy", position: 10)),
        ("http://h/{date:dd-MMM-yyyy}", .unknownDatePattern(pattern: "MMM", position: 19)),
        ("http://h/{date:yyy}", .unknownDatePattern(pattern: "yyy", position: 16)),
        ("http://h/{date:yyyy-MM-dd'T'HH}", .unknownDatePattern(pattern: "T", position: 27)),
        ("http://h/{date:YYYY}", .unknownDatePattern(pattern: "YYYY", position: 16)),
        ("http://h/{date}", .missingDateFormat(position: 10)),
        ("http://h/{date:}", .missingDateFormat(position: 10)),
        ("http://h/{channel/x", .unclosedBrace(position: 10)),
        ("http://h/{date:{channel}", .unclosedBrace(position: 10)),
        ("http://h/x}", .strayClosingBrace(position: 11)),
        // The examples of docs/sources.md.
        ("http://127.0.0.1:8080/guide/{chanel}/{date:yyyy-MM-dd}.json", .unknownPlaceholder(name: "chanel", position: 29)),
        ("http://127.0.0.1:8080/guide/{channel}/{date:dd-MMM-yyyy}.json", .unknownDatePattern(pattern: "MMM", position: 48)),
        ("http://127.0.0.1:8080/guide/{channel/{date:yyyy-MM-dd}.json", .unclosedBrace(position: 29)),
        ("/guide/{channel}.json", .notAURL("/guide/{channel}.json")),
        ("ftp://h/{channel}", .notAURL("ftp://h/{channel}")),
        ("http:///{channel}", .notAURL("http:///{channel}")),
    ])
    func badTemplates(text: String, expected: ShorthandURLError) {
        #expect(throws: expected) { try SiteTemplate(shorthandURL: text) }
    }

    @Test("the errors read as sentences that point at the problem")
    func errorDescriptions() {
        #expect(ShorthandURLError.unknownPlaceholder(name: "chanel", position: 10).description
            == "unknown placeholder {chanel} at position 10 (known: {channel}, {date:FORMAT})")
        #expect(ShorthandURLError.unknownDatePattern(pattern: "MMM", position: 19).description
            == "unknown date pattern 'MMM' at position 19 (known: yyyy, yy, MM, M, dd, d)")
        #expect(ShorthandURLError.unclosedBrace(position: 10).description == "the { at position 10 is not closed")
        #expect(ShorthandURLError.missingDateFormat(position: 10).description
            == "{date} at position 10 needs a format, as in {date:yyyy-MM-dd}")
    }
}
