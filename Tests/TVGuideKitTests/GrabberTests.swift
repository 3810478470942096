import Foundation
import GuideCore
import Testing
import TestSupport

/// `tvguide grab` as Tvheadend, MythTV and the xmltv project's own validator run it.
@Suite struct GrabberTests {
    static let offline = "http://127.0.0.1:9/"

    /// providers.yaml with every live source down, and a grabber configuration naming it.
    static func scratch(channels: String = "") throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", try defaultConfig(miguiatv: offline))
        try scratch.write("grab.conf", "config=providers.yaml\nsnapshots=snapshots\n" + channels)
        return scratch
    }

    @Test func tvValidateGrabberPasses() async throws {
        let scratch = try Self.scratch()
        let tool = "/usr/bin/tv_validate_grabber"
        #expect(FileManager.default.isExecutableFile(atPath: tool), "tv_validate_grabber is missing: run scripts/install-deps (Debian package xmltv-util)")
        // The DTD from xmltv-util, not supplement.xmltv.org: tests never touch the internet.
        let run = try await Subprocess.run(URL(fileURLWithPath: tool), [
            "--dtd-file", "/usr/share/xmltv/xmltv.dtd", "--config-file", scratch.file("grab.conf").path, "\(CLI.executable.path) grab",
        ], environment: CLI.environment([:]), currentDirectory: scratch.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("Grabber validated ok."), "\(run.stdout)")
    }

    /// A player runs the grabber from wherever it likes: with no providers.yaml in the working
    /// folder, `--configure` takes the user's (`$XDG_CONFIG_HOME/tvguide/`) and the grabber passes.
    @Test func tvValidateGrabberPassesFromAnEmptyFolderWithTheUsersConfiguration() async throws {
        let scratch = try Scratch()
        let users = try scratch.write("xdg/tvguide/providers.yaml", try defaultConfig(miguiatv: Self.offline))
        let empty = scratch.file("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let run = try await Subprocess.run(URL(fileURLWithPath: "/usr/bin/tv_validate_grabber"), [
            "--dtd-file", "/usr/share/xmltv/xmltv.dtd", "--config-file", scratch.file("grab.conf").path, "\(CLI.executable.path) grab",
        ], environment: CLI.environment(["XDG_CONFIG_HOME": scratch.file("xdg").path]), currentDirectory: empty)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("Grabber validated ok."), "\(run.stdout)")
        let written = try String(contentsOf: scratch.file("grab.conf"), encoding: .utf8)
        #expect(written.contains("config=\(users.standardizedFileURL.path)\n"), "\(written)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty, "nothing is written in the working folder")
    }

    @Test func theConventionalQueriesAnswerAndUnknownOptionsFail() async throws {
        let capabilities = try await CLI.run(["grab", "--capabilities"])
        #expect(capabilities.stdout == "baseline\nmanualconfig\ncache\npreferredmethod\n")
        #expect(try await CLI.run(["grab", "--preferredmethod"]).stdout == "allatonce\n")
        #expect(try await CLI.run(["grab", "--description"]).stdout.hasPrefix("tvguide"))
        #expect(try await CLI.run(["grab", "--version"]).stdout.hasPrefix("tvguide "))
        #expect(try await CLI.run(["grab", "--ahdmegkeja"]).status != 0)
        #expect(try await CLI.run(["grab", "--days", "0"]).status != 0)
    }

    @Test func configureWritesEveryChannelWithoutATerminal() async throws {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", try defaultConfig(miguiatv: Self.offline))
        let run = try await CLI.run(["grab", "--configure", "--config-file", scratch.file("xmltv/tv_grab_tvguide.conf").path],
                                    in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOf: scratch.file("xmltv/tv_grab_tvguide.conf"), encoding: .utf8).split(separator: "\n")
        #expect(lines.contains("config=\(scratch.file("providers.yaml").standardizedFileURL.path)"))
        #expect(lines.filter { $0.hasPrefix("channel=") }.count == 24)
        #expect(lines.contains("channel=La1.es"))
    }

    @Test func aGrabIsTheChosenChannelsLocalDaysAndNothingElse() async throws {
        let scratch = try Self.scratch(channels: "channel=La1.es\nchannel!La2.es\nchannel=TV3.es\n")
        // 21:00 in Newfoundland is 00:30 the next day in UTC: "tomorrow" is local.
        let run = try await CLI.run([
            "grab", "--config-file", "grab.conf", "--offset", "1", "--days", "1", "--now", "2026-10-21T23:30:00Z", "--quiet",
        ], in: scratch.url, environment: ["TZ": "America/St_Johns"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "--quiet printed: \(run.stderr)")
        #expect(run.stdout.hasPrefix("<?xml"))
        let channels = Set(run.stdout.components(separatedBy: "<channel id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        #expect(channels == ["La1.es", "TV3.es"])
        let starts = run.stdout.components(separatedBy: "<programme start=\"").dropFirst().map { String($0.prefix(14)) }
        #expect(!starts.isEmpty)
        // 2026-10-22 00:00 to 2026-10-23 00:00 in St John's (UTC-2:30 in October) in UTC.
        #expect(starts.allSatisfy { $0 >= "20261022023000" && $0 < "20261023023000" }, "\(starts.min() ?? "") … \(starts.max() ?? "")")

        let written = try await CLI.run(["grab", "--config-file", "grab.conf", "--offset", "1", "--days", "1", "--now", "2026-10-21T23:30:00Z",
                                         "--quiet", "--output", "out.xml"], in: scratch.url, environment: ["TZ": "America/St_Johns"])
        #expect(written.stdout.isEmpty)
        #expect(try String(contentsOf: scratch.file("out.xml"), encoding: .utf8) == run.stdout)
    }

    @Test func aMissingOrBrokenConfigurationSaysWhatToDo() async throws {
        let scratch = try Self.scratch()
        let missing = try await CLI.run(["grab", "--config-file", "nowhere.conf"], in: scratch.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("run `tvguide grab --configure` first"), "\(missing.stderr)")
        try scratch.write("bad.conf", "config=providers.yaml\nregion=es\n")
        let bad = try await CLI.run(["grab", "--config-file", "bad.conf"], in: scratch.url)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.conf:2: unknown setting 'region'"), "\(bad.stderr)")
    }

    @Test func listChannelsPrintsTheChannelsAsXMLTV() async throws {
        let scratch = try Self.scratch()
        let run = try await CLI.run(["grab", "--config-file", "grab.conf", "--list-channels"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "<channel id=").count - 1 == 24)
        #expect(!run.stdout.contains("<programme"))
    }
}
