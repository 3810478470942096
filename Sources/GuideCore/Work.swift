import Foundation

/// A film or series as the snapshot keeps it: once per work, however many times it airs.
/// Programmes point at it with `Programme.work`.
public struct Work: Codable, Sendable, Hashable {
    /// `<kind>/<system>/<id>` from the merged provider ids, preferring `tmdb`, then `thetvdb`,
    /// then `imdb`: `movie/tmdb/348`, `series/thetvdb/79349`.
    public var id: String
    public var kind: ProgrammeKind
    /// The chain's per-field merge.
    public var metadata: Metadata
    /// Which provider gave each field: `"overview": "tmdb"`; a provider id counts per system,
    /// `"providerIDs.imdb": "thetvdb"`.
    public var sources: [String: String]
    /// How each provider that answered found the work, by provider id.
    public var matches: [String: MetadataMatch]
    /// The guide titles that led here (`Alien, el octavo pasajero (1979)`), sorted.
    public var guideTitles: [String]

    public init(id: String, kind: ProgrammeKind, metadata: Metadata, sources: [String: String],
                matches: [String: MetadataMatch], guideTitles: [String]) {
        self.id = id
        self.kind = kind
        self.metadata = metadata
        self.sources = sources
        self.matches = matches
        self.guideTitles = guideTitles
    }
}

/// What metadata enrichment did in a run.
public struct MetadataReport: Codable, Sendable, Hashable {
    /// In the order the chains first name them.
    public var providers: [MetadataProviderReport]
    /// Distinct (kind, title, year) queries, each looked up once.
    public var titles: Int
    public var works: Int
    public var programmesEnriched: Int
    /// `movie: Días de cine`, sorted: no provider matched.
    public var unmatched: [String]
    /// `movie: Titanic — 597 Titanic (1997), 16535 Titanic (1953)`, sorted: rejected as ambiguous.
    public var ambiguous: [String]

    public init(providers: [MetadataProviderReport] = [], titles: Int = 0, works: Int = 0, programmesEnriched: Int = 0,
                unmatched: [String] = [], ambiguous: [String] = []) {
        self.providers = providers
        self.titles = titles
        self.works = works
        self.programmesEnriched = programmesEnriched
        self.unmatched = unmatched
        self.ambiguous = ambiguous
    }
}

public struct MetadataProviderReport: Codable, Sendable, Hashable {
    public var id: String
    public var type: String
    /// `served`: gave at least one field that was kept; `standby`: asked, nothing kept;
    /// `failed`: every lookup failed; `skipped`: not asked (not configured, or not needed).
    public var status: ProviderReport.Status
    /// Queries this provider was asked (from the lookup cache or not).
    public var lookups: Int
    public var matched: Int
    public var noMatch: Int
    public var ambiguous: Int
    public var failed: Int
    /// Answers taken from the on-disk lookup cache, within its TTL, without asking the provider.
    public var cached: Int
    /// Works where this provider gave at least one field that was kept.
    public var worksContributed: Int
    /// Typed errors, de-duplicated and sorted.
    public var errors: [ProviderFailure]
    public var notes: [String]

    public init(id: String, type: String, status: ProviderReport.Status, lookups: Int = 0, matched: Int = 0,
                noMatch: Int = 0, ambiguous: Int = 0, failed: Int = 0, cached: Int = 0, worksContributed: Int = 0,
                errors: [ProviderFailure] = [], notes: [String] = []) {
        self.id = id
        self.type = type
        self.status = status
        self.lookups = lookups
        self.matched = matched
        self.noMatch = noMatch
        self.ambiguous = ambiguous
        self.failed = failed
        self.cached = cached
        self.worksContributed = worksContributed
        self.errors = errors
        self.notes = notes
    }
}
