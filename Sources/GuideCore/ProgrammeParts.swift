import Foundation

public struct ProgrammeText: Codable, Sendable, Hashable {
    public enum Field: String, Codable, Sendable { case title, subtitle, synopsis }
    public var field: Field
    public var value: String
    public var lang: String?

    public init(field: Field, value: String, lang: String? = nil) {
        self.field = field
        self.value = value
        self.lang = lang
    }
}

/// Episode numbering. `season` and `number` count from 1, as people say them; `xmltvNS` and
/// `onscreen` keep the source's own notation so that an export gives it back unchanged.
public struct Episode: Codable, Sendable, Hashable {
    public var season: Int?
    public var seasonCount: Int?
    public var number: Int?
    public var episodeCount: Int?
    public var part: Int?
    public var partCount: Int?
    public var xmltvNS: String?
    public var onscreen: String?
    /// Other systems' numbers (`dd_progid`, `imdb.com`…), keyed by system.
    public var other: [String: String]?

    public init(
        season: Int? = nil, seasonCount: Int? = nil, number: Int? = nil, episodeCount: Int? = nil,
        part: Int? = nil, partCount: Int? = nil, xmltvNS: String? = nil, onscreen: String? = nil,
        other: [String: String]? = nil
    ) {
        self.season = season
        self.seasonCount = seasonCount
        self.number = number
        self.episodeCount = episodeCount
        self.part = part
        self.partCount = partCount
        self.xmltvNS = xmltvNS
        self.onscreen = onscreen
        self.other = other
    }
}

public struct Credit: Codable, Sendable, Hashable {
    /// In XMLTV's order, which an export must keep.
    public enum Role: String, Codable, Sendable, CaseIterable {
        case director, actor, writer, adapter, producer, composer, editor, presenter, commentator, guest
    }
    public var role: Role
    public var name: String
    /// The part an actor plays.
    public var character: String?
    /// An actor appearing as a guest (`actor guest="yes"`).
    public var guest: Bool?
    /// Pictures of the person or of the character, and pages about them.
    public var images: [ImageRef]?
    public var urls: [WebLink]?

    public init(role: Role, name: String, character: String? = nil, guest: Bool? = nil, images: [ImageRef]? = nil, urls: [WebLink]? = nil) {
        self.role = role
        self.name = name
        self.character = character
        self.guest = guest
        self.images = images
        self.urls = urls
    }
}

public struct ImageRef: Codable, Sendable, Hashable {
    public var url: String
    /// poster, backdrop, still, logo… when the source says.
    public var kind: String?
    public var width: Int?
    public var height: Int?
    /// XMLTV `<image>`'s `size` (1–3), `orient` (P or L) and `system`.
    public var size: String?
    public var orient: String?
    public var system: String?
    /// Read from an XMLTV `<image>` rather than an `<icon>`: written back as one.
    public var xmltvImage: Bool?

    public init(url: String, kind: String? = nil, width: Int? = nil, height: Int? = nil, size: String? = nil,
                orient: String? = nil, system: String? = nil, xmltvImage: Bool? = nil) {
        self.url = url
        self.kind = kind
        self.width = width
        self.height = height
        self.size = size
        self.orient = orient
        self.system = system
        self.xmltvImage = xmltvImage
    }
}

public struct VideoInfo: Codable, Sendable, Hashable {
    public var present: Bool?
    public var colour: Bool?
    public var aspect: String?
    public var quality: String?

    public init(present: Bool? = nil, colour: Bool? = nil, aspect: String? = nil, quality: String? = nil) {
        self.present = present
        self.colour = colour
        self.aspect = aspect
        self.quality = quality
    }
}

public struct AudioInfo: Codable, Sendable, Hashable {
    public var present: Bool?
    public var stereo: String?

    public init(present: Bool? = nil, stereo: String? = nil) {
        self.present = present
        self.stereo = stereo
    }
}

public struct PreviouslyShown: Codable, Sendable, Hashable {
    /// As the source wrote it (XMLTV time, possibly partial).
    public var start: String?
    public var channel: String?

    public init(start: String? = nil, channel: String? = nil) {
        self.start = start
        self.channel = channel
    }
}

public struct SubtitleInfo: Codable, Sendable, Hashable {
    /// teletext, onscreen, deaf-signed.
    public var type: String?
    public var language: String?
    /// The `lang` of `<language>`: the language its name is written in.
    public var languageLang: String?

    public init(type: String? = nil, language: String? = nil, languageLang: String? = nil) {
        self.type = type
        self.language = language
        self.languageLang = languageLang
    }
}

/// A content rating (`system: MPAA, value: PG`) or a star rating (`value: 3/5`).
public struct Rating: Codable, Sendable, Hashable {
    public var system: String?
    public var value: String
    /// The first icon's address.
    public var icon: String?
    /// Every icon with its size, when there is more to say than `icon` (a second icon, a size).
    public var icons: [ImageRef]?

    public init(system: String? = nil, value: String, icon: String? = nil, icons: [ImageRef]? = nil) {
        self.system = system
        self.value = value
        self.icon = icon
        self.icons = icons
    }
}
