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
/// details share one. A synopsis the storage keeps with others (`SharedTexts`) stays there until
/// asked for. docs/internals.md says what an airing weighs; the stored fields are declared in the
/// order that packs them.
public struct Programme: Sendable, Hashable {
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
    package private(set) var synopsisText: StoredText?
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

    /// Sets the synopsis to text `number` of `texts`, left there until read.
    package mutating func setSynopsis(_ number: Int, in texts: SharedTexts) {
        synopsisText = .stored(texts, UInt32(number))
    }

    /// Swaps a synopsis held as a `String` of its own for `shared(synopsis)`; one in a block is
    /// shared already.
    package mutating func shareSynopsis(_ shared: (String) -> String) {
        if case .string(let text) = synopsisText { synopsisText = .string(shared(text)) }
    }

    /// The details box this airing holds, as an identity: airings holding the same box (interned)
    /// have the same details, whatever else differs.
    package var detailsIdentity: ObjectIdentifier? {
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
    package mutating func shareDetails(in shared: inout Set<DetailsBox>) {
        guard let box = detailsBox else { return }
        detailsBox = shared.insert(box).memberAfterInsert
    }
}
