import Foundation
import GuideCore
import GuideStorage
import Testing
import TestSupport

@Suite struct ValidateAndConfigErrorTests {
    @Test func theDefaultConfigurationIsValid() async throws {
        let run = try await CLI.run(["validate", "--config", Fixtures.url("../providers.yaml").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("valid"))
        #expect(run.stdout.contains("miguiatv → xmltv-sample"))
    }

    @Test func aTypoNamesFileLineColumnAndSuggests() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("providers.yaml", """
            version: 1
            windw: { past: 1d, days: 7 }
            guide: [sample]
            providers:
              sample: { type: xmltv, url: sample.xml }
            """)
        for command in ["validate", "build"] {
            let run = try await CLI.run([command, "--config", file.path], in: scratch.url)
            #expect(run.status == 2)
            #expect(run.stderr.contains("providers.yaml:2:1"), "\(run.stderr)")
            #expect(run.stderr.contains("did you mean 'window'"), "\(run.stderr)")
        }
    }

    @Test func aSnapshotStoreItCannotUseIsAConfigurationErrorThatHidesThePassword() async throws {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", try defaultConfig(miguiatv: "http://127.0.0.1:9/").replacingOccurrences(
            of: "snapshots: { dir: snapshots, keep: 14 }", with: #"snapshots: { store: "postgres://tv:${PGPW}@db.invalid/guide?sslmode=require" }"#))
        for command in [["build"], ["serve", "--port", "0"]] {
            let run = try await CLI.run(command + ["--config", scratch.file("providers.yaml").path], environment: ["PGPW": "hunter2-pw"])
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("sslmode=require is not supported"), "\(run.stderr)")
            #expect(!run.stderr.contains("hunter2-pw") && !run.stdout.contains("hunter2-pw"))
        }
    }

    @Test func anUnknownTypeListsTheKnownOnes() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("providers.yaml", """
            guide: [sample]
            providers:
              sample: { type: xmlt, url: sample.xml }
            """)
        let run = try await CLI.run(["validate", "--config", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("providers.yaml:3:"), "\(run.stderr)")
        #expect(run.stderr.contains("unknown provider type 'xmlt'"))
        #expect(run.stderr.contains("json-feed, miguiatv, scrape, site, xmltv"))
    }

    @Test func anUnknownOptionIsRejectedBeforeAnyFetch() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("providers.yaml", """
            guide: [live]
            providers:
              live: { type: miguiatv, base_ur: "http://127.0.0.1:9/" }
            """)
        let run = try await CLI.run(["validate", "--config", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("base_ur"))
        #expect(run.stderr.contains("did you mean 'base_url'"), "\(run.stderr)")
    }

    @Test func aMissingSecretSkipsTheProviderAndTheChainMovesOn() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("providers.yaml", """
            guide: [mirror, sample]
            providers:
              mirror: { type: xmltv, url: "http://127.0.0.1:9/${TVGUIDE_TEST_TOKEN}/guide.xml" }
              sample: { type: xmltv, url: \(Fixtures.url("xmltv/sample.xml").path), shift_weeks: auto }
            """)
        let validate = try await CLI.run(["validate", "--config", file.path])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout.contains("'mirror' will be skipped"))
        #expect(validate.stdout.contains("$TVGUIDE_TEST_TOKEN"))
        let build = try await CLI.run(["build", "--config", file.path, "--now", recordedNow], in: scratch.url)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.range(of: #"mirror\s+skipped"#, options: .regularExpression) != nil, "\(build.stdout)")
        #expect(build.stdout.contains("not configured"))
    }

    @Test func aBadTimeArgumentIsAUsageError() async throws {
        let run = try await CLI.run(["build", "--now", "tomorrow-ish", "--config", Fixtures.url("../providers.yaml").path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--now"))
    }
}

@Suite struct DiffAndExportTests {
    /// An offline build of the sample in `scratch`.
    func buildSample(in scratch: Scratch) async throws -> URL {
        try scratch.write("sample.yaml", """
            snapshots: { dir: sample-snapshots }
            guide: [xmltv-sample]
            providers:
              xmltv-sample: { type: xmltv, url: \(Fixtures.url("xmltv/sample.xml").path), shift_weeks: auto }
            """)
        let run = try await CLI.run(["build", "--config", "sample.yaml", "--now", recordedNow, "--quiet"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        return scratch.file("sample-snapshots/latest.json")
    }

    @Test func equalSnapshotsExitZero() async throws {
        let scratch = try Scratch()
        let built = try await buildSample(in: scratch)
        let run = try await CLI.run(["diff", built.path, built.path])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func changesAreListedPerChannelWithTheirFieldsAndExitOne() async throws {
        let scratch = try Scratch()
        let built = try await buildSample(in: scratch)
        var snapshot = try SnapshotStore.load(built)
        let renamed = try #require(snapshot.programmes.firstIndex { $0.channel == "La2.es" })
        let oldTitle = snapshot.programmes[renamed].title
        snapshot.programmes[renamed].title = "Un título nuevo"
        let firstOnClan = try #require(snapshot.programmes.first { $0.channel == "Clan.es" })
        snapshot.programmes.removeAll { $0.channel == "Clan.es" && $0.start == firstOnClan.start }
        let changed = scratch.file("changed.json")
        try SnapshotCodec.encode(snapshot).write(to: changed)

        let text = try await CLI.run(["diff", built.path, changed.path])
        #expect(text.status == 1)
        #expect(text.stdout.contains("La2.es"))
        #expect(text.stdout.contains(oldTitle))
        #expect(text.stdout.contains("Un título nuevo"))
        #expect(text.stdout.contains("Clan.es"))

        let json = try await CLI.run(["diff", built.path, changed.path, "--format", "json"])
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object != nil)
    }

    @Test func unreadableInputExitsTwo() async throws {
        let scratch = try Scratch()
        let built = try await buildSample(in: scratch)
        let garbage = try scratch.write("garbage.json", "{ not json")
        #expect(try await CLI.run(["diff", built.path, scratch.file("missing.json").path]).status == 2)
        let run = try await CLI.run(["diff", built.path, garbage.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("garbage.json"))
    }

    @Test func exportPassesTvValidateFileAndReimportsToTheSameSnapshot() async throws {
        let scratch = try Scratch()
        let built = try await buildSample(in: scratch)
        let exported = scratch.file("guide.xml")
        let export = try await CLI.run(["export", "xmltv", "--snapshot", built.path, "--output", exported.path])
        #expect(export.status == 0, "\(export.stderr)")

        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/tv_validate_file"), "tv_validate_file is missing: run scripts/install-deps (Debian package xmltv-util)")
        let validation = try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/tv_validate_file"), [exported.path],
            environment: ["XMLTV_SUPPLEMENT": "/usr/share/xmltv", "PATH": "/usr/bin:/bin"])
        #expect(validation.status == 0, "tv_validate_file: \(validation.stdout)\(validation.stderr)")

        try scratch.write("providers.yaml", """
            snapshots: { dir: snapshots }
            guide: [xmltv-sample]
            providers:
              xmltv-sample: { type: xmltv, url: \(exported.path) }
            """)
        let rebuild = try await CLI.run(["build", "--now", recordedNow, "--quiet"], in: scratch.url)
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        let diff = try await CLI.run(["diff", built.path, scratch.file("snapshots/latest.json").path])
        #expect(diff.status == 0, "import → export → import changed the guide:\n\(diff.stdout)")
    }
}
