import Foundation
import GuideCore

// The JSON API's response bodies. Optional fields are left out when empty; `/openapi.yaml`
// describes each type under the same name.

/// A channel as lists embed it.
struct ChannelBrief: Encodable, Sendable {
    var id: String
    var name: String
    var logo: String?

    init(_ channel: Channel) {
        id = channel.id
        name = channel.name
        logo = channel.logo
    }
}

/// One airing in a list: enough to draw a row or a grid cell, with the detail one request away.
struct Airing: Encodable, Sendable {
    var id: String
    var channel: String
    var start: Date
    var stop: Date?
    var title: String
    var subtitle: String?
    var kind: ProgrammeKind?
    var year: Int?
    var season: Int?
    var episode: Int?
    /// The work's genres, else the programme's categories.
    var genres: [String]?
    var poster: String?
    var work: String?
    /// A channel's day only: true on the programme on air now.
    var current: Bool?
    /// On the programme on air now: seconds until its stop, and the share of it already shown (0…1).
    var remainingSeconds: Int?
    var progress: Double?

    init(_ programme: Programme, in index: GuideIndex) {
        let work = index.work(of: programme)
        id = programme.id
        channel = programme.channel
        start = programme.start
        stop = programme.stop
        title = programme.title
        subtitle = programme.subtitle
        kind = index.kind(of: programme)
        year = work?.metadata.year ?? programme.year
        season = programme.episode?.season
        episode = programme.episode?.number
        let genres = work?.metadata.genres ?? programme.categories?.map(\.value) ?? []
        self.genres = genres.isEmpty ? nil : genres
        poster = work?.metadata.poster ?? programme.images?.first(where: { $0.kind == "poster" })?.url
        self.work = programme.work
    }

    /// The airing with its time left, when it is on air at `now`.
    func live(at now: Date) -> Airing {
        guard let stop, start <= now, now < stop else { return self }
        var airing = self
        airing.remainingSeconds = Int(stop.timeIntervalSince(now).rounded(.down))
        let elapsed = now.timeIntervalSince(start) / stop.timeIntervalSince(start)
        airing.progress = (elapsed * 1000).rounded() / 1000
        return airing
    }
}

/// `/now`: a channel's current programme and the next one.
struct NowItem: Encodable, Sendable {
    var channel: ChannelBrief
    var current: Airing?
    var next: Airing?
}

/// `/grid`: one channel's row.
struct GridRow: Encodable, Sendable {
    var channel: ChannelBrief
    var programmes: [Airing]
}

/// `/channels/{id}/schedule`: a channel's day in a time zone.
struct ChannelDay: Encodable, Sendable {
    var channel: ChannelBrief
    var date: Day
    var timeZone: String
    /// Local midnight to the next local midnight: 23 or 25 hours on the days clocks change.
    var from: Date
    var to: Date
    var programmes: [Airing]
}

/// `/lineups`: a named line-up from providers.yaml.
struct LineupItem: Encodable, Sendable {
    var name: String
    var channels: [String]
}

/// An audience record with its channel's name.
struct AudienceItem: Encodable, Sendable {
    var day: Day
    /// The position in its day's ranking (1 = most watched).
    var rank: Int?
    var title: String
    var channel: String
    var channelName: String
    var viewers: Int
    /// Percent of the audience.
    var share: Double?
    var start: Date?
    /// The guide programme measured, when the join found it.
    var programme: String?
    var source: String

    init(_ record: AudienceRecord, in index: GuideIndex) {
        day = record.day
        rank = record.rank
        title = record.title
        channel = record.channel
        channelName = index.channel(record.channel)?.name ?? record.channel
        viewers = record.viewers
        share = record.share
        start = record.start
        programme = record.programme
        source = record.source
    }
}

/// A page of a list with what the list is of (`now`, a day, a span) beside `total`, `offset`,
/// `limit` and `items`, flat in one object.
struct Listing<Context: Encodable, Item: Encodable>: Encodable {
    var context: Context
    var page: Page<Item>

    func encode(to encoder: any Encoder) throws {
        try context.encode(to: encoder)
        try page.encode(to: encoder)
    }
}

struct NowContext: Encodable {
    var now: Date
}

struct SpanContext: Encodable {
    var from: Date
    var to: Date
}

struct AudienceDayContext: Encodable {
    var day: Day
    /// Every day held, so a client can offer the others.
    var days: [Day]
}

struct DaySpanContext: Encodable {
    var from: Day
    var to: Day
}

