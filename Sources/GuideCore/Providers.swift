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

/// One row of a daily audience ranking.
public struct AudienceRecord: Codable, Sendable, Hashable {
    public var day: Day
    public var rank: Int?
    public var title: String
    /// Canonical channel id.
    public var channel: String
    public var viewers: Int
    /// Share of the audience in percent.
    public var share: Double?
    public var start: Date?

    public init(day: Day, rank: Int? = nil, title: String, channel: String, viewers: Int, share: Double? = nil, start: Date? = nil) {
        self.day = day
        self.rank = rank
        self.title = title
        self.channel = channel
        self.viewers = viewers
        self.share = share
        self.start = start
    }
}

/// A source of daily audience figures.
public protocol AudienceProvider: Sendable {
    var id: String { get }
    func audiences(on day: Day) async throws -> [AudienceRecord]
}
