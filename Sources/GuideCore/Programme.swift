import Foundation

/// What a programme is, as the original app grouped its lists.
public enum ProgrammeKind: String, Codable, Sendable, CaseIterable {
    case movie, series, programme, documentary, news, sports, kids, other
}

/// One airing on one channel. Identity is (channel, start), and the place among the airings
/// sharing that start (clumps).
///
/// A guide holds hundreds of thousands of these, so only what nearly every airing has of its
/// own is stored inline; the rest (language, categories, images, episode numbering, credits…)
/// is behind one reference shared until written (`ProgrammeDetails`), and airings with equal
/// details share one (`Interner`, the snapshot companion's templates). A synopsis read from a
/// snapshot companion stays in the companion's block of synopses (`TextBlock`) until asked for.
/// 128 bytes an airing, where every field inline was 576; the stored fields are declared in the
/// order that packs them.
public struct Programme: Codable, Sendable, Hashable {
    public var channel: String
    public var start: Date
    private var stopTime: Date
    public var title: String
    public var subtitle: String?
    /// The provider that supplied this airing.
    public var source: String
    /// The id of the film or series in `Snapshot.works` that metadata enrichment matched.
    public var work: String?
    private var detailsBox: DetailsBox?
    private(set) var synopsisText: StoredText?
    public var kind: ProgrammeKind?
    private var hasStop: Bool

    /// Nil until normalisation fills it from the next programme's start, as `tv_sort` does.
    public var stop: Date? {
        get { hasStop ? stopTime : nil }
        set {
            hasStop = newValue != nil
            stopTime = newValue ?? Self.noStop
        }
    }

    /// What `stopTime` holds without a stop, always the same so that equal programmes compare equal.
    private static let noStop = Date(timeIntervalSinceReferenceDate: 0)

    public var synopsis: String? {
        get { synopsisText?.string }
        set { synopsisText = newValue.map(StoredText.string) }
    }

    /// Sets the synopsis to a text of `block`, left there until read.
    package mutating func setSynopsis(_ number: Int, in block: TextBlock) {
        synopsisText = .stored(block, UInt32(number))
    }

    /// Swaps a synopsis held as a `String` of its own for `shared(synopsis)`; one in a block is
    /// shared already.
    mutating func shareSynopsis(_ shared: (String) -> String) {
        if case .string(let text) = synopsisText { synopsisText = .string(shared(text)) }
    }

    /// The details box this airing holds, as an identity: airings holding the same box (interned)
    /// have the same details, whatever else differs.
    var detailsIdentity: ObjectIdentifier? {
        detailsBox.map(ObjectIdentifier.init)
    }

    /// The language of `title`, `subtitle` and `synopsis`.
    public var textLanguage: String? {
        get { detailsBox?.details.textLanguage }
        set { changeDetails(clearing: newValue == nil) { $0.textLanguage = newValue } }
    }
    public var categories: [LocalizedText]? {
        get { detailsBox?.details.categories }
        set { changeDetails(clearing: newValue == nil) { $0.categories = newValue } }
    }
    public var images: [ImageRef]? {
        get { detailsBox?.details.images }
        set { changeDetails(clearing: newValue == nil) { $0.images = newValue } }
    }
    /// Ids in other systems, keyed by system: `miguiatv`, `tmdb`, `imdb`, `thetvdb`…
    public var providerIDs: [String: String]? {
        get { detailsBox?.details.providerIDs }
        set { changeDetails(clearing: newValue == nil) { $0.providerIDs = newValue } }
    }
    /// Its place, from 1, among this channel's airings that share its start (an XMLTV clump, or
    /// two programmes a source gives the same slot), in tv_sort's order; nil for the first.
    public var sameStartIndex: Int? {
        get { detailsBox?.details.sameStartIndex }
        set { changeDetails(clearing: newValue == nil) { $0.sameStartIndex = newValue } }
    }

    /// What an XMLTV source said that only an XMLTV export uses; nil when it said none of it.
    public var xmltv: XMLTVExtras? {
        get { detailsBox?.details.xmltv }
        set { changeDetails(clearing: newValue?.isEmpty ?? true) { $0.xmltv = newValue.flatMap { $0.isEmpty ? nil : $0 } } }
    }

