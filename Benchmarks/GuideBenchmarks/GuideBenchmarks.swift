import Benchmark
import Foundation
import GuideCore
import GuideStorage
import GuideServer
import XMLTV

/// Micro-benchmarks of the hot paths behind bench/scale.sh's figures: what a build
/// spends writing the snapshot and its companion and parsing XMLTV, and what `tvguide serve`
/// spends at start-up reading the companion (or the JSON) and indexing it. Run with bench/micro.sh; the end-to-end figures stay in
/// bench/scale.sh, bench/run.sh and bench/serve.sh.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 20
    )
    let snapshot = SyntheticGuide.week(channels: 100, days: 7)
    let json = Data(try! SnapshotCodec.encodedBytes(snapshot))
    let xmltv = try! XMLTVWriter.write(channels: snapshot.channels, programmes: snapshot.programmes)
    let programmes = snapshot.programmes.count

    let canonical = SnapshotCodec.canonical(snapshot)
    // As a build writes it: handed over a few megabytes at a time, here to a sink that counts them.
    Benchmark("SnapshotCodec.write, \(programmes) programmes") { benchmark in
        for _ in benchmark.scaledIterations {
            var written = 0
            try SnapshotCodec.write(canonical: canonical) { written += $0.count }
            blackHole(written)
        }
    }
    Benchmark("SnapshotCodec.decode, \(programmes) programmes") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try SnapshotCodec.decode(json)) }
    }
    let identity = PackedSnapshot.Identity(storedWithJSONOf: json.count)
    let packed = Data(try! PackedSnapshot.encode(snapshot, for: identity))
    Benchmark("PackedSnapshot.encode, \(programmes) programmes") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try PackedSnapshot.encode(snapshot, for: identity)) }
    }
    Benchmark("PackedSnapshot.decode, \(programmes) programmes") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(PackedSnapshot.decode(packed, expecting: identity)!) }
    }
    Benchmark("GuideIndex.init, \(programmes) programmes") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(GuideIndex(snapshot)) }
    }
    Benchmark("Interner.intern, \(programmes) programmes") { benchmark in
        for _ in benchmark.scaledIterations {
            var interner = Interner(programmes: programmes)
            var copies = snapshot.programmes
            for index in copies.indices { interner.intern(&copies[index]) }
            blackHole(copies)
        }
    }
    // What a parse does with each synopsis: kept once in its part's block, found again by hash.
    let synopses = snapshot.programmes.compactMap(\.synopsis)
    Benchmark("TextBlock.Gathering.number, \(synopses.count) synopses") { benchmark in
        for _ in benchmark.scaledIterations {
            var gathering = TextBlock.Gathering(bytes: synopses.reduce(0) { $0 + $1.utf8.count })
            for synopsis in synopses { blackHole(gathering.number(synopsis)) }
            blackHole(gathering.block())
        }
    }
    Benchmark("XMLTVParser.parse, \(programmes) programmes") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try XMLTVParser(source: "bench").parse(xmltv, name: "bench.xml")) }
    }
}

/// A week of a line-up in the shape of bench/make_xmltv.py's: titles of a few words from a small
/// vocabulary (so they repeat, as series and news do), a sentence-long description each.
/// Deterministic (a fixed linear congruential sequence), so runs compare. The XMLTV benchmark
/// parses what `XMLTVWriter` writes of it.
enum SyntheticGuide {
    static func week(channels: Int, days: Int) -> Snapshot {
        let words = ("el la los las un una de del en con sin por para sobre bajo noche día mar sol luna casa vida amor guerra "
                     + "ciudad río montaña historia secreto viaje tiempo camino fuego agua tierra cielo sombra luz memoria").split(separator: " ")
        var seed: UInt64 = 20_261_019
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in String(words[next(words.count)]) }.joined(separator: " ").capitalized
        }
        let first = Date(timeIntervalSince1970: 1_792_908_000)
        let end = first.addingTimeInterval(Double(days) * 86_400)
        let channelList = (0..<channels).map { Channel(id: String(format: "c%05d.bench", $0), name: "Canal \($0)") }
        var programmes: [Programme] = []
        for channel in channelList {
            var start = first
            while start < end {
                let stop = start.addingTimeInterval(Double(30 + next(61)) * 60)
                var programme = Programme(channel: channel.id, start: start, stop: stop, title: sentence(2 + next(3)), source: "bench")
                programme.synopsis = sentence(25 + next(21)) + "."
                programme.categories = [LocalizedText(["Noticias", "Película", "Serie", "Documental"][next(4)], lang: "es")]
                programmes.append(programme)
                start = stop
            }
        }
        return Snapshot(generatedAt: first, window: TimeWindow(from: first, to: end), channels: channelList,
                        programmes: programmes, report: RunReport())
    }
}
