import Foundation
import GuideCore

/// A programme object, as a recipe's `programme` filter gives it, made into a `Programme`.
///
/// Keys (docs/sources.md has the table): `start`, `title` (required); `stop`, `duration`;
/// `subtitle`, `description`; `categories`, `keywords`; `images` and `icons` (relative URLs
/// resolved against the answer's); `credits` ({role: names}, an actor `{name, character, guest}`); `season`, `episode`; `rating`, `star_rating`; `url`,
/// `year`, `date`, `countries`, `language`; `new`, `premiere`, `last_chance`; `kind`. A key
/// starting with `_` is the recipe's own (a join key) and ignored; any other key is an error,
/// so a typo never drops a field silently.
package struct SiteProgrammeReader {
    package static let keys: [String] = [
        "start", "stop", "duration", "title", "subtitle", "description", "categories", "keywords", "images", "icons", "credits",
        "season", "episode", "rating", "star_rating", "url", "year", "date", "countries", "language",
        "new", "premiere", "last_chance", "kind",
    ]
    private static let knownKeys = Set(keys)
    private static let knownRoles = Set(Credit.Role.allCases.map(\.rawValue))

    /// `ImageRef.kind` of a programme object's `icons`.
    static let iconKind = "icon"

    let channel: String
    let source: String
    /// The answer's URL, against which relative image and page URLs resolve.
    let base: URL?

    struct Failure: Error {
        var reason: String
    }

    /// The programme, or why the object is not one. `times` reads start and stop in page order.
    func programme(_ object: JSONValue, times: inout SiteDayTimes) throws(Failure) -> Programme {
        guard case .object(let fields) = object else {
            throw Failure(reason: "the programme filter gave \(object.kindName), not an object: \(Self.quoted(object))")
        }
        let isUnknown = { (key: String) in !key.hasPrefix("_") && !Self.knownKeys.contains(key) }
        // Sorted, so that the same unknown key is named every run, only once there is one.
        if fields.keys.contains(where: isUnknown), let key = fields.keys.sorted().first(where: isUnknown) {
            let hint = Self.suggestion(for: key).map { " — did you mean '\($0)'?" } ?? ""
            throw Failure(reason: "unknown key '\(key)' in a programme (known: \(Self.keys.joined(separator: ", ")); keys starting with _ are ignored)\(hint)")
        }
        guard let startValue = fields["start"], !startValue.isNull else { throw Failure(reason: "a programme without a start: \(Self.quoted(object))") }
        guard let start = times.start(startValue) else {
            throw Failure(reason: "start \(Self.quoted(startValue)) is not a time in time_format \(times.format)")
        }
        guard let title = Self.text(fields["title"]), !title.isEmpty else {
            throw Failure(reason: "a programme without a title: \(Self.quoted(object))")
        }
        var programme = Programme(channel: channel, start: start, title: Self.oneLine(title), source: source)
        if let stopValue = fields["stop"], !stopValue.isNull {
            guard let stop = times.stop(stopValue, after: start) else {
                throw Failure(reason: "stop \(Self.quoted(stopValue)) is not a time after the start in time_format \(times.format)")
            }
            programme.stop = stop
        } else if let duration = fields["duration"], !duration.isNull {
            guard let seconds = Self.duration(duration) else {
                throw Failure(reason: "duration \(Self.quoted(duration)) is not minutes (50), a text such as '50 min', '1h 30m', '01:30:00' or ISO 8601 (PT1H30M)")
            }
            if seconds > 0 { programme.stop = start.addingTimeInterval(seconds) }
        }
        programme.subtitle = Self.text(fields["subtitle"]).map(Self.oneLine).flatMap(Self.nonEmpty)
        programme.synopsis = Self.text(fields["description"]).flatMap(Self.nonEmpty)
        let categories = Self.strings(fields["categories"]).map(Self.oneLine).filter { !$0.isEmpty }
        if !categories.isEmpty { programme.categories = categories.map { LocalizedText($0) } }
        let keywords = Self.strings(fields["keywords"]).map(Self.oneLine).filter { !$0.isEmpty }
        if !keywords.isEmpty { programme.keywords = keywords.map { LocalizedText($0) } }
        // XMLTV has both: with icons beside them, images are written as <image> (a poster) and
        // icons as <icon> (a thumbnail); alone, images stay <icon>, which every player reads.
        let icons = Self.strings(fields["icons"]).compactMap(resolve).map { ImageRef(url: $0, kind: Self.iconKind) }
        let images = Self.strings(fields["images"]).compactMap(resolve).map { ImageRef(url: $0, xmltvImage: icons.isEmpty ? nil : true) }
        if !(images + icons).isEmpty { programme.images = images + icons }
        let urls = Self.strings(fields["url"]).compactMap(resolve)
        if !urls.isEmpty { programme.urls = urls }
        programme.credits = try Self.credits(fields["credits"])
        let season = try Self.integer(fields["season"], key: "season")
        let episode = try Self.integer(fields["episode"], key: "episode")
        if season != nil || episode != nil {
            programme.episode = Episode(season: season, number: episode)
        }
        programme.ratings = Self.ratings(fields["rating"])
        programme.starRatings = Self.ratings(fields["star_rating"])
        programme.year = try Self.integer(fields["year"], key: "year")
        programme.date = Self.text(fields["date"]).flatMap(Self.nonEmpty)
        let countries = Self.strings(fields["countries"]).filter { !$0.isEmpty }
        if !countries.isEmpty { programme.countries = countries }
        programme.language = Self.text(fields["language"]).flatMap(Self.nonEmpty)
        programme.isNew = try Self.flag(fields["new"], key: "new")
        programme.premiere = try Self.flag(fields["premiere"], key: "premiere")
        programme.lastChance = try Self.flag(fields["last_chance"], key: "last_chance")
        if let kind = Self.text(fields["kind"]).flatMap(Self.nonEmpty) {
            guard let known = ProgrammeKind(rawValue: kind) else {
                throw Failure(reason: "kind '\(kind)' is not one of \(ProgrammeKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            programme.kind = known
        }
        return programme
    }

    private func resolve(_ text: String) -> String? {
        guard let trimmed = Self.nonEmpty(text) else { return nil }
        if trimmed.hasPrefix("//") { return (base?.scheme ?? "https") + ":" + trimmed }
        if let url = URL(string: trimmed), url.scheme != nil { return trimmed }
        guard let base, let resolved = URL(string: trimmed, relativeTo: base) else { return trimmed }
        return resolved.absoluteString
    }

    // MARK: - Values

    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number?: value!.jsonText
        default: nil
        }
    }

    /// Trimmed of whitespace scalars, as `trimmingCharacters(in: .whitespacesAndNewlines)` trims
    /// (whose trip through NSString costs more than the rest of a programme's reading); nil when
    /// nothing is left.
    static func nonEmpty(_ text: String) -> String? {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return nil }
        let last = scalars.lastIndex(where: { !isTrimmed($0) })!
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return text }
        return String(scalars[first...last])
    }

    /// Runs of whitespace (characters whose first scalar is whitespace) made one space, ends trimmed.
    static func oneLine(_ text: String) -> String {
        // `Character.isWhitespace` is its first scalar's White_Space, looked up in a slower table.
        isOneLine(text) ? text : text.split(whereSeparator: { isWhitespace($0.unicodeScalars.first!) }).joined(separator: " ")
    }

    /// True when `oneLine` would give `text` back unchanged: single spaces between words, none at
    /// the ends, and none that a following combining mark (at or after U+0300) joins into one
    /// character. Checked on scalars, without Unicode's character breaking.
    private static func isOneLine(_ text: String) -> Bool {
        var atStart = true
        var afterSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " {
                if atStart || afterSpace { return false }
                afterSpace = true
                continue
            }
            if afterSpace, scalar.value >= 0x300 { return false }
            if isWhitespace(scalar) { return false }
            atStart = false
            afterSpace = false
        }
        return !afterSpace
    }

    /// Unicode's White_Space, which `Character.isWhitespace` reads of a character's first scalar.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// A member of `CharacterSet.whitespacesAndNewlines`: White_Space and U+200B ZERO WIDTH
    /// SPACE, which Foundation still counts as a space.
    static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\u{200B}" || isWhitespace(scalar)
    }

    /// A string, a number or a list of them; nulls dropped.
    static func strings(_ value: JSONValue?) -> [String] {
        switch value {
        case .array(let items)?: items.compactMap { text($0) }
        case .some(let single): text(single).map { [$0] } ?? []
        case nil: []
        }
    }

    static func integer(_ value: JSONValue?, key: String) throws(Failure) -> Int? {
        switch value {
        case nil, .null?: return nil
        case .number(let number)?:
            guard number.isFinite, number.rounded() == number, abs(number) < 1e9 else { throw Failure(reason: "\(key) \(number) is not a whole number") }
            return Int(number)
        case .string(let text)?:
            // A bare number, the usual case, needs no trip through Foundation's trimming.
            if let number = Int(text) { return number }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return nil }
            guard let number = Int(trimmed) else { throw Failure(reason: "\(key) '\(text)' is not a whole number") }
            return number
        case .some(let other):
            throw Failure(reason: "\(key) is \(other.kindName), not a number")
        }
    }

    static func flag(_ value: JSONValue?, key: String) throws(Failure) -> Bool? {
        switch value {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag ? true : nil
        case .some(let other): throw Failure(reason: "\(key) is \(other.kindName), not true or false")
        }
    }

    /// `{"director": ["A", "B"], "actor": [{"name": "C", "character": "D"}, "E"]}`.
    static func credits(_ value: JSONValue?) throws(Failure) -> [Credit]? {
        guard let value, !value.isNull else { return nil }
        guard case .object(let roles) = value else { throw Failure(reason: "credits is \(value.kindName), not an object of role → names") }
        var credits: [Credit] = []
        for role in Credit.Role.allCases {
            guard let names = roles[role.rawValue] else { continue }
            let entries: [JSONValue]
            if case .array(let items) = names { entries = items } else { entries = [names] }
            for entry in entries {
                if case .object(let person) = entry {
                    guard let name = text(person["name"]).flatMap(nonEmpty) else { continue }
                    // XMLTV's `guest="yes"`: an actor appearing as a guest.
                    let guest = person["guest"] == .bool(true) ? true : nil
                    credits.append(Credit(role: role, name: oneLine(name), character: text(person["character"]).flatMap(nonEmpty), guest: guest))
                } else if let name = text(entry).flatMap(nonEmpty) {
                    credits.append(Credit(role: role, name: oneLine(name)))
                }
            }
        }
        if roles.keys.contains(where: { !knownRoles.contains($0) }), let unknown = roles.keys.sorted().first(where: { !knownRoles.contains($0) }) {
            throw Failure(reason: "credits: unknown role '\(unknown)' (known: \(Credit.Role.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return credits.isEmpty ? nil : credits
    }

    /// A string (`"TP"`, `"7.5/10"`), a number, or `{"system", "value", "icon"}`; a list of them.
    static func ratings(_ value: JSONValue?) -> [Rating]? {
        guard let value, !value.isNull else { return nil }
        let entries: [JSONValue]
        if case .array(let items) = value { entries = items } else { entries = [value] }
        let ratings = entries.compactMap { entry -> Rating? in
            if case .object(let fields) = entry {
                guard let rating = text(fields["value"]).flatMap(nonEmpty) else { return nil }
                return Rating(system: text(fields["system"]).flatMap(nonEmpty), value: rating, icon: text(fields["icon"]).flatMap(nonEmpty))
            }
            return text(entry).flatMap(nonEmpty).map { Rating(value: $0) }
        }
        return ratings.isEmpty ? nil : ratings
    }

    /// Minutes as a number; `50 min`, `1h 30m`, `1 h 30 min`, `90'`; `01:30:00` or `1:30`; `PT1H30M`.
    static func duration(_ value: JSONValue) -> TimeInterval? {
        if case .number(let minutes) = value { return minutes.isFinite && minutes >= 0 ? minutes * 60 : nil }
        guard let raw = value.string?.trimmingCharacters(in: .whitespaces).lowercased(), !raw.isEmpty else { return nil }
        if let minutes = Double(raw) { return minutes >= 0 ? minutes * 60 : nil }
        if raw.hasPrefix("pt") {
            var seconds = 0.0
            var number = ""
            for character in raw.dropFirst(2) {
                if character.isNumber || character == "." { number.append(character); continue }
                guard let amount = Double(number) else { return nil }
                switch character {
                case "h": seconds += amount * 3_600
                case "m": seconds += amount * 60
                case "s": seconds += amount
                default: return nil
                }
                number = ""
            }
            return number.isEmpty ? seconds : nil
        }
        let clock = raw.split(separator: ":")
        if clock.count >= 2, clock.count <= 3, clock.allSatisfy({ Int($0) != nil }) {
            let numbers = clock.compactMap { Int($0) }
            return TimeInterval(numbers[0] * 3_600 + numbers[1] * 60 + (numbers.count == 3 ? numbers[2] : 0))
        }
        var seconds = 0.0
        var number = ""
        var matched = false
        var index = raw.startIndex
        while index < raw.endIndex {
            let character = raw[index]
            if character.isNumber || character == "." || character == "," {
                number.append(character == "," ? "." : character)
                index = raw.index(after: index)
                continue
            }
            if character == " " { index = raw.index(after: index); continue }
            let word = raw[index...].prefix { $0.isLetter || $0 == "'" || $0 == "\u{2032}" }
            guard !word.isEmpty, let amount = Double(number) else { return nil }
            if word.hasPrefix("h") {
                seconds += amount * 3_600
            } else if word.hasPrefix("m") || word == "'" || word == "\u{2032}" {
                seconds += amount * 60
            } else if word.hasPrefix("s") {
                seconds += amount
            } else {
                return nil
            }
            matched = true
            number = ""
            index = word.endIndex
        }
        return matched && number.isEmpty ? seconds : nil
    }

    static func quoted(_ value: JSONValue) -> String {
        let text = value.jsonText
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    static func suggestion(for key: String) -> String? {
        let aliases = [
            "desc": "description", "sub_title": "subtitle", "episode_title": "subtitle", "category": "categories",
            "image": "images", "icon": "icons", "thumbnail": "icons", "poster": "images", "end": "stop", "begin": "start", "rating_star": "star_rating",
            "country": "countries", "actors": "credits", "director": "credits", "length": "duration", "lang": "language",
        ]
        return aliases[key] ?? Suggestion.closest(to: key, among: keys)
    }
}

extension Programme {
    /// The programme in a recipe's own vocabulary (the keys `SiteProgrammeReader` reads), times in
    /// UTC: what a site test compares with its expected programmes, and what `sources test
    /// --format json` prints.
    package var recipeObject: JSONValue {
        var fields: [String: JSONValue] = [
            "start": .string(ISOTime.format(start)),
            "title": .string(title),
        ]
        if let stop { fields["stop"] = .string(ISOTime.format(stop)) }
        if let subtitle { fields["subtitle"] = .string(subtitle) }
        if let synopsis { fields["description"] = .string(synopsis) }
        if let categories { fields["categories"] = .array(categories.map { .string($0.value) }) }
        if let keywords { fields["keywords"] = .array(keywords.map { .string($0.value) }) }
        if let images {
            let posters = images.filter { $0.kind != SiteProgrammeReader.iconKind }, icons = images.filter { $0.kind == SiteProgrammeReader.iconKind }
            if !posters.isEmpty { fields["images"] = .array(posters.map { .string($0.url) }) }
            if !icons.isEmpty { fields["icons"] = .array(icons.map { .string($0.url) }) }
        }
        if let urls { fields["url"] = .array(urls.map { .string($0) }) }
        if let credits {
            var roles: [String: [JSONValue]] = [:]
            for credit in credits {
                var person: [String: JSONValue] = ["name": .string(credit.name)]
                if let character = credit.character { person["character"] = .string(character) }
                if credit.guest == true { person["guest"] = .bool(true) }
                let entry: JSONValue = person.count == 1 ? .string(credit.name) : .object(person)
                roles[credit.role.rawValue, default: []].append(entry)
            }
            fields["credits"] = .object(roles.mapValues { .array($0) })
        }
        if let season = episode?.season { fields["season"] = .number(Double(season)) }
        if let number = episode?.number { fields["episode"] = .number(Double(number)) }
        if let ratings { fields["rating"] = .array(ratings.map(Self.ratingObject)) }
        if let starRatings { fields["star_rating"] = .array(starRatings.map(Self.ratingObject)) }
        if let year { fields["year"] = .number(Double(year)) }
        if let date { fields["date"] = .string(date) }
        if let countries { fields["countries"] = .array(countries.map { .string($0) }) }
        if let language { fields["language"] = .string(language) }
        if isNew == true { fields["new"] = .bool(true) }
        if premiere == true { fields["premiere"] = .bool(true) }
        if lastChance == true { fields["last_chance"] = .bool(true) }
        if let kind { fields["kind"] = .string(kind.rawValue) }
        return .object(fields)
    }

    private static func ratingObject(_ rating: Rating) -> JSONValue {
        guard rating.system != nil || rating.icon != nil else { return .string(rating.value) }
        var fields: [String: JSONValue] = ["value": .string(rating.value)]
        if let system = rating.system { fields["system"] = .string(system) }
        if let icon = rating.icon { fields["icon"] = .string(icon) }
        return .object(fields)
    }
}