    /// Further titles, sub-titles and descriptions (other languages), in source order.
    public var otherTexts: [ProgrammeText]? {
        get { detailsBox?.details.otherTexts }
        set { changeDetails(clearing: newValue == nil) { $0.otherTexts = newValue } }
    }
    public var keywords: [LocalizedText]? {
        get { detailsBox?.details.keywords }
        set { changeDetails(clearing: newValue == nil) { $0.keywords = newValue } }
    }
    /// The source's date of production as given (`2006`, `20061011`).
    public var date: String? {
        get { detailsBox?.details.date }
        set { changeDetails(clearing: newValue == nil) { $0.date = newValue } }
    }
    public var year: Int? {
        get { detailsBox?.details.year }
        set { changeDetails(clearing: newValue == nil) { $0.year = newValue } }
    }
    public var episode: Episode? {
        get { detailsBox?.details.episode }
        set { changeDetails(clearing: newValue == nil) { $0.episode = newValue } }
    }
    public var credits: [Credit]? {
        get { detailsBox?.details.credits }
        set { changeDetails(clearing: newValue == nil) { $0.credits = newValue } }
    }
    /// Spoken language.
    public var language: String? {
        get { detailsBox?.details.language }
        set { changeDetails(clearing: newValue == nil) { $0.language = newValue } }
    }
    public var originalLanguage: String? {
        get { detailsBox?.details.originalLanguage }
        set { changeDetails(clearing: newValue == nil) { $0.originalLanguage = newValue } }
    }
    public var countries: [String]? {
        get { detailsBox?.details.countries }
        set { changeDetails(clearing: newValue == nil) { $0.countries = newValue } }
    }
    /// Running time in seconds, when the source gives one apart from start and stop.
    public var length: Int? {
        get { detailsBox?.details.length }
        set { changeDetails(clearing: newValue == nil) { $0.length = newValue } }
    }
    public var urls: [String]? {
        get { detailsBox?.details.urls }
        set { changeDetails(clearing: newValue == nil) { $0.urls = newValue } }
    }
    public var video: VideoInfo? {
        get { detailsBox?.details.video }
        set { changeDetails(clearing: newValue == nil) { $0.video = newValue } }
    }
    public var audio: AudioInfo? {
        get { detailsBox?.details.audio }
        set { changeDetails(clearing: newValue == nil) { $0.audio = newValue } }
    }
    public var previouslyShown: PreviouslyShown? {
        get { detailsBox?.details.previouslyShown }
        set { changeDetails(clearing: newValue == nil) { $0.previouslyShown = newValue } }
    }
    public var premiere: Bool? {
        get { detailsBox?.details.premiere }
        set { changeDetails(clearing: newValue == nil) { $0.premiere = newValue } }
    }
    public var lastChance: Bool? {
        get { detailsBox?.details.lastChance }
        set { changeDetails(clearing: newValue == nil) { $0.lastChance = newValue } }
    }
    public var isNew: Bool? {
        get { detailsBox?.details.isNew }
        set { changeDetails(clearing: newValue == nil) { $0.isNew = newValue } }
    }
    public var subtitles: [SubtitleInfo]? {
        get { detailsBox?.details.subtitles }
        set { changeDetails(clearing: newValue == nil) { $0.subtitles = newValue } }
    }
    public var ratings: [Rating]? {
        get { detailsBox?.details.ratings }
        set { changeDetails(clearing: newValue == nil) { $0.ratings = newValue } }
    }
    public var starRatings: [Rating]? {
        get { detailsBox?.details.starRatings }
        set { changeDetails(clearing: newValue == nil) { $0.starRatings = newValue } }
    }

    public init(channel: String, start: Date, stop: Date? = nil, title: String, source: String) {
        self.channel = channel
        self.start = start
        self.stopTime = stop ?? Self.noStop
        self.hasStop = stop != nil
        self.title = title
        self.source = source
    }

    /// A stable id made of the programme's identity: `La1.es@20261025T203000Z`, and
    /// `La1.es@20261025T203000Z.1` for the next airing with the same start.
    public var id: String {
        let base = "\(channel)@\(CompactTime.format(start))"
        return sameStartIndex.map { "\(base).\($0)" } ?? base
    }

