import CLibXML2
import Foundation
import GuideCore
import GuideStorage

/// The programme mapping: `<programme>` and its children into a `Programme`.
extension ReaderRun {
    // MARK: - <programme>

    /// A `<programme>`: kept when its attributes and title allow, else reported as skipped.
    func readProgramme() {
        let line = currentLine
        let depth = xmlTextReaderDepth(reader)
        let empty = xmlTextReaderIsEmptyElement(reader) == 1
        let attributes = readProgrammeAttributes()
        let channel = attributes.channel
        if let problem = attributes.problem {
            if !empty { skipSubtree(depth: depth) }
            found.skipped.append(XMLTVSkippedProgramme(reason: problem, line: line, channel: channel.isEmpty ? nil : channel,
                                                 start: attributes.startText))
            return
        }

        var programme = Programme(channel: channel, start: Date(timeIntervalSince1970: TimeInterval(attributes.start!)),
                                  stop: attributes.stop.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                                  title: "", source: source)
        var extras = attributes.extras
        var texts = ProgrammeTexts()
        readChildren { tag in
            readProgrammeChild(tag, into: &programme, extras: &extras, texts: &texts)
        }

        guard let title = texts.titles.first else {
            found.skipped.append(XMLTVSkippedProgramme(reason: .missingTitle, line: line, channel: channel,
                                                 start: XMLTVTime.format(programme.start)))
            return
        }
        let synopsisNumber = complete(&programme, title: title, texts: texts, extras: extras)
        keep(&programme, channel: channel, synopsisNumber: synopsisNumber)
    }

    private func readProgrammeAttributes() -> ProgrammeAttributes {
        var read = ProgrammeAttributes()
        forEachAttribute { tag, value in
            switch tag {
            case .pdcStart: read.extras.pdcStart = nonEmpty(string(value))
            case .vpsStart: read.extras.vpsStart = nonEmpty(string(value))
            case .showview: read.extras.showview = nonEmpty(string(value))
            case .videoplus: read.extras.videoplus = nonEmpty(string(value))
            case .clumpidx: read.extras.clumpIndex = nonEmpty(string(value))
            case .start:
                read.start = XMLTVTime.epochSeconds(buffer(value))
                read.startBlank = read.start == nil && isBlank(value)
                if read.start == nil { read.startText = string(value) }
            case .stop:
                read.stop = XMLTVTime.epochSeconds(buffer(value))
                read.stopUnparsable = read.stop == nil && !isBlank(value)
            case .channel:
                read.channel = string(value)
            default: break
            }
        }
        return read
    }

    /// Sets the title, and the sub-title and synopsis in the title's language (the other
    /// languages' kept beside them), the kind and the credits' order. Returns the synopsis's
    /// number in the part's block, `noSynopsis` when the programme holds it itself or has none.
    private func complete(_ programme: inout Programme, title: LocalizedText, texts: ProgrammeTexts, extras: XMLTVExtras) -> UInt32 {
        var extras = extras
        programme.title = title.value
        programme.textLanguage = title.lang
        var others = texts.titles.rest.map { ProgrammeText(field: .title, value: $0.value, lang: $0.lang) }
        if let subtitle = pickSameLanguage(texts.subtitles, as: title.lang, field: .subtitle, others: &others) {
            programme.subtitle = subtitle.value
            if subtitle.lang != title.lang { extras.subtitleLang = subtitle.lang ?? "" }
        }
        var synopsisNumber = Self.noSynopsis
        if let synopsis = pickSameLanguage(texts.descriptions, as: title.lang, field: .synopsis, others: &others) {
            if let number = synopses.number(synopsis.value) { synopsisNumber = UInt32(number) } else { programme.synopsis = synopsis.value }
            if synopsis.lang != title.lang { extras.synopsisLang = synopsis.lang ?? "" }
        }
        programme.xmltv = extras
        if !others.isEmpty { programme.otherTexts = others }
        programme.kind = kinds.kind(of: programme.categories)
        if let credits = programme.credits, !credits.isSorted(by: Credit.xmltvOrder) {
            programme.credits = credits.stableSorted(by: Credit.xmltvOrder)
        }
        return synopsisNumber
    }

