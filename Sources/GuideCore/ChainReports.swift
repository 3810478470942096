import Foundation

// What the guide and audience chains report of their providers and of normalisation: returned by
// `GuideChain.run` and `AudienceChain.fetch`, and kept in a snapshot's `RunReport`. Public, as the
// chains are; `MetadataProviderReport` is beside `MetadataReport` in Work.swift.

public struct ProviderReport: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable {
        /// Served at least one channel that the guide kept.
        case served
        /// Answered, but every channel it had was already owned by a provider before it; it
        /// only filled gaps, or nothing.
        case standby
        /// Every request to it failed.
        case failed
        /// Not asked (not configured, or not needed).
        case skipped
    }

    public var id: String
    public var type: String
    public var status: Status
    /// Channels this provider owns in the guide.
    public var channelsServed: Int
    /// Channels it owns because a provider before it failed for them.
    public var channelsFallenBack: Int
    public var programmes: Int
    /// Programmes it gave that filled time gaps in a channel owned by another provider.
    public var gapsFilled: Int
    /// Typed errors, `kind: detail`, de-duplicated and sorted.
    public var errors: [ProviderFailure]
    public var notes: [String]

    public init(id: String, type: String, status: Status, channelsServed: Int = 0, channelsFallenBack: Int = 0,
                programmes: Int = 0, gapsFilled: Int = 0, errors: [ProviderFailure] = [], notes: [String] = []) {
        self.id = id
        self.type = type
        self.status = status
        self.channelsServed = channelsServed
        self.channelsFallenBack = channelsFallenBack
        self.programmes = programmes
        self.gapsFilled = gapsFilled
        self.errors = errors
        self.notes = notes
    }
}

public struct ProviderFailure: Codable, Sendable, Hashable, Comparable {
    /// `ProviderError.kind`.
    public var kind: String
    public var message: String
    /// The channel asked for, when the failure was for one channel.
    public var channel: String?
    /// The day asked for, when the failure was for one day's audiences.
    public var day: Day?

    public init(kind: String, message: String, channel: String? = nil, day: Day? = nil) {
        self.kind = kind
        self.message = message
        self.channel = channel
        self.day = day
    }

    public init(_ error: ProviderError, channel: String? = nil, day: Day? = nil) {
        self.init(kind: error.kind, message: error.description, channel: channel, day: day)
    }

    public static func < (lhs: ProviderFailure, rhs: ProviderFailure) -> Bool {
        (lhs.channel ?? "", lhs.day?.description ?? "", lhs.kind, lhs.message) < (rhs.channel ?? "", rhs.day?.description ?? "", rhs.kind, rhs.message)
    }
}

public struct NormalisationReport: Codable, Sendable, Hashable {
    /// Programmes whose missing stop was set to the next programme's start.
    public var stopsFilled: Int
    /// Airings of a fallback provider left out because they clash with the chosen provider's.
    public var overlapsDropped: Int
    /// Airings kept that start before an earlier one on the same channel ends, or at the same
    /// time (clumps): legal XMLTV, kept as tv_sort keeps them; the web grid shows one at a time.
    public var overlapping: Int
    /// Programmes dropped because their stop was not after their start.
    public var invalidDropped: Int
    /// Programmes dropped because they fall outside the window.
    public var outsideWindow: Int
    /// Programmes dropped because their channel is not in the guide's channel list.
    public var unknownChannel: Int
    /// Programmes dropped as exact duplicates (same channel, start, stop and title).
    public var duplicatesDropped: Int

    public init(stopsFilled: Int = 0, overlapsDropped: Int = 0, overlapping: Int = 0, invalidDropped: Int = 0,
                outsideWindow: Int = 0, unknownChannel: Int = 0, duplicatesDropped: Int = 0) {
        self.stopsFilled = stopsFilled
        self.overlapsDropped = overlapsDropped
        self.overlapping = overlapping
        self.invalidDropped = invalidDropped
        self.outsideWindow = outsideWindow
        self.unknownChannel = unknownChannel
        self.duplicatesDropped = duplicatesDropped
    }

    /// A count a snapshot of an earlier version does not have is 0: `latest` stays readable after
    /// an upgrade.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func count(_ key: CodingKeys) throws -> Int { try container.decodeIfPresent(Int.self, forKey: key) ?? 0 }
        self.init(stopsFilled: try count(.stopsFilled), overlapsDropped: try count(.overlapsDropped),
                  overlapping: try count(.overlapping), invalidDropped: try count(.invalidDropped),
                  outsideWindow: try count(.outsideWindow), unknownChannel: try count(.unknownChannel),
                  duplicatesDropped: try count(.duplicatesDropped))
    }
}

public struct AudienceProviderReport: Codable, Sendable, Hashable {
    public var id: String
    public var type: String
    /// `served`: served at least one day this run; `failed`: asked, and failed every day it was
    /// asked; `skipped`: not asked (no day needed it, or it could not be built). A provider
    /// asked for a day either serves it or fails it, so `standby` does not occur.
    public var status: ProviderReport.Status
    /// Days it served this run, sorted.
    public var served: [Day]
    /// Days it was asked and failed (the errors say why), sorted.
    public var failed: [Day]
    /// Days in the snapshot whose rows it gave in an earlier run: not asked again, or asked and
    /// failed everywhere, so the earlier rows were kept. Sorted.
    public var kept: [Day]
    /// Rows it served this run.
    public var records: Int
    /// One per day that failed, naming the day; sorted by day.
    public var errors: [ProviderFailure]
    public var notes: [String]

    public init(id: String, type: String, status: ProviderReport.Status, served: [Day] = [], failed: [Day] = [], kept: [Day] = [],
                records: Int = 0, errors: [ProviderFailure] = [], notes: [String] = []) {
        self.id = id
        self.type = type
        self.status = status
        self.served = served
        self.failed = failed
        self.kept = kept
        self.records = records
        self.errors = errors
        self.notes = notes
    }
}
