import Foundation
import Testing
@testable import GuideConfig

@Suite struct LineupTests {
    static let yaml = """
        providers:
          xmltv-sample: { type: xmltv, url: a.xml }
        guide: [xmltv-sample]
        channels:
          - { id: La1.es, aliases: [TVE1] }
          - { id: La2.es }
          - { id: TV3.es }
        """

    @Test func lineupsKeepTheirOrderAndAliasesBecomeCanonicalIds() throws {
        let config = try parse(Self.yaml + "\nlineups:\n  catalonia: [TV3.es, TVE1, La2.es]\n  main: [La1.es]\n")
        #expect(config.lineups == ["catalonia": ["TV3.es", "La1.es", "La2.es"], "main": ["La1.es"]])
    }

    @Test func withoutLineupsThereAreNone() throws {
        #expect(try parse(Self.yaml).lineups.isEmpty)
    }

    @Test func aChannelOutsideTheMapIsAnErrorWithASuggestion() throws {
        let error = try #require(parseError(Self.yaml + "\nlineups:\n  main: [La1.es, TV3.ess]\n"))
        #expect(error.message == "line-up 'main' lists 'TV3.ess', which is not a channel in channels — did you mean 'TV3.es'?")
        #expect(error.location?.line == 9)
    }

    @Test func aLineupMustBeAList() throws {
        let error = try #require(parseError(Self.yaml + "\nlineups:\n  main: La1.es\n"))
        #expect(error.message.contains("line-up 'main' must be a list of channel ids"))
    }
}
