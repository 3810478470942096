import Foundation

/// A programme as JSON, each field under its model's name and left out when empty.
extension Programme: Codable {
    enum CodingKeys: String, CodingKey {
        case channel, start, stop, title, subtitle, synopsis, textLanguage, otherTexts, kind
        case categories, keywords, date, year, episode, credits, language, originalLanguage
        case countries, length, images, urls, video, audio, previouslyShown, premiere, lastChance
        case isNew = "new"
        case subtitles, ratings, starRatings, providerIDs, source, work, sameStartIndex
        case xmltv
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(channel: try container.decode(String.self, forKey: .channel), start: try container.decode(Date.self, forKey: .start),
                  stop: try container.decodeIfPresent(Date.self, forKey: .stop), title: try container.decode(String.self, forKey: .title),
                  source: try container.decode(String.self, forKey: .source))
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
        synopsis = try container.decodeIfPresent(String.self, forKey: .synopsis)
        textLanguage = try container.decodeIfPresent(String.self, forKey: .textLanguage)
        otherTexts = try container.decodeIfPresent([ProgrammeText].self, forKey: .otherTexts)
        kind = try container.decodeIfPresent(ProgrammeKind.self, forKey: .kind)
        categories = try container.decodeIfPresent([LocalizedText].self, forKey: .categories)
        keywords = try container.decodeIfPresent([LocalizedText].self, forKey: .keywords)
        date = try container.decodeIfPresent(String.self, forKey: .date)
        year = try container.decodeIfPresent(Int.self, forKey: .year)
        episode = try container.decodeIfPresent(Episode.self, forKey: .episode)
        credits = try container.decodeIfPresent([Credit].self, forKey: .credits)
        language = try container.decodeIfPresent(String.self, forKey: .language)
        originalLanguage = try container.decodeIfPresent(String.self, forKey: .originalLanguage)
        countries = try container.decodeIfPresent([String].self, forKey: .countries)
        length = try container.decodeIfPresent(Int.self, forKey: .length)
        images = try container.decodeIfPresent([ImageRef].self, forKey: .images)
        urls = try container.decodeIfPresent([String].self, forKey: .urls)
        video = try container.decodeIfPresent(VideoInfo.self, forKey: .video)
        audio = try container.decodeIfPresent(AudioInfo.self, forKey: .audio)
        previouslyShown = try container.decodeIfPresent(PreviouslyShown.self, forKey: .previouslyShown)
        premiere = try container.decodeIfPresent(Bool.self, forKey: .premiere)
        lastChance = try container.decodeIfPresent(Bool.self, forKey: .lastChance)
        isNew = try container.decodeIfPresent(Bool.self, forKey: .isNew)
        subtitles = try container.decodeIfPresent([SubtitleInfo].self, forKey: .subtitles)
        ratings = try container.decodeIfPresent([Rating].self, forKey: .ratings)
        starRatings = try container.decodeIfPresent([Rating].self, forKey: .starRatings)
        providerIDs = try container.decodeIfPresent([String: String].self, forKey: .providerIDs)
        work = try container.decodeIfPresent(String.self, forKey: .work)
        sameStartIndex = try container.decodeIfPresent(Int.self, forKey: .sameStartIndex)
        xmltv = try container.decodeIfPresent(XMLTVExtras.self, forKey: .xmltv)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channel, forKey: .channel)
        try container.encode(start, forKey: .start)
        try container.encodeIfPresent(stop, forKey: .stop)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(subtitle, forKey: .subtitle)
        try container.encodeIfPresent(synopsis, forKey: .synopsis)
        try container.encodeIfPresent(textLanguage, forKey: .textLanguage)
        try container.encodeIfPresent(otherTexts, forKey: .otherTexts)
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encodeIfPresent(categories, forKey: .categories)
        try container.encodeIfPresent(keywords, forKey: .keywords)
        try container.encodeIfPresent(date, forKey: .date)
        try container.encodeIfPresent(year, forKey: .year)
        try container.encodeIfPresent(episode, forKey: .episode)
        try container.encodeIfPresent(credits, forKey: .credits)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encodeIfPresent(originalLanguage, forKey: .originalLanguage)
        try container.encodeIfPresent(countries, forKey: .countries)
        try container.encodeIfPresent(length, forKey: .length)
        try container.encodeIfPresent(images, forKey: .images)
        try container.encodeIfPresent(urls, forKey: .urls)
        try container.encodeIfPresent(video, forKey: .video)
        try container.encodeIfPresent(audio, forKey: .audio)
        try container.encodeIfPresent(previouslyShown, forKey: .previouslyShown)
        try container.encodeIfPresent(premiere, forKey: .premiere)
        try container.encodeIfPresent(lastChance, forKey: .lastChance)
        try container.encodeIfPresent(isNew, forKey: .isNew)
        try container.encodeIfPresent(subtitles, forKey: .subtitles)
        try container.encodeIfPresent(ratings, forKey: .ratings)
        try container.encodeIfPresent(starRatings, forKey: .starRatings)
        try container.encodeIfPresent(providerIDs, forKey: .providerIDs)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(work, forKey: .work)
        try container.encodeIfPresent(sameStartIndex, forKey: .sameStartIndex)
        try container.encodeIfPresent(xmltv, forKey: .xmltv)
    }
}

/// Every field by name, as if all were stored inline: debuggers, `dump` and the tests that walk a
/// programme's fields see the model, not how it is packed.
extension Programme: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: [
            "channel": channel, "start": start, "stop": stop as Any, "title": title, "subtitle": subtitle as Any,
            "synopsis": synopsis as Any, "textLanguage": textLanguage as Any, "otherTexts": otherTexts as Any,
            "kind": kind as Any, "categories": categories as Any, "keywords": keywords as Any, "date": date as Any,
            "year": year as Any, "episode": episode as Any, "credits": credits as Any, "language": language as Any,
            "originalLanguage": originalLanguage as Any, "countries": countries as Any, "length": length as Any,
            "images": images as Any, "urls": urls as Any, "video": video as Any, "audio": audio as Any,
            "previouslyShown": previouslyShown as Any, "premiere": premiere as Any, "lastChance": lastChance as Any,
            "isNew": isNew as Any, "subtitles": subtitles as Any, "ratings": ratings as Any, "starRatings": starRatings as Any,
            "providerIDs": providerIDs as Any, "source": source, "work": work as Any, "sameStartIndex": sameStartIndex as Any,
            "xmltv": xmltv as Any,
        ], displayStyle: .struct)
    }
}
