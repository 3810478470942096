import Foundation

/// The merged guide as written to disk: versioned, deterministic JSON (see docs/snapshot.md).
package struct Snapshot: Codable, Sendable, Hashable {
    /// 2 added `works` and `Programme.work`; 3 added `audiences`. Older files are still read:
    /// version 1 has no works, versions 1 and 2 have no audiences.
    package static let currentSchemaVersion = 3

    package var schemaVersion: Int
    /// The run's clock (`--now`), so that a build from the same inputs gives the same bytes.
    package var generatedAt: Date
    package var window: TimeWindow
    /// Sorted by id.
    package var channels: [Channel]
    /// Sorted by channel, then start.
    package var programmes: [Programme]
    /// Films and series the programmes point at (`Programme.work`), by `Work.id`.
    package var works: [String: Work]
    /// Daily audience rankings of the last days (`AudienceStore`), sorted by day.
    package var audiences: [AudienceDay]
    package var report: RunReport

    package init(generatedAt: Date, window: TimeWindow, channels: [Channel], programmes: [Programme],
                works: [String: Work] = [:], audiences: [AudienceDay] = [], report: RunReport) {
        self.schemaVersion = Self.currentSchemaVersion
        self.generatedAt = generatedAt
        self.window = window
        self.channels = channels
        self.programmes = programmes
        self.works = works
        self.audiences = audiences
        self.report = report
    }

    /// As synthesised, except that `works` (schema 1) and `audiences` (schemas 1 and 2) may be absent.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        generatedAt = try container.decode(Date.self, forKey: .generatedAt)
        window = try container.decode(TimeWindow.self, forKey: .window)
        channels = try container.decode([Channel].self, forKey: .channels)
        programmes = try container.decode([Programme].self, forKey: .programmes)
        works = try container.decodeIfPresent([String: Work].self, forKey: .works) ?? [:]
        audiences = try container.decodeIfPresent([AudienceDay].self, forKey: .audiences) ?? []
        report = try container.decode(RunReport.self, forKey: .report)
    }
}

/// What a run did, provider by provider and channel by channel. Durations are left out so that
/// the snapshot stays byte-for-byte reproducible; the CLI prints them.
package struct RunReport: Codable, Sendable, Hashable {
    package var providers: [ProviderReport]
    package var channels: [ChannelReport]
    package var normalisation: NormalisationReport
    package var warnings: [String]
    /// Metadata enrichment; nil when providers.yaml has no `metadata` chains.
    package var metadata: MetadataReport?
    /// Audience rankings; nil when providers.yaml lists no `audience` providers.
    package var audience: AudienceReport?
    /// The configured M3U playlist matched to the guide; nil when providers.yaml names none.
    package var playlist: PlaylistReport?

    package init(providers: [ProviderReport] = [], channels: [ChannelReport] = [], normalisation: NormalisationReport = .init(),
                warnings: [String] = [], metadata: MetadataReport? = nil, audience: AudienceReport? = nil, playlist: PlaylistReport? = nil) {
        self.providers = providers
        self.channels = channels
        self.normalisation = normalisation
        self.warnings = warnings
        self.metadata = metadata
        self.audience = audience
        self.playlist = playlist
    }
}

package struct ChannelReport: Codable, Sendable, Hashable {
    package var id: String
    /// The provider that owns the channel; nil when none served it.
    package var provider: String?
    package var programmes: Int
    /// True when no provider served the channel and its programmes come from the last good snapshot.
    package var stale: Bool
    /// When the snapshot the stale programmes come from was made.
    package var staleSince: Date?

    package init(id: String, provider: String?, programmes: Int, stale: Bool = false, staleSince: Date? = nil) {
        self.id = id
        self.provider = provider
        self.programmes = programmes
        self.stale = stale
        self.staleSince = staleSince
    }
}