    /// Adds the programme to the part: to its list, or to the run of its channel when reading by channel.
    private func keep(_ programme: inout Programme, channel: String, synopsisNumber: UInt32) {
        if found.programmeChannelIDs.insert(channel).inserted { found.channelsMet.append(channel) }
        interner.intern(&programme)
        if byChannel {
            if channel != runChannel {
                endRun()
                runChannel = channel
            }
            run.append(programme)
            runSynopses.append(synopsisNumber)
        } else {
            found.programmes.append(programme)
            synopsisNumbers.append(synopsisNumber)
        }
    }

    /// The text in the title's language, else the first; the rest go to `others` in source order.
    private func pickSameLanguage(_ texts: Texts, as lang: String?, field: ProgrammeText.Field,
                                  others: inout [ProgrammeText]) -> LocalizedText? {
        guard let first = texts.first else { return nil }
        guard !texts.rest.isEmpty else { return first }
        let all = [first] + texts.rest
        let chosen = all.firstIndex { $0.lang == lang } ?? 0
        for (index, text) in all.enumerated() where index != chosen {
            others.append(ProgrammeText(field: field, value: text.value, lang: text.lang))
        }
        return all[chosen]
    }

    // MARK: - Its children

    private func readProgrammeChild(_ tag: Tag, into p: inout Programme, extras: inout XMLTVExtras, texts: inout ProgrammeTexts) {
        switch tag {
        case .title, .subTitle, .desc:
            let text = localizedText()
            guard !text.value.isEmpty else { return }
            switch tag {
            case .title: texts.titles.append(text)
            case .subTitle: texts.subtitles.append(text)
            default: texts.descriptions.append(text)
            }
        case .credits:
            readCredits(into: &p)
        case .date, .category, .keyword, .language, .origLanguage, .country:
            readDescriptive(tag, into: &p, extras: &extras)
        case .length:
            if let length = readLength() { p.length = length }
        case .icon:
            if let icon = readIcon() { p.images.append(icon) }
        case .image:
            if let image = readImage() { p.images.append(image) }
        case .url:
            if let link = readLink() {
                p.urls.append(link.url)
                if let system = link.system { extras.urlSystems = (extras.urlSystems ?? [:]).merging([link.url: system]) { first, _ in first } }
            }
        case .episodeNum:
            let system = attribute(.system) ?? "onscreen"
            let text = readText()
            if !text.isEmpty { Self.addEpisodeNumber(text, system: system, to: &p) }
        case .video:
            if let video = readVideo() { p.video = video }
        case .audio:
            if let audio = readAudio() { p.audio = audio }
        case .previouslyShown, .premiere, .lastChance, .new:
            readAiring(tag, into: &p, extras: &extras)
        case .review:
            if let review = readReview() { extras.reviews = (extras.reviews ?? []) + [review] }
        case .subtitles:
            p.subtitles.append(readSubtitles())
        case .rating, .starRating:
            guard let rating = readRating() else { return }
            if tag == .rating { p.ratings.append(rating) } else { p.starRatings.append(rating) }
        default:
            break
        }
    }

    /// `<date>`, `<category>`, `<keyword>`, `<language>`, `<orig-language>` and `<country>`: one
    /// text each, the languages they are written in kept in `extras`.
    private func readDescriptive(_ tag: Tag, into p: inout Programme, extras: inout XMLTVExtras) {
        if tag == .date {
            let text = readText()
            if !text.isEmpty {
                p.date = text
                p.year = Self.year(of: text)
            }
            return
        }
        let text = localizedText()
        guard !text.value.isEmpty else { return }
        switch tag {
        case .category:
            p.categories.append(text)
        case .keyword:
            p.keywords.append(text)
        case .language:
            p.language = text.value
            extras.languageLang = text.lang
        case .origLanguage:
            p.originalLanguage = text.value
            extras.originalLanguageLang = text.lang
        default:
            p.countries.append(text.value)
            if let lang = text.lang { extras.countryLangs = (extras.countryLangs ?? [:]).merging([text.value: lang]) { first, _ in first } }
        }
    }

    /// `<length units>`, in seconds; nil when its amount or units are not understood.
    private func readLength() -> Int? {
        let units = attribute(.units)
        let text = readText()
        guard let amount = Double(text), amount >= 0 else { return nil }
        let scale: Double? = switch units {
        case "seconds": 1
        case "minutes": 60
        case "hours": 3_600
        default: nil
        }
        return scale.map { Int((amount * $0).rounded()) }
    }

