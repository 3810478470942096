import Foundation
import GuideCore
import Hummingbird

/// What every page reads from its query: the zone times are shown in and the links that keep it.
struct WebQuery {
    /// The web guide's default: the guide is Spanish, and so are most of its readers.
    static let defaultZone = TimeZone(identifier: "Europe/Madrid") ?? .gmt

    let reader: QueryReader
    let zone: TimeZone
    /// `tz` as the client gave it: links carry it on, and leave it out when it was not given.
    let zoneParameter: String?

    init(_ request: Request) throws {
        reader = QueryReader(request)
        zoneParameter = reader.string("tz")
        if let name = zoneParameter {
            zone = try QueryReader.zone(named: name)
        } else {
            zone = Self.defaultZone
        }
    }

    /// A link to another page of the guide, keeping `tz`; parameters without a value are left out.
    func link(_ path: String, _ parameters: [(String, String?)] = []) -> String {
        WebLinks.withQuery(path, parameters + [("tz", zoneParameter)])
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
        return parameter.removingPercentEncoding ?? parameter
    }
}
