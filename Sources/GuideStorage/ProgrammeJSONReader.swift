import Foundation
import GuideCore

/// Reads a JSON array of programmes as `JSONDecoder` does, five to ten times faster, for
/// `tvguide serve`'s start-up (a 50,000-programme week: 1.2 s of CPU in `JSONDecoder`).
///
/// It only reads what it is sure `JSONDecoder` reads the same way — the layout `JSONWriter`
/// writes — and gives up on anything else: a key it does not know (a newer field), a key twice,
/// an escaped key, a number with a fraction or an exponent, a bad time. The caller then decodes
/// the same bytes with `JSONDecoder`, which either reads them or names the error.
struct ProgrammeJSONReader {
    /// Why the reader gave up; never shown: `JSONDecoder` says what is wrong.
    struct GaveUp: Error {}

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var interner: Interner

    /// The programmes of a JSON array, or nil when the reader gave up. `expectedCount`: how
    /// many the array holds, when known.
    static func programmes(in data: Data, expectedCount: Int = 0) -> [Programme]? {
        data.withUnsafeBytes { bytes in
            var reader = ProgrammeJSONReader(bytes: bytes, interner: Interner(programmes: expectedCount))
            do {
                var programmes: [Programme] = []
                try reader.array { reader throws(GaveUp) in programmes.append(try reader.programme()) }
                reader.skipWhitespace()
                return reader.index == bytes.count ? programmes : nil
            } catch {
                return nil
            }
        }
    }

    private init(bytes: UnsafeRawBufferPointer, interner: Interner) {
        self.bytes = bytes
        self.interner = interner
    }

    // MARK: the model

    private mutating func programme() throws(GaveUp) -> Programme {
        var channel: String?, start: Date?, title: String?, source: String?
        var programme = Programme(channel: "", start: Date(timeIntervalSince1970: 0), title: "", source: "")
        try object { reader, key throws(GaveUp) in
            switch key {
            case "audio": programme.audio = try reader.optional { reader throws(GaveUp) in try reader.audio() }
            case "categories": programme.categories = try reader.optionalArray { reader throws(GaveUp) in try reader.localizedText() }
            case "channel": channel = try reader.string()
            case "countries": programme.countries = try reader.optionalArray { reader throws(GaveUp) in try reader.string() }
            case "credits": programme.credits = try reader.optionalArray { reader throws(GaveUp) in try reader.credit() }
            case "date": programme.date = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "episode": programme.episode = try reader.optional { reader throws(GaveUp) in try reader.episode() }
            case "images": programme.images = try reader.optionalArray { reader throws(GaveUp) in try reader.image() }
            case "keywords": programme.keywords = try reader.optionalArray { reader throws(GaveUp) in try reader.localizedText() }
            case "kind": programme.kind = try reader.optional { reader throws(GaveUp) in try reader.enumeration(ProgrammeKind.self) }
            case "language": programme.language = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "lastChance": programme.lastChance = try reader.optional { reader throws(GaveUp) in try reader.bool() }
            case "length": programme.length = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "new": programme.isNew = try reader.optional { reader throws(GaveUp) in try reader.bool() }
            case "originalLanguage": programme.originalLanguage = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "otherTexts": programme.otherTexts = try reader.optionalArray { reader throws(GaveUp) in try reader.programmeText() }
            case "premiere": programme.premiere = try reader.optional { reader throws(GaveUp) in try reader.bool() }
            case "previouslyShown": programme.previouslyShown = try reader.optional { reader throws(GaveUp) in try reader.previouslyShown() }
            case "providerIDs": programme.providerIDs = try reader.optional { reader throws(GaveUp) in try reader.stringDictionary() }
            case "ratings": programme.ratings = try reader.optionalArray { reader throws(GaveUp) in try reader.rating() }
            case "sameStartIndex": programme.sameStartIndex = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "source": source = try reader.string()
            case "starRatings": programme.starRatings = try reader.optionalArray { reader throws(GaveUp) in try reader.rating() }
            case "start": start = try reader.date()
            case "stop": programme.stop = try reader.optional { reader throws(GaveUp) in try reader.date() }
            case "subtitle": programme.subtitle = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "subtitles": programme.subtitles = try reader.optionalArray { reader throws(GaveUp) in try reader.subtitleInfo() }
            case "synopsis": programme.synopsis = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "textLanguage": programme.textLanguage = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "title": title = try reader.string()
            case "urls": programme.urls = try reader.optionalArray { reader throws(GaveUp) in try reader.string() }
            case "video": programme.video = try reader.optional { reader throws(GaveUp) in try reader.video() }
            case "work": programme.work = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "xmltv": programme.xmltv = try reader.optional { reader throws(GaveUp) in try reader.xmltvExtras() }
            case "year": programme.year = try reader.optional { reader throws(GaveUp) in try reader.int() }
            default: throw GaveUp()
            }
        }
        guard let channel, let start, let title, let source else { throw GaveUp() }
        programme.channel = channel
        programme.start = start
        programme.title = title
        programme.source = source
        interner.intern(&programme)
        return programme
    }

