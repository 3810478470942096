import Foundation

// The TheTVDB v4 responses this provider reads (https://thetvdb.github.io/v4-api/), field names as
// the API spells them. Every field is optional and decoded leniently: a null, a missing key or a
// value of an unexpected type reads as absent, and a broken element of a list is skipped, so one
// odd record cannot cost the rest. Only the envelope's shape is required.

/// Every v4 answer: `{"status": "success", "data": …, "links": {…}}`. An error answer says
/// `"status": "failure"` and a `message`.
struct Envelope<Payload: Decodable>: Decodable {
    var status: String?
    var message: String?
    var data: Payload?
    /// Paging of list answers (search).
    var links: Links?

    private enum CodingKeys: String, CodingKey { case status, message, data, links }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = container.lenient(.status)
        message = container.lenient(.message)
        // The payload is the one part decoded strictly: a `data` of the wrong shape is a malformed answer.
        data = try container.decodeIfPresent(Payload.self, forKey: .data)
        links = container.lenient(.links)
    }
}

struct Links: Decodable {
    var prev: String?
    var current: String?
    var next: String?
    var totalItems: Int?
    var pageSize: Int?

    private enum CodingKeys: String, CodingKey {
        case prev, next, totalItems = "total_items", pageSize = "page_size"
        case current = "self"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        prev = container.lenient(.prev)
        current = container.lenient(.current)
        next = container.lenient(.next)
        totalItems = container.lenient(.totalItems)
        pageSize = container.lenient(.pageSize)
    }
}

/// `POST login` → `data`.
struct LoginData: Decodable {
    var token: String?

    private enum CodingKeys: String, CodingKey { case token }

    init(from decoder: any Decoder) throws {
        token = try decoder.container(keyedBy: CodingKeys.self).lenient(.token)
    }
}

/// One element of `GET search` → `data`.
struct SearchResult: Decodable {
    /// `series-81189`.
    var objectID: String?
    var id: String?
    /// The record's numeric id, as text (`"81189"`); the id to ask `series/{id}/extended` for.
    var tvdbID: String?
    var name: String?
    var slug: String?
    /// `series`, `movie`, `person`, `company`.
    var type: String?
    /// The first-air or release year, as text (`"2008"`).
    var year: String?
    /// `YYYY-MM-DD` (series).
    var firstAirTime: String?
    var aliases: [String]
    /// Language (3 letters) → the name in that language.
    var translations: [String: String]
    /// Language (3 letters) → the overview in that language.
    var overviews: [String: String]
    var overview: String?
    var primaryLanguage: String?
    var country: String?
    var imageURL: String?
    var thumbnail: String?
    var remoteIDs: [RemoteID]
    var network: String?
    var status: String?

    private enum CodingKeys: String, CodingKey {
        case objectID, id, name, slug, type, year, aliases, translations, overviews, overview, country
        case thumbnail, network, status
        case tvdbID = "tvdb_id", firstAirTime = "first_air_time", primaryLanguage = "primary_language"
        case imageURL = "image_url", remoteIDs = "remote_ids"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        objectID = container.lenientText(.objectID)
        id = container.lenientText(.id)
        tvdbID = container.lenientText(.tvdbID)
        name = container.lenient(.name)
        slug = container.lenient(.slug)
        type = container.lenient(.type)
        year = container.lenientText(.year)
        firstAirTime = container.lenient(.firstAirTime)
        aliases = container.lenientList(AliasName.self, .aliases).map(\.name)
        translations = container.lenientTextMap(.translations)
        overviews = container.lenientTextMap(.overviews)
        overview = container.lenient(.overview)
        primaryLanguage = container.lenient(.primaryLanguage)
        country = container.lenient(.country)
        imageURL = container.lenient(.imageURL)
        thumbnail = container.lenient(.thumbnail)
        remoteIDs = container.lenientList(RemoteID.self, .remoteIDs)
        network = container.lenient(.network)
        status = container.lenient(.status)
    }
}

