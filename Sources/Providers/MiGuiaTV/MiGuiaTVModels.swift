import Foundation

/// `channels.json`: `{"data": [row, …]}` or `{"data": {"channels": [row, …]}}`.
struct ChannelsEnvelope: Decodable {
    let data: ChannelList
}

struct ChannelList: Decodable {
    let rows: [ChannelRow]

    private enum CodingKeys: String, CodingKey { case channels }

    init(from decoder: any Decoder) throws {
        if let nested = try? decoder.container(keyedBy: CodingKeys.self) {
            rows = try nested.decode([ChannelRow].self, forKey: .channels)
        } else if var list = try? decoder.unkeyedContainer() {
            var rows: [ChannelRow] = []
            while !list.isAtEnd { rows.append(try list.decode(ChannelRow.self)) }
            self.rows = rows
        } else {
            throw DecodingError.typeMismatch(ChannelList.self, .init(
                codingPath: decoder.codingPath,
                debugDescription: "expected an array of channels or an object with `channels`"))
        }
    }
}

/// One channel as a positional array: `[id, name, type, language, image]`, or in the nested
/// variant `[id, name, type, image]`. The id may be a number or a string.
struct ChannelRow: Decodable {
    let id: String
    let name: String
    let type: String?
    let language: String?
    let image: String?

    init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        var values: [Scalar] = []
        while !row.isAtEnd { values.append(try row.decode(Scalar.self)) }
        let names: [String]
        switch values.count {
        case 5: names = ["id", "name", "type", "language", "image"]
        case 4: names = ["id", "name", "type", "image"]
        default:
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "a channel has \(values.count) fields, expected 5 [id, name, type, language, image] or 4 [id, name, type, image]"))
        }
        let fields = Dictionary(uniqueKeysWithValues: zip(names, values))
        func field(_ name: String) -> FieldKey { FieldKey(name, index: names.firstIndex(of: name)) }

        guard let id = fields["id"]?.text else {
            throw DecodingError.valueNotFound(String.self, .init(
                codingPath: decoder.codingPath + [field("id")], debugDescription: "a channel needs an id"))
        }
        guard let name = fields["name"]?.text else {
            throw DecodingError.valueNotFound(String.self, .init(
                codingPath: decoder.codingPath + [field("name")], debugDescription: "a channel needs a name"))
        }
        self.id = id
        self.name = name
        type = fields["type"]?.text
        language = fields["language"]?.text
        image = fields["image"]?.text
    }
}

/// A schedule or now-on-air: `{"data": [show, …]}` or `{"data": {"shows": [show, …]}}`.
struct ShowsEnvelope: Decodable {
    let data: ShowList
}

struct ShowList: Decodable {
    let shows: [Show]

    private enum CodingKeys: String, CodingKey { case shows }

    init(from decoder: any Decoder) throws {
        if let nested = try? decoder.container(keyedBy: CodingKeys.self) {
            shows = try nested.decode([Show].self, forKey: .shows)
        } else if var list = try? decoder.unkeyedContainer() {
            var shows: [Show] = []
            while !list.isAtEnd { shows.append(try list.decode(Show.self)) }
            self.shows = shows
        } else {
            throw DecodingError.typeMismatch(ShowList.self, .init(
                codingPath: decoder.codingPath,
                debugDescription: "expected an array of shows or an object with `shows`"))
        }
    }
}

/// One airing, with the field names of the API. Times are Unix seconds (UTC); numbers may come
/// as JSON numbers or numeric strings, and every field but `inittime` and `title` may be missing
/// or null.
struct Show: Decodable {
    /// movie, series, programme or documentary.
    let type: String?
    /// For a movie, its TMDB id.
    let showID: String?
    let channelID: String?
    let inittime: Int
    let endtime: Int?
    /// The genre in Spanish: Noticias, Deportes, Infantil, Drama…
    let subtype: String?
    let title: String
    let subtitle: String?
    let text: String?
    /// The users' rating, out of 10.
    let rate: Double?
    let backdrop: String?

