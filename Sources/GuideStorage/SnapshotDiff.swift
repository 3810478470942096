import Foundation
import GuideCore

/// What changed between two snapshots: channels added, removed and changed, per channel the
/// programmes added, removed and changed, the works (films, series) added, removed and changed,
/// and the audience days added and removed and, per day kept, the records added, removed and
/// changed. A programme is the same airing when its (channel, start) is, a work when its id is,
/// an audience record when its (channel, title, start) on the same day is; every other field is
/// compared, `source` and a work's `sources` included, because a provider switch is a change
/// users want to see. A record's `rank` is not: it follows from the viewers of the whole day,
/// whose changes are reported where they happen. `generatedAt`, `window`, `schemaVersion` and `report`
/// are not compared: they differ on every run.
package enum SnapshotDiff {
    package static func compare(_ old: Snapshot, _ new: Snapshot) -> GuideDiff {
        let oldChannels = firstByKey(old.channels, \.id)
        let newChannels = firstByKey(new.channels, \.id)
        let channelsChanged = newChannels.compactMap { id, channel -> GuideDiff.ChannelChange? in
            guard let previous = oldChannels[id], previous != channel else { return nil }
            return GuideDiff.ChannelChange(id: id, fields: changedMembers(previous, channel).map(\.field))
        }

        let oldProgrammes = Dictionary(grouping: old.programmes, by: \.channel)
        let newProgrammes = Dictionary(grouping: new.programmes, by: \.channel)
        var channels: [GuideDiff.ChannelProgrammeDiff] = []
        for channel in Set(oldProgrammes.keys).union(newProgrammes.keys) {
            let diff = compareProgrammes(channel: channel, old: oldProgrammes[channel] ?? [], new: newProgrammes[channel] ?? [])
            if !diff.isEmpty { channels.append(diff) }
        }

        let worksChanged = new.works.compactMap { id, work -> GuideDiff.WorkChange? in
            guard let previous = old.works[id], previous != work else { return nil }
            return compareWork(id: id, old: previous, new: work)
        }

        let oldDays = firstByKey(old.audiences, \.day)
        let newDays = firstByKey(new.audiences, \.day)
        var audienceDays: [GuideDiff.AudienceDayDiff] = []
        for (day, audience) in newDays {
            guard let previous = oldDays[day], previous != audience else { continue }
            let diff = compareAudiences(day: day, old: previous.records, new: audience.records)
            if !diff.isEmpty { audienceDays.append(diff) }
        }

        return GuideDiff(
            channelsAdded: newChannels.keys.filter { oldChannels[$0] == nil }.sorted(by: UTF8Order.precedes),
            channelsRemoved: oldChannels.keys.filter { newChannels[$0] == nil }.sorted(by: UTF8Order.precedes),
            channelsChanged: channelsChanged.sorted { UTF8Order.precedes($0.id, $1.id) },
            channels: channels.sorted { UTF8Order.precedes($0.channel, $1.channel) },
            worksAdded: new.works.filter { old.works[$0.key] == nil }.map { GuideDiff.WorkSummary(id: $0.key, title: $0.value.shownTitle) }
                .sorted { UTF8Order.precedes($0.id, $1.id) },
            worksRemoved: old.works.filter { new.works[$0.key] == nil }.map { GuideDiff.WorkSummary(id: $0.key, title: $0.value.shownTitle) }
                .sorted { UTF8Order.precedes($0.id, $1.id) },
            worksChanged: worksChanged.sorted { UTF8Order.precedes($0.id, $1.id) },
            audienceDaysAdded: newDays.values.filter { oldDays[$0.day] == nil }.map(GuideDiff.AudienceDaySummary.init).sorted { $0.day < $1.day },
            audienceDaysRemoved: oldDays.values.filter { newDays[$0.day] == nil }.map(GuideDiff.AudienceDaySummary.init).sorted { $0.day < $1.day },
            audienceDays: audienceDays.sorted { $0.day < $1.day }
        )
    }

    /// One day's records, matched by (channel, title, start); listed in ranking order.
    static func compareAudiences(day: Day, old: [AudienceRecord], new: [AudienceRecord]) -> GuideDiff.AudienceDayDiff {
        let oldByKey = firstByKey(old, \.identity)
        let newByKey = firstByKey(new, \.identity)
        let added = newByKey.filter { oldByKey[$0.key] == nil }.values.sorted(by: AudienceRecord.ranksBefore)
        let removed = oldByKey.filter { newByKey[$0.key] == nil }.values.sorted(by: AudienceRecord.ranksBefore)
        var changed: [(record: AudienceRecord, fields: [GuideDiff.FieldChange])] = []
        for (key, record) in newByKey {
            guard let previous = oldByKey[key] else { continue }
            let fields = changedMembers(previous, record).filter { $0.field != "rank" }
            if !fields.isEmpty { changed.append((record, fields)) }
        }
        return GuideDiff.AudienceDayDiff(
            day: day,
            added: added.map(GuideDiff.AudienceSummary.init),
            removed: removed.map(GuideDiff.AudienceSummary.init),
            changed: changed.sorted { AudienceRecord.ranksBefore($0.record, $1.record) }.map {
                GuideDiff.AudienceChange(channel: $0.record.channel, title: $0.record.title, start: $0.record.start, fields: $0.fields)
            })
    }

    /// A work's metadata fields by their own names (`overview`, `cast`), its `id`, `kind` and
    /// `guideTitles`, and each provider's match as `matches.<provider>`; the providers that gave
    /// each field apart, as `sources`. Nil when what the snapshot writes is the same (a score that
    /// is not a number differs from itself but is not written).
    static func compareWork(id: String, old: Work, new: Work) -> GuideDiff.WorkChange? {
        func members(_ work: Work) -> [String: String] {
            var members = JSONWriter.members(of: work.metadata)
            let own = JSONWriter.members(of: work)
            for name in ["id", "kind", "guideTitles"] { members[name] = own[name] }
            for (provider, match) in work.matches {
                members["matches.\(provider)"] = JSONWriter.compact(match)
            }
            return members
        }
        let oldMembers = members(old)
        let newMembers = members(new)
        let fields = Set(oldMembers.keys).union(newMembers.keys)
            .filter { oldMembers[$0] != newMembers[$0] }
            .sorted(by: UTF8Order.precedes)
            .map { GuideDiff.FieldChange(field: $0, old: oldMembers[$0].map(shorten), new: newMembers[$0].map(shorten)) }
        let sources = Set(old.sources.keys).union(new.sources.keys)
            .filter { old.sources[$0] != new.sources[$0] }
            .sorted(by: UTF8Order.precedes)
            .map { GuideDiff.FieldChange(field: $0, old: old.sources[$0], new: new.sources[$0]) }
        guard !fields.isEmpty || !sources.isEmpty else { return nil }
        return GuideDiff.WorkChange(id: id, title: new.shownTitle, fields: fields, sources: sources)
    }

    static func compareProgrammes(channel: String, old: [Programme], new: [Programme]) -> GuideDiff.ChannelProgrammeDiff {
        // By id: the start, and the place among airings sharing it.
        let oldByID = firstByKey(old, \.id)
        let newByID = firstByKey(new, \.id)
        var diff = GuideDiff.ChannelProgrammeDiff(channel: channel, added: [], removed: [], changed: [])
        for (id, programme) in newByID {
            guard let previous = oldByID[id] else {
                diff.added.append(.init(programme))
                continue
            }
            if previous != programme {
                diff.changed.append(.init(start: programme.start, title: programme.title, fields: changedMembers(previous, programme)))
            }
        }
        for (id, programme) in oldByID where newByID[id] == nil {
            diff.removed.append(.init(programme))
        }
        // Airings sharing a start (clumps) come out in a fixed order too.
        diff.added.sort { ($0.start, $0.title) < ($1.start, $1.title) }
        diff.removed.sort { ($0.start, $0.title) < ($1.start, $1.title) }
        diff.changed.sort { ($0.start, $0.title) < ($1.start, $1.title) }
        return diff
    }

    /// Compares the JSON members that the snapshot writes, so that a field added to the model is
    /// compared with no change here and is named as it appears in the snapshot (`new`, not `isNew`).
    static func changedMembers(_ old: some JSONWritable, _ new: some JSONWritable) -> [GuideDiff.FieldChange] {
        let oldMembers = JSONWriter.members(of: old)
        let newMembers = JSONWriter.members(of: new)
        return Set(oldMembers.keys).union(newMembers.keys)
            .filter { oldMembers[$0] != newMembers[$0] }
            .sorted(by: UTF8Order.precedes)
            .map { GuideDiff.FieldChange(field: $0, old: oldMembers[$0].map(shorten), new: newMembers[$0].map(shorten)) }
    }

    static let renderingLimit = 120

    static func shorten(_ json: String) -> String {
        json.count <= renderingLimit ? json : String(json.prefix(renderingLimit - 1)) + "…"
    }

    /// The first element for each key: a snapshot should have no duplicates, and if one does the
    /// diff still runs.
    private static func firstByKey<Element, Key: Hashable>(_ elements: [Element], _ key: KeyPath<Element, Key>) -> [Key: Element] {
        Dictionary(elements.map { ($0[keyPath: key], $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Work {
    /// What a diff calls the work: the merged title, else the guide's.
    fileprivate var shownTitle: String? { metadata.title ?? guideTitles.first }
}

/// What makes an audience record the same row in two snapshots of one day.
private struct AudienceIdentity: Hashable {
    var channel: String
    var title: String
    var start: Date?
}

extension AudienceRecord {
    fileprivate var identity: AudienceIdentity { AudienceIdentity(channel: channel, title: title, start: start) }
}

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

    /// For people: channel changes, then per channel `+` added, `-` removed and `~` changed
    /// programmes (each changed field on its own line), then works the same way (with the
    /// providers that changed under `sources:`), then audience days added and removed and, per
    /// day, its records the same way, then a summary line.
    package func text() -> String {
        guard !isEmpty else { return "no differences\n" }
        var lines: [String] = []
        if !channelsAdded.isEmpty || !channelsRemoved.isEmpty || !channelsChanged.isEmpty {
            lines.append("channels:")
            lines += channelsAdded.map { "  + \($0)" }
            lines += channelsRemoved.map { "  - \($0)" }
            lines += channelsChanged.map { "  ~ \($0.id): \($0.fields.joined(separator: ", "))" }
        }
        for channel in channels {
            lines.append("\(channel.channel):")
            lines += channel.added.map { "  + \(Self.time($0.start)) \($0.title)" }
            lines += channel.removed.map { "  - \(Self.time($0.start)) \($0.title)" }
            for change in channel.changed {
                lines.append("  ~ \(Self.time(change.start)) \(change.title)")
                lines += change.fields.map(Self.line)
            }
        }
        if !worksAdded.isEmpty || !worksRemoved.isEmpty || !worksChanged.isEmpty {
            lines.append("works:")
            lines += worksAdded.map { "  + \(Self.named($0.id, $0.title))" }
            lines += worksRemoved.map { "  - \(Self.named($0.id, $0.title))" }
            for change in worksChanged {
                lines.append("  ~ \(Self.named(change.id, change.title))")
                lines += change.fields.map(Self.line)
                if !change.sources.isEmpty {
                    lines.append("      sources:")
                    lines += change.sources.map { "        \($0.field): \($0.old ?? "(none)") → \($0.new ?? "(none)")" }
                }
            }
        }
        if !audienceDaysAdded.isEmpty || !audienceDaysRemoved.isEmpty || !audienceDays.isEmpty {
            lines.append("audiences:")
            lines += audienceDaysAdded.map { "  + \($0.day) (\(Self.records($0.records)))" }
            lines += audienceDaysRemoved.map { "  - \($0.day) (\(Self.records($0.records)))" }
            for day in audienceDays {
                lines.append("  \(day.day):")
                lines += day.added.map { "    + \(Self.row($0.channel, $0.start, $0.title)): \($0.viewers) viewers" }
                lines += day.removed.map { "    - \(Self.row($0.channel, $0.start, $0.title)): \($0.viewers) viewers" }
                for change in day.changed {
                    lines.append("    ~ \(Self.row(change.channel, change.start, change.title))")
                    lines += change.fields.map { "  " + Self.line($0) }
                }
            }
        }
        lines.append(summary)
        // Titles and values are the sources' text: shown, never obeyed, and cut when very long.
        return lines.map { TerminalText.escaped($0) }.joined(separator: "\n") + "\n"
    }

    /// `3 added, 1 removed, 2 changed in 2 channels; channels +1 -0 ~1; works +2 -0 ~1; audience days +1 -1 ~2`.
    package var summary: String {
        let changedChannels = channels.count
        return "\(programmesAdded) added, \(programmesRemoved) removed, \(programmesChanged) changed "
            + "in \(changedChannels) channel\(changedChannels == 1 ? "" : "s"); "
            + "channels +\(channelsAdded.count) -\(channelsRemoved.count) ~\(channelsChanged.count); "
            + "works +\(worksAdded.count) -\(worksRemoved.count) ~\(worksChanged.count); "
            + "audience days +\(audienceDaysAdded.count) -\(audienceDaysRemoved.count) ~\(audienceDays.count)"
    }

    /// `La1.es 2026-10-20 20:00Z Telediario 2`, without the time when the source gave none.
    private static func row(_ channel: String, _ start: Date?, _ title: String) -> String {
        [channel, start.map(time), title].compactMap { $0 }.joined(separator: " ")
    }

    private static func records(_ count: Int) -> String {
        "\(count) record\(count == 1 ? "" : "s")"
    }

    private static func line(_ change: FieldChange) -> String {
        "      \(change.field): \(change.old ?? "(none)") → \(change.new ?? "(none)")"
    }

    private static func named(_ id: String, _ title: String?) -> String {
        title.map { "\(id) \($0)" } ?? id
    }

    /// For programs: pretty JSON with sorted keys and ISO 8601 times, as snapshots are written.
    package func json() -> Data {
        var writer = JSONWriter(pretty: true)
        write(to: &writer)
        writer.newline()
        return Data(writer.bytes)
    }

    /// `2026-10-21 21:00Z`, seconds only when there are any.
    static func time(_ date: Date) -> String {
        let iso = Array(ISOTime.format(date))
        let seconds = String(iso[16..<19])
        return String(iso[0..<10]) + " " + String(iso[11..<16]) + (seconds == ":00" ? "" : seconds) + "Z"
    }
}

// Members in UTF-8 byte order of their keys, as `JSONWriter` requires.

extension GuideDiff: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("audienceDays", audienceDays)
            json.member("audienceDaysAdded", audienceDaysAdded)
            json.member("audienceDaysRemoved", audienceDaysRemoved)
            json.member("channels", channels)
            json.member("channelsAdded", channelsAdded)
            json.member("channelsChanged", channelsChanged)
            json.member("channelsRemoved", channelsRemoved)
            json.member("worksAdded", worksAdded)
            json.member("worksChanged", worksChanged)
            json.member("worksRemoved", worksRemoved)
        }
    }
}

extension GuideDiff.WorkSummary: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("id", id)
            json.member("title", title)
        }
    }
}

