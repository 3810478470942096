import Foundation

/// How a playlist entry plays what has already aired: the catch-up attributes of Kodi's IPTV
/// Simple (`catchup`, `catchup-source`, `catchup-days`, `catchup-correction` on `#EXTINF`, the
/// same on `#EXTM3U` as defaults for every entry), which other players read too. Only what can
/// become a web link is kept: modes whose URL tvguide builds, over http(s).
package struct PlaylistCatchup: Sendable, Hashable {
    package enum Mode: String, Sendable, Hashable {
        /// `catchup-source` is the whole URL.
        case `default`
        /// `catchup-source` follows the stream URL.
        case append
        /// SIPTV's: the stream URL with `utc={utc}&lutc={lutc}` added to its query.
        case shift
    }

    package var mode: Mode
    /// The URL with its placeholders, once the mode has put it together.
    package var template: String
    /// How far back the provider keeps what aired.
    package var days: Int
    /// Seconds taken off an airing's start before the URL is built, for a provider whose archive
    /// clock is off (`catchup-correction`, in hours).
    package var correction: Int

    /// IPTV Simple's own default catch-up window, for an entry that gives none.
    package static let defaultDays = 5

    package init(mode: Mode, template: String, days: Int = defaultDays, correction: Int = 0) {
        self.mode = mode
        self.template = template
        self.days = days
        self.correction = correction
    }

    /// The catch-up of `entry`, its playlist's `#EXTM3U` attributes filling what it lacks; nil
    /// when it has none, or one in a mode tvguide does not build (`flussonic`, `xc`, `vod`), or one
    /// that is not a web URL.
    package init?(_ entry: Playlist.Entry, header: [Playlist.Attribute]) {
        func own(_ name: String) -> String? { Self.nonBlank(entry.attribute(name)) }
        func common(_ name: String) -> String? {
            Self.nonBlank(header.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value)
        }
        func value(_ name: String) -> String? { own(name) ?? common(name) }
        // SIPTV's older spelling: `timeshift="7"` (or `tvg-rec`) is shift mode kept 7 days.
        let siptvDays = [entry.attribute("timeshift"), entry.attribute("tvg-rec")].lazy.compactMap { $0.flatMap { Int($0) } }.first { $0 > 0 }
        let mode: Mode
        // Some providers write `catchup-type` for `catchup`.
        if let named = own("catchup") ?? own("catchup-type") ?? common("catchup") ?? common("catchup-type") {
            guard let known = Mode(rawValue: named.lowercased()) else { return nil }
            mode = known
        } else if siptvDays != nil {
            mode = .shift
        } else {
            return nil
        }
        // Kodi's `|user-agent=…` request options after a stream URL mean nothing to a browser.
        let stream = String(entry.url.prefix { $0 != "|" })
        let source = value("catchup-source").map { String($0.prefix { $0 != "|" }) }
        let template: String
        switch mode {
        case .default:
            // Without a source IPTV Simple appends a query from its own settings, which tvguide has not.
            guard let source else { return nil }
            template = source
        case .append:
            guard let source else { return nil }
            template = stream + source
        case .shift:
            template = stream + (stream.contains("?") ? "&" : "?") + "utc={utc}&lutc={lutc}"
        }
        let scheme = template.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let days = value("catchup-days").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? siptvDays ?? Self.defaultDays
        let correction = value("catchup-correction").flatMap { Double($0) }.map { Int(($0 * 3_600).rounded()) } ?? 0
        self.init(mode: mode, template: template, days: days, correction: correction)
    }

    /// Whether the provider still keeps an airing at `now`: it has ended, and started within
    /// `days` (IPTV Simple measures the window from the start, too).
    package func keeps(start: Date, end: Date, at now: Date) -> Bool {
        end <= now && end > start && start >= now.addingTimeInterval(-Double(days) * 86_400)
    }

    /// The stream URL of the airing from `start` to `end` as it stands at `now`, the date fields
    /// (`{Y}`…`{S}`) read on the clock of `timeZone`; nil when the template holds a placeholder
    /// tvguide cannot fill (`{catchup-id}`, an id only the provider's own guide has).
    package func url(start: Date, end: Date, now: Date, timeZone: TimeZone) -> String? {
        let from = Int(start.timeIntervalSince1970.rounded(.down))
        let at = Int(now.timeIntervalSince1970.rounded(.down))
        // IPTV Simple cuts an airing still on at `now`: the archive ends there.
        let duration = max(0, min(Int(end.timeIntervalSince1970.rounded(.down)), at) - from)
        return CatchupTemplate.fill(template, start: from - correction, duration: duration, now: at, timeZone: timeZone)
    }

    private static func nonBlank(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }
}

