import Foundation

/// The fields of `Programme` that most airings leave empty or share with many others. The larger
/// ones are boxed once more, so that a film's credits and year do not carry room for a series'
/// episode numbers, and what few airings have (other languages' texts, ratings, video and audio,
/// XMLTV's extras…) is in one more box: a film or an episode has details of its own, and with
/// room for every field each took more than twice as much (docs/internals.md).
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
package final class DetailsBox: @unchecked Sendable, Hashable {
    /// Not checked for overlapping access at run time, for the same reason: every field of a
    /// programme read or set went through the check, a noticeable share of a build's time.
    @exclusivity(unchecked) var details: ProgrammeDetails

    init(_ details: ProgrammeDetails) {
        self.details = details
    }

    package static func == (lhs: DetailsBox, rhs: DetailsBox) -> Bool { lhs === rhs || lhs.lent { left in rhs.lent { left == $0 } } }

    package func hash(into hasher: inout Hasher) { lent { $0.hash(into: &hasher) } }

    /// The details lent in place: read out of the box for a comparison, they were copied whole
    /// (every field retained, then released), for each airing an XMLTV file interned.
    func lent<Result>(_ body: (borrowing ProgrammeDetails) -> Result) -> Result {
        withUnsafeMutablePointer(to: &details) { body($0.pointee) }
    }
}

/// Texts the storage keeps together, outside the programmes that use them (a snapshot
/// companion's synopses, in memory or in a temporary file): a programme holds one text's number
/// and reads it only when asked. The storage subclasses it; a class rather than a protocol, so
/// that a programme holds one reference to it.
open class SharedTexts: @unchecked Sendable {
    public init() {}

    open func withUTF8<Result>(_ number: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        preconditionFailure("\(type(of: self)) keeps texts but does not say how to read them")
    }
}

/// A text of a programme: its own `String`, or one left in `SharedTexts`. Compared and hashed
/// as the `String` it reads as, wherever it is kept.
package enum StoredText: Sendable, Hashable {
    case string(String)
    case stored(SharedTexts, UInt32)

    package var string: String {
        switch self {
        case .string(let text): text
        case .stored(let texts, let number): texts.withUTF8(Int(number)) { String(decoding: $0, as: UTF8.self) }
        }
    }

    package func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        switch self {
        case .string(var text): try text.withUTF8(body)
        case .stored(let texts, let number): try texts.withUTF8(Int(number), body)
        }
    }

    package static func == (lhs: StoredText, rhs: StoredText) -> Bool {
        if case .stored(let left, let a) = lhs, case .stored(let right, let b) = rhs, left === right, a == b { return true }
        return lhs.string == rhs.string
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(string)
    }
}