    /// `<video>`; nil when it says nothing.
    private func readVideo() -> VideoInfo? {
        var video = VideoInfo()
        readChildren { tag in
            switch tag {
            case .present: video.present = Self.yesNo(readText())
            case .colour: video.colour = Self.yesNo(readText())
            case .aspect: video.aspect = nonEmpty(readText())
            case .quality: video.quality = nonEmpty(readText())
            default: break
            }
        }
        return video != VideoInfo() ? video : nil
    }

    /// `<audio>`; nil when it says nothing.
    private func readAudio() -> AudioInfo? {
        var audio = AudioInfo()
        readChildren { tag in
            switch tag {
            case .present: audio.present = Self.yesNo(readText())
            case .stereo: audio.stereo = nonEmpty(readText())
            default: break
            }
        }
        return audio != AudioInfo() ? audio : nil
    }

    /// `<previously-shown>`, `<premiere>`, `<last-chance>` and `<new>`: where this airing stands
    /// among the programme's airings.
    private func readAiring(_ tag: Tag, into p: inout Programme, extras: inout XMLTVExtras) {
        switch tag {
        case .previouslyShown:
            var shown = PreviouslyShown()
            forEachAttribute { tag, value in
                switch tag {
                case .start: shown.start = nonEmpty(string(value))
                case .channel: shown.channel = nonEmpty(string(value))
                default: break
                }
            }
            p.previouslyShown = shown
        case .premiere:
            p.premiere = true
            let note = localizedText()
            if !note.value.isEmpty { extras.premiereNote = note }
        case .lastChance:
            p.lastChance = true
            let note = localizedText()
            if !note.value.isEmpty { extras.lastChanceNote = note }
        default:
            p.isNew = true
        }
    }

    /// `<review type source reviewer>`; nil without a type or a text.
    private func readReview() -> Review? {
        let type = attribute(.type)
        let source = attribute(.source)
        let reviewer = attribute(.reviewer)
        let text = localizedText()
        guard let type, !text.value.isEmpty else { return nil }
        return Review(type: type, value: text.value, source: source, reviewer: reviewer, lang: text.lang)
    }

    /// `<subtitles type>` and its `<language>`.
    private func readSubtitles() -> SubtitleInfo {
        var subtitles = SubtitleInfo(type: attribute(.type))
        readChildren { tag in
            if tag == .language {
                let language = localizedText()
                subtitles.language = nonEmpty(language.value)
                subtitles.languageLang = language.lang
            }
        }
        return subtitles
    }

    /// `<rating system>` or `<star-rating system>`: its `<value>` and icons; nil without a value.
    private func readRating() -> Rating? {
        let system = attribute(.system)
        var value = ""
        var icons: [ImageRef] = []
        readChildren { tag in
            switch tag {
            case .value: value = readText()
            case .icon: if let icon = readIcon() { icons.append(icon) }
            default: break
            }
        }
        guard !value.isEmpty else { return nil }
        var rating = Rating(system: system, value: value, icon: icons.first?.url)
        if icons.count > 1 || icons.contains(where: { $0.width != nil || $0.height != nil }) { rating.icons = icons }
        return rating
    }

    private func readCredits(into p: inout Programme) {
        readChildren { tag in
            guard let role = tag.creditRole else { return }
            var credit = Credit(role: role, name: "")
            if role == .actor {
                forEachAttribute { tag, value in
                    switch tag {
                    case .role: credit.character = nonEmpty(string(value))
                    case .guest: credit.guest = string(value) == "yes"
                    default: break
                    }
                }
            }
            // The name is the element's own text; pictures and pages of the person are its children.
            var images: [ImageRef] = []
            var links: [WebLink] = []
            credit.name = readText(children: { child in
                switch child {
                case .image: if let image = readImage() { images.append(image) }
                case .url: if let link = readLink() { links.append(link) }
                default: break
                }
            })
            if !images.isEmpty { credit.images = images }
            if !links.isEmpty { credit.urls = links }
            if !credit.name.isEmpty { p.credits.append(credit) }
        }
    }

    /// `<icon src width height/>`.
    func readIcon() -> ImageRef? {
        var icon = ImageRef(url: "")
        forEachAttribute { tag, value in
            switch tag {
            case .src: icon.url = string(value)
            case .width: icon.width = Int(string(value))
            case .height: icon.height = Int(string(value))
            default: break
            }
        }
        return icon.url.isEmpty ? nil : icon
    }

