import Foundation
import GuideCore
import TestSupport
import XMLTV

/// The provider id the tests parse under.
let testSource = "xmltv-test"

func parseFixture(_ name: String) throws -> XMLTVDocument {
    try XMLTVParser(source: testSource).parse(contentsOf: Fixtures.url("xmltv/\(name)"))
}

func parseText(_ text: String, name: String = "inline.xml") throws -> XMLTVDocument {
    try XMLTVParser(source: testSource).parse(Data(text.utf8), name: name)
}

/// `2026-10-25T00:30:00Z` as a Date.
func utc(_ iso: String) -> Date {
    guard let date = ISOTime.parse(iso) else { fatalError("bad ISO time in a test: \(iso)") }
    return date
}

/// The message of a `.malformed` error, or nil for any other error.
func malformedMessage(_ error: (any Error)?) -> String? {
    guard case .malformed(let message)? = error as? ProviderError else { return nil }
    return message
}

extension Array where Element == Programme {
    /// Channel, then start: the order the writer uses.
    var canonicallySorted: [Programme] {
        sorted { ($0.channel, $0.start) < ($1.channel, $1.start) }
    }
}
