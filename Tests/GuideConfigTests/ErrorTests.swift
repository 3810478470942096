import Foundation
import GuideCore
import Testing
@testable import GuideConfig

@Suite struct ErrorTests {
    @Test func yamlSyntaxErrorNamesFileLineAndColumn() {
        let yaml = """
            version: 1
            providers:
              miguiatv: { type: miguiatv
            guide: [miguiatv]
            """
        let error = parseError(yaml)
        guard case .syntax = error else {
            Issue.record("expected a syntax error, got \(String(describing: error))")
            return
        }
        #expect(error?.line == 4)
        #expect(error?.column == 6)
        #expect(error?.description == "/srv/tvguide/providers.yaml:4:6: YAML: did not find expected ',' or '}' (while parsing a flow mapping at line 3, column 13)")
    }

    @Test func tabIndentationIsASyntaxError() {
        let error = parseError("providers:\n\tmiguiatv: { type: miguiatv }\nguide: [miguiatv]\n")
        #expect(error?.line == 2)
        #expect(error?.column == 1)
        #expect(error?.message == "YAML: found character that cannot start any token (while scanning for the next token at line 2, column 1); indent with spaces, YAML does not allow tabs there")
    }

    @Test func readerAndComposerErrorsAreLocated() {
        let control = parseError("providers:\n  a: { type: x }\nguide: [a\u{07}]\n")
        #expect(control == .syntax("YAML: control characters are not allowed", SourceLocation(file: configFile, line: 3, column: 10)))
        let alias = parseError("providers: *nope\n")
        #expect(alias == .syntax("YAML: found undefined alias", SourceLocation(file: configFile, line: 1, column: 12)))
        let complexKey = parseError("providers:\n  ? [a]\n  : { type: x }\nguide: [a]\n")
        #expect(complexKey == .syntax("keys must be plain text, not a list or a mapping", SourceLocation(file: configFile, line: 2, column: 5)))
    }

    @Test func anUnquotedVariableInAFlowMappingGetsAHint() {
        let error = parseError("providers:\n  tmdb: { type: tmdb, api_key: ${TMDB_API_KEY} }\nguide: [tmdb]\n")
        guard case .syntax = error else {
            Issue.record("expected a syntax error, got \(String(describing: error))")
            return
        }
        #expect(error?.line == 2)
        #expect(error?.message == "YAML: did not find expected ',' or '}' (while parsing a flow mapping at line 2, column 9); inside { … } or [ … ] write \"${VAR}\" in quotes")
        #expect(parseError("providers:\n  tmdb: { type: tmdb, api_key: \"${TMDB_API_KEY}\" }\nguide: [tmdb]\n") == nil)
    }

    @Test func duplicateYAMLKeyIsASyntaxError() {
        let yaml = """
            providers:
              miguiatv: { type: miguiatv }
              miguiatv: { type: xmltv }
            guide: [miguiatv]
            """
        let error = parseError(yaml)
        #expect(error?.message == "YAML: key 'miguiatv' appears more than once in the same mapping")
        #expect(error?.line == 2)
        #expect(error?.column == 3)
    }

    @Test func emptyFileAndNonMappingTopLevel() {
        #expect(parseError("")?.description == "/srv/tvguide/providers.yaml:1:1: the configuration is empty; it needs at least 'providers' and 'guide'")
        #expect(parseError("# only a comment\n")?.line == 1)
        let list = parseError("- miguiatv\n")
        #expect(list?.message == "expected a mapping of settings (providers, guide, …) at the top level, got a list")
    }

