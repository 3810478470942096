import Foundation
import GuideCore

/// Absolute image URLs: TMDB gives paths (`/kXfq….jpg`) and, once, in `configuration`, the base
/// to put a size before them (`https://image.tmdb.org/t/p/` + `w500` + path).
struct TMDBImageBase: Sendable {
    static let posterSize = "w500"
    static let backdropSize = "w1280"
    static let gallerySize = "w780"
    static let profileSize = "w185"

    let base: String

    init(_ configuration: TMDBConfiguration) throws {
        guard let base = (configuration.images?.secureBaseURL).nonBlank ?? (configuration.images?.baseURL).nonBlank else {
            throw ProviderError.malformed("configuration: images.secure_base_url is missing")
        }
        self.base = base.hasSuffix("/") ? base : base + "/"
    }

    func url(_ path: String?, size: String) -> String? {
        guard let path = path.nonBlank else { return nil }
        return base + size + (path.hasPrefix("/") ? path : "/" + path)
    }
}

/// TMDB details → `Metadata`. Zeros that mean "unknown" (a budget of 0, a runtime of 0, an
/// average of 0 votes) and empty strings become nil, so a chain fills them from the next provider.
enum TMDBMapping {
    static let castLimit = 20
    static let galleryLimitPerKind = 10
    /// The crew jobs kept, in the order they are listed.
    static let crewJobs = [
        "Director", "Creator", "Screenplay", "Writer", "Novel", "Original Music Composer",
        "Director of Photography", "Producer",
    ]

    static func metadata(_ movie: TMDBMovie, images: TMDBImageBase) -> Metadata {
        var metadata = Metadata()
        metadata.title = movie.title.nonBlank
        metadata.originalTitle = movie.originalTitle.nonBlank
        metadata.originalLanguage = movie.originalLanguage.nonBlank
        metadata.released = movie.releaseDate.nonBlank
        metadata.year = year(movie.releaseDate)
        metadata.overview = movie.overview.nonBlank
        metadata.tagline = movie.tagline.nonBlank
        metadata.genres = genres(movie.genres)
        metadata.runtime = movie.runtime.positive
        metadata.status = movie.status.nonBlank
        metadata.countries = (movie.productionCountries ?? []).compactMap { $0.code.nonBlank }.nilIfEmpty
        metadata.homepage = movie.homepage.nonBlank
        metadata.budget = movie.budget.positive
        metadata.revenue = movie.revenue.positive
        (metadata.voteAverage, metadata.voteCount) = votes(movie.voteAverage, movie.voteCount)
        metadata.cast = cast(movie.credits, images: images)
        metadata.crew = crew(movie.credits, creators: [])
        metadata.poster = images.url(movie.posterPath, size: TMDBImageBase.posterSize)
        metadata.backdrop = images.url(movie.backdropPath, size: TMDBImageBase.backdropSize)
        metadata.images = gallery(movie.images, images: images)
        metadata.videos = videos(movie.videos)
        var ids = ["tmdb": String(movie.id)]
        ids["imdb"] = movie.imdbID.nonBlank
        metadata.providerIDs = ids
        return metadata
    }

    static func metadata(_ series: TMDBSeries, images: TMDBImageBase) -> Metadata {
        var metadata = Metadata()
        metadata.title = series.name.nonBlank
        metadata.originalTitle = series.originalName.nonBlank
        metadata.originalLanguage = series.originalLanguage.nonBlank
        metadata.released = series.firstAirDate.nonBlank
        metadata.year = year(series.firstAirDate)
        metadata.overview = series.overview.nonBlank
        metadata.tagline = series.tagline.nonBlank
        metadata.genres = genres(series.genres)
        metadata.runtime = series.episodeRunTime?.first.positive
        metadata.status = series.status.nonBlank
        metadata.network = series.networks?.first?.name.nonBlank
        metadata.countries = (series.originCountry ?? []).compactMap { $0.nonBlank }.nilIfEmpty
        metadata.homepage = series.homepage.nonBlank
        (metadata.voteAverage, metadata.voteCount) = votes(series.voteAverage, series.voteCount)
        metadata.seasons = series.numberOfSeasons.positive
        metadata.cast = cast(series.credits, images: images)
        metadata.crew = crew(series.credits, creators: series.createdBy ?? [])
        metadata.poster = images.url(series.posterPath, size: TMDBImageBase.posterSize)
        metadata.backdrop = images.url(series.backdropPath, size: TMDBImageBase.backdropSize)
        metadata.images = gallery(series.images, images: images)
        metadata.videos = videos(series.videos)
        var ids = ["tmdb": String(series.id)]
        ids["imdb"] = series.externalIDs?.imdbID.nonBlank
        ids["thetvdb"] = (series.externalIDs?.tvdbID?.value).nonBlank
        metadata.providerIDs = ids
        return metadata
    }

