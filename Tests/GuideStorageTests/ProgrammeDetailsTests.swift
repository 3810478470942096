import Foundation
@testable import GuideCore
@testable import GuideStorage
import Testing

/// `Programme` keeps what most airings lack behind one shared reference; that must not show.
@Suite struct ProgrammeDetailsTests {
    static let start = Date(timeIntervalSince1970: 1_793_000_000)

    @Test func anAiringIsSmallWhateverItsDetails() {
        // 576 bytes when every field was inline, 200 before synopses could stay in a companion
        // and details were shared; a new inline field shows here first.
        #expect(MemoryLayout<Programme>.stride <= 128)
    }

    @Test func detailsHoldRoomOnlyForWhatMostFilmsAndEpisodesHave() {
        // 248 bytes when every field had room; the rare ones are boxed apart.
        #expect(MemoryLayout<ProgrammeDetails>.size <= 96)
    }

    @Test func rareDetailsSetThenClearedLeaveAnEqualProgramme() {
        var plain = Programme(channel: "La1.es", start: Self.start, title: "Cine", source: "x")
        plain.credits = [Credit(role: .actor, name: "Ana")]
        var changed = plain
        changed.ratings = [Rating(system: "ES", value: "+7")]
        changed.language = "es"
        changed.sameStartIndex = 1
        #expect(changed != plain)
        changed.ratings = nil
        changed.language = nil
        #expect(changed != plain && changed.sameStartIndex == 1)
        changed.sameStartIndex = nil
        #expect(changed == plain)
        #expect(changed.hashValue == plain.hashValue)
    }

    @Test func detailsSetThenClearedLeaveAnEqualProgramme() {
        let plain = Programme(channel: "La1.es", start: Self.start, title: "Cine", source: "x")
        var changed = plain
        changed.episode = Episode(season: 2, number: 3)
        changed.credits = [Credit(role: .actor, name: "Ana")]
        #expect(changed != plain)
        changed.episode = nil
        #expect(changed != plain)
        changed.credits = nil
        #expect(changed == plain)
        #expect(changed.hashValue == plain.hashValue)
    }

    @Test func aCopyIsWrittenApartFromItsOriginal() {
        var original = Programme(channel: "La1.es", start: Self.start, title: "Cine", source: "x")
        original.year = 1999
        original.ratings = [Rating(system: "ES", value: "+7")]
        var copy = original
        copy.year = 2000
        copy.ratings?.append(Rating(value: "TP"))
        #expect(original.year == 1999 && original.ratings?.count == 1)
        #expect(copy.year == 2000 && copy.ratings?.count == 2)
        #expect(copy.credits == nil && copy.ratings?.first?.system == "ES")
    }

    @Test func everyFieldSurvivesJSONEncoderAndDecoder() throws {
        var programme = Programme(channel: "La1.es", start: Self.start, stop: Self.start.addingTimeInterval(3_600), title: "Cine", source: "x")
        programme.subtitle = "S"; programme.synopsis = "D"; programme.textLanguage = "es"
        programme.otherTexts = [ProgrammeText(field: .title, value: "Movie", lang: "en")]
        programme.kind = .movie; programme.categories = [LocalizedText("Cine", lang: "es")]
        programme.keywords = [LocalizedText("k")]; programme.date = "1999"; programme.year = 1999
        programme.episode = Episode(season: 1); programme.credits = [Credit(role: .director, name: "D")]
        programme.language = "es"; programme.originalLanguage = "en"; programme.countries = ["ES"]; programme.length = 5_400
        programme.images = [ImageRef(url: "https://example.invalid/p.jpg")]; programme.urls = ["https://example.invalid"]
        programme.video = VideoInfo(colour: true); programme.audio = AudioInfo(stereo: "stereo")
        programme.previouslyShown = PreviouslyShown(start: "2006"); programme.premiere = true; programme.lastChance = false
        programme.isNew = true; programme.subtitles = [SubtitleInfo(type: "teletext")]; programme.ratings = [Rating(value: "+7")]
        programme.starRatings = [Rating(value: "3/5")]; programme.providerIDs = ["tmdb": "603"]; programme.work = "tmdb:603"
        programme.sameStartIndex = 1
        var extras = XMLTVExtras()
        extras.showview = "123"
        programme.xmltv = extras
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(programme)
        #expect(try JSONDecoder().decode(Programme.self, from: json) == programme)
        let keys = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any]).keys
        #expect(keys.count == 35, "\(keys.sorted())")
        #expect(keys.contains("new") && keys.contains("xmltv"))
    }
}

