import Foundation
import GuideCore
import GuideStorage

/// A snapshot arranged for answering requests: built once per refresh, then only read. Every
/// lookup a route makes is a dictionary hit or a binary search here, never a scan of the guide.
package struct GuideIndex: Sendable {
    let snapshot: Snapshot
    /// The snapshot's channels in the configured order (`ServerSettings.channelOrder`), the
    /// channels it does not name after them in the snapshot's (id) order: how pages and lists
    /// show them. The snapshot keeps id order, for deterministic files.
    let channels: [Channel]
    /// Changes whenever the served guide does; part of every ETag.
    let version: String
    let channelPosition: [String: Int]
    /// Channel id → indices into `snapshot.programmes`, by start. Indices here are `Int32`:
    /// four bytes an airing each, and the index's share of a guide's memory is counted per
    /// programme (bench/scale.sh).
    let schedules: [String: [Int32]]
    /// Channel id → for each position of `schedules`, the latest end up to it: airings may
    /// overlap (as in XMLTV), so the one just before a moment is not the only one that can reach
    /// past it, while these rise and can be searched.
    let latestEnds: [String: [Date]]
    /// Work id → indices into `snapshot.programmes` of its airings on every channel, by start.
    let airingsByWork: [String: [Int32]]
    /// Each distinct title, folded for accent- and case-insensitive search; a title is folded
    /// and held once however often it airs.
    let foldedTitles: [String]
    /// Per programme, the place of its folded title in `foldedTitles`, rather than a string per
    /// programme and its copy.
    let titleNumbers: [Int32]
    let audiencesByDay: [Day: AudienceDay]
    /// Indices into `snapshot.programmes` by start, then channel: the whole guide in time order.
    let byStart: [Int32]
    /// Indices of the programmes by title number, then start: each title's airings are one run
    /// of it, found by binary search ("other airings" of programmes no work was matched for).
    let byTitle: [Int32]
    /// Work id → its title and original title, folded, for search.
    let workSearchTitles: [String: [String]]
    /// `Programme.id` → the audience records joined to it, by day.
    let audiencesByProgramme: [String: [AudienceRecord]]
    /// What recommendations compare, made on the first one asked of this guide.
    let recommendations = LazyRecommendationIndex()

    package init(_ snapshot: Snapshot, channelOrder: [String] = []) {
        self.snapshot = snapshot
        var rank: [String: Int] = [:]
        for (position, id) in channelOrder.enumerated() where rank[id] == nil { rank[id] = position }
        // Stable: the channels the order does not name keep the snapshot's order among themselves.
        self.channels = snapshot.channels.enumerated().sorted { a, b in
            (rank[a.element.id] ?? Int.max, a.offset) < (rank[b.element.id] ?? Int.max, b.offset)
        }.map(\.element)
        let programmes = snapshot.programmes
        var channelPosition: [String: Int] = [:]
        for (position, channel) in snapshot.channels.enumerated() where channelPosition[channel.id] == nil {
            channelPosition[channel.id] = position
        }
        // Seconds since 1970 by position: sorting compares these, not programmes.
        let starts = programmes.map(\.start.timeIntervalSince1970)
        // What depends on titles and what depends on times do not depend on each other: one per core.
        let parts = concurrentMap(2) { part -> (titles: TitleTables?, times: TimeTables?) in
            part == 0 ? (TitleTables(programmes, starts: starts), nil) : (nil, TimeTables(programmes, starts: starts, generatedAt: snapshot.generatedAt))
        }
        let (titles, times) = (parts[0].titles!, parts[1].times!)
        self.foldedTitles = titles.folded
        self.titleNumbers = titles.numbers
        self.byTitle = titles.byTitle
        self.schedules = times.schedules
        self.latestEnds = times.latestEnds
        self.airingsByWork = times.airingsByWork
        self.byStart = times.byStart
        self.version = times.version
        self.workSearchTitles = snapshot.works.mapValues { work in
            [work.metadata.title, work.metadata.originalTitle].compactMap { $0.map(SearchText.fold) }
        }
        var audiencesByProgramme: [String: [AudienceRecord]] = [:]
        for day in snapshot.audiences {
            for record in day.records {
                if let programme = record.programme { audiencesByProgramme[programme, default: []].append(record) }
            }
        }
        self.audiencesByProgramme = audiencesByProgramme
        self.channelPosition = channelPosition
        self.audiencesByDay = Dictionary(snapshot.audiences.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static let empty = GuideIndex(Snapshot(generatedAt: Date(timeIntervalSince1970: 0),
                                           window: TimeWindow(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 0)),
                                           channels: [], programmes: [], report: RunReport()))

    var isEmpty: Bool { snapshot.programmes.isEmpty && snapshot.channels.isEmpty }

    func channel(_ id: String) -> Channel? {
        channelPosition[id].map { snapshot.channels[$0] }
    }

    func programme(_ id: String) -> Programme? {
        position(of: id).map { snapshot.programmes[$0] }
    }

    /// Where the programme with this id is, found from the channel and start the id is made
    /// of: a table from every id would cost a guide a dictionary entry and a string per programme.
    func position(of id: String) -> Int? {
        guard let at = id.lastIndex(of: "@"), let positions = schedules[String(id[..<at])] else { return nil }
        let time = id[id.index(after: at)...].prefix { $0 != "." }
        guard let second = CompactTime.parse(time) else { return nil }
        let programmes = snapshot.programmes
        var low = 0, high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if programmes[Int(positions[middle])].start < second { low = middle + 1 } else { high = middle }
        }
        let next = second.addingTimeInterval(1)
        for position in positions[low...] {
            let programme = programmes[Int(position)]
            if programme.start >= next { break }
            if programme.id == id { return Int(position) }
        }
        return nil
    }

    /// The folded title of the programme at `position` in `snapshot.programmes`.
    func foldedTitle(at position: Int) -> String {
        foldedTitles[Int(titleNumbers[position])]
    }

    /// The film or series enrichment matched to the airing.
    func work(of programme: Programme) -> Work? {
        programme.work.flatMap { snapshot.works[$0] }
    }

    /// The airing's kind as the guide gives it, else its work's.
    func kind(of programme: Programme) -> ProgrammeKind? {
        programme.kind ?? work(of: programme)?.kind
    }

    /// Its work's genres and its own categories: what a `genre` filter compares with.
    func genreNames(of programme: Programme) -> [String] {
        (work(of: programme)?.metadata.genres ?? []) + (programme.categories ?? []).map(\.value)
    }

    /// The channel's programmes that overlap `start..<end` (or, having no length, start in it),
    /// by start.
    func schedule(of channel: String, from start: Date, to end: Date) -> [Programme] {
        guard let positions = schedules[channel], let latestEnds = latestEnds[channel], start < end else { return [] }
        let programmes = snapshot.programmes
        // Nothing before the first position whose latest end is past `start` reaches it.
        var low = 0, high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if latestEnds[middle] <= start { low = middle + 1 } else { high = middle }
        }
        var result: [Programme] = []
        for position in positions[low...] {
            let programme = programmes[Int(position)]
            if programme.start >= end { break }
            if programme.end > start || programme.start > start { result.append(programme) }
        }
        return result
    }

    /// Positions in `byStart` from the first programme starting at or after `moment`.
    func startingFrom(_ moment: Date) -> LazyMapSequence<ArraySlice<Int32>, Int> {
        let programmes = snapshot.programmes
        var low = 0, high = byStart.count
        while low < high {
            let middle = (low + high) / 2
            if programmes[Int(byStart[middle])].start < moment { low = middle + 1 } else { high = middle }
        }
        return byStart[low...].lazy.map(Int.init)
    }

    /// The other airings of `programme`'s work (or, without a work, of its exact folded title)
    /// starting at or after `moment`, by start.
    func otherAirings(of programme: Programme, from moment: Date) -> [Programme] {
        let own = position(of: programme.id)
        let positions = programme.work.flatMap { airingsByWork[$0] } ?? own.map { titledPositions(titleNumbers[$0]) } ?? []
        let programmes = snapshot.programmes
        return positions.lazy.map(Int.init).filter { $0 != own && programmes[$0].start >= moment }.map { programmes[$0] }
    }

    /// The positions of the programmes whose title has this number, by start.
    func titledPositions(_ number: Int32) -> [Int32] {
        var low = 0, high = byTitle.count
        while low < high {
            let middle = (low + high) / 2
            if titleNumbers[Int(byTitle[middle])] < number { low = middle + 1 } else { high = middle }
        }
        return Array(byTitle[low...].prefix { titleNumbers[Int($0)] == number })
    }

    /// Programmes whose title, or whose work's title or original title, contains `folded`
    /// (already `SearchText.fold`ed), in guide order.
    func search(_ folded: String) -> [Programme] {
        var matchingWorks: Set<String> = []
        for (work, titles) in workSearchTitles where titles.contains(where: { $0.contains(folded) }) {
            matchingWorks.insert(work)
        }
        let matchingTitles = foldedTitles.map { $0.contains(folded) }
        var result: [Programme] = []
        for (position, number) in titleNumbers.enumerated() {
            let programme = snapshot.programmes[position]
            if matchingTitles[Int(number)] || programme.work.map(matchingWorks.contains) == true { result.append(programme) }
        }
        return result
    }

    /// The days audience rankings are held for, in order.
    var audienceDays: [Day] { snapshot.audiences.map(\.day) }

    /// The programme on `channel` at `moment` and the one after it, one airing at a time.
    func onAir(_ channel: String, at moment: Date) -> (current: Programme?, next: Programme?) {
        let around = OneAtATime.resolve(schedule(of: channel, from: moment, to: moment.addingTimeInterval(86_400)))
            .filter { $0.end > moment || $0.programme.start > moment }
        guard let first = around.first?.programme else { return (nil, nil) }
        if first.start <= moment { return (first, around.dropFirst().first?.programme) }
        return (nil, first)
    }
}

