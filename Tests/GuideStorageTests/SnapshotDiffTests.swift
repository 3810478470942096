import Foundation
@testable import GuideCore
@testable import GuideStorage
import Testing
import TestSupport

@Suite struct SnapshotDiffTests {
    typealias Summary = GuideDiff.ProgrammeSummary
    typealias Field = GuideDiff.FieldChange

    static func time(_ text: String) -> Date { SnapshotSamples.time(text) }

    static func programme(_ channel: String, _ start: String, _ title: String, stop: String? = nil, source: String = "xmltv") -> Programme {
        Programme(channel: channel, start: time(start), stop: stop.map(time), title: title, source: source)
    }

    static func snapshot(channels: [Channel], programmes: [Programme], generatedAt: String = "2026-10-21T06:00:00Z") -> Snapshot {
        Snapshot(generatedAt: time(generatedAt),
                 window: TimeWindow(from: time(generatedAt), to: time(generatedAt).addingTimeInterval(7 * 86_400)),
                 channels: channels, programmes: programmes, report: RunReport())
    }

    static func snapshot(works: [Work], programmes: [Programme] = []) -> Snapshot {
        var snapshot = snapshot(channels: [la1], programmes: programmes)
        snapshot.works = Dictionary(uniqueKeysWithValues: works.map { ($0.id, $0) })
        return snapshot
    }

    static func work(_ id: String, _ title: String, kind: ProgrammeKind = .movie) -> Work {
        var metadata = Metadata()
        metadata.title = title
        return Work(id: id, kind: kind, metadata: metadata, sources: ["title": "tmdb"], matches: [:], guideTitles: [title])
    }

    static let la1 = Channel(id: "La1.es", name: "La 1")
    static let la2 = Channel(id: "La2.es", name: "La 2")

    @Test func theTextShowsControlCharactersInsteadOfObeyingThemAndCutsLongValues() {
        let old = Self.snapshot(channels: [Self.la1], programmes: [Self.programme("La1.es", "2026-10-21T20:00:00Z", "Telediario")])
        var changed = Self.programme("La1.es", "2026-10-21T20:00:00Z", "Telediario")
        changed.synopsis = String(repeating: "largo ", count: 200)
        let new = Self.snapshot(channels: [Self.la1], programmes: [
            changed, Self.programme("La1.es", "2026-10-21T21:00:00Z", "\u{1B}[2J\u{1B}[31mCine\u{9B}"),
        ])
        let text = SnapshotDiff.compare(old, new).text()
        #expect(text.contains("  + 2026-10-21 21:00Z \\u{1B}[2J\\u{1B}[31mCine\\u{9B}"), "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
        #expect(text.split(separator: "\n").allSatisfy { $0.count < 460 })
        #expect(text.contains("larg…"))
    }

    @Test func theSameGuideIsEmptyWhateverTheRunSaid() {
        let old = SnapshotSamples.full()
        var new = old
        new.generatedAt = Self.time("2026-10-26T06:00:00Z")
        new.window = TimeWindow(from: Self.time("2026-10-25T04:00:00Z"), to: Self.time("2026-11-02T05:00:00Z"))
        new.report = RunReport(warnings: ["a different run"])
        new.programmes.reverse()

        let diff = SnapshotDiff.compare(old, new)
        #expect(diff.isEmpty)
        #expect(diff == GuideDiff(channelsAdded: [], channelsRemoved: [], channelsChanged: [], channels: []))
        #expect(diff.text() == "no differences\n")
    }