/// What normalisation changed, so that a source's oddities are visible, not silently fixed.
extension RunReport {
    /// The report with every occurrence of `secrets` (API keys, tokens from the environment)
    /// replaced in its messages, notes and warnings: a key in a URL path reaches an error message
    /// however carefully transports redact query strings, and a report is written to disk.
    package func redacting(_ secrets: [String]) -> RunReport {
        guard !secrets.isEmpty else { return self }
        let scrubber = SecretScrubber(secrets)
        func clean(_ text: String) -> String { scrubber.scrub(text) }
        func cleaned<Provider: ReportedProvider>(_ providers: [Provider]) -> [Provider] {
            providers.map { provider in
                var provider = provider
                provider.notes = provider.notes.map(clean)
                for index in provider.errors.indices {
                    provider.errors[index].message = clean(provider.errors[index].message)
                }
                return provider
            }
        }
        var report = self
        report.providers = cleaned(report.providers)
        report.warnings = report.warnings.map(clean)
        if let metadata = report.metadata { report.metadata?.providers = cleaned(metadata.providers) }
        if let audience = report.audience { report.audience?.providers = cleaned(audience.providers) }
        return report
    }
}

/// A provider's lines in a run report: what `RunReport.redacting` scrubs.
protocol ReportedProvider {
    var notes: [String] { get set }
    var errors: [ProviderFailure] { get set }
}

extension ProviderReport: ReportedProvider {}
extension MetadataProviderReport: ReportedProvider {}
extension AudienceProviderReport: ReportedProvider {}

/// One day's audience ranking.
package struct AudienceDay: Codable, Sendable, Hashable {
    package var day: Day
    /// Ranked: viewers descending, then channel and title (`AudienceRecord.ranksBefore`); every
    /// record's `day` is this day.
    package var records: [AudienceRecord]

    package init(day: Day, records: [AudienceRecord]) {
        self.day = day
        self.records = records
    }

    /// As synthesised, and refuses a record filed under another day than its own.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        day = try container.decode(Day.self, forKey: .day)
        records = try container.decode([AudienceRecord].self, forKey: .records)
        if let index = records.firstIndex(where: { $0.day != day }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath + [CodingKeys.records],
                debugDescription: "record \(index) is of \(records[index].day), filed under \(day)"))
        }
    }
}

extension AudienceRecord {
    /// The order of a day's ranking: viewers descending, then channel and title; start, source,
    /// share and programme only break ties between rows that should not both exist, so that even
    /// those never depend on input order.
    package static func ranksBefore(_ a: AudienceRecord, _ b: AudienceRecord) -> Bool {
        if a.viewers != b.viewers { return a.viewers > b.viewers }
        if a.channel != b.channel { return UTF8Order.precedes(a.channel, b.channel) }
        if a.title != b.title { return UTF8Order.precedes(a.title, b.title) }
        if a.start != b.start { return (a.start ?? .distantPast) < (b.start ?? .distantPast) }
        if a.source != b.source { return UTF8Order.precedes(a.source, b.source) }
        if a.share != b.share { return (a.share ?? -1) < (b.share ?? -1) }
        if a.programme != b.programme { return UTF8Order.precedes(a.programme ?? "", b.programme ?? "") }
        return (a.rank ?? 0) < (b.rank ?? 0)
    }
}

/// What the audience pipeline did: which days were fetched and from whom, which failed, and how
/// many records found their programme in the guide.
package struct AudienceReport: Codable, Sendable, Hashable {
    /// In chain order, then the providers that could not be built.
    package var providers: [AudienceProviderReport]
    /// Days in `Snapshot.audiences`.
    package var days: Int
    /// Records in `Snapshot.audiences`.
    package var records: Int
    /// Records with a `programme`.
    package var joined: Int
    /// Days asked this run: those of the window the previous snapshot lacked, or all with a refresh.
    package var fetched: [Day]
    /// Days asked that no provider served.
    package var failed: [Day]
    /// Failed days whose rows are the previous snapshot's, kept rather than lost.
    package var stale: [Day]

    package init(providers: [AudienceProviderReport] = [], days: Int = 0, records: Int = 0, joined: Int = 0,
                fetched: [Day] = [], failed: [Day] = [], stale: [Day] = []) {
        self.providers = providers
        self.days = days
        self.records = records
        self.joined = joined
        self.fetched = fetched
        self.failed = failed
        self.stale = stale
    }
}
