import Foundation
import GuideCore

/// How `TMDBProvider` authenticates. The description never shows the secret.
package enum TMDBCredentials: Sendable, Hashable, CustomStringConvertible {
    /// A v3 API key, sent as the first query item, `api_key=…`.
    case apiKey(String)
    /// A v4 read-access token, sent as `Authorization: Bearer …`.
    case bearerToken(String)
    /// No credentials: for recorded responses, which need none.
    case none

    package var description: String {
        switch self {
        case .apiKey: "apiKey(\(URLRedaction.placeholder))"
        case .bearerToken: "bearerToken(\(URLRedaction.placeholder))"
        case .none: "none"
        }
    }
}

/// Film and series details from The Movie Database's v3 API (`https://api.themoviedb.org/3/`).
///
/// A lookup makes, in this order (every URL built with `QueryEncoding`):
/// 1. `configuration`, once per provider, for the image base URL;
/// 2. with a TMDB id in the query, `movie/{id}` (films) or `tv/{id}` (every other kind) with
///    `append_to_response=credits,videos,images` (series also `external_ids`),
///    `include_image_language` and `language`. An unknown id (404) falls back to 3;
/// 3. else `search/movie` (`query`, `language`, `year`) or `search/tv` (`query`, `language`,
///    `first_air_date_year`), the results matched by `TitleMatcher`; when nothing matches and the
///    query had a year, the same search without it; then the details as in 2;
/// 4. the same details in `fallbackLanguage` only when the title or overview is empty in
///    `language`; only the empty title, overview and tagline are taken from it.
///
/// Concurrent lookups share the configuration request and the details request of the same work.
/// A 401 is `ProviderError.notConfigured`, and every later lookup fails the same way without a
/// request; other failures are the transport's `ProviderError`s.
package struct TMDBProvider: MetadataProvider {
    package static let defaultBaseURL = URL(string: "https://api.themoviedb.org/3/")!

    package let id: String
    package let baseURL: URL
    /// A TMDB language tag, `es-ES`.
    package let language: String
    /// Where empty texts are taken from, `en-US`; nil for none.
    package let fallbackLanguage: String?
    private let credentials: TMDBCredentials
    private let transport: any HTTPTransport
    private let state = TMDBSharedState()

    package init(
        id: String,
        baseURL: URL = TMDBProvider.defaultBaseURL,
        credentials: TMDBCredentials,
        language: String = "es-ES",
        fallbackLanguage: String? = "en-US",
        transport: any HTTPTransport
    ) {
        self.id = id
        self.baseURL = baseURL
        self.credentials = credentials
        self.language = language
        self.fallbackLanguage = fallbackLanguage.flatMap { $0.isEmpty || $0 == language ? nil : $0 }
        self.transport = transport
    }

    package func lookup(_ query: MetadataQuery) async throws -> MetadataLookup {
        let tmdbID = query.providerIDs["tmdb"].flatMap { id in
            !id.isEmpty && id.allSatisfy { $0.isASCII && $0.isNumber } ? id : nil
        }
        let hasTitle = !query.title.trimmingCharacters(in: .whitespaces).isEmpty
        guard tmdbID != nil || hasTitle else { return .noMatch }
        try await state.checkNotRejected()
        let media: Media = query.kind == .movie ? .movie : .series
        let images = try await imageBase()

        if let tmdbID {
            // The id's own numbering when the source named it: movie/603 and tv/603 are different works.
            let idMedia: Media = switch query.providerIDs[ProviderIDKeys.tmdbMedia] {
            case "movie": .movie
            case "tv": .series
            default: media
            }
            do {
                let metadata = try await metadata(idMedia, id: tmdbID, images: images)
                let match = MetadataMatch(
                    method: .providerID, confidence: TitleMatcher.confidence(.providerID),
                    providerID: tmdbID, title: metadata.title ?? query.title)
                return .found(metadata, match)
            } catch ProviderError.http(status: 404, _), ProviderError.notFound {
                // An id TMDB (or the recording) does not know: the title may still find the work.
            }
        }

        guard hasTitle else { return .noMatch }
        var decision = try await search(media, query, year: query.year)
        if case .noMatch = decision, query.year != nil {
            decision = try await search(media, query, year: nil)
        }
        switch decision {
        case .noMatch:
            return .noMatch
        case .ambiguous(let tied):
            return .ambiguous(tied.map(Self.describe))
        case .match(let candidate, let method, let confidence):
            let metadata = try await metadata(media, id: candidate.id, images: images)
            let match = MetadataMatch(
                method: method, confidence: confidence, providerID: candidate.id,
                title: metadata.title ?? candidate.titles.first ?? query.title)
            return .found(metadata, match)
        }
    }

    /// How many requests were made and where their answers came from, e.g.
    /// `42 request(s): 42 from recordings`.
    package func reportNotes() async -> [String] {
        [await state.requestSummary()]
    }

    // MARK: - Requests

    private enum Media: String {
        case movie
        case series = "tv"

        var appended: String {
            switch self {
            case .movie: "credits,videos,images"
            case .series: "credits,videos,images,external_ids"
            }
        }

        var yearItem: String {
            switch self {
            case .movie: "year"
            case .series: "first_air_date_year"
            }
        }
    }

    private func imageBase() async throws -> TMDBImageBase {
        try await state.imageBase { [self] in
            try TMDBImageBase(try await fetch(TMDBConfiguration.self, path: "configuration", query: []))
        }
    }

    private func search(_ media: Media, _ query: MetadataQuery, year: Int?) async throws -> TitleMatcher.Decision {
        var items = [(name: "query", value: query.title), (name: "language", value: language)]
        if let year { items.append((media.yearItem, String(year))) }
        let page = try await fetch(TMDBSearchPage.self, path: "search/\(media.rawValue)", query: items)
        let candidates = (page.results ?? []).compactMap { result -> TitleMatcher.Candidate? in
            guard let id = result.id else { return nil }
            switch media {
            case .movie:
                return TitleMatcher.Candidate(
                    id: String(id), titles: [result.title, result.originalTitle].compactMap { $0.nonBlank },
                    year: TMDBMapping.year(result.releaseDate))
            case .series:
                return TitleMatcher.Candidate(
                    id: String(id), titles: [result.name, result.originalName].compactMap { $0.nonBlank },
                    year: TMDBMapping.year(result.firstAirDate))
            }
        }
        return TitleMatcher.decide(title: query.title, year: query.year, among: candidates)
    }

    private func metadata(_ media: Media, id: String, images: TMDBImageBase) async throws -> Metadata {
        let details = try await state.details("\(media.rawValue)/\(id)") { [self] in
            try await self.details(media, id: id)
        }
        switch details {
        case .movie(let movie): return TMDBMapping.metadata(movie, images: images)
        case .series(let series): return TMDBMapping.metadata(series, images: images)
        }
    }

    /// The details in `language`, their empty texts filled from `fallbackLanguage` when the title
    /// or the overview is empty.
    private func details(_ media: Media, id: String) async throws -> TMDBDetails {
        let path = "\(media.rawValue)/\(id)"
        func items(_ language: String) -> [(name: String, value: String)] {
            [("append_to_response", media.appended), ("include_image_language", imageLanguages), ("language", language)]
        }
        switch media {
        case .movie:
            var movie = try await fetch(TMDBMovie.self, path: path, query: items(language))
            if let fallbackLanguage, movie.title.nonBlank == nil || movie.overview.nonBlank == nil {
                let other = try await fetch(TMDBMovie.self, path: path, query: items(fallbackLanguage))
                movie.title = movie.title.nonBlank ?? other.title
                movie.overview = movie.overview.nonBlank ?? other.overview
                movie.tagline = movie.tagline.nonBlank ?? other.tagline
            }
            return .movie(movie)
        case .series:
            var series = try await fetch(TMDBSeries.self, path: path, query: items(language))
            if let fallbackLanguage, series.name.nonBlank == nil || series.overview.nonBlank == nil {
                let other = try await fetch(TMDBSeries.self, path: path, query: items(fallbackLanguage))
                series.name = series.name.nonBlank ?? other.name
                series.overview = series.overview.nonBlank ?? other.overview
                series.tagline = series.tagline.nonBlank ?? other.tagline
            }
            return .series(series)
        }
    }

    /// `es,en,null`: images captioned in either language, then those without text.
    private var imageLanguages: String {
        var codes: [String] = []
        for tag in [language, fallbackLanguage].compactMap({ $0 }) {
            let code = String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
            if !code.isEmpty, !codes.contains(code) { codes.append(code) }
        }
        return (codes + ["null"]).joined(separator: ",")
    }

    private func fetch<Body: Decodable>(_ type: Body.Type, path: String, query: [(name: String, value: String)]) async throws -> Body {
        var items = query
        var headers: [String: String] = [:]
        switch credentials {
        case .apiKey(let key): items.insert(("api_key", key), at: 0)
        case .bearerToken(let token): headers["Authorization"] = "Bearer \(token)"
        case .none: break
        }
        let url = QueryEncoding.url(baseURL, path: path, query: items)

        let response: TransportResponse
        do {
            response = try await transport.get(url, headers: headers)
        } catch let error as CancellationError {
            throw error
        } catch {
            await state.requestFailed()
            if case ProviderError.http(status: 401, _) = error {
                let rejected = ProviderError.notConfigured("TMDB rejected the credentials (HTTP 401)")
                await state.reject(rejected)
                throw rejected
            }
            throw ProviderError(error)
        }
        await state.answered(from: response.origin)
        do {
            return try JSONDecoder().decode(Body.self, from: response.body)
        } catch let error as DecodingError {
            throw ProviderError.htmlPage(in: response.body, contentType: response.headers["content-type"], expected: "JSON", source: URLRedaction.redacted(url))
                ?? ProviderError.malformed("\(URLRedaction.redacted(url)): \(DecodingErrorDescription(error))")
        } catch {
            throw ProviderError.malformed("\(URLRedaction.redacted(url)): \(error)")
        }
    }

    /// `597 Titanic (1997)`, for the report of an ambiguous match.
    private static func describe(_ candidate: TitleMatcher.Candidate) -> String {
        let title = candidate.titles.first ?? "?"
        return candidate.year.map { "\(candidate.id) \(title) (\($0))" } ?? "\(candidate.id) \(title)"
    }
}

/// One work's details as TMDB gave them.
enum TMDBDetails: Sendable {
    case movie(TMDBMovie)
    case series(TMDBSeries)
}