/// `GET series/{id}/extended` and `GET movies/{id}/extended` → `data`. One type reads both: they
/// share most fields; a series adds `firstAired`, `averageRuntime`, the networks and `seasons`,
/// a film adds `runtime` and `first_release`.
struct ExtendedRecord: Decodable {
    var id: String?
    var name: String?
    var slug: String?
    var image: String?
    var year: String?
    var firstAired: String?
    var firstRelease: Release?
    var overview: String?
    var originalCountry: String?
    var originalLanguage: String?
    var averageRuntime: Int?
    var runtime: Int?
    var status: Named?
    var originalNetwork: Named?
    var latestNetwork: Named?
    var genres: [Genre]
    var artworks: [Artwork]
    var characters: [CharacterRecord]
    var remoteIDs: [RemoteID]
    var contentRatings: [ContentRating]
    var seasons: [Season]
    /// Present with `meta=translations`.
    var translations: Translations?

    private enum CodingKeys: String, CodingKey {
        case id, name, slug, image, year, firstAired, overview, originalCountry, originalLanguage
        case averageRuntime, runtime, status, originalNetwork, latestNetwork, genres, artworks
        case characters, contentRatings, seasons, translations
        case firstRelease = "first_release", remoteIDs = "remoteIds"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.lenientText(.id)
        name = container.lenient(.name)
        slug = container.lenient(.slug)
        image = container.lenient(.image)
        year = container.lenientText(.year)
        firstAired = container.lenient(.firstAired)
        firstRelease = container.lenient(.firstRelease)
        overview = container.lenient(.overview)
        originalCountry = container.lenient(.originalCountry)
        originalLanguage = container.lenient(.originalLanguage)
        averageRuntime = container.lenient(.averageRuntime)
        runtime = container.lenient(.runtime)
        status = container.lenient(.status)
        originalNetwork = container.lenient(.originalNetwork)
        latestNetwork = container.lenient(.latestNetwork)
        genres = container.lenientList(Genre.self, .genres)
        artworks = container.lenientList(Artwork.self, .artworks)
        characters = container.lenientList(CharacterRecord.self, .characters)
        remoteIDs = container.lenientList(RemoteID.self, .remoteIDs)
        contentRatings = container.lenientList(ContentRating.self, .contentRatings)
        seasons = container.lenientList(Season.self, .seasons)
        translations = container.lenient(.translations)
    }
}

/// Any record reduced to its name: a status (`Continuing`), a network (`Netflix`).
struct Named: Decodable {
    var name: String?

    private enum CodingKeys: String, CodingKey { case name }

    init(from decoder: any Decoder) throws {
        name = try decoder.container(keyedBy: CodingKeys.self).lenient(.name)
    }
}

/// An alias: a plain string in search results, `{"language": "spa", "name": "…"}` in records.
struct AliasName: Decodable {
    var name: String

    private enum CodingKeys: String, CodingKey { case name }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            name = text
            return
        }
        name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
    }
}

struct Release: Decodable {
    var country: String?
    /// `YYYY-MM-DD`.
    var date: String?

    private enum CodingKeys: String, CodingKey { case country, date }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        country = container.lenient(.country)
        date = container.lenient(.date)
    }
}

struct Genre: Decodable {
    var id: Int?
    var name: String?
    var slug: String?

    private enum CodingKeys: String, CodingKey { case id, name, slug }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.lenient(.id)
        name = container.lenient(.name)
        slug = container.lenient(.slug)
    }
}

struct Artwork: Decodable {
    /// Absolute URL.
    var image: String?
    var thumbnail: String?
    /// An `artwork/types` id: series 1 banner, 2 poster, 3 background; films 14 poster,
    /// 15 background, 16 banner.
    var type: Int?
    /// 3 letters, null for artwork without text.
    var language: String?
    var score: Double?
    var width: Int?
    var height: Int?

    private enum CodingKeys: String, CodingKey { case image, thumbnail, type, language, score, width, height }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        image = container.lenient(.image)
        thumbnail = container.lenient(.thumbnail)
        type = container.lenient(.type)
        language = container.lenient(.language)
        score = container.lenient(.score)
        width = container.lenient(.width)
        height = container.lenient(.height)
    }
}

/// A role: the character's `name`, played (or directed, written…) by `personName`.
struct CharacterRecord: Decodable {
    var name: String?
    var personName: String?
    /// `Actor`, `Director`, `Writer`, `Creator`, `Producer`, `Guest Star`…
    var peopleType: String?
    /// The character's picture.
    var image: String?
    /// The person's picture.
    var personImgURL: String?
    /// Billing order.
    var sort: Int?

