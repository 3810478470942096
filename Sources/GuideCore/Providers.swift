import Foundation

/// A source of channels and their schedules. Errors thrown are `ProviderError`s.
public protocol GuideProvider: Sendable {
    /// The provider's name in providers.yaml.
    var id: String { get }
    /// The channels this provider serves, under the provider's own ids.
    func channels() async throws -> [Channel]
    /// One channel's programmes that overlap `window`, with `channel` set to `channel.id`.
    func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme]
    /// Lines for the run report about what the provider did besides serving (a time shift, a
    /// cache hit…). Asked once the chain has finished with the provider.
    func reportNotes() async -> [String]
}

extension GuideProvider {
    public func reportNotes() async -> [String] { [] }
}

/// One row of a daily audience ranking: what a provider scraped, and, once stored in the snapshot,
/// where it came from and the guide programme it measures.
public struct AudienceRecord: Codable, Sendable, Hashable {
    public var day: Day
    /// The source's rank when a provider gives it; in a snapshot, the position in the day's
    /// ranking by viewers (1 = most watched), which `AudienceStore` sets.
    public var rank: Int?
    public var title: String
    /// Canonical channel id.
    public var channel: String
    public var viewers: Int
    /// Share of the audience in percent.
    public var share: Double?
    public var start: Date?
    /// The provider that supplied the row (its id in providers.yaml); `AudienceChain` sets it.
    public var source: String
    /// The id of the guide programme the row measures (`Programme.id`: `La1.es@20261025T200000Z`),
    /// set by `AudienceJoin`; nil when none was found.
    public var programme: String?

    public init(day: Day, rank: Int? = nil, title: String, channel: String, viewers: Int, share: Double? = nil, start: Date? = nil,
                source: String = "", programme: String? = nil) {
        self.day = day
        self.rank = rank
        self.title = title
        self.channel = channel
        self.viewers = viewers
        self.share = share
        self.start = start
        self.source = source
        self.programme = programme
    }
}

/// A source of daily audience figures. Errors thrown are `ProviderError`s: a page whose layout
/// changed is `malformed`, and the chain asks the next provider for that day.
public protocol AudienceProvider: Sendable {
    /// The provider's name in providers.yaml.
    var id: String { get }
    /// The day's ranking; rows with `channel` set to canonical ids.
    func audiences(on day: Day) async throws -> [AudienceRecord]
    /// Lines for the run report (pages answered from recordings, advert rows skipped…), asked
    /// once the chain has finished with the provider.
    func reportNotes() async -> [String]
}

extension AudienceProvider {
    public func reportNotes() async -> [String] { [] }
}
