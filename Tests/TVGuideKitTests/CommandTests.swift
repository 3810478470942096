import Foundation
import GuideCore
import Testing
import TestSupport

@Suite struct ValidateAndConfigErrorTests {
    @Test func theDefaultConfigurationIsValid() throws {
        let run = try CLI.run(["validate", "--config", Fixtures.url("../providers.yaml").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("valid"))
        #expect(run.stdout.contains("miguiatv → xmltv-sample"))
    }

    @Test func aTypoNamesFileLineColumnAndSuggests() throws {
        let scratch = try Scratch()
        let file = try scratch.write("providers.yaml", """
            version: 1
            windw: { past: 1d, days: 7 }
            guide: [sample]
            providers:
              sample: { type: xmltv, url: sample.xml }
            """)
        for command in ["validate", "build"] {
            let run = try CLI.run([command, "--config", file.path], in: scratch.url)
            #expect(run.status == 2)
            #expect(run.stderr.contains("providers.yaml:2:1"), "\(run.stderr)")
            #expect(run.stderr.contains("did you mean 'window'"), "\(run.stderr)")
        }
    }

    @Test func anUnknownTypeListsTheKnownOnes() throws {
        let scratch = try Scratch()
        let file = try scratch.write("providers.yaml", """
            guide: [sample]
            providers:
              sample: { type: xmlt, url: sample.xml }
            """)
        let run = try CLI.run(["validate", "--config", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("providers.yaml:3:"), "\(run.stderr)")
        #expect(run.stderr.contains("unknown provider type 'xmlt'"))
        #expect(run.stderr.contains("miguiatv, xmltv"))
    }

    @Test func anUnknownOptionIsRejectedBeforeAnyFetch() throws {
        let scratch = try Scratch()
        let file = try scratch.write("providers.yaml", """
            guide: [live]
            providers:
              live: { type: miguiatv, base_ur: "http://127.0.0.1:9/" }
            """)
        let run = try CLI.run(["validate", "--config", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("base_ur"))
        #expect(run.stderr.contains("did you mean 'base_url'"), "\(run.stderr)")
    }

    @Test func aMissingSecretSkipsTheProviderAndTheChainMovesOn() throws {
        let scratch = try Scratch()
        let file = try scratch.write("providers.yaml", """
            guide: [mirror, sample]
            providers:
              mirror: { type: xmltv, url: "http://127.0.0.1:9/${TVGUIDE_TEST_TOKEN}/guide.xml" }
              sample: { type: xmltv, url: \(Fixtures.url("xmltv/sample.xml").path), shift_weeks: auto }
            """)
        let validate = try CLI.run(["validate", "--config", file.path])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout.contains("'mirror' will be skipped"))
        #expect(validate.stdout.contains("$TVGUIDE_TEST_TOKEN"))
        let build = try CLI.run(["build", "--config", file.path, "--now", recordedNow], in: scratch.url)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.range(of: #"mirror\s+skipped"#, options: .regularExpression) != nil, "\(build.stdout)")
        #expect(build.stdout.contains("not configured"))
    }

    @Test func aBadTimeArgumentIsAUsageError() throws {
        let run = try CLI.run(["build", "--now", "tomorrow-ish", "--config", Fixtures.url("../providers.yaml").path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--now"))
    }
}

@Suite(.serialized) struct DiffAndExportTests {
    /// One offline build of the sample, shared by the tests below.
    static let built: URL = {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tvguide-diff-export-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let config = """
            snapshots: { dir: snapshots }
            guide: [xmltv-sample]
            providers:
              xmltv-sample: { type: xmltv, url: \(Fixtures.url("xmltv/sample.xml").path), shift_weeks: auto }
            """
        try? Data(config.utf8).write(to: scratch.appendingPathComponent("providers.yaml"))
        _ = try? CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch)
        return scratch.appendingPathComponent("snapshots/latest.json")
    }()

    @Test func equalSnapshotsExitZero() throws {
        let run = try CLI.run(["diff", Self.built.path, Self.built.path])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func changesAreListedPerChannelWithTheirFieldsAndExitOne() throws {
        let scratch = try Scratch()
        var snapshot = try SnapshotStore.load(Self.built)
        let renamed = try #require(snapshot.programmes.firstIndex { $0.channel == "La2.es" })
        let oldTitle = snapshot.programmes[renamed].title
        snapshot.programmes[renamed].title = "Un título nuevo"
        let firstOnClan = try #require(snapshot.programmes.first { $0.channel == "Clan.es" })
        snapshot.programmes.removeAll { $0.channel == "Clan.es" && $0.start == firstOnClan.start }
        let changed = scratch.file("changed.json")
        try SnapshotCodec.encode(snapshot).write(to: changed)

        let text = try CLI.run(["diff", Self.built.path, changed.path])
        #expect(text.status == 1)
        #expect(text.stdout.contains("La2.es"))
        #expect(text.stdout.contains(oldTitle))
        #expect(text.stdout.contains("Un título nuevo"))
        #expect(text.stdout.contains("Clan.es"))

        let json = try CLI.run(["diff", Self.built.path, changed.path, "--format", "json"])
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object != nil)
    }

    @Test func unreadableInputExitsTwo() throws {
        let scratch = try Scratch()
        let garbage = try scratch.write("garbage.json", "{ not json")
        #expect(try CLI.run(["diff", Self.built.path, scratch.file("missing.json").path]).status == 2)
        let run = try CLI.run(["diff", Self.built.path, garbage.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("garbage.json"))
    }

    @Test func exportPassesTvValidateFileAndReimportsToTheSameSnapshot() throws {
        let scratch = try Scratch()
        let exported = scratch.file("guide.xml")
        let export = try CLI.run(["export", "xmltv", "--snapshot", Self.built.path, "--output", exported.path])
        #expect(export.status == 0, "\(export.stderr)")

        let validator = Process()
        validator.executableURL = URL(fileURLWithPath: "/usr/bin/tv_validate_file")
        validator.arguments = [exported.path]
        validator.environment = ["XMLTV_SUPPLEMENT": "/usr/share/xmltv", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        validator.standardOutput = output
        validator.standardError = output
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/tv_validate_file"), "tv_validate_file is missing: run scripts/install-deps (Debian package xmltv-util)")
        try validator.run()
        let message = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        validator.waitUntilExit()
        #expect(validator.terminationStatus == 0, "tv_validate_file: \(message)")

        try scratch.write("providers.yaml", """
            snapshots: { dir: snapshots }
            guide: [xmltv-sample]
            providers:
              xmltv-sample: { type: xmltv, url: \(exported.path) }
            """)
        let rebuild = try CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url)
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        let diff = try CLI.run(["diff", Self.built.path, scratch.file("snapshots/latest.json").path])
        #expect(diff.status == 0, "import → export → import changed the guide:\n\(diff.stdout)")
    }
}