    /// Writes into the details in place when no other programme shares them (a copy shares
    /// them until one is written), and drops them once they are all empty, so that equal
    /// programmes are equal whatever was set and cleared on the way.
    /// `clearing`: the change sets a field to nil, which may leave no details at all. Only then
    /// are they compared with none: the comparison copied them whole (every field retained and
    /// released), for each field a parser set.
    private mutating func changeDetails(clearing: Bool, _ change: (inout ProgrammeDetails) -> Void) {
        guard detailsBox != nil else {
            guard !clearing else { return }
            var details = ProgrammeDetails()
            change(&details)
            detailsBox = DetailsBox(details)
            return
        }
        if !isKnownUniquelyReferenced(&detailsBox) { detailsBox = DetailsBox(detailsBox!.details) }
        change(&detailsBox!.details)
        if clearing, detailsBox!.lent({ $0 == ProgrammeDetails() }) { detailsBox = nil }
    }

    /// Swaps the details for equal ones already in `shared`, or adds them there: reruns and
    /// airings of one kind then hold one set of details between them.
    mutating func shareDetails(in shared: inout Set<DetailsBox>) {
        guard let box = detailsBox else { return }
        detailsBox = shared.insert(box).memberAfterInsert
    }

    enum CodingKeys: String, CodingKey {
        case channel, start, stop, title, subtitle, synopsis, textLanguage, otherTexts, kind
        case categories, keywords, date, year, episode, credits, language, originalLanguage
        case countries, length, images, urls, video, audio, previouslyShown, premiere, lastChance
        case isNew = "new"
        case subtitles, ratings, starRatings, providerIDs, source, work, sameStartIndex
        case xmltv
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(channel: try container.decode(String.self, forKey: .channel), start: try container.decode(Date.self, forKey: .start),
                  stop: try container.decodeIfPresent(Date.self, forKey: .stop), title: try container.decode(String.self, forKey: .title),
                  source: try container.decode(String.self, forKey: .source))
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
        synopsis = try container.decodeIfPresent(String.self, forKey: .synopsis)
        textLanguage = try container.decodeIfPresent(String.self, forKey: .textLanguage)
        otherTexts = try container.decodeIfPresent([ProgrammeText].self, forKey: .otherTexts)
        kind = try container.decodeIfPresent(ProgrammeKind.self, forKey: .kind)
        categories = try container.decodeIfPresent([LocalizedText].self, forKey: .categories)
        keywords = try container.decodeIfPresent([LocalizedText].self, forKey: .keywords)
        date = try container.decodeIfPresent(String.self, forKey: .date)
        year = try container.decodeIfPresent(Int.self, forKey: .year)
        episode = try container.decodeIfPresent(Episode.self, forKey: .episode)
        credits = try container.decodeIfPresent([Credit].self, forKey: .credits)
        language = try container.decodeIfPresent(String.self, forKey: .language)
        originalLanguage = try container.decodeIfPresent(String.self, forKey: .originalLanguage)
        countries = try container.decodeIfPresent([String].self, forKey: .countries)
        length = try container.decodeIfPresent(Int.self, forKey: .length)
        images = try container.decodeIfPresent([ImageRef].self, forKey: .images)
        urls = try container.decodeIfPresent([String].self, forKey: .urls)
        video = try container.decodeIfPresent(VideoInfo.self, forKey: .video)
        audio = try container.decodeIfPresent(AudioInfo.self, forKey: .audio)
        previouslyShown = try container.decodeIfPresent(PreviouslyShown.self, forKey: .previouslyShown)
        premiere = try container.decodeIfPresent(Bool.self, forKey: .premiere)
        lastChance = try container.decodeIfPresent(Bool.self, forKey: .lastChance)
        isNew = try container.decodeIfPresent(Bool.self, forKey: .isNew)
        subtitles = try container.decodeIfPresent([SubtitleInfo].self, forKey: .subtitles)
        ratings = try container.decodeIfPresent([Rating].self, forKey: .ratings)
        starRatings = try container.decodeIfPresent([Rating].self, forKey: .starRatings)
        providerIDs = try container.decodeIfPresent([String: String].self, forKey: .providerIDs)
        work = try container.decodeIfPresent(String.self, forKey: .work)
        sameStartIndex = try container.decodeIfPresent(Int.self, forKey: .sameStartIndex)
        xmltv = try container.decodeIfPresent(XMLTVExtras.self, forKey: .xmltv)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channel, forKey: .channel)
        try container.encode(start, forKey: .start)
        try container.encodeIfPresent(stop, forKey: .stop)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(subtitle, forKey: .subtitle)
        try container.encodeIfPresent(synopsis, forKey: .synopsis)
        try container.encodeIfPresent(textLanguage, forKey: .textLanguage)
        try container.encodeIfPresent(otherTexts, forKey: .otherTexts)
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encodeIfPresent(categories, forKey: .categories)
        try container.encodeIfPresent(keywords, forKey: .keywords)
        try container.encodeIfPresent(date, forKey: .date)
        try container.encodeIfPresent(year, forKey: .year)
        try container.encodeIfPresent(episode, forKey: .episode)
        try container.encodeIfPresent(credits, forKey: .credits)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encodeIfPresent(originalLanguage, forKey: .originalLanguage)
        try container.encodeIfPresent(countries, forKey: .countries)
        try container.encodeIfPresent(length, forKey: .length)
        try container.encodeIfPresent(images, forKey: .images)
        try container.encodeIfPresent(urls, forKey: .urls)
        try container.encodeIfPresent(video, forKey: .video)
        try container.encodeIfPresent(audio, forKey: .audio)
        try container.encodeIfPresent(previouslyShown, forKey: .previouslyShown)
        try container.encodeIfPresent(premiere, forKey: .premiere)
        try container.encodeIfPresent(lastChance, forKey: .lastChance)
        try container.encodeIfPresent(isNew, forKey: .isNew)
        try container.encodeIfPresent(subtitles, forKey: .subtitles)
        try container.encodeIfPresent(ratings, forKey: .ratings)
        try container.encodeIfPresent(starRatings, forKey: .starRatings)
        try container.encodeIfPresent(providerIDs, forKey: .providerIDs)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(work, forKey: .work)
        try container.encodeIfPresent(sameStartIndex, forKey: .sameStartIndex)
        try container.encodeIfPresent(xmltv, forKey: .xmltv)
    }
}

