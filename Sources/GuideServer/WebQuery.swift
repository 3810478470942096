import Foundation
import GuideCore
import Hummingbird

/// What every page reads from its request: the zone times are shown in, the language, the
/// person's choices (`WebPreferences`), and the links that keep `tz`.
struct WebQuery {
    /// The web guide's default: the guide is Spanish, and so are most of its readers.
    static let defaultZone = TimeZone(identifier: "Europe/Madrid") ?? .gmt

    let reader: QueryReader
    let zone: TimeZone
    /// `tz` as the client gave it: links carry it on, and leave it out when it was not given.
    let zoneParameter: String?
    let language: WebLanguage
    let t: WebCatalogue
    let preferences: WebPreferences
    /// The path and query asked: where the language switch and the choice of channels come back to.
    let target: String

    init(_ request: Request) throws {
        reader = QueryReader(request)
        zoneParameter = reader.string("tz")
        if let name = zoneParameter {
            zone = try QueryReader.zone(named: name)
        } else {
            zone = Self.defaultZone
        }
        language = WebLanguage.of(request)
        t = WebCatalogue.of(language)
        preferences = WebPreferences(request)
        target = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
    }

    /// A link to another page of the guide, keeping `tz`; parameters without a value are left out.
    func link(_ path: String, _ parameters: [(String, String?)] = []) -> String {
        WebLinks.withQuery(path, parameters + [("tz", zoneParameter)])
    }

    /// The channels the pages show: the `lineup` asked in the query (an unknown one is a 404),
    /// else the person's choice, else every channel, in the guide's order.
    func channels(_ settings: ServerSettings, _ index: GuideIndex) throws -> [Channel] {
        if let asked = try reader.lineup(settings) { return asked.compactMap(index.channel) }
        switch preferences.channels {
        case .lineup(let name)?:
            // A line-up providers.yaml no longer names shows every channel rather than none.
            guard let ids = settings.lineups[name] else { return index.channels }
            return ids.compactMap(index.channel)
        case .chosen(let ids)?:
            let chosen = Set(ids)
            let channels = index.channels.filter { chosen.contains($0.id) }
            return channels.isEmpty ? index.channels : channels
        case .all?, nil:
            return index.channels
        }
    }

    /// The line-up the pages show, by name: the query's, else the person's.
    var lineupName: String? {
        if let asked = reader.string("lineup") { return asked }
        if case .lineup(let name)? = preferences.channels { return name }
        return nil
    }
}

enum WebLinks {
    /// Unreserved characters plus `@` and `:`, which programme ids hold and URLs allow unencoded.
    private static let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@:")

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    static func withQuery(_ path: String, _ parameters: [(String, String?)]) -> String {
        let pairs = parameters.compactMap { name, value in value.map { "\(name)=\(encode($0))" } }
        return pairs.isEmpty ? path : path + "?" + pairs.joined(separator: "&")
    }

    static func channel(_ id: String) -> String { "/channel/" + encode(id) }
    /// A channel's day marks the programme on air with this id: links to today jump to it
    /// without any script.
    static let onAirAnchor = "#on-air"
    static func programme(_ id: String) -> String { "/programme/" + encode(id) }
    static func reminder(_ programme: String) -> String { "/reminders.ics?programme=" + encode(programme) }

    /// A path parameter as the client meant it: routes match the raw path, so an id sent
    /// percent-encoded arrives encoded.
    static func decoded(_ parameter: String?) -> String {
        guard let parameter else { return "" }
        return PercentDecoding.decoded(parameter)
    }
}