/// IPTV Simple's catch-up placeholders, filled. Times are seconds since 1970 (UTC):
///
/// - `{utc}`, `${start}`: the start; `{utcend}`, `${end}`: the start plus the duration;
///   `{lutc}`, `${now}`, `${timestamp}`: now. Each also as `{utc:YmdHMS}`, the letters standing
///   for the fields of that moment and the rest kept (`{utc:Ymd-H}` → `20261025-20`).
/// - `{Y}` `{m}` `{d}` `{H}` `{M}` `{S}`: the start's year, month, day, hour, minute and second.
/// - `{duration}`, `${duration}`: seconds; `{duration:60}`: in units of 60 seconds.
/// - `{offset}`, `${offset}`: seconds from the start to now; `{offset:60}` likewise.
///
/// The `$` is optional before any of them, as players accept both spellings.
enum CatchupTemplate {
    /// `template` with every placeholder filled, or nil when one is unknown or malformed: a URL
    /// half filled is no URL at all.
    static func fill(_ template: String, start: Int, duration: Int, now: Int, timeZone: TimeZone) -> String? {
        var filled = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let literal = rest[..<open]
            filled += literal.hasSuffix("$") ? literal.dropLast() : literal
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            let placeholder = rest[rest.index(after: open)..<close]
            guard let value = value(placeholder, start: start, duration: duration, now: now, timeZone: timeZone) else { return nil }
            filled += value
            rest = rest[rest.index(after: close)...]
        }
        return filled + rest
    }

    private static func value(_ placeholder: Substring, start: Int, duration: Int, now: Int, timeZone: TimeZone) -> String? {
        let parts = placeholder.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0]
        let argument = parts.count == 2 ? parts[1] : nil
        let moment: Int
        switch name {
        case "utc", "start": moment = start
        case "utcend", "end": moment = start + duration
        case "lutc", "now", "timestamp": moment = now
        case "duration": return units(duration, argument)
        case "offset": return units(max(0, now - start), argument)
        case "Y", "m", "d", "H", "M", "S":
            guard argument == nil else { return nil }
            return format(name, moment: start, timeZone: timeZone)
        default: return nil
        }
        guard let argument else { return String(moment) }
        return argument.isEmpty ? nil : format(argument, moment: moment, timeZone: timeZone)
    }

    /// Seconds, or whole units of `divider` seconds.
    private static func units(_ seconds: Int, _ divider: Substring?) -> String? {
        guard let divider else { return String(seconds) }
        guard let size = Int(divider), size > 0 else { return nil }
        return String(seconds / size)
    }

    /// `Ymd-HMS` → `20261025-203000`: each letter one field of `moment` on `timeZone`'s clock.
    private static func format(_ pattern: Substring, moment: Int, timeZone: TimeZone) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(moment))
        let civil = CivilTime.components(of: date, in: timeZone)
        var text = ""
        for character in pattern {
            switch character {
            case "Y": text += padded(civil.year, 4)
            case "m": text += padded(civil.month, 2)
            case "d": text += padded(civil.day, 2)
            case "H": text += padded(civil.hour, 2)
            case "M": text += padded(civil.minute, 2)
            case "S": text += padded(civil.second, 2)
            default: text.append(character)
            }
        }
        return text
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