    private mutating func localizedText() throws(GaveUp) -> LocalizedText {
        var value: String?, lang: String?
        try object { reader, key throws(GaveUp) in
            switch key {
            case "lang": lang = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "value": value = try reader.string()
            default: throw GaveUp()
            }
        }
        guard let value else { throw GaveUp() }
        return LocalizedText(value, lang: lang)
    }

    private mutating func programmeText() throws(GaveUp) -> ProgrammeText {
        var field: ProgrammeText.Field?, value: String?, lang: String?
        try object { reader, key throws(GaveUp) in
            switch key {
            case "field": field = try reader.enumeration(ProgrammeText.Field.self)
            case "lang": lang = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "value": value = try reader.string()
            default: throw GaveUp()
            }
        }
        guard let field, let value else { throw GaveUp() }
        return ProgrammeText(field: field, value: value, lang: lang)
    }

    private mutating func episode() throws(GaveUp) -> Episode {
        var episode = Episode()
        try object { reader, key throws(GaveUp) in
            switch key {
            case "episodeCount": episode.episodeCount = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "number": episode.number = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "onscreen": episode.onscreen = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "other": episode.other = try reader.optional { reader throws(GaveUp) in try reader.stringDictionary() }
            case "part": episode.part = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "partCount": episode.partCount = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "season": episode.season = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "seasonCount": episode.seasonCount = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "xmltvNS": episode.xmltvNS = try reader.optional { reader throws(GaveUp) in try reader.string() }
            default: throw GaveUp()
            }
        }
        return episode
    }

    private mutating func credit() throws(GaveUp) -> Credit {
        var role: Credit.Role?, name: String?, character: String?, guest: Bool?, images: [ImageRef]?, urls: [WebLink]?
        try object { reader, key throws(GaveUp) in
            switch key {
            case "character": character = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "guest": guest = try reader.optional { reader throws(GaveUp) in try reader.bool() }
            case "images": images = try reader.optionalArray { reader throws(GaveUp) in try reader.image() }
            case "name": name = try reader.string()
            case "role": role = try reader.enumeration(Credit.Role.self)
            case "urls": urls = try reader.optionalArray { reader throws(GaveUp) in try reader.webLink() }
            default: throw GaveUp()
            }
        }
        guard let role, let name else { throw GaveUp() }
        return Credit(role: role, name: name, character: character, guest: guest, images: images, urls: urls)
    }

    private mutating func image() throws(GaveUp) -> ImageRef {
        var url: String?
        var image = ImageRef(url: "")
        try object { reader, key throws(GaveUp) in
            switch key {
            case "height": image.height = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "kind": image.kind = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "orient": image.orient = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "size": image.size = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "system": image.system = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "url": url = try reader.string()
            case "width": image.width = try reader.optional { reader throws(GaveUp) in try reader.int() }
            case "xmltvImage": image.xmltvImage = try reader.optional { reader throws(GaveUp) in try reader.bool() }
            default: throw GaveUp()
            }
        }
        guard let url else { throw GaveUp() }
        image.url = url
        return image
    }

    private mutating func webLink() throws(GaveUp) -> WebLink {
        var url: String?, system: String?
        try object { reader, key throws(GaveUp) in
            switch key {
            case "system": system = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "url": url = try reader.string()
            default: throw GaveUp()
            }
        }
        guard let url else { throw GaveUp() }
        return WebLink(url: url, system: system)
    }

    private mutating func review() throws(GaveUp) -> Review {
        var type: String?, value: String?, source: String?, reviewer: String?, lang: String?
        try object { reader, key throws(GaveUp) in
            switch key {
            case "lang": lang = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "reviewer": reviewer = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "source": source = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "type": type = try reader.string()
            case "value": value = try reader.string()
            default: throw GaveUp()
            }
        }
        guard let type, let value else { throw GaveUp() }
        return Review(type: type, value: value, source: source, reviewer: reviewer, lang: lang)
    }