/// `/programmes/{id}`: the airing, the film or series it is, and where each part came from.
/// Presentation fields prefer the work's merged metadata and fall back to the programme's own.
struct ProgrammeDetail: Encodable, Sendable {
    struct Trailer: Encodable, Sendable {
        var name: String
        var url: String
        var site: String
        var key: String
        var language: String?
    }

    struct Ratings: Encodable, Sendable {
        /// The metadata provider's users' score out of 10 and how many voted.
        var voteAverage: Double?
        var voteCount: Int?
        var contentRating: String?
        /// The guide's own content and star ratings for this airing.
        var programme: [Rating]?
        var stars: [Rating]?
    }

    struct WorkInfo: Encodable, Sendable {
        var id: String
        var kind: ProgrammeKind
        var title: String?
        var originalTitle: String?
        var originalLanguage: String?
        var released: String?
        var runtime: Int?
        var status: String?
        var network: String?
        var seasons: Int?
        var countries: [String]?
        var homepage: String?
        var revenue: Int?
        var providerIDs: [String: String]?
        var guideTitles: [String]
    }

    struct Provenance: Encodable, Sendable {
        /// The guide provider that supplied the airing.
        var programme: String
        /// Metadata field → the provider that gave it (`overview: tmdb`).
        var work: [String: String]?
        /// How each metadata provider found the work.
        var matches: [String: MetadataMatch]?
    }

    var id: String
    /// Every field of the airing as the snapshot holds it.
    var programme: Programme
    var channel: ChannelBrief
    var title: String
    /// The guide's synopsis, else the work's overview.
    var synopsis: String?
    var overview: String?
    var tagline: String?
    var poster: String?
    var backdrop: String?
    var genres: [String]
    var cast: [CastMember]
    var crew: [CrewMember]
    var trailer: Trailer?
    var year: Int?
    var budget: Int?
    var images: [ImageRef]
    var ratings: Ratings
    var work: WorkInfo?
    var provenance: Provenance
    /// Audience records measured for this airing.
    var audiences: [AudienceItem]
    /// The page its source gave for it (`WatchAgain`), whatever the time: clients offer it once
    /// the airing has ended, as the web guide does.
    var watchAgain: WatchAgain?
    /// Its stream from the playlist's catch-up, while the provider keeps it; set by the route,
    /// which knows the playlist and the time.
    var catchup: CatchupLink?

    init(_ programme: Programme, channel: Channel, in index: GuideIndex) {
        let work = index.work(of: programme)
        let metadata = work?.metadata ?? Metadata()
        id = programme.id
        self.programme = programme
        self.channel = ChannelBrief(channel)
        title = programme.title
        synopsis = programme.synopsis ?? metadata.overview
        overview = metadata.overview
        tagline = metadata.tagline
        let ownImages = programme.images ?? []
        poster = metadata.poster ?? ownImages.first(where: { $0.kind == "poster" })?.url ?? ownImages.first?.url
        backdrop = metadata.backdrop ?? ownImages.first(where: { $0.kind == "backdrop" })?.url
        genres = metadata.genres ?? programme.categories?.map(\.value) ?? []
        let credits = programme.credits ?? []
        cast = metadata.cast ?? credits.filter { $0.role == .actor }.map { CastMember(name: $0.name, character: $0.character) }
        crew = metadata.crew ?? credits.filter { $0.role != .actor }.map { CrewMember(name: $0.name, job: $0.role.rawValue.capitalized) }
        trailer = metadata.videos?.lazy.compactMap { video in
            guard video.type.caseInsensitiveCompare("Trailer") == .orderedSame, let url = video.url else { return nil }
            return Trailer(name: video.name, url: url, site: video.site, key: video.key, language: video.language)
        }.first
        year = metadata.year ?? programme.year
        budget = metadata.budget
        images = metadata.images ?? ownImages
        ratings = Ratings(voteAverage: metadata.voteAverage, voteCount: metadata.voteCount, contentRating: metadata.contentRating,
                          programme: programme.ratings, stars: programme.starRatings)
        self.work = work.map {
            WorkInfo(id: $0.id, kind: $0.kind, title: metadata.title, originalTitle: metadata.originalTitle,
                     originalLanguage: metadata.originalLanguage, released: metadata.released, runtime: metadata.runtime,
                     status: metadata.status, network: metadata.network, seasons: metadata.seasons, countries: metadata.countries,
                     homepage: metadata.homepage, revenue: metadata.revenue, providerIDs: metadata.providerIDs, guideTitles: $0.guideTitles)
        }
        provenance = Provenance(programme: programme.source, work: work?.sources, matches: work?.matches)
        audiences = (index.audiencesByProgramme[programme.id] ?? []).map { AudienceItem($0, in: index) }
        watchAgain = WatchAgain(programme, work: work)
    }
}
