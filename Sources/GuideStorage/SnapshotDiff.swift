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