    private mutating func xmltvExtras() throws(GaveUp) -> XMLTVExtras {
        var extras = XMLTVExtras()
        try object { reader, key throws(GaveUp) in
            switch key {
            case "clumpIndex": extras.clumpIndex = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "countryLangs": extras.countryLangs = try reader.optional { reader throws(GaveUp) in try reader.stringDictionary() }
            case "languageLang": extras.languageLang = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "lastChanceNote": extras.lastChanceNote = try reader.optional { reader throws(GaveUp) in try reader.localizedText() }
            case "originalLanguageLang": extras.originalLanguageLang = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "pdcStart": extras.pdcStart = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "premiereNote": extras.premiereNote = try reader.optional { reader throws(GaveUp) in try reader.localizedText() }
            case "reviews": extras.reviews = try reader.optionalArray { reader throws(GaveUp) in try reader.review() }
            case "showview": extras.showview = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "subtitleLang": extras.subtitleLang = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "synopsisLang": extras.synopsisLang = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "urlSystems": extras.urlSystems = try reader.optional { reader throws(GaveUp) in try reader.stringDictionary() }
            case "videoplus": extras.videoplus = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "vpsStart": extras.vpsStart = try reader.optional { reader throws(GaveUp) in try reader.string() }
            default: throw GaveUp()
            }
        }
        return extras
    }

    private mutating func video() throws(GaveUp) -> VideoInfo {
        var video = VideoInfo()
        try object { reader, key throws(GaveUp) in
            switch key {
            case "aspect": video.aspect = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "colour": video.colour = try reader.optional { reader throws(GaveUp) in try reader.bool() }
            case "present": video.present = try reader.optional { reader throws(GaveUp) in try reader.bool() }
            case "quality": video.quality = try reader.optional { reader throws(GaveUp) in try reader.string() }
            default: throw GaveUp()
            }
        }
        return video
    }

    private mutating func audio() throws(GaveUp) -> AudioInfo {
        var audio = AudioInfo()
        try object { reader, key throws(GaveUp) in
            switch key {
            case "present": audio.present = try reader.optional { reader throws(GaveUp) in try reader.bool() }
            case "stereo": audio.stereo = try reader.optional { reader throws(GaveUp) in try reader.string() }
            default: throw GaveUp()
            }
        }
        return audio
    }

    private mutating func previouslyShown() throws(GaveUp) -> PreviouslyShown {
        var shown = PreviouslyShown()
        try object { reader, key throws(GaveUp) in
            switch key {
            case "channel": shown.channel = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "start": shown.start = try reader.optional { reader throws(GaveUp) in try reader.string() }
            default: throw GaveUp()
            }
        }
        return shown
    }

    private mutating func subtitleInfo() throws(GaveUp) -> SubtitleInfo {
        var info = SubtitleInfo()
        try object { reader, key throws(GaveUp) in
            switch key {
            case "language": info.language = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "languageLang": info.languageLang = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "type": info.type = try reader.optional { reader throws(GaveUp) in try reader.string() }
            default: throw GaveUp()
            }
        }
        return info
    }

    private mutating func rating() throws(GaveUp) -> Rating {
        var value: String?, system: String?, icon: String?, icons: [ImageRef]?
        try object { reader, key throws(GaveUp) in
            switch key {
            case "icon": icon = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "icons": icons = try reader.optionalArray { reader throws(GaveUp) in try reader.image() }
            case "system": system = try reader.optional { reader throws(GaveUp) in try reader.string() }
            case "value": value = try reader.string()
            default: throw GaveUp()
            }
        }
        guard let value else { throw GaveUp() }
        return Rating(system: system, value: value, icon: icon, icons: icons)
    }

