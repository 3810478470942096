import Foundation
import GuideCore
import GuideTransport
import Scrape
import XMLTV

/// One recorded day page, read into memory: the single-thread figure is parse + extraction, not disk.
struct Page {
    var name: String
    var day: Day
    var data: Data

    static func load(from folder: String) throws -> [Page] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        return try names.compactMap { name in
            let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            guard let day = FormulaTV.day(ofPage: name) else { throw UsageError("\(url.path): not named DD-MM-YYYY") }
            return Page(name: name, day: day, data: try Data(contentsOf: url))
        }
    }
}

/// A row as the lxml peer keeps it (and writes it with `--dump`): the channel resolved, the
/// start in minutes after midnight.
struct ExtractedRecord: Encodable {
    var day: String
    var rank: Int?
    var title: String
    var channel: String
    var viewers: Int
    var share: Double?
    var start: Int?
}

/// 1. What the lxml peer does, on one thread with one compiled extractor: parse each page,
///    extract its rows, resolve each row's channel.
struct SingleThreadExtraction {
    let extractor: ScrapeExtractor

    init() throws {
        extractor = try ScrapeExtractor(FormulaTV.recipe)
    }

    /// The page's records and the advert rows skipped; a channel outside the map is `malformed`,
    /// as in the peer.
    func extract(_ page: Page) throws -> (records: [ExtractedRecord], adverts: Int) {
        let result = try extractor.extract(from: page.data, contentType: nil)
        var records: [ExtractedRecord] = []
        records.reserveCapacity(result.rows.count)
        for row in result.rows {
            // Essential fields: the extractor has thrown for any row without them.
            guard let title = row.text("title"), let name = row.text("channel"), let viewers = row.integer("viewers") else { continue }
            guard let channel = FormulaTV.channel(named: name) else {
                throw ProviderError.malformed("\(page.name): unknown channel '\(name)'")
            }
            records.append(ExtractedRecord(day: page.name, rank: row.integer("rank"), title: title, channel: channel,
                                           viewers: viewers, share: row.number("share"), start: row.minutes("start")))
        }
        return (records, result.skippedAdverts)
    }
}

/// 2. The product path: the days through `ScrapeAudienceProvider` and `AudienceChain` (its default
///    day concurrency) over a `ReplayTransport` of the recording, as `tvguide build` fetches them.
///    The provider is built anew each pass, as each run builds it.
struct ProductPath {
    let replay: URL
    let days: [Day]

    func fetch() async throws -> AudienceChainResult {
        let transport = ReplayTransport(root: replay, baseURL: URL(string: FormulaTV.baseURL)!)
        let provider = try ScrapeAudienceProvider(id: "formulatv-recorded", recipe: FormulaTV.recipe, transport: transport,
                                                  resolveChannel: FormulaTV.channel(named:))
        let result = await AudienceChain(members: [AudienceChainMember(provider: provider, type: "scrape")]).fetch(days)
        guard result.failed.isEmpty else {
            let errors = result.providers.flatMap(\.errors).map { failure in
                "\(failure.day.map(String.init(describing:)) ?? "-"): \(failure.message)"
            }.joined(separator: "; ")
            throw ProviderError.malformed("the chain failed \(result.failed.count) day(s): \(errors)")
        }
        return result
    }

    /// The chain's default, which the product uses.
    static let concurrentDays = AudienceChain(members: []).maxConcurrentDays
}

/// 3. The join's inputs: the benchmark guide, plus the sample guide whose channels and times the
///    recorded audiences measure: its recorded week (19–25 Oct 2026) and the same week one week
///    earlier, so that all 14 recorded days (12–25 Oct) have their guide.
///
///    The week before is the sample moved by one calendar week in Europe/Madrid, keeping each
///    programme's local start, as the recorded pages of 12–18 Oct repeat the line-up at the same
///    local times. Moving it by 7 × 86,400 seconds instead (as `WeekShiftedGuideProvider` moves a
///    week) would put the sample's 25 Oct, after the clocks went back, an hour late on 18 Oct,
///    still summer time, and most of that day's records would find no programme.
struct JoinGuide {
    var programmes: [Programme]
    var benchProgrammes: Int
    var sampleProgrammes: Int
    var parseSeconds: Double

    init(guide: String, sample: String) throws {
        let start = ContinuousClock.now
        let bench = try XMLTVParser(source: "bench").parse(contentsOf: URL(fileURLWithPath: guide)).programmes
        parseSeconds = start.duration(to: .now).seconds
        let week = try XMLTVParser(source: "xmltv-sample").parse(contentsOf: URL(fileURLWithPath: sample)).programmes
        var madrid = Calendar(identifier: .gregorian)
        madrid.timeZone = AudienceJoin.defaultTimeZone
        func weekEarlier(_ date: Date) -> Date {
            madrid.date(byAdding: .day, value: -7, to: date) ?? date.addingTimeInterval(-WeekShiftedGuideProvider.week)
        }
        let weekBefore = week.map { programme in
            var moved = programme
            moved.start = weekEarlier(programme.start)
            moved.stop = programme.stop.map(weekEarlier)
            return moved
        }
        // Each channel's programmes in start order, as in a normalised guide.
        programmes = bench + weekBefore + week
        benchProgrammes = bench.count
        sampleProgrammes = weekBefore.count + week.count
    }
}
