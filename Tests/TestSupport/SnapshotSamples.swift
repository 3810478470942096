import Foundation
import GuideCore

/// Snapshots shared by the snapshot tests.
package enum SnapshotSamples {
    package static func time(_ text: String) -> Date {
        guard let date = ISOTime.parse(text) else { fatalError("bad sample time \(text)") }
        return date
    }

    /// A programme with every field set, so that the codec tests cover every field (a codec test
    /// fails when the model gains a field this sample does not set).
    package static func fullProgramme() -> Programme {
        var programme = Programme(channel: "La1.es", start: time("2026-10-25T01:30:00Z"), stop: time("2026-10-25T03:05:00Z"),
                                  title: "Volver", source: "xmltv-sample")
        programme.subtitle = "Capítulo 3: \"La vuelta\""
        programme.synopsis = "Raimunda vuelve a La Mancha.\nUna línea con \\ barra, tabulador\t y /slash/."
        programme.textLanguage = "es"
        programme.otherTexts = [ProgrammeText(field: .title, value: "Tornar", lang: "ca")]
        programme.kind = .movie
        programme.categories = [LocalizedText("Cine", lang: "es"), LocalizedText("Drama", lang: "es")]
        programme.keywords = [LocalizedText("maternidad", lang: "es")]
        programme.date = "2006"
        programme.year = 2006
        programme.episode = Episode(season: 2, seasonCount: 5, number: 3, episodeCount: 13, part: 1, partCount: 2,
                                    xmltvNS: "1.2.0/2", onscreen: "S02E03", other: ["dd_progid": "EP0001", "imdb.com": "tt0441909"])
        programme.credits = [Credit(role: .director, name: "Pedro Almodóvar"),
                             Credit(role: .actor, name: "Penélope Cruz", character: "Raimunda", guest: false,
                                    images: [ImageRef(url: "https://img.example/cruz.jpg", kind: "person", size: "2", orient: "P", system: "tmdb", xmltvImage: true)],
                                    urls: [WebLink(url: "https://example.org/cruz", system: "imdb")])]
        programme.language = "es"
        programme.originalLanguage = "es"
        programme.countries = ["ES"]
        programme.length = 7_260
        programme.images = [ImageRef(url: "https://img.example/volver.jpg", kind: "poster", width: 600, height: 900)]
        programme.urls = ["https://example.org/volver"]
        programme.video = VideoInfo(present: true, colour: true, aspect: "16:9", quality: "HDTV")
        programme.audio = AudioInfo(present: true, stereo: "stereo")
        programme.previouslyShown = PreviouslyShown(start: "20261018", channel: "La2.es")
        programme.premiere = false
        programme.lastChance = true
        programme.isNew = false
        programme.subtitles = [SubtitleInfo(type: "teletext", language: "es", languageLang: "es")]
        programme.ratings = [Rating(system: "ICAA", value: "12", icon: "https://img.example/12.png",
                                    icons: [ImageRef(url: "https://img.example/12.png", width: 32, height: 32), ImageRef(url: "https://img.example/12.svg")])]
        programme.starRatings = [Rating(system: "imdb", value: "7.5/10", icon: "https://img.example/star.png")]
        programme.providerIDs = ["tmdb": "1234", "imdb": "tt0441909", "miguiatv": "98765"]
        programme.work = fullWork().id
        // The second of a clump of two (the writer has the member; which airing comes first does
        // not matter to it).
        programme.sameStartIndex = 1
        var extras = XMLTVExtras()
        extras.pdcStart = "20261025033000 +0200"
        extras.vpsStart = "20261025033100 +0200"
        extras.showview = "12345"
        extras.videoplus = "67890"
        extras.clumpIndex = "0/1"
        extras.reviews = [Review(type: "text", value: "Una de las mejores.", source: "El País", reviewer: "C. Boyero", lang: "es")]
        extras.premiereNote = LocalizedText("Estreno en abierto", lang: "es")
        extras.lastChanceNote = LocalizedText("Última emisión", lang: "es")
        extras.subtitleLang = "ca"
        extras.synopsisLang = ""
        extras.languageLang = "es"
        extras.originalLanguageLang = "en"
        extras.countryLangs = ["ES": "en"]
        extras.urlSystems = ["https://example.org/volver": "imdb"]
        programme.xmltv = extras
        return programme
    }

    /// A work with every metadata field set, from two providers.
    package static func fullWork() -> Work {
        var metadata = Metadata()
        metadata.title = "Volver"
        metadata.originalTitle = "Volver"
        metadata.originalLanguage = "es"
        metadata.year = 2006
        metadata.released = "2006-03-17"
        metadata.overview = "Raimunda vuelve a La Mancha.\nSu madre, también."
        metadata.tagline = "Nunca te vas del todo."
        metadata.genres = ["Drama", "Comedia"]
        metadata.runtime = 121
        metadata.status = "Released"
        metadata.network = "Cuatro"
        metadata.countries = ["ES"]
        metadata.contentRating = "12"
        metadata.homepage = "https://example.org/volver"
        metadata.budget = 9_400_000
        metadata.revenue = 85_585_220
        metadata.voteAverage = 7.9
        metadata.voteCount = 1_836
        metadata.seasons = 1
        metadata.cast = [CastMember(name: "Penélope Cruz", character: "Raimunda", photo: "https://img.example/w185/cruz.jpg")]
        metadata.crew = [CrewMember(name: "Pedro Almodóvar", job: "Director", department: "Directing")]
        metadata.poster = "https://img.example/w500/volver.jpg"
        metadata.backdrop = "https://img.example/w1280/volver.jpg"
        metadata.images = [ImageRef(url: "https://img.example/w780/volver-2.jpg", kind: "backdrop", width: 1280, height: 720)]
        metadata.videos = [Video(name: "Tráiler", type: "Trailer", site: "YouTube", key: "oG9u4TxR0bs", language: "es")]
        metadata.providerIDs = ["tmdb": "219", "imdb": "tt0441909", "thetvdb": "1234"]
        return Work(
            id: "movie/tmdb/219", kind: .movie, metadata: metadata,
            sources: ["title": "tmdb", "overview": "tmdb", "voteAverage": "tmdb", "providerIDs.tmdb": "tmdb",
                      "providerIDs.imdb": "thetvdb", "providerIDs.thetvdb": "thetvdb", "network": "thetvdb"],
            matches: ["tmdb": MetadataMatch(method: .providerID, confidence: TitleMatcher.confidence(.providerID), providerID: "219", title: "Volver"),
                      "thetvdb": MetadataMatch(method: .nearYear, confidence: TitleMatcher.confidence(.nearYear, yearDistance: 1),
                                               providerID: "1234", title: "Volver (2006)")],
            guideTitles: ["Volver", "Volver (2006)"]
        )
    }

    package static func fullChannel() -> Channel {
        var channel = Channel(id: "La1.es", name: "La 1", otherNames: [LocalizedText("TVE 1", lang: "es")], type: "national", language: "es",
                              logo: "https://img.example/la1.png", url: "https://www.rtve.es/la1/", providerIDs: ["miguiatv": "1", "xmltv": "La1.es"])
        channel.icons = [ImageRef(url: "https://img.example/la1.png", width: 64, height: 64), ImageRef(url: "https://img.example/la1.svg")]
        channel.links = [WebLink(url: "https://www.rtve.es/la1/"), WebLink(url: "https://es.wikipedia.org/wiki/La_1", system: "wikipedia")]
        return channel
    }

    package static func fullReport() -> RunReport {
        RunReport(
            providers: [
                ProviderReport(id: "miguiatv", type: "miguiatv", status: .failed, errors: [ProviderFailure(kind: "unreachable", message: "unreachable: refused", channel: "La1.es")], notes: ["live"]),
                ProviderReport(id: "xmltv-sample", type: "xmltv", status: .served, channelsServed: 2, channelsFallenBack: 2, programmes: 3, gapsFilled: 1),
            ],
            channels: [
                ChannelReport(id: "La1.es", provider: "xmltv-sample", programmes: 2),
                ChannelReport(id: "TV3.es", provider: nil, programmes: 1, stale: true, staleSince: time("2026-10-18T06:00:00Z")),
            ],
            normalisation: NormalisationReport(stopsFilled: 1, overlapsDropped: 2, overlapping: 3, invalidDropped: 4, outsideWindow: 5, unknownChannel: 6, duplicatesDropped: 7),
            warnings: ["week shifted by 1"],
            metadata: MetadataReport(
                providers: [
                    MetadataProviderReport(id: "tmdb", type: "tmdb", status: .served, lookups: 4, matched: 2, noMatch: 1, ambiguous: 1,
                                           failed: 0, cached: 1, worksContributed: 1, notes: ["3 requests"]),
                    MetadataProviderReport(id: "thetvdb", type: "thetvdb", status: .failed, lookups: 2, failed: 2,
                                           errors: [ProviderFailure(kind: "notConfigured", message: "TheTVDB rejected the API key (HTTP 401)")]),
                ],
                titles: 4, works: 1, programmesEnriched: 1,
                unmatched: ["movie: Días de cine"], ambiguous: ["movie: Titanic — 597 Titanic (1997), 16535 Titanic (1953)"]
            ),
            audience: AudienceReport(
                providers: [
                    AudienceProviderReport(id: "formulatv", type: "scrape", status: .served, served: [saturday], failed: [friday], kept: [friday],
                                           records: 2, errors: [ProviderFailure(kind: "malformed", message: "malformed response: field 'viewers' (xpath td[4], parse number): '—' is not a number", day: friday)],
                                           notes: ["1 advert row skipped"]),
                    AudienceProviderReport(id: "formulatv-archive", type: "scrape", status: .failed, failed: [friday],
                                           errors: [ProviderFailure(kind: "notFound", message: "not found: no page for 2026-10-23", day: friday)]),
                ],
                days: 2, records: 3, joined: 1, fetched: [friday, saturday], failed: [friday], stale: [friday]
            ),
            playlist: {
                var playlist = PlaylistReport(source: "https://iptv.example/channels.m3u", entries: 4)
                playlist.matched = [.init(entry: "La 1 HD", channel: "La1.es", by: .tvgID), .init(entry: "Antena 3", channel: "Antena3.es", by: .name)]
                playlist.ambiguous = [.init(entry: "TV3 HD", candidates: ["TV3.es", "TV3Cat.es"])]
                playlist.unmatched = [.init(entry: "Canal Sur", tvgID: "CanalSur.es")]
                playlist.error = "https://iptv.example/channels.m3u: HTTP 503"
                return playlist
            }()
        )
    }

    package static let friday = Day(year: 2026, month: 10, day: 23)
    package static let saturday = Day(year: 2026, month: 10, day: 24)

    /// Two days of rankings: Friday's kept from an earlier run after its fetch failed, Saturday's
    /// fetched, one of its records joined to its programme.
    package static func fullAudiences() -> [AudienceDay] {
        [
            AudienceDay(day: friday, records: [
                AudienceRecord(day: friday, rank: 1, title: "Telenotícies vespre", channel: "TV3.es", viewers: 412_000, share: 12.5,
                               start: time("2026-10-23T19:00:00Z"), source: "formulatv"),
            ]),
            AudienceDay(day: saturday, records: [
                AudienceRecord(day: saturday, rank: 1, title: "Volver", channel: "La1.es", viewers: 2_345_000, share: 18.7,
                               start: time("2026-10-24T20:05:00Z"), source: "formulatv", programme: "La1.es@20261024T200500Z"),
                AudienceRecord(day: saturday, rank: 2, title: "Informe semanal", channel: "La1.es", viewers: 1_100_000, source: "formulatv"),
            ]),
        ]
    }

    /// Sorted as the codec sorts: channels by id, programmes by (channel, start).
    package static func full() -> Snapshot {
        var later = Programme(channel: "La1.es", start: time("2026-10-25T03:05:00Z"), title: "Telediario", source: "xmltv-sample")
        later.kind = .news
        let regional = Programme(channel: "TV3.es", start: time("2026-10-25T01:00:00Z"), stop: time("2026-10-25T02:00:00Z"),
                                 title: "Telenotícies", source: "xmltv-sample")
        return Snapshot(
            generatedAt: time("2026-10-25T06:00:00Z"),
            window: TimeWindow(from: time("2026-10-24T04:00:00Z"), to: time("2026-11-01T05:00:00Z")),
            channels: [fullChannel(), Channel(id: "TV3.es", name: "TV3")],
            programmes: [fullProgramme(), later, regional],
            works: [fullWork().id: fullWork()],
            audiences: fullAudiences(),
            report: fullReport()
        )
    }

    package static func minimal(generatedAt: String = "2026-10-25T06:00:00Z") -> Snapshot {
        Snapshot(
            generatedAt: time(generatedAt),
            window: TimeWindow(from: time("2026-10-25T00:00:00Z"), to: time("2026-10-26T00:00:00Z")),
            channels: [Channel(id: "La1.es", name: "La 1")],
            programmes: [Programme(channel: "La1.es", start: time("2026-10-25T20:30:00Z"), title: "Cine", source: "xmltv")],
            report: RunReport()
        )
    }

    /// `minimal()` as tvguide wrote it before metadata enrichment: no `works`, no `work`, no
    /// `report.metadata`.
    package static let schemaOneMinimal = """
    {
      "channels": [
        {
          "id": "La1.es",
          "name": "La 1"
        }
      ],
      "generatedAt": "2026-10-25T06:00:00Z",
      "programmes": [
        {
          "channel": "La1.es",
          "source": "xmltv",
          "start": "2026-10-25T20:30:00Z",
          "title": "Cine"
        }
      ],
      "report": {
        "channels": [],
        "normalisation": {
          "duplicatesDropped": 0,
          "invalidDropped": 0,
          "outsideWindow": 0,
          "overlapping": 0,
          "overlapsDropped": 0,
          "stopsFilled": 0,
          "unknownChannel": 0
        },
        "providers": [],
        "warnings": []
      },
      "schemaVersion": 1,
      "window": {
        "from": "2026-10-25T00:00:00Z",
        "to": "2026-10-26T00:00:00Z"
      }
    }

    """

    /// `minimal()` as tvguide wrote it before audiences: no `audiences`.
    package static let schemaTwoMinimal = """
    {
      "channels": [
        {
          "id": "La1.es",
          "name": "La 1"
        }
      ],
      "generatedAt": "2026-10-25T06:00:00Z",
      "programmes": [
        {
          "channel": "La1.es",
          "source": "xmltv",
          "start": "2026-10-25T20:30:00Z",
          "title": "Cine"
        }
      ],
      "report": {
        "channels": [],
        "normalisation": {
          "duplicatesDropped": 0,
          "invalidDropped": 0,
          "outsideWindow": 0,
          "overlapping": 0,
          "overlapsDropped": 0,
          "stopsFilled": 0,
          "unknownChannel": 0
        },
        "providers": [],
        "warnings": []
      },
      "schemaVersion": 2,
      "window": {
        "from": "2026-10-25T00:00:00Z",
        "to": "2026-10-26T00:00:00Z"
      },
      "works": {}
    }

    """

    package static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    package struct NotAnObject: Error {}

    package static func jsonObject(_ data: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw NotAnObject() }
        return object
    }
}