/// Every field by name, as if all were stored inline: debuggers, `dump` and the tests that walk a
/// programme's fields see the model, not how it is packed.
extension Programme: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: [
            "channel": channel, "start": start, "stop": stop as Any, "title": title, "subtitle": subtitle as Any,
            "synopsis": synopsis as Any, "textLanguage": textLanguage as Any, "otherTexts": otherTexts as Any,
            "kind": kind as Any, "categories": categories as Any, "keywords": keywords as Any, "date": date as Any,
            "year": year as Any, "episode": episode as Any, "credits": credits as Any, "language": language as Any,
            "originalLanguage": originalLanguage as Any, "countries": countries as Any, "length": length as Any,
            "images": images as Any, "urls": urls as Any, "video": video as Any, "audio": audio as Any,
            "previouslyShown": previouslyShown as Any, "premiere": premiere as Any, "lastChance": lastChance as Any,
            "isNew": isNew as Any, "subtitles": subtitles as Any, "ratings": ratings as Any, "starRatings": starRatings as Any,
            "providerIDs": providerIDs as Any, "source": source, "work": work as Any, "sameStartIndex": sameStartIndex as Any,
            "xmltv": xmltv as Any,
        ], displayStyle: .struct)
    }
}

/// The fields of `Programme` that most airings leave empty or share with many others. The larger
/// ones are boxed once more, so that a film's credits and year do not carry room for a series'
/// episode numbers, and what few airings have (other languages' texts, ratings, video and audio,
/// XMLTV's extras…) is in one more box: a film or an episode has details of its own, and at
/// 3,000 channels × 7 days, 150,000 of them with room for every field took 24 MB more.
struct ProgrammeDetails: Sendable, Hashable {
    var textLanguage: String?
    var categories: [LocalizedText]?
    var images: [ImageRef]?
    var providerIDs: [String: String]?
    var date: String?
    var year: Int?
    var episode: Episode? {
        get { episodeBox?.value }
        set { episodeBox = newValue.map(Boxed.init) }
    }
    var credits: [Credit]?
    private var episodeBox: Boxed<Episode>?
    /// Nil while every rare field is: equal details are equal however they were set.
    private var rareBox: Boxed<RareDetails>?