    private enum CodingKeys: String, CodingKey { case name, personName, peopleType, image, personImgURL, sort }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = container.lenient(.name)
        personName = container.lenient(.personName)
        peopleType = container.lenient(.peopleType)
        image = container.lenient(.image)
        personImgURL = container.lenient(.personImgURL)
        sort = container.lenient(.sort)
    }
}

/// An id in another database: `{"id": "tt0903747", "type": 2, "sourceName": "IMDB"}`.
struct RemoteID: Decodable {
    var id: String?
    var type: Int?
    /// `IMDB`, `TheMovieDB.com`, `Official Website`, `EIDR`…
    var sourceName: String?

    private enum CodingKeys: String, CodingKey { case id, type, sourceName }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.lenientText(.id)
        type = container.lenient(.type)
        sourceName = container.lenient(.sourceName)
    }
}

struct ContentRating: Decodable {
    /// `16`, `TV-MA`.
    var name: String?
    /// 3 letters, lower case: `esp`, `usa`.
    var country: String?

    private enum CodingKeys: String, CodingKey { case name, country }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = container.lenient(.name)
        country = container.lenient(.country)
    }
}

struct Season: Decodable {
    var number: Int?
    /// `{"type": "official"}`; `dvd`, `absolute`, `alternate` are other orderings of the same episodes.
    var type: SeasonType?

    struct SeasonType: Decodable {
        var type: String?

        private enum CodingKeys: String, CodingKey { case type }

        init(from decoder: any Decoder) throws {
            type = try decoder.container(keyedBy: CodingKeys.self).lenient(.type)
        }
    }

    private enum CodingKeys: String, CodingKey { case number, type }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = container.lenient(.number)
        type = container.lenient(.type)
    }
}

/// `meta=translations`: the record's name and overview in every language translated.
struct Translations: Decodable {
    var nameTranslations: [Translation]
    var overviewTranslations: [Translation]

    private enum CodingKeys: String, CodingKey { case nameTranslations, overviewTranslations }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nameTranslations = container.lenientList(Translation.self, .nameTranslations)
        overviewTranslations = container.lenientList(Translation.self, .overviewTranslations)
    }
}

struct Translation: Decodable {
    /// 3 letters.
    var language: String?
    var name: String?
    var overview: String?
    /// Films only.
    var tagline: String?
    /// An alternative name in that language rather than the translation proper.
    var isAlias: Bool?
    var isPrimary: Bool?

    private enum CodingKeys: String, CodingKey { case language, name, overview, tagline, isAlias, isPrimary }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        language = container.lenient(.language)
        name = container.lenient(.name)
        overview = container.lenient(.overview)
        tagline = container.lenient(.tagline)
        isAlias = container.lenient(.isAlias)
        isPrimary = container.lenient(.isPrimary)
    }
}

// MARK: - Lenient decoding

/// Decodes an element when it can and is nil otherwise, so a list keeps its good elements.
private struct Skippable<Element: Decodable>: Decodable {
    var value: Element?

    init(from decoder: any Decoder) throws {
        value = try? Element(from: decoder)
    }
}

/// A value that is text or a number (`"2008"` or `2008`), as text.
private struct LooseText: Decodable {
    var text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
        } else if let integer = try? container.decode(Int.self) {
            text = String(integer)
        } else {
            let number = try container.decode(Double.self)
            guard number == number.rounded(), abs(number) < 1e15 else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an integer")
            }
            text = String(Int(number))
        }
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`; nil when it is missing, null or of another type.
    func lenient<Value: Decodable>(_ key: Key) -> Value? {
        (try? decodeIfPresent(Value.self, forKey: key)) ?? nil
    }

    /// Text at `key`, also when the API sent a number (ids and years come both ways).
    func lenientText(_ key: Key) -> String? {
        let value: LooseText? = lenient(key)
        return value?.text
    }

    /// The decodable elements of the list at `key`; empty when it is missing, null or not a list.
    func lenientList<Element: Decodable>(_ type: Element.Type, _ key: Key) -> [Element] {
        let list: [Skippable<Element>]? = lenient(key)
        return list?.compactMap(\.value) ?? []
    }

    /// A `{"eng": "…", "spa": "…"}` object at `key`; entries whose value is not text are left out.
    func lenientTextMap(_ key: Key) -> [String: String] {
        let map: [String: Skippable<String>]? = lenient(key)
        return map?.compactMapValues(\.value) ?? [:]
    }
}
