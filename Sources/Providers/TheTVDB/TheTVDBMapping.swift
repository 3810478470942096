import Foundation
import GuideCore

/// Turns TheTVDB records into the project's model: search results into `TitleMatcher`
/// candidates, an extended record into `Metadata`.
struct TheTVDBMapping: Sendable {
    /// Series or film: they differ in artwork type ids.
    enum RecordKind: Sendable {
        case series, movie

        /// `search?type=` and the extended record's path segment.
        var searchType: String { self == .movie ? "movie" : "series" }
        var pathSegment: String { self == .movie ? "movies" : "series" }

        var posterType: Int { self == .movie ? 14 : 2 }
        var backgroundType: Int { self == .movie ? 15 : 3 }
        var bannerType: Int { self == .movie ? 16 : 1 }
    }

    /// 3 letters, the language wanted first and the one to fall back to.
    var language: String
    var fallbackLanguage: String?

    /// Images of each kind kept in `Metadata.images`.
    static let imagesPerKind = 10
    /// Where relative artwork paths (older records) live.
    static let artworkHost = "https://artworks.thetvdb.com"
    /// People types listed as crew, with the job they are listed under.
    static let crewTypes: Set<String> = ["Director", "Writer", "Creator", "Producer"]

    // MARK: Search results

    /// Every name the result is known by and its year; nil without a usable id.
    static func candidate(_ result: SearchResult) -> TitleMatcher.Candidate? {
        guard let id = result.tvdbID.flatMap(Self.numericID) else { return nil }
        var titles: [String] = []
        if let name = result.name.nonEmpty { titles.append(name) }
        titles += result.aliases.compactMap(\.nonEmpty)
        // Sorted by language so the candidate is the same whatever order the JSON object had.
        titles += result.translations.sorted { $0.key < $1.key }.compactMap(\.value.nonEmpty)
        let year = result.year.flatMap(Self.leadingYear) ?? result.firstAirTime.flatMap(Self.leadingYear)
        return TitleMatcher.Candidate(id: id, titles: titles, year: year)
    }

    /// `81189 Breaking Bad (2008)`, for the report of an ambiguous title.
    static func describe(_ candidate: TitleMatcher.Candidate, name: String?) -> String {
        let shown = name.nonEmpty ?? candidate.titles.first ?? "?"
        guard let year = candidate.year, TitleKey(shown).year != year else {
            return "\(candidate.id) \(shown)"
        }
        return "\(candidate.id) \(shown) (\(year))"
    }

    // MARK: Extended records