/// A snapshot read back holds each repeated value once.
@Suite struct InternedSnapshotTests {
    static func storage(_ text: String?) -> UnsafeRawPointer? {
        var text = text
        return text?.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func rerunsShareTheirTextsAndListsOnceRead() throws {
        let start = Date(timeIntervalSince1970: 1_793_000_000)
        let synopsis = "Una familia se reúne en la casa del pueblo para el verano."
        let programmes = (0..<4).map { n in
            var programme = Programme(channel: "Canal-Sur-Andalucia.es", start: start.addingTimeInterval(Double(n) * 3_600),
                                      title: "Una película de sobremesa", source: "xmltv-fallback")
            programme.synopsis = synopsis
            programme.categories = [LocalizedText("Película", lang: "es")]
            programme.credits = [Credit(role: .actor, name: "Ana Belén")]
            return programme
        }
        let snapshot = Snapshot(generatedAt: start, window: TimeWindow(from: start, to: start.addingTimeInterval(86_400)),
                                channels: [], programmes: programmes, report: RunReport())
        // In one go through JSONDecoder (a small file), and in parallel through ProgrammeJSONReader.
        let json = try SnapshotCodec.encode(snapshot)
        for read in [try SnapshotCodec.decode(json), try SnapshotCodec.decode(json, programmesPerChunk: 2)] {
            #expect(read.programmes == programmes)
            expectShared(read.programmes)
        }
    }

    /// Within each pair, which is what one task of the parallel decode reads and interns.
    func expectShared(_ programmes: [Programme]) {
        for (first, programme) in [(programmes[0], programmes[1]), (programmes[2], programmes[3])] {
            #expect(Self.storage(programme.synopsis) == Self.storage(first.synopsis))
            #expect(Self.storage(programme.title) == Self.storage(first.title))
            #expect(Self.storage(programme.channel) == Self.storage(first.channel))
            #expect(programme.categories?.withUnsafeBufferPointer { $0.baseAddress } == first.categories?.withUnsafeBufferPointer { $0.baseAddress })
            #expect(programme.credits?.withUnsafeBufferPointer { $0.baseAddress } == first.credits?.withUnsafeBufferPointer { $0.baseAddress })
        }
    }
}

@Suite struct InternerTests {
    /// Swift calls canonical equivalents equal; a guide's bytes must come back as they were
    /// written all the same, so only exact copies are shared.
    @Test func canonicalEquivalentsKeepTheirOwnBytes() {
        var interner = Interner()
        let composed = "Caf\u{E9} con leche y tostadas"
        let decomposed = "Cafe\u{301} con leche y tostadas"
        #expect(composed == decomposed)
        #expect(Array(interner.string(composed).utf8) == Array(composed.utf8))
        #expect(Array(interner.string(decomposed).utf8) == Array(decomposed.utf8))
        #expect(Array(interner.string(String(decomposed)).utf8) == Array(decomposed.utf8))
    }

    @Test func shortStringsAreLeftInline() {
        var interner = Interner()
        #expect(interner.string("La1.es") == "La1.es")
        #expect(interner.string(nil) == nil)
        let long = String(repeating: "x", count: 16)
        let first = interner.string(long)
        let again = interner.string(String(repeating: "x", count: 16))
        #expect(InternedSnapshotTests.storage(first) == InternedSnapshotTests.storage(again))
    }
}
