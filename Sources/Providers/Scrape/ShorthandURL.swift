import Foundation
import GuideCore

extension SiteTemplate {
    /// The `url` of the shorthand recipes (`type: json-feed` and `type: scrape`), a site template
    /// in a smaller language: `https://www.formulatv.com/audiencias/{date:dd-MM-yyyy}/` or
    /// `http://127.0.0.1:8080/guide/{channel}/{date:yyyy-MM-dd}.json`.
    ///
    /// - `{date:FORMAT}`: the day asked, written with `yyyy` (2026), `yy` (26), `MM` (03), `M` (3),
    ///   `dd` (07), `d` (7); any other character that is not a letter is a literal separator
    ///   (`{date:yyyy/MM/dd}` gives path segments). Several date placeholders may appear.
    /// - `{channel}`: the provider's own channel id, escaped strictly as one path segment (every
    ///   byte but `A–Z a–z 0–9 - . _ ~`, so `/`, `+` and spaces too), as `QueryEncoding.escape` does.
    ///
    /// A bad placeholder is a `ShorthandURLError` naming it and its position in the shorthand's
    /// own words, never a failure at fetch time.
    package init(shorthandURL text: String) throws(ShorthandURLError) {
        do {
            try self.init(text)
        } catch {
            throw ShorthandURLError(error)
        }
        try Self.refuseRecipeOnlyParts(of: self)
        // One sample is enough: the placeholders only ever produce unreserved characters and the
        // literal separators, so a valid sample means every filled-in URL is valid.
        let sample = render(.init(channel: "channel", day: Day(year: 2026, month: 10, day: 25), zone: .gmt), escaping: true)
        guard let url = URL(string: sample), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { throw ShorthandURLError.notAURL(text) }
    }

    /// The URL of a shorthand template for `day` and `channel`; nil when the template has
    /// `{channel}` and `channel` is nil.
    package func url(day: Day, channel: String?) -> URL? {
        if usesChannel && channel == nil { return nil }
        return URL(string: render(.init(channel: channel ?? "", day: day, zone: .gmt), escaping: true))
    }

    /// Placeholders site recipes have and the shorthand does not (`{page}`, `{date+1:…}`,
    /// `{date:EEE}`…), refused with their position.
    private static func refuseRecipeOnlyParts(of template: SiteTemplate) throws(ShorthandURLError) {
        let placeholders = template.parts.filter { if case .literal = $0 { false } else { true } }
        for (part, brace) in zip(placeholders, template.placeholders) {
            switch part {
            case .channel(part: nil, raw: false):
                continue
            case .date(offset: 0, format: .pattern(let pieces)):
                let formatStart = brace.position + 6
                var offset = 0
                for piece in pieces {
                    switch piece {
                    case .literal(let literal): offset += literal.count
                    case .year4: offset += 4
                    case .year2, .month2, .day2: offset += 2
                    case .month1, .day1: offset += 1
                    case .weekdayShort, .weekdayLong, .offset, .offsetColon:
                        let run = String(Array(brace.name.dropFirst(5)).dropFirst(offset).prefix { $0.isLetter })
                        throw .unknownDatePattern(pattern: run, position: formatStart + offset)
                    }
                }
            default:
                throw .unknownPlaceholder(name: brace.name, position: brace.position)
            }
        }
    }
}

/// Why a shorthand recipe's `url` was refused. Positions count characters from 1.
package enum ShorthandURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `{name}` is neither `{channel}` nor `{date:FORMAT}`; `position` is that of its `{`.
    case unknownPlaceholder(name: String, position: Int)
    /// A run of letters in a date format that is not `yyyy`, `yy`, `MM`, `M`, `dd` or `d`
    /// (`MMM`, `HH`, `Y`); `position` is that of its first letter.
    case unknownDatePattern(pattern: String, position: Int)
    /// `{date}` or `{date:}` without a format.
    case missingDateFormat(position: Int)
    /// A `{` with no `}` before the next `{` or the end.
    case unclosedBrace(position: Int)
    /// A `}` that closes nothing.
    case strayClosingBrace(position: Int)
    /// The template, filled in, is not an http(s) URL with a host.
    case notAURL(String)

    init(_ error: SiteTemplateError) {
        switch error {
        case .unknownPlaceholder(let name, let position): self = .unknownPlaceholder(name: name, position: position)
        case .unknownDatePattern(let pattern, let position): self = .unknownDatePattern(pattern: pattern, position: position)
        case .missingDateFormat(let position): self = .missingDateFormat(position: position)
        case .unclosedBrace(let position): self = .unclosedBrace(position: position)
        case .strayClosingBrace(let position): self = .strayClosingBrace(position: position)
        }
    }

    package var description: String {
        switch self {
        case .unknownPlaceholder(let name, let position):
            SiteTemplateError.unknownPlaceholder(name: name, position: position).shorthandDescription
        case .unknownDatePattern(let pattern, let position):
            SiteTemplateError.unknownDatePattern(pattern: pattern, position: position).shorthandDescription
        case .missingDateFormat(let position):
            SiteTemplateError.missingDateFormat(position: position).shorthandDescription
        case .unclosedBrace(let position):
            SiteTemplateError.unclosedBrace(position: position).shorthandDescription
        case .strayClosingBrace(let position):
            SiteTemplateError.strayClosingBrace(position: position).shorthandDescription
        case .notAURL(let text):
            "'\(text)' does not make an http(s) URL with a host"
        }
    }
}

extension SiteTemplateError {
    /// The message in the shorthand's own words: what it knows, not what site recipes know.
    var shorthandDescription: String {
        description(placeholders: "{channel}, {date:FORMAT}", datePatterns: "yyyy, yy, MM, M, dd, d")
    }
}
