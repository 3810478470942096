import Foundation
import Testing
import TestSupport

/// `tvguide recommend` on the golden snapshot, as a user runs it.
@Suite struct RecommendCommandTests {
    static let evening = "2026-10-21T19:00:00Z"

    @Test func picksTheEveningsFilmsAndSaysWhyInTheLanguageAsked() async throws {
        let scratch = try Scratch()
        let snapshots = scratch.file("snapshots")
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.url("golden/offline-default.json"), to: snapshots.appendingPathComponent("latest.json"))

        let plain = try await CLI.run(["recommend", "--snapshots", snapshots.path, "--now", Self.evening, "--limit", "3"], in: scratch.url)
        #expect(plain.status == 0, "\(plain.stderr)")
        let lines = plain.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("22:55  TV3  Alcarràs") == true, "\(plain.stdout)")
        #expect(lines.contains("       · premiere"))

        let tomorrow = try await CLI.run(["recommend", "--snapshots", snapshots.path, "--now", Self.evening, "--date", "2026-10-22",
                                          "--saved", "Gladiator", "--language", "es", "--format", "json"], in: scratch.url)
        #expect(tomorrow.status == 0, "\(tomorrow.stderr)")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(tomorrow.stdout.utf8)) as? [String: Any])
        let first = try #require((body["items"] as? [[String: Any]])?.first)
        #expect((first["programme"] as? [String: Any])?["title"] as? String == "Alien, el octavo pasajero")
        #expect((first["reasons"] as? [[String: String]])?.first?["text"] == "porque guardaste Gladiator: mismo director (Ridley Scott)")

        let again = try await CLI.run(["recommend", "--snapshots", snapshots.path, "--now", Self.evening, "--date", "2026-10-22",
                                       "--saved", "Gladiator", "--language", "es", "--format", "json"], in: scratch.url)
        #expect(again.stdout == tomorrow.stdout, "the same snapshot, profile and day give the same list")

        let badKind = try await CLI.run(["recommend", "--snapshots", snapshots.path, "--kinds", "film"], in: scratch.url)
        #expect(badKind.status == 2 && badKind.stderr.contains("kinds"))
        let badLineup = try await CLI.run(["recommend", "--snapshots", snapshots.path, "--lineup", "cable",
                                           "--config", Fixtures.url("../providers.yaml").path], in: scratch.url)
        #expect(badLineup.status != 0 && badLineup.stderr.contains("cable"))
        let outside = try await CLI.run(["recommend", "--snapshots", snapshots.path, "--date", "2030-01-01"], in: scratch.url)
        #expect(outside.status == 1 && outside.stderr.contains("nothing to recommend"))
    }
}