/// The index's tables that depend on titles: each programme's folded title, as a number.
private struct TitleTables: Sendable {
    /// Each distinct folded title.
    let folded: [String]
    /// Per programme, the place of its folded title in `folded`.
    let numbers: [Int32]
    /// Positions by title number, then start.
    let byTitle: [Int32]

    init(_ programmes: [Programme], starts: [Double]) {
        // Titles repeat across a week (news, series): each distinct one is numbered and folded
        // once. Keyed by bytes: `String`'s canonical hashing of every airing's title was a tenth
        // of start-up, and titles equal only canonically still share a number, below, since
        // their foldings are equal.
        var numberOfTitle: [UTF8Key: Int32] = [:]
        numberOfTitle.reserveCapacity(programmes.count / 2)
        var distinctTitles: [String] = []
        var numbers: [Int32] = []
        numbers.reserveCapacity(programmes.count)
        for programme in programmes {
            let title = UTF8Key(programme.title)
            if let number = numberOfTitle[title] {
                numbers.append(number)
            } else {
                let number = Int32(distinctTitles.count)
                distinctTitles.append(title.string)
                numberOfTitle[title] = number
                numbers.append(number)
            }
        }
        // Folding is the slowest work here (a guide may hold hundreds of thousands of distinct
        // titles), so the titles are folded on every core; those that fold alike then share the
        // first one's number.
        var numberOfFolded: [String: Int32] = [:]
        numberOfFolded.reserveCapacity(distinctTitles.count)
        var folded: [String] = []
        let foldedNumbers = concurrentMap(distinctTitles, minimumPerSlice: 1_024, SearchText.fold).map { text in
            if let number = numberOfFolded[text] { return number }
            let number = Int32(folded.count)
            folded.append(text)
            numberOfFolded[text] = number
            return number
        }
        for position in numbers.indices { numbers[position] = foldedNumbers[Int(numbers[position])] }
        let finalNumbers = numbers
        self.folded = folded
        self.numbers = finalNumbers
        self.byTitle = programmes.indices.map(Int32.init).sorted {
            let (a, b) = (finalNumbers[Int($0)], finalNumbers[Int($1)])
            return a != b ? a < b : starts[Int($0)] < starts[Int($1)]
        }
    }
}

