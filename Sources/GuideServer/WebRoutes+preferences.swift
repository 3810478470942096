import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// Links that change what a person chose (`WebPreferences`): each sets its cookie and sends
    /// the browser back (303) to the page it came from. Plain links and GET forms, so that they
    /// work without JavaScript; each is idempotent (saving twice saves once).
    static func addPreferenceRoutes(to routes: RouteTable, _ serving: ServingContext) {
        routes.page("/language") { request, _ in
            let query = QueryReader(request)
            guard let code = query.string("set") else {
                throw APIError.badParameter("set", "give one of \(WebLanguage.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let language = try WebLanguage.named(code, parameter: "set")
            return redirect(to: back(query, default: "/"), setting: [WebPreferences.cookie(WebPreferences.languageCookie, language.rawValue)])
        }
        routes.page("/my-channels/save") { request, _ in
            let query = QueryReader(request)
            let index = serving.state.index
            let choice: WebPreferences.Channels
            if let lineup = query.string("lineup") {
                guard serving.settings.lineups[lineup] != nil else {
                    let known = serving.settings.lineups.keys.sorted()
                    throw APIError.notFound("unknown line-up \(Quoted(lineup)); known: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
                }
                choice = .lineup(lineup)
            } else if let ids = query.list("channel") {
                let known = ids.filter { index.channel($0) != nil }
                choice = known.isEmpty ? .all : .chosen(Array(known.prefix(APILimits.channelIDs)))
            } else {
                // `all=1`, the line-up form's "all channels", or a form sent with nothing ticked.
                choice = .all
            }
            return redirect(to: back(query, default: "/"),
                            setting: [WebPreferences.cookie(WebPreferences.channelsCookie, WebPreferences.channelsValue(choice))])
        }
        routes.page("/my-calendar/add") { request, _ in
            try changeCalendar(request, serving) { preferences, query in
                if let id = query.string("programme") {
                    guard serving.state.index.programme(id) != nil else { throw APIError.notFound("There is no programme \(Quoted(id)) in the guide.") }
                    if !preferences.reminders.contains(id) { preferences.reminders.append(id) }
                    preferences.reminders = Array(preferences.reminders.suffix(WebPreferences.maximumReminders))
                }
                if let title = try CalendarQuery.text(query, "series") {
                    if !preferences.series.contains(title) { preferences.series.append(title) }
                    preferences.series = Array(preferences.series.suffix(WebPreferences.maximumSeries))
                }
            }
        }
        addTasteRoutes(to: routes, serving)
        routes.page("/my-calendar/remove") { request, _ in
            try changeCalendar(request, serving) { preferences, query in
                if let id = query.string("programme") { preferences.reminders.removeAll { $0 == id } }
                if let title = query.string("series") { preferences.series.removeAll { $0 == title } }
            }
        }
    }

    /// 👍 and 👎 on a programme, kept as its work (or, without one, its title) so that they
    /// outlive the airing; and the kinds and genres a person prefers.
    static func addTasteRoutes(to routes: RouteTable, _ serving: ServingContext) {
        for (path, verdict) in [("/my-tastes/like", true), ("/my-tastes/dislike", false)] {
            routes.page(path) { request, _ in
                try changeLikes(request, serving) { preferences, key in
                    preferences.likes.removeAll { $0 == key }
                    preferences.dislikes.removeAll { $0 == key }
                    if verdict { preferences.likes.append(key) } else { preferences.dislikes.append(key) }
                }
            }
        }
        routes.page("/my-tastes/forget") { request, _ in
            try changeLikes(request, serving) { preferences, key in
                preferences.likes.removeAll { $0 == key }
                preferences.dislikes.removeAll { $0 == key }
            }
        }
        routes.page("/my-tastes/save") { request, _ in
            let query = QueryReader(request)
            let kinds = try TasteProfile.kinds(query.list("kinds") ?? [], among: WebPages.listedKinds)
            let genres = try TasteProfile.genreIDs(query.list("genres") ?? [])
            return redirect(to: back(query, default: PageChrome.View.channels.path),
                            setting: [WebPreferences.cookie(WebPreferences.tasteCookie, WebPreferences.tasteValue(kinds: kinds, genres: genres))])
        }
    }

    /// Applies `change` to the likes and dislikes with the key of `programme` (its work, else its title).
    private static func changeLikes(_ request: Request, _ serving: ServingContext,
                                    change: (inout WebPreferences, String) -> Void) throws -> Response {
        let query = QueryReader(request)
        guard let id = query.string("programme") else { throw APIError.badParameter("programme", "give the programme id") }
        guard let programme = serving.state.index.programme(id) else { throw APIError.notFound("There is no programme \(Quoted(id)) in the guide.") }
        var preferences = WebPreferences(request)
        change(&preferences, programme.work ?? programme.title)
        return redirect(to: back(query, default: WebLinks.programme(id)), setting: [
            WebPreferences.listCookie(WebPreferences.likesCookie, preferences.likes.suffix(WebPreferences.maximumLikes)),
            WebPreferences.listCookie(WebPreferences.dislikesCookie, preferences.dislikes.suffix(WebPreferences.maximumLikes)),
        ])
    }

    /// Applies `change` to the saved programmes and titles and answers with their cookies.
    private static func changeCalendar(_ request: Request, _ serving: ServingContext,
                                       change: (inout WebPreferences, QueryReader) throws -> Void) throws -> Response {
        let query = QueryReader(request)
        guard query.string("programme") != nil || query.string("series") != nil else {
            throw APIError(status: .badRequest, message: "parameters 'programme', 'series': give a programme id or a title")
        }
        var preferences = WebPreferences(request)
        try change(&preferences, query)
        return redirect(to: back(query, default: PageChrome.View.calendar.path), setting: [
            WebPreferences.listCookie(WebPreferences.remindersCookie, preferences.reminders),
            WebPreferences.listCookie(WebPreferences.seriesCookie, preferences.series),
        ])
    }

    /// `back`: a path of this site to return to, as a valid URI reference (what a URI may not
    /// hold percent-encoded); anything else (another host, `//host`) is replaced by `fallback`,
    /// so that the link cannot send a person elsewhere.
    private static func back(_ query: QueryReader, default fallback: String) -> String {
        guard let back = query.string("back"), back.hasPrefix("/"), !back.hasPrefix("//"), !back.contains("\\") else { return fallback }
        let bytes = Array(back.utf8)
        var location = ""
        for (offset, byte) in bytes.enumerated() {
            let escape = byte == UInt8(ascii: "%") && offset + 2 < bytes.count && bytes[offset + 1].isHexDigit && bytes[offset + 2].isHexDigit
            if escape || (uriCharacters.contains(byte) && byte != UInt8(ascii: "%")) {
                location.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                location += String(format: "%%%02X", byte)
            }
        }
        return location
    }

    /// RFC 3986's unreserved and reserved characters, which a `Location` may hold as they are.
    private static let uriCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8)

    private static func redirect(to location: String, setting cookies: [Cookie]) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store", .contentLength: "0"])
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
