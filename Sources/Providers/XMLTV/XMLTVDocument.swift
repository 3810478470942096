import Foundation
import GuideCore

/// One XMLTV file as read: its channels and programmes in document order, the `<tv>` element's
/// provenance attributes, and the programmes that could not be used, with why.
package struct XMLTVDocument: Sendable, Hashable {
    /// Channels in document order; a repeated channel id keeps its first definition.
    package var channels: [Channel]
    /// Programmes in document order, with `channel` set to the XMLTV channel id.
    package var programmes: [Programme]
    package var info: XMLTVInfo
    package var skipped: [XMLTVSkippedProgramme]

    package init(channels: [Channel] = [], programmes: [Programme] = [], info: XMLTVInfo = .init(),
                skipped: [XMLTVSkippedProgramme] = []) {
        self.channels = channels
        self.programmes = programmes
        self.info = info
        self.skipped = skipped
    }

    /// `2 unparsable start, 1 unknown channel`: skip counts by reason, most frequent first.
    package var skippedSummary: String {
        var counts: [XMLTVSkippedProgramme.Reason: Int] = [:]
        for skip in skipped { counts[skip.reason, default: 0] += 1 }
        return counts.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
            .map { "\($0.value) \($0.key.rawValue)" }
            .joined(separator: ", ")
    }
}

/// The `<tv>` element's attributes: who generated the file and where its data came from.
package struct XMLTVInfo: Sendable, Hashable {
    package var date: String?
    package var sourceInfoURL: String?
    package var sourceInfoName: String?
    package var sourceDataURL: String?
    package var generatorInfoName: String?
    package var generatorInfoURL: String?

    package init(date: String? = nil, sourceInfoURL: String? = nil, sourceInfoName: String? = nil,
                sourceDataURL: String? = nil, generatorInfoName: String? = nil, generatorInfoURL: String? = nil) {
        self.date = date
        self.sourceInfoURL = sourceInfoURL
        self.sourceInfoName = sourceInfoName
        self.sourceDataURL = sourceDataURL
        self.generatorInfoName = generatorInfoName
        self.generatorInfoURL = generatorInfoURL
    }
}

/// A `<programme>` left out of the document, and why, so that a bad source is visible in the run
/// report instead of failing the whole file.
package struct XMLTVSkippedProgramme: Sendable, Hashable {
    package enum Reason: String, Sendable, Hashable, CaseIterable {
        case missingStart = "missing start"
        case unparsableStart = "unparsable start"
        case unparsableStop = "unparsable stop"
        case stopBeforeStart = "stop before start"
        case missingChannel = "missing channel"
        case missingTitle = "missing title"
    }

    package var reason: Reason
    /// Line of the `<programme>` start tag.
    package var line: Int
    package var channel: String?
    /// The `start` attribute as written when it is what was wrong, else the start in UTC.
    package var start: String?

    package init(reason: Reason, line: Int, channel: String? = nil, start: String? = nil) {
        self.reason = reason
        self.line = line
        self.channel = channel
        self.start = start
    }
}