    @Test func wrongTypeNamesTheValue() {
        let error = parseError(minimalYAML + "cache:\n  ttl: soon\n")
        #expect(error == .invalidValue(
            "expected a duration like 2h, got 'soon' (units: ms, s, m, h, d, w; combined like 1h30m)",
            SourceLocation(file: configFile, line: 5, column: 8)))
        let keep = parseError(minimalYAML + "snapshots: { keep: 0 }\n")
        #expect(keep?.message == "expected a whole number from 1 to 100000, got '0'")
        #expect(keep?.column == 20)
        let section = parseError(minimalYAML + "window: 7\n")
        #expect(section?.message == "expected a mapping for window with keys past, days, ahead, got '7'")
        #expect(section?.column == 9)
    }

    @Test func unknownTopLevelKeySuggestsTheClosest() {
        let error = parseError(minimalYAML + "windw: { past: 1d }\n")
        #expect(error?.description == "/srv/tvguide/providers.yaml:4:1: unknown key 'windw' in the top level; known keys: version, window, cache, snapshots, channels, guide, metadata, audience, lineups, server, playlist, providers — did you mean 'window'?")
        let far = parseError(minimalYAML + "colour: red\n")
        #expect(far?.message.hasSuffix("providers") == true)
    }

    @Test func unknownKeyInASection() {
        let error = parseError(minimalYAML + "cache:\n  ttl: 2h\n  directory: x\n")
        #expect(error?.message == "unknown key 'directory' in cache; known keys: ttl, dir")
        #expect(error?.line == 6)
        #expect(error?.column == 3)
        let transposed = parseError(minimalYAML + "window: { psat: 1d }\n")
        #expect(transposed?.message.hasSuffix("did you mean 'past'?") == true)
    }

    @Test func guideReferencingAnUnknownProvider() {
        let yaml = """
            providers:
              miguiatv: { type: miguiatv }
              xmltv-sample: { type: xmltv, url: a.xml }
            guide: [miguiatvv, xmltv-sample]
            """
        let error = parseError(yaml)
        #expect(error == .unknownProvider(name: "miguiatvv", listedIn: "guide", known: ["miguiatv", "xmltv-sample"], SourceLocation(file: configFile, line: 4, column: 9)))
        #expect(error?.description == "/srv/tvguide/providers.yaml:4:9: guide lists 'miguiatvv', which is not in providers; known: miguiatv, xmltv-sample — did you mean 'miguiatv'?")
    }

    @Test func metadataAndAudienceReferencesAreChecked() {
        let metadata = parseError(minimalYAML + "metadata:\n  movie: [miguiatv, tmbd]\n")
        #expect(metadata?.message == "metadata.movie lists 'tmbd', which is not in providers; known: miguiatv")
        #expect(metadata?.line == 5)
        #expect(metadata?.column == 21)
        let audience = parseError(minimalYAML + "audience: [formulatv]\n")
        #expect(audience?.message == "audience lists 'formulatv', which is not in providers; known: miguiatv")
        #expect(audience?.column == 12)
        let kind = parseError(minimalYAML + "metadata: { moive: [miguiatv] }\n")
        #expect(kind?.message == "unknown key 'moive' in metadata; known keys: movie, series, programme, documentary, news, sports, kids, other — did you mean 'movie'?")
        #expect(kind?.column == 13)
    }

    @Test func providerListsMustBeNonEmptyListsWithoutRepeats() {
        let twice = parseError(minimalYAML.replacingOccurrences(of: "guide: [miguiatv]", with: "guide: [miguiatv, miguiatv]"))
        #expect(twice?.message == "duplicate guide entry 'miguiatv'; first defined at line 3, column 9")
        #expect(twice?.column == 19)
        let empty = parseError(minimalYAML.replacingOccurrences(of: "guide: [miguiatv]", with: "guide: []"))
        #expect(empty?.message == "expected a list of provider names like [miguiatv, xmltv-sample] for guide, got an empty list")
        let scalar = parseError(minimalYAML.replacingOccurrences(of: "guide: [miguiatv]", with: "guide: miguiatv"))
        #expect(scalar?.message == "expected a list of provider names like [miguiatv, xmltv-sample] for guide, got 'miguiatv'")
    }

    @Test func duplicateChannelIds() {
        let yaml = minimalYAML + """
            channels:
              - { id: La1.es, miguiatv: 1 }
              - { id: La2.es, miguiatv: 2, aliases: [la2] }
              - { id: La1.es, miguiatv: 3 }
            """
        let error = parseError(yaml)
        #expect(error == .duplicate(
            what: "channel id or alias", name: "La1.es",
            first: SourceLocation(file: configFile, line: 5, column: 11), SourceLocation(file: configFile, line: 7, column: 11)))
        #expect(error?.description == "/srv/tvguide/providers.yaml:7:11: duplicate channel id or alias 'La1.es'; first defined at line 5, column 11")
        let alias = parseError(minimalYAML + "channels:\n  - { id: La2.es, aliases: [la2] }\n  - { id: la2 }\n")
        #expect(alias?.message == "duplicate channel id or alias 'la2'; first defined at line 5, column 29")
    }

    @Test func channelWithoutIdOrWithAnUnknownProviderKey() {
        let missing = parseError(minimalYAML + "channels:\n  - { name: La 1, miguiatv: 1 }\n")
        #expect(missing?.description == "/srv/tvguide/providers.yaml:5:5: channel #1 has no 'id', which is required")
        let typo = parseError(minimalYAML + "channels:\n  - { id: La1.es, miguiatvv: 1 }\n")
        #expect(typo?.message == "unknown key 'miguiatvv' in channel 'La1.es' (a key is a channel field, a provider or a provider type); known keys: id, name, type, language, logo, aliases, miguiatv — did you mean 'miguiatv'?")
        #expect(typo?.column == 19)
        let noValue = parseError(minimalYAML + "channels:\n  - { id: La1.es, miguiatv: }\n")
        #expect(noValue?.message == "expected the channel's id in 'miguiatv', got nothing")
    }

    @Test func providerWithoutType() {
        let yaml = """
            providers:
              miguiatv: { type: miguiatv }
              xmltv-sample:
                url: Fixtures/xmltv/sample.xml
            guide: [miguiatv]
            """
        let error = parseError(yaml)
        #expect(error == .missingKey(key: "type", section: "provider 'xmltv-sample'", SourceLocation(file: configFile, line: 3, column: 3)))
        #expect(error?.description == "/srv/tvguide/providers.yaml:3:3: provider 'xmltv-sample' has no 'type', which is required")
        let bare = parseError("providers:\n  miguiatv:\nguide: [miguiatv]\n")
        #expect(bare?.message == "provider 'miguiatv' needs a mapping with at least 'type', got nothing")
    }

    @Test func providerNames() {
        let reserved = parseError("providers:\n  name: { type: x }\nguide: [name]\n")
        #expect(reserved?.message == "provider name 'name' is reserved for a channel field (id, name, type, language, logo, aliases); choose another")
        let spaced = parseError("providers:\n  my source: { type: x }\nguide: [my source]\n")
        #expect(spaced?.message == "provider name 'my source' may only use letters, digits, '.', '_' and '-'")
        #expect(spaced?.column == 3)
    }

    @Test func missingProvidersOrGuide() {
        #expect(parseError("guide: [miguiatv]\n")?.description == "/srv/tvguide/providers.yaml:1:1: the configuration has no 'providers', which is required")
        #expect(parseError("providers: { miguiatv: { type: miguiatv } }\n")?.message == "the configuration has no 'guide', which is required")
        #expect(parseError("providers: {}\nguide: [x]\n")?.message == "expected a mapping of providers (name: { type: …, … }), got an empty mapping")
    }

    @Test func unsupportedVersion() {
        let error = parseError("version: 2\n" + minimalYAML)
        #expect(error == .unsupportedVersion(found: "2", supported: [1], SourceLocation(file: configFile, line: 1, column: 10)))
        #expect(error?.description == "/srv/tvguide/providers.yaml:1:10: unsupported version '2'; this tvguide reads version 1")
    }

    @Test func loadReportsAMissingFileAndBadEncoding() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("guideconfig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("absent.yaml")
        let notFound = thrownError { () throws(ConfigError) in try GuideConfiguration.load(from: missing, environment: [:]) }
        #expect(notFound == .unreadable(file: missing, reason: "cannot read the configuration: no such file"))
        #expect(notFound?.description == "\(missing.path): cannot read the configuration: no such file")

        let latin1 = folder.appendingPathComponent("latin1.yaml")
        try Data(Array("providers:\n  miguiatv: { type: miguiatv }\n# Espa".utf8) + [0xF1, 0x61] + Array("\nguide: [miguiatv]\n".utf8)).write(to: latin1)
        let encoding = thrownError { () throws(ConfigError) in try GuideConfiguration.load(from: latin1, environment: [:]) }
        #expect(encoding == .syntax("the file is not UTF-8 text (byte 0xF1); save it as UTF-8", SourceLocation(file: latin1, line: 3, column: 7)))
    }

    @Test func didYouMeanNeedsACloseCandidate() {
        #expect(Suggestion.closest(to: "base_ur", among: ["base_url", "language"]) == "base_url")
        #expect(Suggestion.closest(to: "Window", among: ["version", "window"]) == "window")
        #expect(Suggestion.closest(to: "wnidow", among: ["window"]) == "window")
        #expect(Suggestion.closest(to: "xyz", among: ["ttl", "dir"]) == nil)
        #expect(Suggestion.closest(to: "tmbd", among: ["tmdb", "thetvdb"]) == "tmdb")
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.editDistance(Array(""), Array("abc")) == 3)
    }
}