    /// The year of a `YYYY-MM-DD` date.
    static func year(_ date: String?) -> Int? {
        guard let date, date.count >= 4, let year = Int(date.prefix(4)) else { return nil }
        return year
    }

    private static func genres(_ genres: [TMDBGenre]?) -> [String]? {
        (genres ?? []).compactMap { $0.name.nonBlank }.nilIfEmpty
    }

    /// An average of nobody's votes says nothing.
    private static func votes(_ average: Double?, _ count: Int?) -> (Double?, Int?) {
        guard let count, count > 0 else { return (nil, nil) }
        return (average, count)
    }

    private static func cast(_ credits: TMDBCredits?, images: TMDBImageBase) -> [CastMember]? {
        let billed = (credits?.cast ?? []).enumerated()
            .sorted { ($0.element.order ?? Int.max, $0.offset) < ($1.element.order ?? Int.max, $1.offset) }
        return billed.compactMap { entry -> CastMember? in
            guard let name = entry.element.name.nonBlank else { return nil }
            return CastMember(
                name: name, character: entry.element.character.nonBlank,
                photo: images.url(entry.element.profilePath, size: TMDBImageBase.profileSize))
        }
        .prefix(castLimit).nilIfEmpty
    }

    /// The kept jobs in `crewJobs` order, each person once per job; series creators as `Creator`.
    private static func crew(_ credits: TMDBCredits?, creators: [TMDBSeries.Creator]) -> [CrewMember]? {
        var members = creators.compactMap { creator in creator.name.nonBlank.map { CrewMember(name: $0, job: "Creator") } }
        for person in credits?.crew ?? [] {
            guard let name = person.name.nonBlank, let job = person.job, crewJobs.contains(job) else { continue }
            members.append(CrewMember(name: name, job: job, department: person.department.nonBlank))
        }
        var seen = Set<[String]>()
        let unique = members.filter { seen.insert([$0.name, $0.job]).inserted }
        let rank = Dictionary(uniqueKeysWithValues: crewJobs.enumerated().map { ($1, $0) })
        return unique.enumerated()
            .sorted { (rank[$0.element.job] ?? .max, $0.offset) < (rank[$1.element.job] ?? .max, $1.offset) }
            .map(\.element).nilIfEmpty
    }

    private static func gallery(_ gallery: TMDBImages?, images: TMDBImageBase) -> [ImageRef]? {
        func refs(_ list: [TMDBImages.Image]?, kind: String) -> [ImageRef] {
            (list ?? []).compactMap { image -> ImageRef? in
                guard let url = images.url(image.filePath, size: TMDBImageBase.gallerySize) else { return nil }
                return ImageRef(url: url, kind: kind, width: image.width, height: image.height)
            }
            .prefix(galleryLimitPerKind).map { $0 }
        }
        return (refs(gallery?.posters, kind: "poster") + refs(gallery?.backdrops, kind: "backdrop")).nilIfEmpty
    }

    /// Playable videos only (YouTube, Vimeo): trailers, then teasers, then the rest, each group in
    /// TMDB's order.
    private static func videos(_ videos: TMDBVideos?) -> [Video]? {
        let playable = (videos?.results ?? []).compactMap { video -> Video? in
            guard let key = video.key.nonBlank, let site = video.site.nonBlank,
                  ["youtube", "vimeo"].contains(site.lowercased())
            else { return nil }
            return Video(name: video.name ?? "", type: video.type ?? "", site: site, key: key, language: video.language.nonBlank)
        }
        func rank(_ video: Video) -> Int {
            switch video.type.lowercased() {
            case "trailer": 0
            case "teaser": 1
            default: 2
            }
        }
        return playable.enumerated()
            .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
            .map(\.element).nilIfEmpty
    }
}

extension Optional where Wrapped == String {
    /// The text, trimmed; nil when it is missing or blank.
    var nonBlank: String? {
        guard let text = self?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}

extension String {
    var nonBlank: String? { Optional(self).nonBlank }
}

extension Optional where Wrapped == Int {
    /// The number when above zero: TMDB writes 0 for an unknown budget, revenue or runtime.
    var positive: Int? {
        guard let self, self > 0 else { return nil }
        return self
    }
}

extension Collection {
    /// The elements as an array; nil when there are none.
    var nilIfEmpty: [Element]? { isEmpty ? nil : Array(self) }
}