    var sameStartIndex: Int? { get { rare(\.sameStartIndex) } set { setRare(\.sameStartIndex, newValue) } }
    var xmltv: XMLTVExtras? { get { rare(\.xmltv) } set { setRare(\.xmltv, newValue) } }
    var otherTexts: [ProgrammeText]? { get { rare(\.otherTexts) } set { setRare(\.otherTexts, newValue) } }
    var keywords: [LocalizedText]? { get { rare(\.keywords) } set { setRare(\.keywords, newValue) } }
    var language: String? { get { rare(\.language) } set { setRare(\.language, newValue) } }
    var originalLanguage: String? { get { rare(\.originalLanguage) } set { setRare(\.originalLanguage, newValue) } }
    var countries: [String]? { get { rare(\.countries) } set { setRare(\.countries, newValue) } }
    var length: Int? { get { rare(\.length) } set { setRare(\.length, newValue) } }
    var urls: [String]? { get { rare(\.urls) } set { setRare(\.urls, newValue) } }
    var video: VideoInfo? { get { rare(\.video) } set { setRare(\.video, newValue) } }
    var audio: AudioInfo? { get { rare(\.audio) } set { setRare(\.audio, newValue) } }
    var previouslyShown: PreviouslyShown? { get { rare(\.previouslyShown) } set { setRare(\.previouslyShown, newValue) } }
    var premiere: Bool? { get { rare(\.premiere) } set { setRare(\.premiere, newValue) } }
    var lastChance: Bool? { get { rare(\.lastChance) } set { setRare(\.lastChance, newValue) } }
    var isNew: Bool? { get { rare(\.isNew) } set { setRare(\.isNew, newValue) } }
    var subtitles: [SubtitleInfo]? { get { rare(\.subtitles) } set { setRare(\.subtitles, newValue) } }
    var ratings: [Rating]? { get { rare(\.ratings) } set { setRare(\.ratings, newValue) } }
    var starRatings: [Rating]? { get { rare(\.starRatings) } set { setRare(\.starRatings, newValue) } }

    private func rare<Value>(_ field: KeyPath<RareDetails, Value?>) -> Value? {
        rareBox?.value[keyPath: field]
    }

    private mutating func setRare<Value>(_ field: WritableKeyPath<RareDetails, Value?>, _ value: Value?) {
        var rare = rareBox?.value ?? RareDetails()
        rare[keyPath: field] = value
        rareBox = rare == RareDetails() ? nil : Boxed(rare)
    }

    private struct RareDetails: Codable, Sendable, Hashable {
        var sameStartIndex: Int?
        var xmltv: XMLTVExtras?
        var otherTexts: [ProgrammeText]?
        var keywords: [LocalizedText]?
        var language: String?
        var originalLanguage: String?
        var countries: [String]?
        var length: Int?
        var urls: [String]?
        var video: VideoInfo?
        var audio: AudioInfo?
        var previouslyShown: PreviouslyShown?
        var premiere: Bool?
        var lastChance: Bool?
        var isNew: Bool?
        var subtitles: [SubtitleInfo]?
        var ratings: [Rating]?
        var starRatings: [Rating]?
    }
}

/// `ProgrammeDetails` behind a reference. Unchecked: it is only written through
/// `Programme.changeDetails`, when no other value holds it, so no two threads see a write.
final class DetailsBox: @unchecked Sendable, Hashable {
    /// Not checked for overlapping access at run time, for the same reason: every field of a
    /// programme read or set went through the check, a twentieth of a build's time.
    @exclusivity(unchecked) var details: ProgrammeDetails

    init(_ details: ProgrammeDetails) {
        self.details = details
    }

    static func == (lhs: DetailsBox, rhs: DetailsBox) -> Bool { lhs === rhs || lhs.lent { left in rhs.lent { left == $0 } } }

    func hash(into hasher: inout Hasher) { lent { $0.hash(into: &hasher) } }

    /// The details lent in place: read out of the box for a comparison, they were copied whole
    /// (every field retained, then released), for each airing an XMLTV file interned.
    func lent<Result>(_ body: (borrowing ProgrammeDetails) -> Result) -> Result {
        withUnsafeMutablePointer(to: &details) { body($0.pointee) }
    }
}

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
