import Foundation

/// Keys of `Programme.providerIDs` that are not a system of their own.
public enum ProviderIDKeys {
    /// `movie` or `tv`: which of TMDB's two numberings `tmdb` is in, when the source says
    /// (XMLTV's `themoviedb.org` `movie/603`); otherwise the programme's kind decides.
    public static let tmdbMedia = "tmdb-media"
}

/// What a metadata lookup asks about one work: a film or a series as the guide names it.
public struct MetadataQuery: Codable, Sendable, Hashable {
    public var kind: ProgrammeKind
    public var title: String
    /// The release year (films) or the first-air year (series), when the guide gives it.
    public var year: Int?
    /// Ids the guide already carries (`tmdb`, `imdb`, `thetvdb`…): looked up directly when present.
    public var providerIDs: [String: String]

    public init(kind: ProgrammeKind, title: String, year: Int? = nil, providerIDs: [String: String] = [:]) {
        self.kind = kind
        self.title = title
        self.year = year
        self.providerIDs = providerIDs
    }
}

/// Details of a film or series, as one provider gives them or as a chain merged them. Every field
/// is optional: a chain fills the empty ones from the next provider (`MetadataMerge`).
public struct Metadata: Codable, Sendable, Hashable {
    public var title: String?
    public var originalTitle: String?
    /// ISO 639-1 (`en`, `es`).
    public var originalLanguage: String?
    public var year: Int?
    /// The release date (films) or first-air date (series), `YYYY-MM-DD`.
    public var released: String?
    public var overview: String?
    public var tagline: String?
    public var genres: [String]?
    /// Minutes (a series' usual episode length).
    public var runtime: Int?
    /// `Released`, `Ended`, `Continuing`, `Returning Series`… as the provider says.
    public var status: String?
    public var network: String?
    /// ISO 3166-1 codes.
    public var countries: [String]?
    public var contentRating: String?
    public var homepage: String?
    /// US dollars, films only.
    public var budget: Int?
    public var revenue: Int?
    /// The provider's users' score out of 10, and how many voted.
    public var voteAverage: Double?
    public var voteCount: Int?
    public var seasons: Int?
    /// In the provider's billing order.
    public var cast: [CastMember]?
    public var crew: [CrewMember]?
    /// Absolute URLs.
    public var poster: String?
    public var backdrop: String?
    /// A gallery: posters, backdrops, banners (`ImageRef.kind`).
    public var images: [ImageRef]?
    /// The trailer to show first, then the other videos.
    public var videos: [Video]?
    /// Ids in other databases: `tmdb`, `thetvdb`, `imdb`.
    public var providerIDs: [String: String]?

    public init() {}
}

public struct CastMember: Codable, Sendable, Hashable {
    public var name: String
    public var character: String?
    /// Absolute URL of the person's photo.
    public var photo: String?

    public init(name: String, character: String? = nil, photo: String? = nil) {
        self.name = name
        self.character = character
        self.photo = photo
    }
}

public struct CrewMember: Codable, Sendable, Hashable {
    public var name: String
    /// `Director`, `Screenplay`, `Original Music Composer`, `Creator`…
    public var job: String
    public var department: String?

    public init(name: String, job: String, department: String? = nil) {
        self.name = name
        self.job = job
        self.department = department
    }
}

public struct Video: Codable, Sendable, Hashable {
    public var name: String
    /// `Trailer`, `Teaser`, `Clip`…
    public var type: String
    /// `YouTube`, `Vimeo`.
    public var site: String
    public var key: String
    public var language: String?

    public init(name: String, type: String, site: String, key: String, language: String? = nil) {
        self.name = name
        self.type = type
        self.site = site
        self.key = key
        self.language = language
    }

    /// A URL a browser opens, for the sites known to the project.
    public var url: String? {
        switch site.lowercased() {
        case "youtube": "https://www.youtube.com/watch?v=\(key)"
        case "vimeo": "https://vimeo.com/\(key)"
        default: nil
        }
    }
}

/// How a provider found the work, and how sure it is.
public struct MetadataMatch: Codable, Sendable, Hashable {
    public enum Method: String, Codable, Sendable, CaseIterable {
        /// The guide carried this provider's id for the work.
        case providerID
        /// Same normalised title and same year (or no year on either side to compare).
        case exact
        /// Same normalised title; the query had a year the candidate lacks, or vice versa.
        case titleOnly
        /// Same normalised title, year within ±2.
        case nearYear
    }

    public var method: Method
    /// 1.0 for a provider id, then lower for each looser rule (`TitleMatcher`).
    public var confidence: Double
    /// The provider's own id of the work matched.
    public var providerID: String
    /// The title the provider knows the work by.
    public var title: String

    public init(method: Method, confidence: Double, providerID: String, title: String) {
        self.method = method
        self.confidence = confidence
        self.providerID = providerID
        self.title = title
    }
}

/// A provider's answer to one query.
public enum MetadataLookup: Sendable, Hashable {
    case found(Metadata, MetadataMatch)
    /// Nothing matched: the chain asks the next provider.
    case noMatch
    /// Several candidates matched equally well; a wrong match is worse than none, so none is
    /// taken and the chain asks the next provider. The candidates are described for the report.
    case ambiguous([String])
}

/// A source of film and series details. Errors thrown are `ProviderError`s; the chain reports them
/// and asks the next provider.
public protocol MetadataProvider: Sendable {
    /// The provider's name in providers.yaml.
    var id: String { get }
    func lookup(_ query: MetadataQuery) async throws -> MetadataLookup
    /// Lines for the run report (requests made, answered from recordings…), asked once at the end.
    func reportNotes() async -> [String]
}

extension MetadataProvider {
    public func reportNotes() async -> [String] { [] }
}