    private enum CodingKeys: String, CodingKey {
        case type, showID, channelID, inittime, endtime, subtype, title, subtitle, text, rate, backdrop
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func scalar(_ key: CodingKeys) throws -> Scalar? { try c.decodeIfPresent(Scalar.self, forKey: key) }
        func seconds(_ key: CodingKeys) throws -> Int? {
            guard let value = try scalar(key), !value.isNull else { return nil }
            guard let seconds = value.integer else {
                throw DecodingError.typeMismatch(Int.self, .init(
                    codingPath: c.codingPath + [key],
                    debugDescription: "expected Unix seconds, found \(value)"))
            }
            return seconds
        }

        guard let inittime = try seconds(.inittime) else {
            throw DecodingError.keyNotFound(CodingKeys.inittime, .init(
                codingPath: c.codingPath, debugDescription: "a show needs a start time"))
        }
        guard let title = try scalar(.title)?.text else {
            throw DecodingError.keyNotFound(CodingKeys.title, .init(
                codingPath: c.codingPath, debugDescription: "a show needs a title"))
        }
        self.inittime = inittime
        self.title = title
        endtime = try seconds(.endtime)
        type = try scalar(.type)?.text
        showID = try scalar(.showID)?.text
        channelID = try scalar(.channelID)?.text
        subtype = try scalar(.subtype)?.text
        subtitle = try scalar(.subtitle)?.text
        text = try scalar(.text)?.text
        backdrop = try scalar(.backdrop)?.text
        if let rate = try scalar(.rate), !rate.isNull {
            guard let value = rate.decimal else {
                throw DecodingError.typeMismatch(Double.self, .init(
                    codingPath: c.codingPath + [CodingKeys.rate],
                    debugDescription: "expected a rating number, found \(rate)"))
            }
            self.rate = value
        } else {
            rate = nil
        }
    }
}

/// A JSON scalar read leniently: the API sends ids and numbers sometimes as numbers, sometimes as
/// strings, and empty strings for absent values.
enum Scalar: Decodable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    case decimal(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        // Strings first: most of a show's fields are text, and each failed attempt costs an error.
        if value.decodeNil() {
            self = .null
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else if let integer = try? value.decode(Int.self) {
            self = .integer(integer)
        } else if let decimal = try? value.decode(Double.self) {
            self = .decimal(decimal)
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else {
            throw DecodingError.typeMismatch(Scalar.self, .init(
                codingPath: decoder.codingPath, debugDescription: "expected a string or a number, found an array or an object"))
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Text with surrounding spaces removed; nil when null or empty.
    var text: String? {
        let raw: String
        switch self {
        case .string(let string): raw = string
        case .integer(let integer): raw = String(integer)
        case .decimal(let decimal): raw = decimal == decimal.rounded() && abs(decimal) < 1e15 ? String(Int(decimal)) : String(decimal)
        case .bool, .null: return nil
        }
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    var integer: Int? {
        switch self {
        case .integer(let integer): return integer
        case .decimal(let decimal): return decimal == decimal.rounded() && abs(decimal) < 1e15 ? Int(decimal) : nil
        case .string(let string): return Int(string.trimmingCharacters(in: .whitespaces))
        case .bool, .null: return nil
        }
    }

    /// Also reads a Spanish decimal comma (`"7,5"`).
    var decimal: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .decimal(let decimal): return decimal
        case .string(let string):
            return Double(string.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "."))
        case .bool, .null: return nil
        }
    }

    var description: String {
        switch self {
        case .string(let string): "\"\(string)\""
        case .integer(let integer): String(integer)
        case .decimal(let decimal): String(decimal)
        case .bool(let bool): String(bool)
        case .null: "null"
        }
    }
}

/// A named position in a positional array, so that errors say `data[3].name`, not `data[3][1]`.
struct FieldKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ name: String, index: Int?) {
        stringValue = name
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue, index: nil) }
    init?(intValue: Int) { self.init(String(intValue), index: intValue) }
}
