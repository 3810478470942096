import Foundation
import GuideCore
import Testing
@testable import GuideConfig

@Suite struct ConfigurationTests {
    static let realistic = """
        version: 1
        window: { past: 1d, days: 7 }
        cache: { ttl: 2h, dir: .tvguide-cache }
        snapshots: { dir: snapshots, keep: 14 }
        channels:
          - { id: La1.es, name: La 1, type: national, language: es, logo: "https://example.org/la1.png", miguiatv: 1, xmltv-sample: La1.es }
          - { id: La2.es, name: La 2, type: national, language: es, miguiatv: 2, xmltv: La2.es }
          - id: TV3.es
            name: TV3
            type: regional
            language: ca
            aliases: [TV3.cat, tv3]
            miguiatv: 23
        guide: [miguiatv, xmltv-sample]
        metadata: { series: [thetvdb], movie: [tmdb, tmdb-recorded] }
        audience: [formulatv]
        providers:
          miguiatv:      { type: miguiatv, base_url: "http://api.miguia.tv/1/", language: es_ES, timeout: 10s }
          xmltv-sample:  { type: xmltv, url: Fixtures/xmltv/sample.xml, shift_weeks: auto }
          tmdb:          { type: tmdb, api_key: "${TMDB_API_KEY}" }
          tmdb-recorded: { type: tmdb, replay: Fixtures/tmdb }
          thetvdb:       { type: thetvdb, api_key: "${TVDB_API_KEY}" }
          formulatv:     { type: formulatv }
        """

