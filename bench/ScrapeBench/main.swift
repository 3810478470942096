// The Swift side of bench/audiences.sh: tvguide's scraper on the recorded formulatv
// fortnight, measured like bench/lxml_audiences.py measures lxml, then the product path and the
// join to the 50,000-programme benchmark guide. Figures are medians over passes; MB are 10^6 bytes.
import Foundation
import GuideCore

struct Results: Encodable {
    struct SingleThread: Encodable {
        var rows: Int
        var advertsSkipped: Int
        var timings: Timings
        var mbPerS: Double
    }

    struct Product: Encodable {
        var days: Int
        var records: Int
        var concurrentDays: Int
        var timings: Timings
        var mbPerS: Double
    }

    struct Join: Encodable {
        struct DayCount: Encodable {
            var day: String
            var records: Int
            var joined: Int
        }

        var programmes: Int
        var benchProgrammes: Int
        var sampleProgrammes: Int
        var guideParseS: Double
        var records: Int
        var joined: Int
        var unjoined: Int
        var byDay: [DayCount]
        var timings: Timings
    }

    var pages: Int
    var bytes: Int
    var single: SingleThread
    var product: Product
    var join: Join
}

func run(_ options: Options) async throws -> Results {
    let pages = try Page.load(from: options.pages)
    guard !pages.isEmpty else { throw UsageError("no pages in \(options.pages)") }
    let bytes = pages.reduce(0) { $0 + $1.data.count }

    // 1. Single thread, one extractor: the like-for-like figure against lxml.
    let extraction = try SingleThreadExtraction()
    var records: [ExtractedRecord] = []
    var adverts = 0
    for page in pages {
        let extracted = try extraction.extract(page)
        records += extracted.records
        adverts += extracted.adverts
    }
    if let dump = options.dump {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let lines = try records.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: dump, atomically: true, encoding: .utf8)
    }
    var rows = 0
    let single = try Timings.measure(passes: options.passes) {
        rows = 0
        for page in pages { rows += try extraction.extract(page).records.count }
    }
    guard rows == records.count else { throw UsageError("a timed pass found \(rows) rows, the first \(records.count)") }

    // 2. The product path, days concurrently.
    let product = ProductPath(replay: URL(fileURLWithPath: options.replay), days: pages.map(\.day))
    var fetched = try await product.fetch()
    let productTimings = try await Timings.measureAsync(passes: options.passes) {
        fetched = try await product.fetch()
    }
    let fetchedRecords = fetched.served.values.reduce(0) { $0 + $1.count }

    // 3. The join, of the days as the store keeps them (ranked), to the guide.
    let guide = try JoinGuide(guide: options.guide, sample: options.sample)
    let lastDay = pages.map(\.day).max()!
    let stored = AudienceStore(keepDays: pages.count).merge(previous: [], fetched: fetched, today: lastDay.adding(days: 1)).audiences
    let join = AudienceJoin()
    var joined = join.join(stored, to: guide.programmes)
    let joinTimings = Timings.measure(passes: options.passes) {
        joined = join.join(stored, to: guide.programmes)
    }

    return Results(
        pages: pages.count, bytes: bytes,
        single: .init(rows: records.count, advertsSkipped: adverts, timings: single, mbPerS: single.megabytesPerSecond(bytes)),
        product: .init(days: fetched.served.count, records: fetchedRecords, concurrentDays: ProductPath.concurrentDays,
                       timings: productTimings, mbPerS: productTimings.megabytesPerSecond(bytes)),
        join: .init(programmes: guide.programmes.count, benchProgrammes: guide.benchProgrammes, sampleProgrammes: guide.sampleProgrammes,
                    guideParseS: guide.parseSeconds, records: joined.joined + joined.unjoined, joined: joined.joined,
                    unjoined: joined.unjoined,
                    byDay: joined.days.map { .init(day: "\($0.day)", records: $0.records.count, joined: $0.records.filter { $0.programme != nil }.count) },
                    timings: joinTimings))
}

func report(_ results: Results) {
    func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    print("tvguide Scrape: \(results.pages) pages, \(results.bytes) bytes, \(results.single.rows) rows "
          + "(\(results.single.advertsSkipped) advert rows skipped), \(results.single.timings.passes) passes")
    print("single thread parse+extract: median pass \(format(results.single.timings.medianSeconds, 4)) s, "
          + "\(format(results.single.mbPerS, 2)) MB/s")
    print("product path (\(results.product.concurrentDays) days at once): \(results.product.days) days, \(results.product.records) records, "
          + "median \(format(results.product.timings.medianSeconds, 4)) s, \(format(results.product.mbPerS, 2)) MB/s")
    print("join: \(results.join.records) records to \(results.join.programmes) programmes, \(results.join.joined) joined, "
          + "median \(format(results.join.timings.medianSeconds * 1000, 1)) ms")
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let results = try await run(options)
    if options.json {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(results), as: UTF8.self))
    } else {
        report(results)
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("scrape-bench: \(error)\n\(Options.usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("scrape-bench: \(error)\n".utf8))
    exit(1)
}
