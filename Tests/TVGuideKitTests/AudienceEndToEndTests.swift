import Foundation
import GuideCore
import GuideStorage
import TestSupport
import Testing

/// `tvguide build` and `tvguide audiences` with scraped audience rankings answered from the
/// recorded formulatv pages.
struct AudienceEndToEndTests {
    /// The day after the last recorded page: the 14 days kept are the whole recording.
    static let dayAfterRecording = "2026-10-26T10:00:00Z"

    /// The default formulatv recipe under another name, answering from `folder`.
    static func recipe(_ name: String, folder: String) -> String {
        formulatvRecipe(name, options: ["replay: \(Fixtures.url(folder).path)"])
    }

    static func configuration(audience: [String], providers: [String]) throws -> String {
        // The default channel list, names and aliases as the pages write them, without MiGuiaTV's column.
        let channels = try defaultChannelLines()
            .map { $0.replacingOccurrences(of: #", miguiatv: \d+"#, with: "", options: .regularExpression) }
            .joined(separator: "\n")
        return """
            channels:
            \(channels)
            guide: [sample]
            audience: [\(audience.joined(separator: ", "))]
            providers:
              sample: { type: xmltv, url: \(Fixtures.url("xmltv/sample.xml").path) }
            \(providers.joined(separator: "\n"))
            """
    }

    @Test func aPageWhoseLayoutChangedFailsAsMalformedAndTheNextProviderServesTheDay() async throws {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", try Self.configuration(
            audience: ["site", "archive"],
            providers: [Self.recipe("site", folder: "formulatv-moved"), Self.recipe("archive", folder: "formulatv")]))
        let run = try await CLI.run(["build", "--now", Self.dayAfterRecording, "--from", "2026-10-19", "--to", "2026-10-26"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")

        let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        #expect(snapshot.audiences.map(\.day.description) == (12...25).map { "2026-10-\($0)" })
        #expect(snapshot.audiences.allSatisfy { $0.records.count == 40 && $0.records.allSatisfy { $0.source == "archive" } })
        let report = try #require(snapshot.report.audience)
        let site = try #require(report.providers.first { $0.id == "site" })
        let malformed = site.errors.filter { $0.kind == "malformed" }
        #expect(malformed.map(\.day?.description) == ["2026-10-24", "2026-10-25"])
        #expect(malformed.contains { $0.message.contains("viewers") && $0.message.contains("td[4]") }, "\(malformed)")
        #expect(malformed.contains { $0.message.contains("//table[@class='audiencias']//tr[td]") }, "\(malformed)")
        #expect(report.joined > 200, "the week the guide covers is joined: \(report.joined)")
        let joined = snapshot.audiences.flatMap(\.records).compactMap(\.programme)
        let programmeIDs = Set(snapshot.programmes.map(\.id))
        #expect(joined.allSatisfy(programmeIDs.contains), "a joined record points at a programme of the guide")
    }

    @Test func fourteenDaysOfPagesOverHTTP() async throws {
        let scratch = try Scratch()
        let log = RequestLog()
        try await LoopbackServer.run(log: log, LoopbackServer.serving(directory: Fixtures.url("formulatv"))) { base in
            let site = Self.recipe("site", folder: "formulatv")
                .replacingOccurrences(of: "https://www.formulatv.com/", with: base.absoluteString)
                .replacingOccurrences(of: "replay: \(Fixtures.url("formulatv").path)", with: "timeout: 60s\n    retries: 0")
            try scratch.write("providers.yaml", try Self.configuration(audience: ["site"], providers: [site]))
            let run = try await CLI.run(["build", "--now", Self.dayAfterRecording, "--quiet"], in: scratch.url)
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(await log.count == 14)
        #expect(await log.requests.map(\.path).sorted().first == "/audiencias/12-10-2026/")
        let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        #expect(snapshot.audiences.count == 14)
        #expect(snapshot.audiences.allSatisfy { $0.records.count == 40 })
        #expect(snapshot.report.audience?.providers.first?.notes.contains { $0.contains("1 advert row(s) skipped") } == true)
    }

    @Test func aGuideScrapedFromHTMLPagesAsTheWorkedExampleSays() async throws {
        let scratch = try Scratch()
        try await LoopbackServer.run(LoopbackServer.serving(directory: Fixtures.url("scrape-cases"))) { base in
            try scratch.write("providers.yaml", """
                channels:
                  - { id: La1.es, name: La 1, my-site: la1 }
                guide: [my-site]
                providers:
                  my-site:
                    type: scrape
                    produces: guide
                    url: "\(base.absoluteString)guia/{channel}/{date:yyyy-MM-dd}"
                    rows: "//ul[@class='parrilla']/li[@class='emision']"
                    fields:
                      start:       { xpath: "span[@class='hora']", parse: time }
                      stop:        { xpath: "span[@class='fin']", parse: time }
                      title:       { xpath: "h3", parse: text }
                      subtitle:    { xpath: "h4", parse: text }
                      description: { xpath: "p[@class='sinopsis']", parse: text }
                      category:    { xpath: "em", parse: text }
                    timeout: 60s
                    retries: 0
                """)
            let run = try await CLI.run(["build", "--now", "2026-10-19T12:00:00Z", "--from", "2026-10-19T04:00:00Z",
                                         "--to", "2026-10-21T04:00:00Z", "--quiet"], in: scratch.url)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let snapshot = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        let titles = snapshot.programmes.map(\.title)
        #expect(titles.starts(with: ["Telediario Matinal", "La Hora de La 1", "Telediario 2", "Cine", "La noche en 24h"]), "\(titles)")
        #expect(snapshot.programmes.allSatisfy { $0.channel == "La1.es" && $0.source == "my-site" })
        let film = try #require(snapshot.programmes.first { $0.title == "Cine" })
        #expect(film.subtitle == "Los santos inocentes")
        // 23:30 Madrid summer time, and the 01:15 after it is the next day.
        #expect(film.start == ISOTime.parse("2026-10-19T21:30:00Z"))
        #expect(snapshot.programmes.first { $0.title == "La noche en 24h" }?.start == ISOTime.parse("2026-10-19T23:15:00Z"))
    }

    @Test func daysAlreadyKeptAreNotFetchedAgainAndSurviveAFailingSource() async throws {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", try Self.configuration(
            audience: ["archive"], providers: [Self.recipe("archive", folder: "formulatv")]))
        #expect(try await CLI.run(["build", "--now", Self.dayAfterRecording, "--quiet"], in: scratch.url).status == 0)
        let first = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        #expect(first.audiences.count == 14)

        // The source is now broken: the kept days are neither fetched nor lost.
        try scratch.write("providers.yaml", try Self.configuration(
            audience: ["archive"], providers: [Self.recipe("archive", folder: "formulatv-moved")]))
        let again = try await CLI.run(["build", "--now", Self.dayAfterRecording], in: scratch.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("0 day(s) fetched"), "\(again.stdout)")
        let second = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        #expect(second.audiences == first.audiences)

        // Asked to refresh, the broken source fails every day, and the kept days stay.
        let refreshed = try await CLI.run(["build", "--now", Self.dayAfterRecording, "--refresh-audiences"], in: scratch.url)
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        let third = try SnapshotStore.load(scratch.file("snapshots/latest.json"))
        #expect(third.audiences.map(\.day) == first.audiences.map(\.day))
        #expect(third.audiences.flatMap(\.records).map(\.viewers) == first.audiences.flatMap(\.records).map(\.viewers))
        #expect(third.report.audience?.failed.count == 14)
        #expect(third.report.audience?.stale.count == 14)
    }

    @Test func theAudiencesCommandRanksByViewers() async throws {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", try Self.configuration(
            audience: ["archive"], providers: [Self.recipe("archive", folder: "formulatv")]))
        #expect(try await CLI.run(["build", "--now", Self.dayAfterRecording, "--quiet"], in: scratch.url).status == 0)
        let snapshots = scratch.file("snapshots").path

        let json = try await CLI.run(["audiences", "--snapshots", snapshots, "--date", "2026-10-21", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let records = try JSONDecoder().decode([Record].self, from: Data(json.stdout.utf8))
        #expect(records.count == 40)
        #expect(records.map(\.viewers) == records.map(\.viewers).sorted(by: >))
        #expect(records.allSatisfy { $0.day == "2026-10-21" })
        // 21 October was recorded in ISO-8859-1: accents survive.
        #expect(records.contains { $0.title.contains("ó") || $0.title.contains("é") || $0.title.contains("í") })

        let week = try await CLI.run(["audiences", "--snapshots", snapshots, "--days", "7", "--channel", "La1.es"])
        #expect(week.status == 0, "\(week.stderr)")
        let rows = week.stdout.split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty && rows.allSatisfy { $0.contains("La1.es") })
        #expect(rows.allSatisfy { $0.contains("2026-10-") }, "several days show the day column")

        let none = try await CLI.run(["audiences", "--snapshots", snapshots, "--date", "2025-01-01"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("2026-10-12 … 2026-10-25"), "\(none.stderr)")
    }

    @Test func anInvalidXPathIsAConfigurationErrorBeforeAnyFetch() async throws {
        let scratch = try Scratch()
        try scratch.write("providers.yaml", try Self.configuration(
            audience: ["archive"],
            providers: [Self.recipe("archive", folder: "formulatv").replacingOccurrences(of: #"xpath: "td[4]""#, with: #"xpath: "td[4""#)]))
        let run = try await CLI.run(["validate"], in: scratch.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("viewers") && run.stderr.contains("td[4"), "\(run.stderr)")
    }

    private struct Record: Decodable {
        var day: String
        var title: String
        var viewers: Int
    }
}