    /// Without `--config`: `$TVGUIDE_CONFIG`, else the first that exists of the working folder's,
    /// the user's (`$XDG_CONFIG_HOME`, else `~/.config`), the system's and the installed example.
    @Test func theConfigurationIsSearchedWhereUnixToolsLook() throws {
        var search = ConfigurationSearch(environment: ["HOME": "/home/ana"], workingDirectory: URL(fileURLWithPath: "/srv/tv"),
                                         executable: URL(fileURLWithPath: "/opt/tvguide/bin/tvguide"))
        #expect(search.candidates.map(\.file.path) == ["/srv/tv/providers.yaml", "/home/ana/.config/tvguide/providers.yaml",
                                                        "/etc/tvguide/providers.yaml", "/opt/tvguide/share/tvguide/providers.yaml"])
        #expect(search.locate(named: nil) { _ in false } == nil)
        #expect(search.locate(named: nil) { $0.path.hasPrefix("/etc/") || $0.path.hasPrefix("/opt/") }?.file.path == "/etc/tvguide/providers.yaml")
        #expect(search.locate(named: nil) { $0.path.hasPrefix("/opt/") }?.origin == "the installed example")
        search.environment["XDG_CONFIG_HOME"] = "/cfg"
        #expect(search.locate(named: nil) { $0.path.hasPrefix("/cfg/") }?.origin == "$XDG_CONFIG_HOME/tvguide")
        // A relative XDG_CONFIG_HOME is ignored, as the specification says.
        search.environment["XDG_CONFIG_HOME"] = "cfg"
        #expect(search.candidates[1].file.path == "/home/ana/.config/tvguide/providers.yaml")
        search.environment["TVGUIDE_CONFIG"] = "mine.yaml"
        #expect(search.locate(named: nil) { _ in false }?.file.path == "/srv/tv/mine.yaml")
        #expect(search.locate(named: "/x/p.yaml")?.origin == "--config")
        #expect(search.notFound.hasPrefix("no providers.yaml: give --config FILE, or put one in /srv/tv/providers.yaml (the working folder), "))
    }

    /// `server.public_url` keeps scheme, host and path prefix (no trailing slash);
    /// `trust_forwarded` is off unless said; anything but an http(s) URL is refused where it stands.
    @Test func publicURLAndTrustingAProxy() throws {
        let configured = try parse(minimalYAML + "server: { public_url: \"https://example.org/tv/\", trust_forwarded: true }\n")
        #expect(configured.server.publicURL == "https://example.org/tv")
        #expect(configured.server.trustForwarded)
        #expect(try parse(minimalYAML).server.trustForwarded == false)
        for bad in ["tv.example.org", "ftp://tv.example.org", "https://tv.example.org/?x=1", "https://user@tv.example.org"] {
            let error = parseError(minimalYAML + "server: { public_url: \"\(bad)\" }\n")
            #expect(error.map { "\($0)".contains("'\(bad)' is not a URL like https://tv.example.org") } == true, "\(bad)")
        }
    }

    @Test func realisticConfiguration() throws {
        let config = try parse(Self.realistic, environment: ["TMDB_API_KEY": "k"])
        #expect(config.file == configFile)
        #expect(config.directory.path == "/srv/tvguide")
        #expect(config.version == 1)
        #expect(config.window == WindowSettings(past: 86_400, ahead: 7 * 86_400))
        #expect(config.cache.ttl == 7_200)
        #expect(config.cache.directory.path == "/srv/tvguide/.tvguide-cache")
        #expect(config.snapshots.directory.path == "/srv/tvguide/snapshots")
        #expect(config.snapshots.keep == 14)
        #expect(config.guide == ["miguiatv", "xmltv-sample"])
        #expect(config.metadata == [.movie: ["tmdb", "tmdb-recorded"], .series: ["thetvdb"]])
        #expect(config.metadataKinds == [.series, .movie])
        #expect(config.audience == ["formulatv"])
        #expect(config.providers.map(\.id) == ["miguiatv", "xmltv-sample", "tmdb", "tmdb-recorded", "thetvdb", "formulatv"])
        #expect(config.providers.map(\.type) == ["miguiatv", "xmltv", "tmdb", "tmdb", "thetvdb", "formulatv"])
        #expect(config.providers[1].location == SourceLocation(file: configFile, line: 19, column: 3))

        let channels = config.channels
        #expect(channels.map(\.id) == ["La1.es", "La2.es", "TV3.es"])
        #expect(channels[0] == ChannelMapping(
            id: "La1.es", name: "La 1", type: "national", language: "es", logo: "https://example.org/la1.png",
            providerIDs: ["miguiatv": "1", "xmltv-sample": "La1.es"], location: SourceLocation(file: configFile, line: 6, column: 5)))
        #expect(channels[2].aliases == ["TV3.cat", "tv3"])
        #expect(channels[2].providerIDs == ["miguiatv": "23"])
        #expect(channels[1].logo == nil)

        let miguiatv = try #require(config.provider("miguiatv"))
        #expect(try miguiatv.options.url("base_url").absoluteString == "http://api.miguia.tv/1/")
        #expect(try miguiatv.options.string("language") == "es_ES")
        #expect(try miguiatv.options.duration("timeout") == 10)
        let sample = try #require(config.provider("xmltv-sample"))
        #expect(try sample.options.url("url").path == "/srv/tvguide/Fixtures/xmltv/sample.xml")
        #expect(try sample.options.weekShift("shift_weeks") == .auto)
        #expect(try config.provider("tmdb")?.options.string("api_key") == "k")
        #expect(try config.provider("tmdb-recorded")?.options.path("replay").path == "/srv/tvguide/Fixtures/tmdb")
        #expect(config.provider("thetvdb")?.options.missingVariables == ["TVDB_API_KEY"])
        #expect(config.provider("tmdb")?.options.missingVariables == [])
    }

    @Test func defaults() throws {
        let config = try parse(minimalYAML)
        #expect(config.version == 1)
        #expect(config.window == .default)
        #expect(config.window == WindowSettings(past: 86_400, ahead: 604_800))
        #expect(config.cache == CacheSettings(ttl: 7_200, directory: URL(fileURLWithPath: "/srv/tvguide/.tvguide-cache")))
        #expect(config.snapshots == SnapshotSettings(directory: URL(fileURLWithPath: "/srv/tvguide/snapshots"), keep: 14))
        #expect(config.channels.isEmpty)
        #expect(config.metadata.isEmpty)
        #expect(config.metadataKinds.isEmpty)
        #expect(config.audience.isEmpty)
    }

    @Test func emptySectionsTakeTheirDefaults() throws {
        let config = try parse(minimalYAML + "window:\ncache: {}\nsnapshots:\nchannels:\nmetadata: { movie: }\naudience:\n")
        #expect(config.window == .default)
        #expect(config.cache.ttl == 7_200)
        #expect(config.snapshots.keep == 14)
        #expect(config.channels.isEmpty)
        #expect(config.metadata == [.movie: []])
        #expect(config.audience.isEmpty)
    }

    @Test func windowAheadAsADurationAndTheTimeWindow() throws {
        let config = try parse(minimalYAML + "window: { past: 6h, ahead: 36h }\n")
        #expect(config.window == WindowSettings(past: 21_600, ahead: 129_600))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(config.timeWindow(now: now) == TimeWindow(from: now.addingTimeInterval(-21_600), to: now.addingTimeInterval(129_600)))
        let from = Date(timeIntervalSince1970: 1_700_000_000)
        let to = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(config.timeWindow(now: now, from: from) == TimeWindow(from: from, to: now.addingTimeInterval(129_600)))
        #expect(config.timeWindow(now: now, to: to) == TimeWindow(from: now.addingTimeInterval(-21_600), to: to))
        #expect(config.timeWindow(now: now, from: from, to: to) == TimeWindow(from: from, to: to))
    }

    @Test func windowRejectsBothDaysAndAhead() {
        let error = parseError(minimalYAML + "window:\n  days: 3\n  ahead: 2d\n")
        #expect(error?.message == "window sets both 'days' and 'ahead'; keep one")
        #expect(error?.line == 6)
        #expect(error?.column == 3)
    }

    @Test func relativePathsResolveAgainstTheConfigurationsFolder() throws {
        let yaml = minimalYAML + """
            cache: { dir: ../cache }
            snapshots: { dir: /var/lib/tvguide/snapshots }
            """
        let config = try GuideConfiguration.parse(yaml: yaml, file: URL(fileURLWithPath: "/etc/tvguide/conf/providers.yaml"), environment: [:])
        #expect(config.directory.path == "/etc/tvguide/conf")
        #expect(config.cache.directory.path == "/etc/tvguide/cache")
        #expect(config.snapshots.directory.path == "/var/lib/tvguide/snapshots")
    }

    @Test func loadReadsAFileAndResolvesAgainstItsFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("guideconfig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("providers.yaml")
        // A byte-order mark, as some editors write, must not shift anything.
        try Data([0xEF, 0xBB, 0xBF] + Array((minimalYAML + "snapshots: { dir: out, keep: 3 }\n").utf8)).write(to: file)
        let config = try GuideConfiguration.load(from: file, environment: [:])
        #expect(config.snapshots.directory == folder.appendingPathComponent("out").standardizedFileURL)
        #expect(config.snapshots.keep == 3)
        #expect(config.directory.path == folder.standardizedFileURL.path)
    }

    @Test func aRelativeFileIsShownAsGivenInMessages() {
        let file = URL(fileURLWithPath: "providers.yaml", relativeTo: URL(fileURLWithPath: "/srv/tvguide/"))
        let error = thrownError { () throws(ConfigError) in
            try GuideConfiguration.parse(yaml: minimalYAML + "windw: {}\n", file: file, environment: [:])
        }
        #expect(error?.description.hasPrefix("providers.yaml:4:1: unknown key 'windw'") == true)
    }

    @Test func mergeKeysShareSettingsBetweenProviders() throws {
        let yaml = """
            defaults: &http { timeout: 30s, retries: 5 }
            providers:
              miguiatv: { <<: *http, type: miguiatv, timeout: 5s }
            guide: [miguiatv]
            """
        // `defaults` is not a top-level key: anchors must live somewhere known.
        #expect(parseError(yaml)?.message.hasPrefix("unknown key 'defaults' in the top level") == true)
        let valid = """
            providers:
              base: &http { type: miguiatv, timeout: 30s, retries: 5 }
              miguiatv: { <<: *http, timeout: 5s }
            guide: [miguiatv]
            """
        let options = try #require(try parse(valid).provider("miguiatv")).options
        #expect(options.keys == ["timeout", "retries"])
        #expect(try options.duration("timeout") == 5)
        #expect(try options.int("retries") == 5)
    }

    @Test func aPostgresStoreTakesItsPasswordFromTheEnvironmentAndNeverShowsIt() throws {
        let config = try parse(minimalYAML + #"snapshots: { store: "postgres://tv:${PGPW}@db:5432/guide", keep: 3 }"#,
                               environment: ["PGPW": "hunter2-secret"])
        #expect(config.snapshots.store?.password == "hunter2-secret")
        #expect(config.snapshots.keep == 3)
        #expect(config.environmentValues.contains("hunter2-secret"), "the CLI keeps it out of every log line")
        var dumped = ""
        dump(config, to: &dumped)
        #expect(!dumped.contains("hunter2-secret"))
        #expect(dumped.contains("postgres://db:5432/guide"))
        let notPostgres = try #require(parseError(minimalYAML + #"snapshots: { store: "mysql://tv:pw1234@db/guide" }"#))
        #expect(notPostgres.description.contains("postgres://user@host:5432/db"))
        #expect(!notPostgres.description.contains("pw1234"))
        #expect(try parse(minimalYAML).snapshots.store == nil, "the folder stays the default")
    }

    @Test func dumpingTheConfigurationRevealsNoSecret() throws {
        let config = try parse(Self.realistic, environment: ["TMDB_API_KEY": "s3cr3t-value", "UNRELATED": "other-secret"])
        var dumped = ""
        dump(config, to: &dumped)
        #expect(!dumped.contains("s3cr3t-value"))
        #expect(!dumped.contains("other-secret"))
        #expect(dumped.contains("tmdb"))
    }
}