@Suite struct SourceURLTests {
    static func playlist(_ value: String) throws -> URL? {
        try GuideConfiguration.parse(yaml: "playlist: \"\(value)\"\nguide: [a]\nproviders: { a: { type: xmltv, url: a.xml } }\n",
                                     file: configFile).playlist
    }

    @Test func schemesAreCaseInsensitive() throws {
        #expect(try Self.playlist("HTTP://iptv.example/list.m3u")?.absoluteString == "http://iptv.example/list.m3u")
        #expect(try Self.playlist("Https://iptv.example/list.m3u")?.scheme == "https")
        #expect(try Self.playlist("FILE:///srv/list.m3u")?.path == "/srv/list.m3u")
    }

    @Test func aFileURLOnAnotherHostIsRefused() throws {
        #expect(try Self.playlist("file:///srv/list.m3u")?.path == "/srv/list.m3u")
        #expect(try Self.playlist("file://localhost/srv/list.m3u")?.path == "/srv/list.m3u")
        #expect(throws: ConfigError.self) { try Self.playlist("file://nas/srv/list.m3u") }
        do {
            _ = try Self.playlist("file://nas/srv/list.m3u")
        } catch {
            #expect("\(error)".contains("a file URL on host 'nas' is another machine's file"), "\(error)")
        }
    }
}
