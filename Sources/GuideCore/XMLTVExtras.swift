import Foundation

/// What XMLTV carries about an airing that the guide itself does not use, kept so that an
/// export gives back everything an XMLTV import read (the DTD's broadcast codes, reviews, the
/// texts and languages of elements the guide reads as flags or plain strings). Rare: most
/// programmes have none, so it lives behind one reference (`Programme.xmltv`).
public struct XMLTVExtras: Codable, Sendable, Hashable {
    /// `pdc-start`, `vps-start`: the broadcaster's own start signals, as written.
    public var pdcStart: String?
    public var vpsStart: String?
    /// `showview`, `videoplus`: VCR programming codes.
    public var showview: String?
    public var videoplus: String?
    /// `clumpidx` (`0/2`): the place of this airing in a clump of airings sharing a slot.
    public var clumpIndex: String?
    public var reviews: [Review]?
    /// The text of `<premiere>` and `<last-chance>` ("First showing on national TV").
    public var premiereNote: LocalizedText?
    public var lastChanceNote: LocalizedText?
    /// The language of the sub-title and of the description when it is not the title's
    /// (`Programme.textLanguage`); empty when they had none while the title had one.
    public var subtitleLang: String?
    public var synopsisLang: String?
    /// The `lang` of `<language>` and `<orig-language>` (the language the name is written in).
    public var languageLang: String?
    public var originalLanguageLang: String?
    /// Country as written → its `lang`.
    public var countryLangs: [String: String]?
    /// URL → its `system` (`imdb`, `wikipedia`).
    public var urlSystems: [String: String]?

    public init() {}

    public var isEmpty: Bool {
        pdcStart == nil && vpsStart == nil && showview == nil && videoplus == nil && clumpIndex == nil && reviews == nil
            && premiereNote == nil && lastChanceNote == nil && subtitleLang == nil && synopsisLang == nil && languageLang == nil
            && originalLanguageLang == nil && countryLangs == nil && urlSystems == nil
    }
}

/// `<review type="text|url" source reviewer lang>`.
public struct Review: Codable, Sendable, Hashable {
    /// `text`: the review itself; `url`: where it is.
    public var type: String
    public var value: String
    public var source: String?
    public var reviewer: String?
    public var lang: String?

    public init(type: String, value: String, source: String? = nil, reviewer: String? = nil, lang: String? = nil) {
        self.type = type
        self.value = value
        self.source = source
        self.reviewer = reviewer
        self.lang = lang
    }
}

/// A URL with the `system` XMLTV may name it by.
public struct WebLink: Codable, Sendable, Hashable {
    public var url: String
    public var system: String?

    public init(url: String, system: String? = nil) {
        self.url = url
        self.system = system
    }
}

/// An immutable value behind one reference: an optional field of a value type the size of a
/// pointer, for data most values lack. Encodes as the value itself.
package final class Boxed<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package init(from decoder: any Decoder) throws {
        value = try Value(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }

    package static func == (lhs: Boxed, rhs: Boxed) -> Bool { lhs === rhs || lhs.value == rhs.value }

    package func hash(into hasher: inout Hasher) { value.hash(into: &hasher) }
}