    func metadata(_ record: ExtendedRecord, kind: RecordKind, id: String) -> Metadata {
        var metadata = Metadata()
        let names = record.translations?.nameTranslations ?? []
        let overviews = record.translations?.overviewTranslations ?? []

        let released = kind == .movie
            ? (record.firstRelease?.date.nonEmpty ?? record.firstAired.nonEmpty)
            : (record.firstAired.nonEmpty ?? record.firstRelease?.date.nonEmpty)
        metadata.released = released
        metadata.year = record.year.flatMap(Self.leadingYear) ?? released.flatMap(Self.leadingYear)

        let ownName = record.name.nonEmpty.map { Self.withoutYearSuffix($0, year: metadata.year) }
        metadata.title = localized(names, \.name, own: ownName, ownLanguage: record.originalLanguage.nonEmpty)
            .map { Self.withoutYearSuffix($0, year: metadata.year) }
        if let ownName, ownName != metadata.title { metadata.originalTitle = ownName }
        // A record's own name is in its original language; its own overview is not reliably so.
        metadata.overview = localized(overviews, \.overview, own: record.overview.nonEmpty, ownLanguage: nil)
        metadata.tagline = localized(names + overviews, \.tagline, own: nil, ownLanguage: nil)
        metadata.originalLanguage = record.originalLanguage.nonEmpty.map(Self.twoLetterLanguage)
        metadata.countries = record.originalCountry.nonEmpty.map { [Self.twoLetterCountry($0)] }

        metadata.genres = record.genres.compactMap(\.name.nonEmpty).uniqued().nonEmpty
        metadata.runtime = [record.averageRuntime, record.runtime].lazy.compactMap { $0 }.first { $0 > 0 }
        metadata.status = record.status?.name.nonEmpty
        metadata.network = record.originalNetwork?.name.nonEmpty ?? record.latestNetwork?.name.nonEmpty
        metadata.contentRating = Self.contentRating(record.contentRatings)
        metadata.homepage = record.remoteIDs.first { $0.sourceName == "Official Website" }?.id.nonEmpty

        let officialSeasons = Set(record.seasons.compactMap { season -> Int? in
            guard season.type?.type == "official", let number = season.number, number > 0 else { return nil }
            return number
        })
        metadata.seasons = officialSeasons.isEmpty ? nil : officialSeasons.count

        let people = record.characters.enumerated()
            .sorted { ($0.element.sort ?? .max, $0.offset) < ($1.element.sort ?? .max, $1.offset) }
            .map(\.element)
        metadata.cast = people.compactMap { person -> CastMember? in
            guard person.peopleType == "Actor", let name = person.personName.nonEmpty else { return nil }
            return CastMember(name: name, character: person.name.nonEmpty,
                              photo: (person.personImgURL.nonEmpty ?? person.image.nonEmpty).map(Self.absoluteArtwork))
        }.nonEmpty
        metadata.crew = people.compactMap { person -> CrewMember? in
            guard let job = person.peopleType, Self.crewTypes.contains(job), let name = person.personName.nonEmpty else {
                return nil
            }
            return CrewMember(name: name, job: job)
        }.uniqued().nonEmpty

        let posters = Self.best(record.artworks, type: kind.posterType)
        let backgrounds = Self.best(record.artworks, type: kind.backgroundType)
        let banners = Self.best(record.artworks, type: kind.bannerType)
        metadata.poster = posters.first?.url ?? record.image.nonEmpty.map(Self.absoluteArtwork)
        metadata.backdrop = backgrounds.first?.url
        metadata.images = (Self.gallery(banners, kind: "banner") + Self.gallery(posters, kind: "poster")
            + Self.gallery(backgrounds, kind: "backdrop")).nonEmpty

        var ids = ["thetvdb": record.id.flatMap(Self.numericID) ?? id]
        ids["imdb"] = record.remoteIDs.first { $0.sourceName == "IMDB" }?.id.nonEmpty
        ids["tmdb"] = record.remoteIDs.first { $0.sourceName == "TheMovieDB.com" }?.id.nonEmpty
        metadata.providerIDs = ids
        return metadata
    }

    /// The text in `language`, else in `fallbackLanguage`, else the record's own. In each language
    /// a translation comes first (one marked as an alias only when no other has the text), then the
    /// record's own text when `ownLanguage` says it is in that language: a Spanish film's own name
    /// is its Spanish title even when only an English translation is listed.
    private func localized(
        _ translations: [Translation], _ text: KeyPath<Translation, String?>, own: String?, ownLanguage: String?
    ) -> String? {
        for wanted in [language, fallbackLanguage].compactMap({ $0 }) {
            let inLanguage = translations.filter { $0.language == wanted }
            let proper = inLanguage.filter { $0.isAlias != true } + inLanguage.filter { $0.isAlias == true }
            if let found = proper.lazy.compactMap({ $0[keyPath: text].nonEmpty }).first { return found }
            if let own, wanted == ownLanguage { return own }
        }
        return own
    }