extension GuideDiff.WorkChange: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("fields", fields)
            json.member("id", id)
            json.member("sources", sources)
            json.member("title", title)
        }
    }
}

extension GuideDiff.ChannelChange: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("fields", fields)
            json.member("id", id)
        }
    }
}

extension GuideDiff.ChannelProgrammeDiff: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("added", added)
            json.member("changed", changed)
            json.member("channel", channel)
            json.member("removed", removed)
        }
    }
}

extension GuideDiff.ProgrammeSummary: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("start", start)
            json.member("stop", stop)
            json.member("title", title)
        }
    }
}

extension GuideDiff.ProgrammeChange: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("fields", fields)
            json.member("start", start)
            json.member("title", title)
        }
    }
}

extension GuideDiff.FieldChange: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("field", field)
            json.member("new", new)
            json.member("old", old)
        }
    }
}

extension GuideDiff.AudienceDaySummary: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("day", day)
            json.member("records", records)
        }
    }
}

extension GuideDiff.AudienceDayDiff: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("added", added)
            json.member("changed", changed)
            json.member("day", day)
            json.member("removed", removed)
        }
    }
}

extension GuideDiff.AudienceSummary: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channel", channel)
            json.member("start", start)
            json.member("title", title)
            json.member("viewers", viewers)
        }
    }
}

extension GuideDiff.AudienceChange: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channel", channel)
            json.member("fields", fields)
            json.member("start", start)
            json.member("title", title)
        }
    }
}
