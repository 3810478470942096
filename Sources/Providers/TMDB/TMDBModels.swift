import Foundation

// The TMDB v3 responses the provider reads, as TMDB sends them (snake_case keys). TMDB leaves
// fields out or sends `null` for unknown values (`poster_path`, `imdb_id`, `runtime`…) and `""` for
// an unknown date, so every field but the result lists' containers is optional; unknown keys are
// ignored.

/// `GET configuration`: where images live.
struct TMDBConfiguration: Decodable, Sendable {
    struct Images: Decodable, Sendable {
        var baseURL: String?
        var secureBaseURL: String?

        enum CodingKeys: String, CodingKey {
            case baseURL = "base_url"
            case secureBaseURL = "secure_base_url"
        }
    }

    var images: Images?
}

/// `GET search/movie` and `GET search/tv`: one page of results.
struct TMDBSearchPage: Decodable, Sendable {
    /// A film (`title`, `original_title`, `release_date`) or a series (`name`, `original_name`,
    /// `first_air_date`); one type serves both since only the identifying fields are read.
    struct Result: Decodable, Sendable {
        var id: Int?
        var title: String?
        var originalTitle: String?
        var releaseDate: String?
        var name: String?
        var originalName: String?
        var firstAirDate: String?

        enum CodingKeys: String, CodingKey {
            case id, title, name
            case originalTitle = "original_title"
            case releaseDate = "release_date"
            case originalName = "original_name"
            case firstAirDate = "first_air_date"
        }
    }

    var results: [Result]?
}

struct TMDBGenre: Decodable, Sendable {
    var name: String?
}

struct TMDBCredits: Decodable, Sendable {
    struct Cast: Decodable, Sendable {
        var name: String?
        var character: String?
        var profilePath: String?
        /// Billing order, 0 first.
        var order: Int?

        enum CodingKeys: String, CodingKey {
            case name, character, order
            case profilePath = "profile_path"
        }
    }

    struct Crew: Decodable, Sendable {
        var name: String?
        var job: String?
        var department: String?
    }

    var cast: [Cast]?
    var crew: [Crew]?
}

struct TMDBVideos: Decodable, Sendable {
    struct Video: Decodable, Sendable {
        var name: String?
        var key: String?
        var site: String?
        var type: String?
        var language: String?

        enum CodingKeys: String, CodingKey {
            case name, key, site, type
            case language = "iso_639_1"
        }
    }

    var results: [Video]?
}

struct TMDBImages: Decodable, Sendable {
    struct Image: Decodable, Sendable {
        var filePath: String?
        var width: Int?
        var height: Int?

        enum CodingKeys: String, CodingKey {
            case width, height
            case filePath = "file_path"
        }
    }

    var posters: [Image]?
    var backdrops: [Image]?
}

/// `GET movie/{id}?append_to_response=credits,videos,images`.
struct TMDBMovie: Decodable, Sendable {
    struct Country: Decodable, Sendable {
        var code: String?

        enum CodingKeys: String, CodingKey {
            case code = "iso_3166_1"
        }
    }

    var id: Int
    var imdbID: String?
    var title: String?
    var originalTitle: String?
    var originalLanguage: String?
    var releaseDate: String?
    var overview: String?
    var tagline: String?
    var genres: [TMDBGenre]?
    var runtime: Int?
    var status: String?
    var productionCountries: [Country]?
    var homepage: String?
    var budget: Int?
    var revenue: Int?
    var voteAverage: Double?
    var voteCount: Int?
    var posterPath: String?
    var backdropPath: String?
    var credits: TMDBCredits?
    var videos: TMDBVideos?
    var images: TMDBImages?

    enum CodingKeys: String, CodingKey {
        case id, title, overview, tagline, genres, runtime, status, homepage, budget, revenue, credits, videos, images
        case imdbID = "imdb_id"
        case originalTitle = "original_title"
        case originalLanguage = "original_language"
        case releaseDate = "release_date"
        case productionCountries = "production_countries"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
    }
}

/// `GET tv/{id}?append_to_response=credits,videos,images,external_ids`.
struct TMDBSeries: Decodable, Sendable {
    struct Creator: Decodable, Sendable {
        var name: String?
    }

    struct Network: Decodable, Sendable {
        var name: String?
    }

    struct ExternalIDs: Decodable, Sendable {
        var imdbID: String?
        var tvdbID: LenientID?

        enum CodingKeys: String, CodingKey {
            case imdbID = "imdb_id"
            case tvdbID = "tvdb_id"
        }
    }

    var id: Int
    var name: String?
    var originalName: String?
    var originalLanguage: String?
    var firstAirDate: String?
    var overview: String?
    var tagline: String?
    var genres: [TMDBGenre]?
    var episodeRunTime: [Int]?
    var status: String?
    var networks: [Network]?
    var originCountry: [String]?
    var homepage: String?
    var voteAverage: Double?
    var voteCount: Int?
    var numberOfSeasons: Int?
    var createdBy: [Creator]?
    var posterPath: String?
    var backdropPath: String?
    var credits: TMDBCredits?
    var videos: TMDBVideos?
    var images: TMDBImages?
    var externalIDs: ExternalIDs?

    enum CodingKeys: String, CodingKey {
        case id, name, overview, tagline, genres, status, networks, homepage, credits, videos, images
        case originalName = "original_name"
        case originalLanguage = "original_language"
        case firstAirDate = "first_air_date"
        case episodeRunTime = "episode_run_time"
        case originCountry = "origin_country"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case numberOfSeasons = "number_of_seasons"
        case createdBy = "created_by"
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
        case externalIDs = "external_ids"
    }
}

/// An id TMDB sends as a number (`tvdb_id: 71663`) that older records carry as a string.
struct LenientID: Decodable, Sendable {
    var value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = String(number)
        } else {
            value = try container.decode(String.self)
        }
    }
}