    // MARK: JSON

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func expect(_ byte: UInt8) throws(GaveUp) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw GaveUp() }
        index += 1
    }

    /// Consumes `byte` after optional whitespace when it comes next.
    private mutating func skip(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `literal` when it comes next.
    private mutating func skip(literal: StaticString) -> Bool {
        skipWhitespace()
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        if matches { index += count }
        return matches
    }

    /// An object's members in the order written. Keys must rise in UTF-8 order, as `JSONWriter`
    /// writes them, which also rules out a key given twice.
    private mutating func object(_ member: (inout ProgrammeJSONReader, String) throws(GaveUp) -> Void) throws(GaveUp) {
        try expect(UInt8(ascii: "{"))
        if skip(UInt8(ascii: "}")) { return }
        var previous: String?
        repeat {
            let key = try plainKey()
            if let previous, !previous.utf8.lexicographicallyPrecedes(key.utf8) { throw GaveUp() }
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            previous = key
        } while skip(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// A member name without escapes (every name of the model is plain ASCII).
    private mutating func plainKey() throws(GaveUp) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] < 0x80 {
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GaveUp() }
        index += 1
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
    }

    private mutating func array(_ element: (inout ProgrammeJSONReader) throws(GaveUp) -> Void) throws(GaveUp) {
        try expect(UInt8(ascii: "["))
        if skip(UInt8(ascii: "]")) { return }
        repeat {
            try element(&self)
        } while skip(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
    }

    /// Nil for `null`, as `decodeIfPresent` reads it.
    private mutating func optional<Value>(_ value: (inout ProgrammeJSONReader) throws(GaveUp) -> Value) throws(GaveUp) -> Value? {
        if skip(literal: "null") { return nil }
        return try value(&self)
    }

    private mutating func optionalArray<Element>(_ element: (inout ProgrammeJSONReader) throws(GaveUp) -> Element) throws(GaveUp) -> [Element]? {
        try optional { reader throws(GaveUp) in
            var elements: [Element] = []
            try reader.array { reader throws(GaveUp) in elements.append(try element(&reader)) }
            return elements
        }
    }

    private mutating func string() throws(GaveUp) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
            index += 1
        }
        guard index < bytes.count else { throw GaveUp() }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return try Self.validated(UnsafeRawBufferPointer(rebasing: bytes[start..<(index - 1)]))
        }
        // Escapes (or a control character, which JSON does not allow raw): the slow way.
        var unescaped = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw GaveUp() }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: unescaped, as: UTF8.self) else { throw GaveUp() }
                return text
            case UInt8(ascii: "\\"):
                try unescape(into: &unescaped)
            case ..<0x20:
                throw GaveUp()
            default:
                unescaped.append(byte)
            }
        }
    }

    /// The escape after a backslash, appended as UTF-8.
    private mutating func unescape(into text: inout [UInt8]) throws(GaveUp) {
        guard index < bytes.count else { throw GaveUp() }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by its low half.
                guard skip(literal: "\\u") else { throw GaveUp() }
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw GaveUp() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw GaveUp() }
            text.append(contentsOf: UTF8.encode(unicode).map { Array($0) } ?? [])
        default:
            throw GaveUp()
        }
    }

    private mutating func hex4() throws(GaveUp) -> UInt32 {
        guard bytes.count - index >= 4 else { throw GaveUp() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw GaveUp()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `JSONDecoder` rejects text that is not UTF-8; so does this.
    private static func validated(_ utf8: UnsafeRawBufferPointer) throws(GaveUp) -> String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw GaveUp() }
        return text
    }

    /// An integer written plainly: `JSONDecoder` also reads `1.0` or `1e2` as one, but they are
    /// left to it.
    private mutating func int() throws(GaveUp) -> Int {
        skipWhitespace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var value = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            // 19 digits may overflow an Int: such a number is left to JSONDecoder, before it traps here.
            guard index - start < 18 else { throw GaveUp() }
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - start
        guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { throw GaveUp() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            throw GaveUp()
        }
        return negative ? -value : value
    }

    private mutating func bool() throws(GaveUp) -> Bool {
        if skip(literal: "true") { return true }
        if skip(literal: "false") { return false }
        throw GaveUp()
    }

    private mutating func date() throws(GaveUp) -> Date {
        guard let date = ISOTime.parse(try string()) else { throw GaveUp() }
        return date
    }

    private mutating func enumeration<Value: RawRepresentable>(_: Value.Type) throws(GaveUp) -> Value where Value.RawValue == String {
        guard let value = Value(rawValue: try string()) else { throw GaveUp() }
        return value
    }

    private mutating func stringDictionary() throws(GaveUp) -> [String: String] {
        var dictionary: [String: String] = [:]
        try expect(UInt8(ascii: "{"))
        if skip(UInt8(ascii: "}")) { return dictionary }
        repeat {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            // A key given twice is left to JSONDecoder.
            guard dictionary.updateValue(try string(), forKey: key) == nil else { throw GaveUp() }
        } while skip(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
        return dictionary
    }
}
