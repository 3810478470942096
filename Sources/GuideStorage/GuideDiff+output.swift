import Foundation
import GuideCore

/// A diff for people (`text()`, `summary`) and for programs (`json()`).
extension GuideDiff {
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