/// The index's tables that depend on channels and times.
private struct TimeTables: Sendable {
    let schedules: [String: [Int32]]
    let latestEnds: [String: [Date]]
    let airingsByWork: [String: [Int32]]
    let byStart: [Int32]
    let version: String

    init(_ programmes: [Programme], starts: [Double], generatedAt: Date) {
        var schedules: [String: [Int32]] = [:]
        var airingsByWork: [String: [Int32]] = [:]
        var checksum = Checksum()
        checksum.add(ISOTime.format(generatedAt))
        // A snapshot holds each channel's programmes together (SnapshotCodec's order), so a
        // channel's positions are gathered as one run and its id hashed once per run.
        var run: (channel: String, positions: [Int32])?
        for position in programmes.indices {
            let channel = programmes[position].channel
            if run?.channel != channel {
                if let run { schedules[run.channel, default: []].append(contentsOf: run.positions) }
                run = (channel, [])
                checksum.add(channel)
            }
            run?.positions.append(Int32(position))
            if let work = programmes[position].work { airingsByWork[work, default: []].append(Int32(position)) }
            // What the programme's id is made of (its channel's, once per run), without making the id.
            checksum.add(Int(starts[position].rounded(.down)))
            checksum.add(programmes[position].sameStartIndex ?? -1)
            checksum.add(programmes[position].title)
        }
        if let run { schedules[run.channel, default: []].append(contentsOf: run.positions) }
        // Airings sharing a start go in their clump's order, as in a snapshot.
        let byStart: (Int32, Int32) -> Bool = { a, b in
            let (a, b) = (Int(a), Int(b))
            return starts[a] != starts[b] ? starts[a] < starts[b] : (programmes[a].sameStartIndex ?? 0) < (programmes[b].sameStartIndex ?? 0)
        }
        var latestEnds: [String: [Date]] = [:]
        for (channel, positions) in schedules {
            let sorted = Self.isSorted(positions, by: byStart) ? positions : positions.sorted(by: byStart)
            schedules[channel] = sorted
            var latest = Date.distantPast
            latestEnds[channel] = sorted.map { position in
                latest = max(latest, programmes[Int(position)].end)
                return latest
            }
        }
        for (work, positions) in airingsByWork where !Self.isSorted(positions, by: byStart) {
            airingsByWork[work] = positions.sorted(by: byStart)
        }
        // Ties in start go by channel id, compared as `String`s compare; each distinct id is ranked once.
        var channelRank: [String: Int32] = [:]
        for (rank, id) in schedules.keys.sorted().enumerated() { channelRank[id] = Int32(rank) }
        var rankOf = [Int32](repeating: 0, count: programmes.count)
        for (channel, positions) in schedules {
            let rank = channelRank[channel] ?? 0
            for position in positions { rankOf[Int(position)] = rank }
        }
        self.byStart = programmes.indices.map(Int32.init).sorted {
            let (a, b) = (Int($0), Int($1))
            if starts[a] != starts[b] { return starts[a] < starts[b] }
            if rankOf[a] != rankOf[b] { return rankOf[a] < rankOf[b] }
            return (programmes[a].sameStartIndex ?? 0) < (programmes[b].sameStartIndex ?? 0)
        }
        self.schedules = schedules
        self.latestEnds = latestEnds
        self.airingsByWork = airingsByWork
        self.version = checksum.hex
    }