    /// `Hermanos (2024)` → `Hermanos`: TheTVDB writes the year into the names of works that share
    /// a title, which is no part of the title a guide shows (`Metadata.year` keeps it). Kept
    /// unless it is the record's own year.
    static func withoutYearSuffix(_ name: String, year: Int?) -> String {
        guard let year,
              let suffix = name.range(of: #"\s*[\(\[]\s*(1[89]|20)\d\d\s*[\)\]]\s*$"#, options: .regularExpression),
              Int(name[suffix].filter(\.isASCIIDigit)) == year
        else { return name }
        let stripped = String(name[..<suffix.lowerBound])
        return stripped.nonEmpty ?? name
    }

    /// Spain's rating when there is one, else the first listed.
    private static func contentRating(_ ratings: [ContentRating]) -> String? {
        let named = ratings.filter { $0.name.nonEmpty != nil }
        return (named.first { $0.country?.lowercased() == "esp" } ?? named.first)?.name
    }

    private struct Ranked {
        var url: String
        var width: Int?
        var height: Int?
    }

    /// Artwork of `type`, highest score first (ties keep the record's order), one entry per URL.
    private static func best(_ artworks: [Artwork], type: Int) -> [Ranked] {
        let ofType = artworks.enumerated().filter { $0.element.type == type && $0.element.image.nonEmpty != nil }
        let sorted = ofType.sorted { ($0.element.score ?? 0, -$0.offset) > ($1.element.score ?? 0, -$1.offset) }
        var seen = Set<String>()
        return sorted.compactMap { entry in
            guard let image = entry.element.image.nonEmpty else { return nil }
            let url = absoluteArtwork(image)
            guard seen.insert(url).inserted else { return nil }
            return Ranked(url: url, width: entry.element.width, height: entry.element.height)
        }
    }

    private static func gallery(_ ranked: [Ranked], kind: String) -> [ImageRef] {
        ranked.prefix(imagesPerKind).map { ImageRef(url: $0.url, kind: kind, width: $0.width, height: $0.height) }
    }

    static func absoluteArtwork(_ path: String) -> String {
        if path.hasPrefix("http://") || path.hasPrefix("https://") { return path }
        return artworkHost + (path.hasPrefix("/") ? path : "/" + path)
    }

    // MARK: Codes and numbers

    /// The common ISO 639-2 codes TheTVDB uses, as ISO 639-1; any other code is kept as it is.
    static func twoLetterLanguage(_ code: String) -> String {
        languages[code.lowercased()] ?? code
    }

    /// The common ISO 3166-1 alpha-3 codes TheTVDB uses, as alpha-2; any other in upper case.
    static func twoLetterCountry(_ code: String) -> String {
        countries[code.lowercased()] ?? code.uppercased()
    }

    private static let languages = [
        "eng": "en", "spa": "es", "cat": "ca", "eus": "eu", "glg": "gl", "tur": "tr", "fra": "fr",
        "deu": "de", "ita": "it", "por": "pt", "jpn": "ja", "kor": "ko", "zho": "zh", "dan": "da",
        "swe": "sv", "nor": "no", "nld": "nl", "pol": "pl", "rus": "ru",
    ]

    private static let countries = [
        "esp": "ES", "usa": "US", "gbr": "GB", "fra": "FR", "deu": "DE", "ita": "IT", "can": "CA",
        "mex": "MX", "arg": "AR", "col": "CO", "chl": "CL", "prt": "PT", "jpn": "JP", "kor": "KR",
        "tur": "TR", "aus": "AU", "irl": "IE", "dnk": "DK", "swe": "SE", "nor": "NO", "bel": "BE",
        "nld": "NL",
    ]

    /// The year a `2008`, `2008-01-20` or `2008-01-20 21:00:00` starts with.
    static func leadingYear(_ text: String) -> Int? {
        let digits = text.prefix(4)
        guard digits.count == 4, digits.allSatisfy(\.isASCIIDigit), let year = Int(digits), year > 1800 else {
            return nil
        }
        // `20081` is not a year.
        if let next = text.dropFirst(4).first, next.isASCIIDigit { return nil }
        return year
    }

    /// `81189`, also from `series-81189`; nil for anything that is not a positive integer.
    static func numericID(_ text: String) -> String? {
        let digits = text.split(separator: "-").last.map(String.init) ?? text
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let number = Int(digits), number > 0 else {
            return nil
        }
        return String(number)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Optional where Wrapped == String {
    /// The text unless it is nil or only white space.
    fileprivate var nonEmpty: String? {
        guard let self, !self.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return self
    }
}

extension String {
    fileprivate var nonEmpty: String? { Optional(self).nonEmpty }
}

extension Array {
    /// Nil for an empty array: an empty field is absent, so the next provider of a chain fills it.
    fileprivate var nonEmpty: [Element]? { isEmpty ? nil : self }
}

extension Array where Element: Hashable {
    /// The first of each repeated element, in order.
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
