import Foundation
import GuideCore

/// The element and attribute names the parser acts on.
enum Tag: UInt8 {
    case tv, channel, programme, displayName, icon, url, title, subTitle, desc, credits
    case director, actor, writer, adapter, producer, composer, editor, presenter, commentator, guest
    case date, category, keyword, language, origLanguage, length, country, episodeNum
    case video, present, colour, aspect, quality, audio, stereo, previouslyShown, premiere, lastChance, new
    case subtitles, rating, starRating, value, image
    case id, lang, src, width, height, start, stop, role, units, system, type
    case sourceInfoURL, sourceInfoName, sourceDataURL, generatorInfoName, generatorInfoURL
    case pdcStart, vpsStart, showview, videoplus, clumpidx, review, source, reviewer, size, orient
    case other

    static let byName: [String: Tag] = [
        "tv": .tv, "channel": .channel, "programme": .programme, "display-name": .displayName, "icon": .icon,
        "url": .url, "title": .title, "sub-title": .subTitle, "desc": .desc, "credits": .credits,
        "director": .director, "actor": .actor, "writer": .writer, "adapter": .adapter, "producer": .producer,
        "composer": .composer, "editor": .editor, "presenter": .presenter, "commentator": .commentator,
        "guest": .guest, "date": .date, "category": .category, "keyword": .keyword, "language": .language,
        "orig-language": .origLanguage, "length": .length, "country": .country, "episode-num": .episodeNum,
        "video": .video, "present": .present, "colour": .colour, "aspect": .aspect, "quality": .quality,
        "audio": .audio, "stereo": .stereo, "previously-shown": .previouslyShown, "premiere": .premiere,
        "last-chance": .lastChance, "new": .new, "subtitles": .subtitles, "rating": .rating,
        "star-rating": .starRating, "value": .value, "image": .image,
        "id": .id, "lang": .lang, "src": .src, "width": .width, "height": .height, "start": .start,
        "stop": .stop, "role": .role, "units": .units, "system": .system, "type": .type,
        "source-info-url": .sourceInfoURL, "source-info-name": .sourceInfoName,
        "source-data-url": .sourceDataURL, "generator-info-name": .generatorInfoName,
        "generator-info-url": .generatorInfoURL, "xml:lang": .lang,
        "pdc-start": .pdcStart, "vps-start": .vpsStart, "showview": .showview, "videoplus": .videoplus,
        "clumpidx": .clumpidx, "review": .review, "source": .source, "reviewer": .reviewer, "size": .size, "orient": .orient,
    ]

    var creditRole: Credit.Role? {
        switch self {
        case .director: .director
        case .actor: .actor
        case .writer: .writer
        case .adapter: .adapter
        case .producer: .producer
        case .composer: .composer
        case .editor: .editor
        case .presenter: .presenter
        case .commentator: .commentator
        case .guest: .guest
        default: nil
        }
    }
}

/// Element and attribute names by the address of the reader's interned copy: an open-addressing
/// table of pointers, several times cheaper per node than hashing them into a Dictionary.
struct TagTable {
    private static let size = 1_024
    private var keys = [UInt](repeating: 0, count: size)
    private var tags = [Tag](repeating: .other, count: size)
    private var count = 0

    private static func slot(_ key: UInt) -> Int {
        // Fibonacci hashing: the top 10 bits of the product index the 1,024 slots.
        Int(truncatingIfNeeded: ((key >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 54)
    }

    func lookup(_ pointer: UnsafeRawPointer) -> Tag? {
        let key = UInt(bitPattern: pointer)
        var slot = Self.slot(key)
        while keys[slot] != 0 {
            if keys[slot] == key { return tags[slot] }
            slot = (slot + 1) & (Self.size - 1)
        }
        return nil
    }

    /// Stops remembering at half full: a file with that many distinct names is looked up by text.
    mutating func insert(_ pointer: UnsafeRawPointer, _ tag: Tag) {
        guard count < Self.size / 2 else { return }
        let key = UInt(bitPattern: pointer)
        var slot = Self.slot(key)
        while keys[slot] != 0 {
            if keys[slot] == key { return }
            slot = (slot + 1) & (Self.size - 1)
        }
        keys[slot] = key
        tags[slot] = tag
        count += 1
    }
}
