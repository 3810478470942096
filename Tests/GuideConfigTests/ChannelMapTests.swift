import Foundation
import Testing
@testable import GuideConfig

@Suite struct ChannelMapTests {
    static let yaml = """
        providers:
          miguiatv:          { type: miguiatv }
          miguiatv-recorded: { type: miguiatv, replay: Fixtures/miguiatv }
          xmltv-sample:      { type: xmltv, url: a.xml }
        guide: [miguiatv, miguiatv-recorded, xmltv-sample]
        channels:
          - { id: La1.es, miguiatv: 1, miguiatv-recorded: 101, xmltv: la1.xmltv }
          - { id: La2.es, miguiatv: 002, xmltv-sample: La2.es, aliases: [la2, "La 2"] }
          - { id: Cuatro.es, miguiatv: 4.0, name: 7 }
          - { id: TV3.es, xmltv-sample: TV3.cat }
        """

    func channel(_ id: String, in config: GuideConfiguration) throws -> ChannelMapping {
        try #require(config.channels.first { $0.id == id })
    }

    @Test func aKeyNamingTheProviderWinsOverOneNamingItsType() throws {
        let config = try parse(Self.yaml)
        let la1 = try channel("La1.es", in: config)
        #expect(la1.providerID(forProvider: "miguiatv", type: "miguiatv") == "1")
        #expect(la1.providerID(forProvider: "miguiatv-recorded", type: "miguiatv") == "101")
        #expect(la1.providerID(forProvider: "xmltv-sample", type: "xmltv") == "la1.xmltv")
        #expect(la1.providerID(forProvider: "tmdb", type: "tmdb") == nil)

        let la2 = try channel("La2.es", in: config)
        // No key for miguiatv-recorded itself: the key for its type applies.
        #expect(la2.providerID(forProvider: "miguiatv-recorded", type: "miguiatv") == "002")
        #expect(la2.providerID(forProvider: "xmltv-sample", type: "xmltv") == "La2.es")
        #expect(try channel("TV3.es", in: config).providerID(forProvider: "miguiatv", type: "miguiatv") == nil)
    }

    @Test func numbersAreKeptAsWritten() throws {
        let config = try parse(Self.yaml)
        #expect(try channel("La2.es", in: config).providerIDs["miguiatv"] == "002")
        #expect(try channel("Cuatro.es", in: config).providerIDs["miguiatv"] == "4.0")
        #expect(try channel("Cuatro.es", in: config).name == "7")
        #expect(config.channels.map(\.aliases) == [[], ["la2", "La 2"], [], []])
    }

    @Test func channelsMayBeWrittenInBlockStyle() throws {
        let yaml = minimalYAML + """
            channels:
              - id: La1.es
                name: La 1
                type: national
                language: es
                logo: https://example.org/la1.png
                miguiatv: 1
            """
        let channel = try #require(try parse(yaml).channels.first)
        #expect(channel == ChannelMapping(
            id: "La1.es", name: "La 1", type: "national", language: "es", logo: "https://example.org/la1.png",
            providerIDs: ["miguiatv": "1"], location: SourceLocation(file: configFile, line: 5, column: 5)))
    }
}

@Suite struct ChannelMapRuleTests {
    static let yaml = """
        providers:
          miguiatv:          { type: miguiatv }
          miguiatv-recorded: { type: miguiatv, replay: Fixtures/miguiatv }
          xmltv-sample:      { type: xmltv, url: a.xml }
        guide: [miguiatv, miguiatv-recorded, xmltv-sample]
        channels:
          - { id: La1.es, miguiatv: 1, aliases: [la1.tv] }
          - { id: La2.es, miguiatv: 2, miguiatv-recorded: 102 }
          - { id: TV3.es, miguiatv-recorded: 123 }
          - { id: Clan.es, miguiatv: 2 }
        """

    @Test func aMappedProviderServesOnlyItsMappedChannels() throws {
        let config = try parse(Self.yaml)
        // Two canonical channels on the same own id: the first in the map takes it.
        #expect(config.channelMap(forProvider: "miguiatv", type: "miguiatv") == ["1": "La1.es", "2": "La2.es"])
        // La2.es has its own key for the recording; Clan.es's key for the type applies to it.
        #expect(config.channelMap(forProvider: "miguiatv-recorded", type: "miguiatv") == ["1": "La1.es", "102": "La2.es", "123": "TV3.es", "2": "Clan.es"])
    }

    @Test func anUnmappedProviderServesTheMapsChannelsUnderTheirIdsAndAliases() throws {
        let config = try parse(Self.yaml)
        #expect(config.channelMap(forProvider: "xmltv-sample", type: "xmltv") == [
            "La1.es": "La1.es", "la1.tv": "La1.es", "La2.es": "La2.es", "TV3.es": "TV3.es", "Clan.es": "Clan.es",
        ])
    }

    @Test func withNoMapAtAllEveryIdIsCanonical() throws {
        #expect(try parse(minimalYAML).channelMap(forProvider: "miguiatv", type: "miguiatv") == nil)
    }
}