    /// `<image type size orient system>URL</image>`.
    private func readImage() -> ImageRef? {
        var image = ImageRef(url: "", xmltvImage: true)
        forEachAttribute { tag, value in
            switch tag {
            case .type: image.kind = nonEmpty(string(value))
            case .size: image.size = nonEmpty(string(value))
            case .orient: image.orient = nonEmpty(string(value))
            case .system: image.system = nonEmpty(string(value))
            default: break
            }
        }
        image.url = readText()
        return image.url.isEmpty ? nil : image
    }

    /// `<url system>URL</url>`.
    func readLink() -> WebLink? {
        let system = attribute(.system)
        let url = readText()
        return url.isEmpty ? nil : WebLink(url: url, system: system)
    }

    // MARK: - Values

    /// `xmltv_ns` is `season[/seasons].episode[/episodes].part[/parts]`, counting from 0; a
    /// malformed one is ignored rather than guessed at.
    static func addEpisodeNumber(_ text: String, system: String, to p: inout Programme) {
        if let ids = XMLTVDatabaseID.parse(system: system, text: text) {
            // The first number of a database wins, with what goes with it (TMDB's media).
            if ids.keys.allSatisfy({ p.providerIDs?[$0] == nil }) { p.providerIDs = (p.providerIDs ?? [:]).merging(ids) { first, _ in first } }
            return
        }
        var episode = p.episode ?? Episode()
        switch system {
        case "xmltv_ns":
            guard episode.xmltvNS == nil, var numbered = XMLTVEpisode.parse(text) else { return }
            numbered.xmltvNS = text
            numbered.onscreen = episode.onscreen
            numbered.other = episode.other
            episode = numbered
        case "onscreen":
            guard episode.onscreen == nil else { return }
            episode.onscreen = text
        default:
            guard episode.other?[system] == nil else { return }
            episode.other = (episode.other ?? [:]).merging([system: text]) { first, _ in first }
        }
        p.episode = episode
    }

    static func year(of date: String) -> Int? {
        let digits = date.utf8.prefix(4)
        guard digits.count == 4, digits.allSatisfy({ $0 &- 0x30 < 10 }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    static func yesNo(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes": true
        case "no": false
        default: nil
        }
    }
}

/// A `<programme>`'s attributes as read.
struct ProgrammeAttributes {
    var channel = ""
    var start: Int?
    /// The start as written, kept only for the report of a programme that is skipped.
    var startText: String?
    var startBlank = true
    var stop: Int?
    var stopUnparsable = false
    var extras = XMLTVExtras()

    /// Why the programme cannot be kept; nil when it can.
    var problem: XMLTVSkippedProgramme.Reason? {
        if startBlank { .missingStart }
        else if start == nil { .unparsableStart }
        else if channel.isEmpty { .missingChannel }
        else if stopUnparsable { .unparsableStop }
        else if let stop, let start, stop < start { .stopBeforeStart }
        else { nil }
    }
}

/// A programme's titles, sub-titles and descriptions, each in source order.
struct ProgrammeTexts {
    var titles = Texts()
    var subtitles = Texts()
    var descriptions = Texts()
}

/// A programme's titles (or sub-titles, or descriptions) in source order. Nearly every programme
/// has one of each at most, so the first is kept apart and costs no array.
struct Texts {
    var first: LocalizedText?
    var rest: [LocalizedText] = []

    mutating func append(_ text: LocalizedText) {
        if first == nil { first = text } else { rest.append(text) }
    }
}

extension Credit {
    /// XMLTV's `<credits>` order: directors, then actors, writers… as `Role.allCases` lists them.
    static func xmltvOrder(_ a: Credit, _ b: Credit) -> Bool {
        Role.rank[a.role]! < Role.rank[b.role]!
    }
}

extension Credit.Role {
    static let rank: [Credit.Role: Int] = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })
}

extension Array {
    func isSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        // Elements lent in place: zipping the array with itself copied each (every field retained
        // and released).
        withUnsafeBufferPointer { buffer in
            buffer.indices.dropFirst().allSatisfy { !areInIncreasingOrder(buffer[$0], buffer[$0 - 1]) }
        }
    }

    func stableSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        enumerated().sorted { a, b in
            areInIncreasingOrder(a.element, b.element) || (!areInIncreasingOrder(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
    }
}

extension Optional where Wrapped: RangeReplaceableCollection {
    /// Appends to an optional array, creating it on first use, so that absent lists stay nil.
    mutating func append(_ element: Wrapped.Element) {
        if self == nil { self = Wrapped() }
        self!.append(element)
    }
}