    private static func isSorted(_ positions: [Int32], by precedes: (Int32, Int32) -> Bool) -> Bool {
        positions.indices.dropFirst().allSatisfy { !precedes(positions[$0], positions[$0 - 1]) }
    }
}

extension Programme {
    /// The end of the airing; a programme without a stop (the last of a feed) lasts until its start.
    var end: Date { stop ?? start }
}

/// Text folded as search compares it: case, accents and width do not count.
enum SearchText {
    static func fold(_ text: String) -> String {
        // ASCII has no accents and no wide forms: its folding is its lower case, without the
        // round trip through Foundation's string folding, which costs microseconds per title.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        }
        // Titles in Western European languages stay within Latin-1, whose characters are each
        // one scalar without combining marks: folding such a text is folding each of its
        // scalars, looked up in a table Foundation folded once.
        if text.unicodeScalars.allSatisfy({ $0.value < 0x100 }) {
            var folded: [UInt8] = []
            folded.reserveCapacity(text.utf8.count + 4)
            for scalar in text.unicodeScalars { folded.append(contentsOf: latin1Folded[Int(scalar.value)]) }
            return String(decoding: folded, as: UTF8.self)
        }
        return foldedByFoundation(text)
    }

    /// Each Latin-1 scalar folded by Foundation, as UTF-8.
    static let latin1Folded: [[UInt8]] = (0..<0x100).map { Array(foldedByFoundation(String(Unicode.Scalar(UInt8($0)))).utf8) }

    static func foldedByFoundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }
}

/// FNV-1a, 64 bits: a stable digest for ETags and the guide version. Swift's `Hasher` is seeded
/// per process, so its values would change on every restart and defeat clients' caches.
struct Checksum {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }

    mutating func add(_ text: String) {
        add(text.utf8)
        add(CollectionOfOne(0))
    }

    mutating func add(_ number: Int) {
        withUnsafeBytes(of: Int64(number).littleEndian) { add($0) }
    }

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
