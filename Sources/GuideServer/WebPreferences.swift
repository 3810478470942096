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
    static let likesCookie = "tvguide_likes"
    static let dislikesCookie = "tvguide_dislikes"
    /// Preferred kinds and genres: `kinds:movie.series|genres:drama.western`.
    static let tasteCookie = "tvguide_taste"
    /// A year: preferences outlive a browser restart.
    static let cookieLifetime = 365 * 86_400
    static let maximumReminders = CalendarQuery.maximumProgrammes
    static let maximumSeries = 20
    static let maximumLikes = 50

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
    /// What got a 👍 or a 👎: work ids, or titles for programmes without a work.
    var likes: [String] = []
    var dislikes: [String] = []
    var kinds: [ProgrammeKind] = []
    /// Canonical genre ids.
    var genres: [String] = []

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
        likes = Array(Self.list(from: cookies[Self.likesCookie]?.value).prefix(Self.maximumLikes))
        dislikes = Array(Self.list(from: cookies[Self.dislikesCookie]?.value).prefix(Self.maximumLikes))
        (kinds, genres) = Self.taste(from: cookies[Self.tasteCookie]?.value)
    }

    /// Everything a page may depend on, for the rendered-response cache's key.
    var key: String {
        "ch=\(Self.channelsValue(channels) ?? "")&rem=\(Self.listValue(reminders))&ser=\(Self.listValue(series))"
            + "&like=\(Self.listValue(likes))&dislike=\(Self.listValue(dislikes))&taste=\(Self.tasteValue(kinds: kinds, genres: genres) ?? "")"
    }

    // Cookie values hold only RFC 6265's cookie octets: items percent-encoded, `|` between them.

    static func listValue(_ items: [String]) -> String {
        items.map(WebLinks.encode).joined(separator: "|")
    }

    static func list(from value: String?) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        var seen = Set<String>()
        return value.split(separator: "|").map { PercentDecoding.decoded(String($0)) }.filter { !$0.isEmpty && seen.insert($0).inserted }
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
        if value.hasPrefix("lineup:") { return Channels.lineup(PercentDecoding.decoded(String(value.dropFirst(7)))) }
        if value.hasPrefix("ids:") {
            let ids = list(from: String(value.dropFirst(4)))
            return ids.isEmpty ? .all : .chosen(ids)
        }
        return nil
    }

    static func tasteValue(kinds: [ProgrammeKind], genres: [String]) -> String? {
        guard !kinds.isEmpty || !genres.isEmpty else { return nil }
        // Cookie octets only: no comma nor semicolon; ids hold neither dots nor bars.
        return "kinds:" + kinds.map(\.rawValue).joined(separator: ".") + "|genres:" + genres.map(WebLinks.encode).joined(separator: ".")
    }

    static func taste(from value: String?) -> (kinds: [ProgrammeKind], genres: [String]) {
        var kinds: [ProgrammeKind] = [], genres: [String] = []
        for part in (value ?? "").split(separator: "|") {
            let items = part.drop { $0 != ":" }.dropFirst().split(separator: ".").map(String.init)
            if part.hasPrefix("kinds:") { kinds = items.compactMap(ProgrammeKind.init(rawValue:)) }
            if part.hasPrefix("genres:") {
                genres = items.map { PercentDecoding.decoded(String($0)) }.filter { GenreVocabulary.name(ofID: $0, language: "en") != nil }
            }
        }
        return (kinds, genres)
    }

    /// The cookie that keeps `items`, or removes the cookie when there are none.
    static func listCookie(_ name: String, _ items: some Collection<String>) -> Cookie {
        cookie(name, items.isEmpty ? nil : listValue(Array(items)))
    }

    /// The cookie that keeps `value`, or removes the cookie when `value` is nil.
    static func cookie(_ name: String, _ value: String?) -> Cookie {
        Cookie(name: name, value: value ?? "", maxAge: value == nil ? 0 : cookieLifetime, path: "/", httpOnly: true, sameSite: .lax)
    }
}
