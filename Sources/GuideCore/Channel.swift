import Foundation

/// A TV channel under its canonical id (XMLTV style, e.g. `La1.es`).
public struct Channel: Codable, Sendable, Hashable {
    /// Canonical id once the channel map has been applied; a provider returns its own id here.
    public var id: String
    public var name: String
    /// Further display names as the source gave them (other languages, short names).
    public var otherNames: [LocalizedText]?
    /// national, regional, operator, thematic… as the source or the configuration says.
    public var type: String?
    public var language: String?
    public var logo: String?
    public var url: String?
    /// Provider id → that provider's own id for this channel, for joins back to each source.
    public var providerIDs: [String: String]?
    /// Every icon with its size, when the source gives more than `logo` says (XMLTV).
    public var icons: [ImageRef]?
    /// Every page about the channel with its `system`, when the source gives more than `url` says.
    public var links: [WebLink]?

    public init(
        id: String, name: String, otherNames: [LocalizedText]? = nil, type: String? = nil,
        language: String? = nil, logo: String? = nil, url: String? = nil,
        providerIDs: [String: String]? = nil
    ) {
        self.id = id
        self.name = name
        self.otherNames = otherNames
        self.type = type
        self.language = language
        self.logo = logo
        self.url = url
        self.providerIDs = providerIDs
    }
}

/// How a chain addresses a channel in one provider: the canonical id the guide uses and the
/// provider's own id for it.
public struct ChannelRef: Sendable, Hashable {
    public var id: String
    public var providerID: String

    public init(id: String, providerID: String) {
        self.id = id
        self.providerID = providerID
    }
}

/// A text with its language, as XMLTV's `lang` attribute gives it.
public struct LocalizedText: Codable, Sendable, Hashable {
    public var value: String
    public var lang: String?

    public init(_ value: String, lang: String? = nil) {
        self.value = value
        self.lang = lang
    }
}
