import Foundation
import GuideCore
import GuideStorage
@testable import GuideServer
import Testing

/// The index finds programmes from what their ids are made of, and other airings from title
/// numbers, rather than from tables keyed by strings per programme.
@Suite struct GuideIndexTests {
    static let t0 = Date(timeIntervalSince1970: 1_793_000_000)

    static func airing(_ channel: String, _ minutes: Double, _ title: String, sameStart: Int? = nil) -> Programme {
        var programme = Programme(channel: channel, start: t0.addingTimeInterval(minutes * 60),
                                  stop: t0.addingTimeInterval(minutes * 60 + 1_800), title: title, source: "test")
        programme.sameStartIndex = sameStart
        return programme
    }

    static let programmes = [
        airing("a@b.tv", 0, "Cine de barrio"),
        airing("a@b.tv", 30, "Telediario"),
        airing("a@b.tv", 30, "Telediario (signos)", sameStart: 1),
        airing("a@b.tv", 30.5, "Otro"),
        airing("La1.es", 0, "CINE DE BARRIO"),
        airing("La1.es", 60, "Telediario"),
        airing("La2.es", 120, "Telediário"),
    ]

    static let index = indexed(programmes)

    @Test func everyProgrammeIsFoundByItsIdClumpsAndSecondsIncluded() {
        for programme in Self.programmes {
            #expect(Self.index.programme(programme.id) == programme, "\(programme.id)")
        }
        #expect(Self.programmes[3].id == "a@b.tv@20261026T080350Z")
    }

    @Test func idsOfNoProgrammeFindNothing() {
        for id in ["", "@", "La1.es", "La1.es@", "La1.es@20261026T0733Z", "La1.es@20261026T073320Z.1", "La1.es@20261026T073321Z",
                   "La3.es@20261026T073320Z", "la1.es@20261026T073320Z", "La1.es@20261326T073320Z", "La1.es@2026102GT073320Z",
                   "b.tv@20261026T073320Z", "a@b.tv@20261026T080320Z.2", "a@b.tv@20261026T080320Z.x"] {
            #expect(Self.index.programme(id) == nil, "\(id)")
        }
    }

    @Test func otherAiringsAreThoseOfTitlesThatFoldAlike() {
        let cine = Self.index.otherAirings(of: Self.programmes[0], from: Self.t0)
        #expect(cine.map(\.id) == [Self.programmes[4].id])
        let news = Self.index.otherAirings(of: Self.programmes[1], from: Self.t0)
        #expect(news.map(\.id) == [Self.programmes[5].id, Self.programmes[6].id])
        #expect(Self.index.otherAirings(of: Self.programmes[3], from: Self.t0).isEmpty)
        #expect(Self.index.foldedTitles.count == 4, "one folded title per distinct fold: \(Self.index.foldedTitles)")
    }

    @Test func searchMatchesFoldedTitlesInGuideOrder() {
        #expect(Self.index.search("telediario").map(\.id) == [1, 2, 5, 6].map { Self.programmes[$0].id })
        #expect(Self.index.search("barrio").count == 2)
        #expect(Self.index.foldedTitle(at: 4) == "cine de barrio")
    }

    static func indexed(_ programmes: [Programme]) -> GuideIndex {
        GuideIndex(Snapshot(generatedAt: t0, window: TimeWindow(from: t0, to: t0.addingTimeInterval(86_400)),
                            channels: [Channel(id: "a@b.tv", name: "A"), Channel(id: "La1.es", name: "La 1"), Channel(id: "La2.es", name: "La 2")],
                            programmes: programmes, report: RunReport()))
    }

    /// The index gathers a channel's airings as runs of the snapshot's order; a guide handed over in
    /// another order (a build's, before it is written) is indexed the same.
    @Test func aGuideInAnyOrderIsIndexedAsItsSortedSelf() {
        let sorted = Self.index
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            let shuffled = Self.indexed(Self.programmes.shuffled(using: &generator))
            for channel in ["a@b.tv", "La1.es", "La2.es"] {
                #expect(shuffled.schedule(of: channel, from: Self.t0, to: Self.t0.addingTimeInterval(86_400))
                        == sorted.schedule(of: channel, from: Self.t0, to: Self.t0.addingTimeInterval(86_400)))
            }
            #expect(shuffled.otherAirings(of: Self.programmes[1], from: Self.t0).map(\.id) == [Self.programmes[5].id, Self.programmes[6].id])
            #expect(shuffled.startingFrom(Self.t0).map { shuffled.snapshot.programmes[$0].id }
                    == sorted.startingFrom(Self.t0).map { sorted.snapshot.programmes[$0].id })
            #expect(shuffled.search("telediario").count == 4)
        }
    }

    @Test func theVersionFollowsTitlesTimesChannelsAndClumps() {
        var versions: Set<String> = [Self.index.version]
        for change in [{ (p: inout Programme) in p.title += "!" }, { $0.start += 1 }, { $0.channel = "La2.es" }, { $0.sameStartIndex = 2 }] {
            var programmes = Self.programmes
            change(&programmes[3])
            #expect(versions.insert(Self.indexed(programmes).version).inserted)
        }
        #expect(Self.indexed(Self.programmes).version == Self.index.version)
    }

    @Test func asciiIsFoldedAsFoundationFoldsIt() {
        let ascii = String(String.UnicodeScalarView((0..<128).map { Unicode.Scalar(UInt8($0)) }))
        #expect(SearchText.fold(ascii) == SearchText.foldedByFoundation(ascii))
        #expect(SearchText.fold("Telediário ＡＢＣ") == "telediario abc")
    }

    @Test func latin1IsFoldedAsFoundationFoldsIt() {
        let latin1 = (0..<0x100).map { Unicode.Scalar(UInt8($0)) }
        let all = String(String.UnicodeScalarView(latin1))
        #expect(SearchText.fold(all) == SearchText.foldedByFoundation(all))
        // Texts mixing every Latin-1 scalar in many orders (ß, Æ, Ø, ÿ, spacing accents and
        // CR LF next to letters), from a fixed seed.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            let text = String(String.UnicodeScalarView((0..<12).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return latin1[Int(state >> 56)]
            }))
            #expect(SearchText.fold(text) == SearchText.foldedByFoundation(text), "\(Array(text.unicodeScalars))")
        }
        #expect(SearchText.fold("Ñandú Straße ÆØÅ") == SearchText.foldedByFoundation("Ñandú Straße ÆØÅ"))
    }

    @Test func titlesFoldedOnEveryCoreAreFoldedInOrder() {
        let words = ["Cine", "BARRIO", "Telediário", "ñandú", "Ｗｉｄｅ", "plain"]
        let titles = (0..<10_000).map { "\(words[$0 % words.count]) \($0) \(words[($0 / 7) % words.count])" }
        #expect(concurrentMap(titles, minimumPerSlice: 1_024, SearchText.fold) == titles.map(SearchText.fold))
        #expect(concurrentMap([String](), minimumPerSlice: 1_024, SearchText.fold) == [])
        #expect(concurrentMap(["Á"], minimumPerSlice: 1_024, SearchText.fold) == ["a"])
    }
}