    @Test func addedAndRemovedProgrammesPerChannel() {
        let old = Self.snapshot(channels: [Self.la1, Self.la2], programmes: [
            Self.programme("La1.es", "2026-10-21T19:00:00Z", "Telediario", stop: "2026-10-21T20:00:00Z"),
            Self.programme("La1.es", "2026-10-21T20:00:00Z", "Cine"),
            Self.programme("La2.es", "2026-10-21T20:00:00Z", "Documental"),
        ])
        let new = Self.snapshot(channels: [Self.la1, Self.la2], programmes: [
            Self.programme("La1.es", "2026-10-21T19:00:00Z", "Telediario", stop: "2026-10-21T20:00:00Z"),
            Self.programme("La1.es", "2026-10-21T22:00:00Z", "Noticias"),
            Self.programme("La1.es", "2026-10-21T21:00:00Z", "Serie"),
            Self.programme("La2.es", "2026-10-21T20:00:00Z", "Documental"),
        ])

        let diff = SnapshotDiff.compare(old, new)
        #expect(diff.channels == [GuideDiff.ChannelProgrammeDiff(
            channel: "La1.es",
            added: [Summary(start: Self.time("2026-10-21T21:00:00Z"), stop: nil, title: "Serie"),
                    Summary(start: Self.time("2026-10-21T22:00:00Z"), stop: nil, title: "Noticias")],
            removed: [Summary(start: Self.time("2026-10-21T20:00:00Z"), stop: nil, title: "Cine")],
            changed: []
        )])
        #expect(diff.programmesAdded == 2)
        #expect(diff.programmesRemoved == 1)
        #expect(!diff.isEmpty)
    }

    @Test func changedFieldsAreNamedAsInTheSnapshot() {
        var before = Self.programme("La1.es", "2026-10-21T20:00:00Z", "Cine", stop: "2026-10-21T22:00:00Z", source: "miguiatv")
        before.isNew = true
        before.credits = [Credit(role: .director, name: "Pedro Almodóvar")]
        before.synopsis = String(repeating: "a", count: 200)
        var after = before
        after.title = "Cine: Volver"
        after.stop = Self.time("2026-10-21T22:15:00Z")
        after.subtitle = "Estreno"
        after.isNew = nil
        after.source = "xmltv-sample"
        after.credits?.append(Credit(role: .actor, name: "Penélope Cruz", character: "Raimunda"))
        after.synopsis = String(repeating: "b", count: 200)

        let diff = SnapshotDiff.compare(Self.snapshot(channels: [Self.la1], programmes: [before]),
                                        Self.snapshot(channels: [Self.la1], programmes: [after]))

        let change = diff.channels.first?.changed.first
        #expect(change?.start == Self.time("2026-10-21T20:00:00Z"))
        #expect(change?.title == "Cine: Volver")
        #expect(change?.fields.map(\.field) == ["credits", "new", "source", "stop", "subtitle", "synopsis", "title"])
        #expect(change?.fields.first { $0.field == "title" } == Field(field: "title", old: "\"Cine\"", new: "\"Cine: Volver\""))
        #expect(change?.fields.first { $0.field == "stop" } == Field(field: "stop", old: "\"2026-10-21T22:00:00Z\"", new: "\"2026-10-21T22:15:00Z\""))
        #expect(change?.fields.first { $0.field == "subtitle" } == Field(field: "subtitle", old: nil, new: "\"Estreno\""))
        #expect(change?.fields.first { $0.field == "new" } == Field(field: "new", old: "true", new: nil))
        #expect(change?.fields.first { $0.field == "source" } == Field(field: "source", old: "\"miguiatv\"", new: "\"xmltv-sample\""))
        let synopsis = change?.fields.first { $0.field == "synopsis" }
        #expect(synopsis?.old == "\"" + String(repeating: "a", count: 118) + "…")
        #expect(synopsis?.new?.count == 120)
        #expect(diff.programmesChanged == 1)
        #expect(diff.channels.first?.added == [])
    }

    @Test func everyProgrammeFieldCounts() {
        let full = SnapshotSamples.fullProgramme()
        var bare = Programme(channel: full.channel, start: full.start, title: full.title, source: full.source)
        bare.sameStartIndex = full.sameStartIndex
        let diff = SnapshotDiff.compare(Self.snapshot(channels: [], programmes: [bare]), Self.snapshot(channels: [], programmes: [full]))
        let fields = diff.channels.first?.changed.first?.fields.map(\.field) ?? []
        // Every member the snapshot writes for a programme, less the identity and what both share.
        let members = Set(JSONWriter.members(of: full).keys).subtracting(["channel", "start", "sameStartIndex", "title", "source"])
        #expect(Set(fields) == members)
        // Counted independently of the writer: every stored property but those five.
        #expect(fields.count == Mirror(reflecting: full).children.count - 5)
    }

    @Test func channelsAddedRemovedAndChanged() {
        let tv3 = Channel(id: "TV3.es", name: "TV3", language: "ca")
        var renamed = Self.la1
        renamed.name = "La 1 HD"
        renamed.logo = "https://img.example/la1.png"
        let old = Self.snapshot(channels: [Self.la1, Self.la2], programmes: [Self.programme("La2.es", "2026-10-21T20:00:00Z", "Documental")])
        let new = Self.snapshot(channels: [tv3, renamed], programmes: [Self.programme("TV3.es", "2026-10-21T20:00:00Z", "Telenotícies")])

        let diff = SnapshotDiff.compare(old, new)
        #expect(diff.channelsAdded == ["TV3.es"])
        #expect(diff.channelsRemoved == ["La2.es"])
        #expect(diff.channelsChanged == [GuideDiff.ChannelChange(id: "La1.es", fields: ["logo", "name"])])
        #expect(diff.channels.map(\.channel) == ["La2.es", "TV3.es"])
        #expect(diff.channels.map(\.removed.count) == [1, 0])
        #expect(diff.channels.map(\.added.count) == [0, 1])
    }

    @Test func textRendering() {
        var moved = Self.programme("La1.es", "2026-10-21T21:30:00Z", "Serie", stop: "2026-10-21T22:30:00Z")
        let old = Self.snapshot(channels: [Self.la1, Self.la2], programmes: [
            moved,
            Self.programme("La1.es", "2026-10-21T23:00:00Z", "Cine"),
            Self.programme("La2.es", "2026-10-21T20:00:00Z", "Documental"),
        ])
        moved.title = "Serie (T2)"
        moved.stop = Self.time("2026-10-21T22:40:00Z")
        let new = Self.snapshot(channels: [Self.la1, Channel(id: "TV3.es", name: "TV3")], programmes: [
            Self.programme("La1.es", "2026-10-21T21:00:05Z", "Avance"),
            moved,
        ])

        #expect(SnapshotDiff.compare(old, new).text() == """
        channels:
          + TV3.es
          - La2.es
        La1.es:
          + 2026-10-21 21:00:05Z Avance
          - 2026-10-21 23:00Z Cine
          ~ 2026-10-21 21:30Z Serie (T2)
              stop: "2026-10-21T22:30:00Z" → "2026-10-21T22:40:00Z"
              title: "Serie" → "Serie (T2)"
        La2.es:
          - 2026-10-21 20:00Z Documental
        1 added, 2 removed, 1 changed in 2 channels; channels +1 -1 ~0; works +0 -0 ~0; audience days +0 -0 ~0

        """)
    }

    @Test func jsonRenderingIsDeterministicAndReadsBack() throws {
        var changed = Self.programme("La1.es", "2026-10-21T21:30:00Z", "Serie")
        let old = Self.snapshot(channels: [Self.la1], programmes: [changed])
        changed.subtitle = "Piloto"
        let new = Self.snapshot(channels: [Self.la1, Self.la2], programmes: [changed, Self.programme("La2.es", "2026-10-21T20:00:00Z", "Documental", stop: "2026-10-21T21:00:00Z")])
        let diff = SnapshotDiff.compare(old, new)

        let json = diff.json()
        #expect(json == SnapshotDiff.compare(old, new).json())
        #expect(try GuideDiff(json: json) == diff)
        #expect(String(decoding: json, as: UTF8.self) == """
        {
          "audienceDays": [],
          "audienceDaysAdded": [],
          "audienceDaysRemoved": [],
          "channels": [
            {
              "added": [],
              "changed": [
                {
                  "fields": [
                    {
                      "field": "subtitle",
                      "new": "\\"Piloto\\""
                    }
                  ],
                  "start": "2026-10-21T21:30:00Z",
                  "title": "Serie"
                }
              ],
              "channel": "La1.es",
              "removed": []
            },
            {
              "added": [
                {
                  "start": "2026-10-21T20:00:00Z",
                  "stop": "2026-10-21T21:00:00Z",
                  "title": "Documental"
                }
              ],
              "changed": [],
              "channel": "La2.es",
              "removed": []
            }
          ],
          "channelsAdded": [
            "La2.es"
          ],
          "channelsChanged": [],
          "channelsRemoved": [],
          "worksAdded": [],
          "worksChanged": [],
          "worksRemoved": []
        }

        """)
    }

    @Test func worksAddedAndRemovedAreListedByID() {
        let old = Self.snapshot(works: [Self.work("movie/tmdb/348", "Alien"), Self.work("series/thetvdb/79349", "Dexter", kind: .series),
                                        Self.work("movie/tmdb/219", "Volver")])
        var untitled = Self.work("movie/imdb/tt0078748", "Alien")
        untitled.metadata.title = nil
        let new = Self.snapshot(works: [Self.work("series/tmdb/1405", "Dexter", kind: .series), Self.work("movie/tmdb/219", "Volver"),
                                        untitled, Self.work("movie/tmdb/597", "Titanic")])

        let diff = SnapshotDiff.compare(old, new)
        #expect(diff.worksAdded == [GuideDiff.WorkSummary(id: "movie/imdb/tt0078748", title: "Alien"),
                                    GuideDiff.WorkSummary(id: "movie/tmdb/597", title: "Titanic"),
                                    GuideDiff.WorkSummary(id: "series/tmdb/1405", title: "Dexter")])
        #expect(diff.worksRemoved == [GuideDiff.WorkSummary(id: "movie/tmdb/348", title: "Alien"),
                                      GuideDiff.WorkSummary(id: "series/thetvdb/79349", title: "Dexter")])
        #expect(diff.worksChanged == [])
        #expect(diff.channels == [])
        #expect(!diff.isEmpty)
    }

    @Test func aChangedWorkNamesItsFieldsAndTheProvidersThatChanged() {
        let before = SnapshotSamples.fullWork()
        var after = before
        after.metadata.overview = "Otra sinopsis."
        after.metadata.voteAverage = 8
        after.metadata.tagline = nil
        after.metadata.genres?.append("Misterio")
        after.sources["overview"] = "tmdb-recorded"
        after.sources["providerIDs.imdb"] = nil
        after.sources["tagline"] = "thetvdb"
        after.matches["thetvdb"] = nil
        after.matches["tmdb"]?.confidence = 0.95
        after.matches["tmdb"]?.method = .exact
        after.guideTitles.append("Volver (Almodóvar)")

        let diff = SnapshotDiff.compare(Self.snapshot(works: [before]), Self.snapshot(works: [after]))

        #expect(diff.worksAdded == [])
        #expect(diff.worksRemoved == [])
        let change = diff.worksChanged.first
        #expect(diff.worksChanged.count == 1)
        #expect(change?.id == "movie/tmdb/219")
        #expect(change?.title == "Volver")
        #expect(change?.fields == [
            Field(field: "genres", old: #"["Drama","Comedia"]"#, new: #"["Drama","Comedia","Misterio"]"#),
            Field(field: "guideTitles", old: #"["Volver","Volver (2006)"]"#, new: #"["Volver","Volver (2006)","Volver (Almodóvar)"]"#),
            Field(field: "matches.thetvdb", old: #"{"confidence":0.7,"method":"nearYear","providerID":"1234","title":"Volver (2006)"}"#, new: nil),
            Field(field: "matches.tmdb", old: #"{"confidence":1.0,"method":"providerID","providerID":"219","title":"Volver"}"#,
                  new: #"{"confidence":0.95,"method":"exact","providerID":"219","title":"Volver"}"#),
            Field(field: "overview", old: #""Raimunda vuelve a La Mancha.\nSu madre, también.""#, new: #""Otra sinopsis.""#),
            Field(field: "tagline", old: #""Nunca te vas del todo.""#, new: nil),
            Field(field: "voteAverage", old: "7.9", new: "8.0"),
        ])
        #expect(change?.sources == [
            GuideDiff.FieldChange(field: "overview", old: "tmdb", new: "tmdb-recorded"),
            GuideDiff.FieldChange(field: "providerIDs.imdb", old: "thetvdb", new: nil),
            GuideDiff.FieldChange(field: "tagline", old: nil, new: "thetvdb"),
        ])
    }

    /// The same text from another provider (a live answer replaced by a recording) is a change.
    @Test func aProviderSwitchAloneIsAChange() {
        let before = SnapshotSamples.fullWork()
        var after = before
        after.sources["overview"] = "tmdb-recorded"
        let diff = SnapshotDiff.compare(Self.snapshot(works: [before]), Self.snapshot(works: [after]))
        #expect(diff.worksChanged == [GuideDiff.WorkChange(id: "movie/tmdb/219", title: "Volver", fields: [],
                                                           sources: [GuideDiff.FieldChange(field: "overview", old: "tmdb", new: "tmdb-recorded")])])
        #expect(!diff.isEmpty)
    }

    @Test func aScoreThatIsNotANumberIsNoChange() {
        var work = Self.work("movie/tmdb/348", "Alien")
        work.metadata.voteAverage = .nan
        let diff = SnapshotDiff.compare(Self.snapshot(works: [work]), Self.snapshot(works: [work]))
        #expect(diff.isEmpty)
    }

    @Test func everyWorkFieldCounts() {
        let full = SnapshotSamples.fullWork()
        let bare = Work(id: full.id, kind: .programme, metadata: Metadata(), sources: [:], matches: [:], guideTitles: [])
        let change = SnapshotDiff.compare(Self.snapshot(works: [bare]), Self.snapshot(works: [full])).worksChanged.first
        let fields = Set(change?.fields.map(\.field) ?? [])
        let metadataFields = Set(JSONWriter.members(of: full.metadata).keys)
        // Counted independently of the writer: every stored property of Metadata.
        #expect(metadataFields.count == Mirror(reflecting: full.metadata).children.count)
        #expect(fields == metadataFields.union(["kind", "guideTitles", "matches.tmdb", "matches.thetvdb"]))
        #expect(change?.sources.count == full.sources.count)
    }

    @Test func aProgrammeThatPointsAtAnotherWorkIsChanged() {
        var before = Self.programme("La1.es", "2026-10-21T22:00:00Z", "Titanic")
        before.work = "movie/tmdb/16535"
        var after = before
        after.work = "movie/tmdb/597"
        var matched = Self.programme("La1.es", "2026-10-21T20:00:00Z", "Volver")
        let unmatched = matched
        matched.work = "movie/tmdb/219"

        let diff = SnapshotDiff.compare(Self.snapshot(channels: [Self.la1], programmes: [before, unmatched]),
                                        Self.snapshot(channels: [Self.la1], programmes: [after, matched]))
        let changed = diff.channels.first?.changed
        #expect(changed?.map(\.title) == ["Volver", "Titanic"])
        #expect(changed?.map(\.fields) == [
            [Field(field: "work", old: nil, new: #""movie/tmdb/219""#)],
            [Field(field: "work", old: #""movie/tmdb/16535""#, new: #""movie/tmdb/597""#)],
        ])
    }

    @Test func worksInText() {
        let alien = Self.work("movie/tmdb/348", "Alien")
        var volver = SnapshotSamples.fullWork()
        var renamed = volver
        renamed.metadata.title = "Volver (2006)"
        renamed.metadata.voteAverage = 8
        renamed.sources["voteAverage"] = "tmdb-recorded"
        renamed.sources["title"] = nil
        volver.metadata.tagline = nil
        var series = Self.work("series/thetvdb/79349", "Dexter", kind: .series)
        series.metadata.title = nil
        var programme = Self.programme("La1.es", "2026-10-21T20:00:00Z", "Volver")
        programme.work = volver.id
        var pointed = programme
        pointed.work = "movie/tmdb/348"

        let text = SnapshotDiff.compare(Self.snapshot(works: [volver, series], programmes: [pointed]),
                                        Self.snapshot(works: [renamed, alien], programmes: [programme])).text()
        #expect(text == """
        La1.es:
          ~ 2026-10-21 20:00Z Volver
              work: "movie/tmdb/348" → "movie/tmdb/219"
        works:
          + movie/tmdb/348 Alien
          - series/thetvdb/79349 Dexter
          ~ movie/tmdb/219 Volver (2006)
              tagline: (none) → "Nunca te vas del todo."
              title: "Volver" → "Volver (2006)"
              voteAverage: 7.9 → 8.0
              sources:
                title: tmdb → (none)
                voteAverage: tmdb → tmdb-recorded
        0 added, 0 removed, 1 changed in 1 channel; channels +0 -0 ~0; works +1 -1 ~1; audience days +0 -0 ~0

        """)
    }

    @Test func worksInJSONAreSortedAndReadBack() throws {
        var volver = SnapshotSamples.fullWork()
        let old = Self.snapshot(works: [volver, Self.work("series/tmdb/1405", "Dexter", kind: .series)])
        volver.metadata.runtime = 120
        volver.sources["runtime"] = "thetvdb"
        let new = Self.snapshot(works: [Self.work("movie/tmdb/597", "Titanic"), volver, Self.work("movie/tmdb/348", "Alien")])
        let diff = SnapshotDiff.compare(old, new)

        let json = diff.json()
        #expect(json == SnapshotDiff.compare(old, new).json())
        #expect(try GuideDiff(json: json) == diff)
        #expect(String(decoding: json, as: UTF8.self) == """
        {
          "audienceDays": [],
          "audienceDaysAdded": [],
          "audienceDaysRemoved": [],
          "channels": [],
          "channelsAdded": [],
          "channelsChanged": [],
          "channelsRemoved": [],
          "worksAdded": [
            {
              "id": "movie/tmdb/348",
              "title": "Alien"
            },
            {
              "id": "movie/tmdb/597",
              "title": "Titanic"
            }
          ],
          "worksChanged": [
            {
              "fields": [
                {
                  "field": "runtime",
                  "new": "120",
                  "old": "121"
                }
              ],
              "id": "movie/tmdb/219",
              "sources": [
                {
                  "field": "runtime",
                  "new": "thetvdb"
                }
              ],
              "title": "Volver"
            }
          ],
          "worksRemoved": [
            {
              "id": "series/tmdb/1405",
              "title": "Dexter"
            }
          ]
        }

        """)
    }

    // MARK: audiences

    static func record(_ day: Day, _ channel: String, _ title: String, _ viewers: Int, start: String? = nil,
                       share: Double? = nil, source: String = "formulatv", programme: String? = nil) -> AudienceRecord {
        AudienceRecord(day: day, title: title, channel: channel, viewers: viewers, share: share, start: start.map(time), source: source, programme: programme)
    }

    static func snapshot(audiences: [Day: [AudienceRecord]]) -> Snapshot {
        var snapshot = snapshot(channels: [la1], programmes: [])
        snapshot.audiences = audiences.keys.sorted().map { AudienceDay(day: $0, records: AudienceStore.ranked(audiences[$0] ?? [])) }
        return snapshot
    }

    static let monday = AudienceSamples.day("2026-10-19")
    static let tuesday = AudienceSamples.day("2026-10-20")
    static let wednesday = AudienceSamples.day("2026-10-21")

    /// Monday dropped out of the window, Wednesday came in, Tuesday was fetched again: the news
    /// gained viewers (which moves no one's rank enough to matter: rank is not compared), a film
    /// was joined to its programme, a late show came in from the archive and one row went.
    static func audienceChange() -> (old: Snapshot, new: Snapshot) {
        let old = snapshot(audiences: [
            monday: [record(monday, "La1.es", "Telediario 2", 2_000_000)],
            tuesday: [
                record(tuesday, "La1.es", "Telediario 2", 2_100_000, start: "2026-10-20T19:00:00Z", share: 16.4),
                record(tuesday, "Antena3.es", "El hormiguero 3.0", 1_900_000, start: "2026-10-20T20:00:00Z"),
                record(tuesday, "La1.es", "Cine: Alien", 1_500_000, start: "2026-10-20T20:05:00Z"),
                record(tuesday, "Cuatro.es", "Cuarto milenio", 700_000),
            ],
        ])
        let new = snapshot(audiences: [
            tuesday: [
                record(tuesday, "La1.es", "Telediario 2", 2_150_000, start: "2026-10-20T19:00:00Z", share: 16.9),
                record(tuesday, "Antena3.es", "El hormiguero 3.0", 1_900_000, start: "2026-10-20T20:00:00Z"),
                record(tuesday, "La1.es", "Cine: Alien", 1_500_000, start: "2026-10-20T20:05:00Z", programme: "La1.es@20261020T200500Z"),
                record(tuesday, "laSexta.es", "Late Xou", 650_000, start: "2026-10-20T22:30:00Z", source: "formulatv-archive"),
            ],
            wednesday: [record(wednesday, "La1.es", "Telediario 2", 2_050_000), record(wednesday, "La1.es", "La Revuelta", 1_600_000)],
        ])
        return (old, new)
    }

    @Test func audienceDaysAddedRemovedAndRecordsChanged() {
        let (old, new) = Self.audienceChange()
        let diff = SnapshotDiff.compare(old, new)

        #expect(diff.audienceDaysAdded == [GuideDiff.AudienceDaySummary(day: Self.wednesday, records: 2)])
        #expect(diff.audienceDaysRemoved == [GuideDiff.AudienceDaySummary(day: Self.monday, records: 1)])
        #expect(diff.audienceDays == [GuideDiff.AudienceDayDiff(
            day: Self.tuesday,
            added: [GuideDiff.AudienceSummary(channel: "laSexta.es", title: "Late Xou", start: Self.time("2026-10-20T22:30:00Z"), viewers: 650_000)],
            removed: [GuideDiff.AudienceSummary(channel: "Cuatro.es", title: "Cuarto milenio", start: nil, viewers: 700_000)],
            changed: [
                GuideDiff.AudienceChange(channel: "La1.es", title: "Telediario 2", start: Self.time("2026-10-20T19:00:00Z"), fields: [
                    Field(field: "share", old: "16.4", new: "16.9"),
                    Field(field: "viewers", old: "2100000", new: "2150000"),
                ]),
                GuideDiff.AudienceChange(channel: "La1.es", title: "Cine: Alien", start: Self.time("2026-10-20T20:05:00Z"), fields: [
                    Field(field: "programme", old: nil, new: #""La1.es@20261020T200500Z""#),
                ]),
            ])])
        #expect(!diff.isEmpty)
        #expect(diff.channels == [])
    }

    @Test func aRankThatMovesBecauseOthersChangedIsNoChange() {
        let old = Self.snapshot(audiences: [Self.tuesday: [Self.record(Self.tuesday, "La1.es", "Telediario 2", 2_100_000),
                                                           Self.record(Self.tuesday, "La1.es", "Cine", 1_500_000)]])
        var new = old
        new.audiences[0].records.swapAt(0, 1)
        new.audiences[0].records[0].rank = 1
        new.audiences[0].records[1].rank = 2
        #expect(SnapshotDiff.compare(old, new).isEmpty)
    }

    @Test func audiencesInText() {
        let (old, new) = Self.audienceChange()
        #expect(SnapshotDiff.compare(old, new).text() == """
        audiences:
          + 2026-10-21 (2 records)
          - 2026-10-19 (1 record)
          2026-10-20:
            + laSexta.es 2026-10-20 22:30Z Late Xou: 650000 viewers
            - Cuatro.es Cuarto milenio: 700000 viewers
            ~ La1.es 2026-10-20 19:00Z Telediario 2
                share: 16.4 → 16.9
                viewers: 2100000 → 2150000
            ~ La1.es 2026-10-20 20:05Z Cine: Alien
                programme: (none) → "La1.es@20261020T200500Z"
        0 added, 0 removed, 0 changed in 0 channels; channels +0 -0 ~0; works +0 -0 ~0; audience days +1 -1 ~1

        """)
    }

    @Test func audiencesInJSONAreSortedAndReadBack() throws {
        let (old, new) = Self.audienceChange()
        let diff = SnapshotDiff.compare(old, new)
        let json = diff.json()
        #expect(try GuideDiff(json: json) == diff)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.hasPrefix("""
        {
          "audienceDays": [
            {
              "added": [
                {
                  "channel": "laSexta.es",
                  "start": "2026-10-20T22:30:00Z",
                  "title": "Late Xou",
                  "viewers": 650000
                }
              ],
              "changed": [
                {
                  "channel": "La1.es",
                  "fields": [
                    {
                      "field": "share",
                      "new": "16.9",
                      "old": "16.4"
                    },
                    {
                      "field": "viewers",
                      "new": "2150000",
                      "old": "2100000"
                    }
                  ],
                  "start": "2026-10-20T19:00:00Z",
                  "title": "Telediario 2"
                },
        """))
        #expect(text.contains("""
          "audienceDaysAdded": [
            {
              "day": "2026-10-21",
              "records": 2
            }
          ],
          "audienceDaysRemoved": [
            {
              "day": "2026-10-19",
              "records": 1
            }
          ],
          "channels": [],
        """))
    }
}
