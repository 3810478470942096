import Foundation
import GuideCore

/// The result of `SnapshotDiff.compare`. Every list is sorted: channels and works by id,
/// programmes by start, audience days by day and their records in ranking order (viewers
/// descending), fields by name.
package struct GuideDiff: Codable, Sendable, Hashable {
    package var channelsAdded: [String]
    package var channelsRemoved: [String]
    package var channelsChanged: [ChannelChange]
    /// Only channels whose programmes differ, sorted by channel.
    package var channels: [ChannelProgrammeDiff]
    package var worksAdded: [WorkSummary]
    package var worksRemoved: [WorkSummary]
    package var worksChanged: [WorkChange]
    package var audienceDaysAdded: [AudienceDaySummary]
    package var audienceDaysRemoved: [AudienceDaySummary]
    /// Only days in both snapshots whose records differ, sorted by day.
    package var audienceDays: [AudienceDayDiff]

    package struct ChannelChange: Codable, Sendable, Hashable {
        package var id: String
        /// Snapshot member names, sorted.
        package var fields: [String]

        package init(id: String, fields: [String]) {
            self.id = id
            self.fields = fields
        }
    }

    package struct ChannelProgrammeDiff: Codable, Sendable, Hashable {
        package var channel: String
        package var added: [ProgrammeSummary]
        package var removed: [ProgrammeSummary]
        package var changed: [ProgrammeChange]

        package init(channel: String, added: [ProgrammeSummary], removed: [ProgrammeSummary], changed: [ProgrammeChange]) {
            self.channel = channel
            self.added = added
            self.removed = removed
            self.changed = changed
        }

        package var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
    }

    package struct ProgrammeSummary: Codable, Sendable, Hashable {
        package var start: Date
        package var stop: Date?
        package var title: String

        package init(start: Date, stop: Date?, title: String) {
            self.start = start
            self.stop = stop
            self.title = title
        }

        init(_ programme: Programme) {
            self.init(start: programme.start, stop: programme.stop, title: programme.title)
        }
    }

    package struct ProgrammeChange: Codable, Sendable, Hashable {
        package var start: Date
        /// The new title.
        package var title: String
        /// Sorted by field name.
        package var fields: [FieldChange]

        package init(start: Date, title: String, fields: [FieldChange]) {
            self.start = start
            self.title = title
            self.fields = fields
        }
    }

    package struct WorkSummary: Codable, Sendable, Hashable {
        /// `Work.id`: `movie/tmdb/348`.
        package var id: String
        /// The merged title, else the first guide title.
        package var title: String?

        package init(id: String, title: String?) {
            self.id = id
            self.title = title
        }
    }

    package struct WorkChange: Codable, Sendable, Hashable {
        package var id: String
        /// The new merged title, else the first guide title.
        package var title: String?
        /// Metadata fields by their own names (`overview`, `voteAverage`), the work's `kind` and
        /// `guideTitles`, and `matches.<provider>` for each provider's match; sorted by name.
        package var fields: [FieldChange]
        /// Fields whose provider changed (`overview`: `tmdb` → `tmdb-recorded`), sorted by field.
        package var sources: [FieldChange]

        package init(id: String, title: String?, fields: [FieldChange], sources: [FieldChange]) {
            self.id = id
            self.title = title
            self.fields = fields
            self.sources = sources
        }
    }

    package struct AudienceDaySummary: Codable, Sendable, Hashable {
        package var day: Day
        package var records: Int

        package init(day: Day, records: Int) {
            self.day = day
            self.records = records
        }

        init(_ audience: AudienceDay) {
            self.init(day: audience.day, records: audience.records.count)
        }
    }

    package struct AudienceDayDiff: Codable, Sendable, Hashable {
        package var day: Day
        package var added: [AudienceSummary]
        package var removed: [AudienceSummary]
        package var changed: [AudienceChange]

        package init(day: Day, added: [AudienceSummary], removed: [AudienceSummary], changed: [AudienceChange]) {
            self.day = day
            self.added = added
            self.removed = removed
            self.changed = changed
        }

        package var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
    }

    package struct AudienceSummary: Codable, Sendable, Hashable {
        package var channel: String
        package var title: String
        package var start: Date?
        package var viewers: Int

        package init(channel: String, title: String, start: Date?, viewers: Int) {
            self.channel = channel
            self.title = title
            self.start = start
            self.viewers = viewers
        }

        init(_ record: AudienceRecord) {
            self.init(channel: record.channel, title: record.title, start: record.start, viewers: record.viewers)
        }
    }

    package struct AudienceChange: Codable, Sendable, Hashable {
        package var channel: String
        package var title: String
        package var start: Date?
        /// The record's snapshot members that changed (`viewers`, `share`, `source`, `programme`),
        /// sorted by name; `rank` is not compared.
        package var fields: [FieldChange]

        package init(channel: String, title: String, start: Date?, fields: [FieldChange]) {
            self.channel = channel
            self.title = title
            self.start = start
            self.fields = fields
        }
    }

    /// One member's old and new value as compact JSON, cut to about 120 characters, or, in a
    /// work's `sources`, the id of the provider that gave the field; nil when absent on that side.
    package struct FieldChange: Codable, Sendable, Hashable {
        package var field: String
        package var old: String?
        package var new: String?

        package init(field: String, old: String?, new: String?) {
            self.field = field
            self.old = old
            self.new = new
        }
    }

    package init(channelsAdded: [String], channelsRemoved: [String], channelsChanged: [ChannelChange], channels: [ChannelProgrammeDiff],
                worksAdded: [WorkSummary] = [], worksRemoved: [WorkSummary] = [], worksChanged: [WorkChange] = [],
                audienceDaysAdded: [AudienceDaySummary] = [], audienceDaysRemoved: [AudienceDaySummary] = [],
                audienceDays: [AudienceDayDiff] = []) {
        self.channelsAdded = channelsAdded
        self.channelsRemoved = channelsRemoved
        self.channelsChanged = channelsChanged
        self.channels = channels
        self.worksAdded = worksAdded
        self.worksRemoved = worksRemoved
        self.worksChanged = worksChanged
        self.audienceDaysAdded = audienceDaysAdded
        self.audienceDaysRemoved = audienceDaysRemoved
        self.audienceDays = audienceDays
    }

    /// Reads what `json()` wrote.
    package init(json: Data) throws {
        self = try SnapshotCodec.decoder().decode(GuideDiff.self, from: json)
    }

    package var isEmpty: Bool {
        channelsAdded.isEmpty && channelsRemoved.isEmpty && channelsChanged.isEmpty && channels.allSatisfy(\.isEmpty)
            && worksAdded.isEmpty && worksRemoved.isEmpty && worksChanged.isEmpty
            && audienceDaysAdded.isEmpty && audienceDaysRemoved.isEmpty && audienceDays.allSatisfy(\.isEmpty)
    }

    package var programmesAdded: Int { channels.reduce(0) { $0 + $1.added.count } }
    package var programmesRemoved: Int { channels.reduce(0) { $0 + $1.removed.count } }
    package var programmesChanged: Int { channels.reduce(0) { $0 + $1.changed.count } }
}
