import Foundation
import GuideCore
import Hummingbird

/// What a person chose, kept in their browser as cookies so that the server stays without
/// accounts and the pages work without JavaScript: the language, their channels, and the
/// programmes and titles saved to their calendar.
struct WebPreferences: Sendable, Equatable {
    static let languageCookie = "tvguide_lang"
    static let channelsCookie = "tvguide_channels"
    static let remindersCookie = "tvguide_reminders"
    static let seriesCookie = "tvguide_series"
    /// A year: preferences outlive a browser restart.
    static let cookieLifetime = 365 * 86_400
    static let maximumReminders = CalendarQuery.maximumProgrammes
    static let maximumSeries = 20

    /// The channels a person watches.
    enum Channels: Sendable, Equatable {
        /// Every channel of the guide, chosen on purpose.
        case all
        /// A line-up of providers.yaml, by name.
        case lineup(String)
        /// Channels ticked one by one, by id.
        case chosen([String])
    }

    /// Nil until the person chooses: the first visit then offers the choice.
    var channels: Channels?
    /// Programme ids, in the order saved.
    var reminders: [String]
    /// Titles whose every airing is saved.
    var series: [String]

    init(channels: Channels? = nil, reminders: [String] = [], series: [String] = []) {
        self.channels = channels
        self.reminders = reminders
        self.series = series
    }

    init(_ request: Request) {
        let cookies = request.cookies
        channels = cookies[Self.channelsCookie].flatMap { Self.channels(from: $0.value) }
        reminders = Array(Self.list(from: cookies[Self.remindersCookie]?.value).prefix(Self.maximumReminders))
        series = Array(Self.list(from: cookies[Self.seriesCookie]?.value).prefix(Self.maximumSeries))
    }

    /// Everything a page may depend on, for the rendered-response cache's key.
    var key: String {
        "ch=\(Self.channelsValue(channels) ?? "")&rem=\(Self.listValue(reminders))&ser=\(Self.listValue(series))"
    }

    // Cookie values hold only RFC 6265's cookie octets: items percent-encoded, `|` between them.

    static func listValue(_ items: [String]) -> String {
        items.map(WebLinks.encode).joined(separator: "|")
    }

    static func list(from value: String?) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        var seen = Set<String>()
        return value.split(separator: "|").compactMap { $0.removingPercentEncoding }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    static func channelsValue(_ channels: Channels?) -> String? {
        switch channels {
        case nil: nil
        case .all: "all"
        case .lineup(let name): "lineup:" + WebLinks.encode(name)
        case .chosen(let ids): "ids:" + listValue(ids)
        }
    }

    static func channels(from value: String) -> Channels? {
        if value == "all" { return .all }
        if value.hasPrefix("lineup:") { return String(value.dropFirst(7)).removingPercentEncoding.map(Channels.lineup) }
        if value.hasPrefix("ids:") {
            let ids = list(from: String(value.dropFirst(4)))
            return ids.isEmpty ? .all : .chosen(ids)
        }
        return nil
    }

    /// The cookie that keeps `value`, or removes the cookie when `value` is nil.
    static func cookie(_ name: String, _ value: String?) -> Cookie {
        Cookie(name: name, value: value ?? "", maxAge: value == nil ? 0 : cookieLifetime, path: "/", httpOnly: true, sameSite: .lax)
    }
}
