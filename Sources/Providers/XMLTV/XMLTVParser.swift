import CLibXML2
import Foundation
import GuideCore
import GuideStorage
import GzipCodec

/// Reads XMLTV with libxml2's streaming `xmlTextReader`: one node at a time, never the whole tree,
/// so a 25 MB guide costs little more memory than the programmes it yields.
package struct XMLTVParser: Sendable {
    /// The provider id written into every programme's `source`.
    package var source: String

    package init(source: String) {
        self.source = source
    }

    /// What libxml2's memory reader takes; a compressed file is far smaller.
    static let maximumFileBytes = Int(Int32.max)

    /// Parses a file; gzip-compressed files (by their magic bytes, whatever their name) are inflated first.
    package func parse(contentsOf url: URL) throws -> XMLTVDocument {
        try parse(contentsOf: url, parts: ProcessInfo.processInfo.activeProcessorCount)
    }

    func parse(contentsOf url: URL, parts: Int) throws -> XMLTVDocument {
        XMLTVDocument(merging: try parsedParts(contentsOf: url, parts: parts, byChannel: false))
    }

    /// The file's parts as their readers left them; `byChannel`: each part's programmes grouped
    /// by channel, on the core that read it (see `ParsedPart.groupByChannel`).
    func parsedParts(contentsOf url: URL, parts: Int = ProcessInfo.processInfo.activeProcessorCount,
                     byChannel: Bool) throws -> [ParsedPart] {
        let data: Data
        do {
            data = try LocalFile.read(url, limit: Self.maximumFileBytes, mapped: true)
        } catch {
            throw ProviderError.notConfigured("cannot read XMLTV file \(error)")
        }
        return try parsedParts(data, name: url.lastPathComponent, parts: parts, mappedFile: true, byChannel: byChannel)
    }

    /// Parses XMLTV bytes (plain or gzip). `name` identifies the input in error messages.
    package func parse(_ data: Data, name: String) throws -> XMLTVDocument {
        try parse(data, name: name, parts: ProcessInfo.processInfo.activeProcessorCount)
    }

    func parse(_ data: Data, name: String, parts: Int, minimumPartBytes: Int = XMLTVParts.minimumPartBytes) throws -> XMLTVDocument {
        XMLTVDocument(merging: try parsedParts(data, name: name, parts: parts, minimumPartBytes: minimumPartBytes, byChannel: false))
    }

    /// `parts`: how many readers may parse slices of a large document at once (see `XMLTVParts`).
    /// `mappedFile`: `data` maps a file, whose pages the readers may hand back as they go.
    func parsedParts(_ data: Data, name: String, parts: Int = ProcessInfo.processInfo.activeProcessorCount,
                     minimumPartBytes: Int = XMLTVParts.minimumPartBytes, mappedFile: Bool = false, byChannel: Bool) throws -> [ParsedPart] {
        let compressed = Gzip.isCompressed(data)
        let xml = compressed ? try Gzip.decompress(data, name: name) : data
        guard !xml.isEmpty else { throw ProviderError.malformed("\(name): line 1: the document is empty") }
        guard xml.count <= Int(Int32.max) else {
            throw ProviderError.malformed("\(name): larger than 2 GiB, which libxml2's memory reader cannot take")
        }
        _ = LibXML2.initialised
        return try xml.withUnsafeBytes { bytes in
            let expandEntities: Bool
            do {
                expandEntities = try XMLTVEntities.check(bytes)
            } catch {
                throw ProviderError.malformed("\(name): \(error)")
            }
            if let split = XMLTVParts(bytes, count: parts, minimumBytes: minimumPartBytes, mappedFile: mappedFile && !compressed),
               let parsed = parsedParts(split, name: name, expandEntities: expandEntities, byChannel: byChannel) {
                return parsed
            }
            let run = try ReaderRun(bytes: bytes, name: name, source: source, expandEntities: expandEntities, byChannel: byChannel)
            defer { run.close() }
            return [try run.parse()]
        }
    }

    func parse(parts split: XMLTVParts, name: String, expandEntities: Bool) -> XMLTVDocument? {
        parsedParts(split, name: name, expandEntities: expandEntities, byChannel: false).map(XMLTVDocument.init(merging:))
    }

    /// The parts parsed at once, or nil when one of them is not well-formed on its own.
    func parsedParts(_ split: XMLTVParts, name: String, expandEntities: Bool, byChannel: Bool) -> [ParsedPart]? {
        let count = split.pieces.count
        let found = concurrentMap(count) { part -> ParsedPart? in
            guard let run = try? ReaderRun(pieces: split.pieces[part], handingBackPages: split.mappedFile, name: name, source: source,
                                           expandEntities: expandEntities, byChannel: byChannel) else {
                return nil
            }
            defer { run.close() }
            return try? run.parse()
        }
        var parsed: [ParsedPart] = []
        // The slices' newlines are counted only when a part has a skipped programme to give a
        // line: counting them before the parse read the whole file in at once (resident twice
        // as long, beside the programmes being made).
        var newlinesBefore = 0
        var counted = 0
        for (index, result) in found.enumerated() {
            guard var part = result else { return nil }
            if index > 0, !part.skipped.isEmpty {
                while counted < index {
                    newlinesBefore += XMLTVParts.newlines(in: split.pieces[counted][counted == 0 ? 0 : 1])
                    counted += 1
                }
                let offset = newlinesBefore - split.prologNewlines
                for line in part.skipped.indices { part.skipped[line].line += offset }
            }
            parsed.append(part)
        }
        return parsed
    }
}

/// What one reader found, before the parts of a document are put together.
struct ParsedPart: Sendable {
    var info = XMLTVInfo()
    var channels: [Channel] = []
    var programmes: [Programme] = []
    /// The channel ids the programmes name, in the order first met, and as a set.
    var channelsMet: [String] = []
    var programmeChannelIDs: Set<String> = []
    var skipped: [XMLTVSkippedProgramme] = []
    /// When read by channel, the programmes (none then in `programmes`) by channel id, each
    /// channel's in document order.
    var byChannel: [String: [Programme]] = [:]
}

extension XMLTVDocument {
    /// The parts in document order: a channel id repeated keeps its first definition, and a
    /// programme on a channel the file does not declare keeps its channel, made from its id, as
    /// tv_cat and tv_sort keep it.
    init(merging parts: [ParsedPart]) {
        var channels: [Channel] = []
        var channelIDs: Set<String> = []
        for part in parts {
            for channel in part.channels where channelIDs.insert(channel.id).inserted { channels.append(channel) }
        }
        var programmes = parts.count == 1 ? parts[0].programmes : []
        if parts.count > 1 {
            programmes.reserveCapacity(parts.reduce(0) { $0 + $1.programmes.count })
            for part in parts { programmes.append(contentsOf: part.programmes) }
        }
        for part in parts {
            for id in part.channelsMet where channelIDs.insert(id).inserted { channels.append(Channel(id: id, name: id)) }
        }
        self.init(channels: channels, programmes: programmes, info: parts.first?.info ?? XMLTVInfo(),
                  skipped: parts.flatMap(\.skipped).sorted { $0.line < $1.line })
    }
}

/// One pass of the reader over one document. Not shared between threads: it lives for one `parse` call.
private final class ReaderRun {
    private let reader: xmlTextReaderPtr
    /// What an input read through callbacks reads from; held for as long as the reader.
    private let input: PieceInput?
    private let name: String
    private let source: String
    private let errors = ErrorSink()
    private var status: Int32 = 1
    private var tags = TagTable()
    /// Reused for every element's text, so that reading one allocates only the final String.
    private var textBytes: [UInt8] = []
    private var kinds = XMLTVKinds.Memo()

    private var found = ParsedPart()
    private var interner = Interner()
    /// The programmes' synopses, kept in one block (`TextBlock`) instead of a `String` each, and
    /// each programme's number in it (`noSynopsis` when it has none there), set once the part is read.
    private var synopses: TextBlock.Gathering
    private var synopsisNumbers: [UInt32] = []
    private static let noSynopsis = UInt32.max
    /// Reading by channel (`ParsedPart.byChannel`): the run of programmes on one channel being
    /// read, and their synopses' numbers, each put in its channel's list (sized to fit) when the
    /// channel changes. Grouped once the part was read, the programmes were resident twice, on
    /// every core at once: a build's peak.
    private let byChannel: Bool
    private var run: [Programme] = []
    private var runSynopses: [UInt32] = []
    private var runChannel = ""
    private var synopsesByChannel: [String: [UInt32]] = [:]
    private var channelIDs: Set<String> = []

    // xmlReaderTypes as the Int32 that xmlTextReaderNodeType returns.
    private static let element = Int32(XML_READER_TYPE_ELEMENT.rawValue)
    private static let endElement = Int32(XML_READER_TYPE_END_ELEMENT.rawValue)
    private static let text = Int32(XML_READER_TYPE_TEXT.rawValue)
    private static let cdata = Int32(XML_READER_TYPE_CDATA.rawValue)
    private static let significantWhitespace = Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue)

    // NOBLANKS drops the indentation between elements, a third of a pretty-printed guide's nodes;
    // NONET keeps a DOCTYPE from fetching anything; BIG_LINES keeps line numbers past 65,535 exact.
    private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOBLANKS.rawValue
        | XML_PARSE_COMPACT.rawValue | XML_PARSE_BIG_LINES.rawValue)

    /// - Parameter expandEntities: the document declares internal entities, checked by
    ///   `XMLTVEntities`: their references in text are replaced by their text (without it,
    ///   libxml2's reader drops them, and `T &y; END` reads `T  END`).
    convenience init(bytes: UnsafeRawBufferPointer, name: String, source: String, expandEntities: Bool, byChannel: Bool) throws {
        let base = bytes.baseAddress!.assumingMemoryBound(to: CChar.self)
        let reader = xmlReaderForMemory(base, Int32(bytes.count), name, nil, Self.options(expandEntities))
        try self.init(reader: reader, input: nil, programmeTags: Self.countProgrammeTags(in: bytes), bytes: bytes.count, name: name, source: source,
                      byChannel: byChannel)
    }

    /// A part of a document (`XMLTVParts`), read from its pieces in place.
    convenience init(pieces: [UnsafeRawBufferPointer], handingBackPages: Bool, name: String, source: String, expandEntities: Bool,
                     byChannel: Bool) throws {
        let input = PieceInput(pieces, handingBackPages: handingBackPages)
        let reader = xmlReaderForIO({ context, buffer, capacity in
            guard let context, let buffer, capacity > 0 else { return -1 }
            return Int32(Unmanaged<PieceInput>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: Int(capacity)))
        }, nil, Unmanaged.passUnretained(input).toOpaque(), name, nil, Self.options(expandEntities))
        try self.init(reader: reader, input: input,
                      programmeTags: pieces.reduce(0) { $0 + Self.countProgrammeTags(in: $1, handingBackPages: handingBackPages) },
                      bytes: pieces.reduce(0) { $0 + $1.count }, name: name, source: source, byChannel: byChannel)
    }

    /// `bytes`: the document's size, which its synopses hardly exceed (only entities expand).
    private init(reader: xmlTextReaderPtr?, input: PieceInput?, programmeTags: Int, bytes: Int, name: String, source: String,
                 byChannel: Bool) throws {
        guard let reader else { throw ProviderError.malformed("\(name): libxml2 could not start reading") }
        self.reader = reader
        self.input = input
        self.name = name
        self.source = source
        self.byChannel = byChannel
        synopses = TextBlock.Gathering(bytes: bytes, texts: programmeTags)
        interner = Interner(programmes: programmeTags)
        if !byChannel {
            // One array growth instead of twenty: each doubling would copy every programme so far.
            found.programmes.reserveCapacity(programmeTags)
            synopsisNumbers.reserveCapacity(programmeTags)
        }
        xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
            guard let context, let error else { return }
            Unmanaged<ErrorSink>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }, Unmanaged.passUnretained(errors).toOpaque())
        // The names this parser looks for, as the reader's own interned strings: a node's name is
        // then recognised by its pointer alone.
        for (text, tag) in Tag.byName {
            if let interned = xmlTextReaderConstString(reader, text) {
                tags.insert(UnsafeRawPointer(interned), tag)
            }
        }
    }

    private static func options(_ expandEntities: Bool) -> Int32 {
        expandEntities ? options | Int32(XML_PARSE_NOENT.rawValue) : options
    }

    func close() {
        xmlFreeTextReader(reader)
    }

    func parse() throws -> ParsedPart {
        var sawRoot = false
        var closedRoot = false
        while next() {
            let type = nodeType
            if type == Self.endElement, xmlTextReaderDepth(reader) == 0 { closedRoot = true }
            guard type == Self.element else { continue }
            let depth = xmlTextReaderDepth(reader)
            let tag = tag(of: xmlTextReaderConstName(reader))
            if depth == 0 {
                guard tag == .tv else {
                    let found = xmlTextReaderConstName(reader).map { String(cString: $0) } ?? "?"
                    throw ProviderError.malformed("\(name): line \(currentLine): the root element is <\(found)>, not <tv>")
                }
                sawRoot = true
                if xmlTextReaderIsEmptyElement(reader) == 1 { closedRoot = true }
                readTVAttributes()
            } else if depth == 1 {
                switch tag {
                case .channel: readChannel()
                case .programme: readProgramme()
                default: break
                }
            }
        }
        if status < 0 || errors.fatal != nil {
            throw ProviderError.malformed(errors.describe(name: name, fallbackLine: Int(xmlTextReaderGetParserLineNumber(reader)),
                                                          endedEarly: sawRoot && !closedRoot))
        }
        guard sawRoot else { throw ProviderError.malformed("\(name): line 1: no <tv> element") }
        endRun()
        // Channels read in many runs (a file in order of time) grew their lists by doubling.
        for channel in synopsesByChannel.keys { found.byChannel[channel]!.shrinkToFit() }
        if !synopses.isEmpty {
            let block = synopses.block()
            Self.setSynopses(synopsisNumbers, of: &found.programmes, in: block)
            for (channel, numbers) in synopsesByChannel { Self.setSynopses(numbers, of: &found.byChannel[channel]!, in: block) }
        }
        // Handed over, not shared with this run: a caller's first change would otherwise copy
        // every programme.
        var part = ParsedPart()
        swap(&part, &found)
        return part
    }

    // MARK: - <tv> and <channel>

    private func readTVAttributes() {
        forEachAttribute { tag, value in
            switch tag {
            case .date: found.info.date = string(value)
            case .sourceInfoURL: found.info.sourceInfoURL = string(value)
            case .sourceInfoName: found.info.sourceInfoName = string(value)
            case .sourceDataURL: found.info.sourceDataURL = string(value)
            case .generatorInfoName: found.info.generatorInfoName = string(value)
            case .generatorInfoURL: found.info.generatorInfoURL = string(value)
            default: break
            }
        }
    }

    private func readChannel() {
        var id = ""
        forEachAttribute { tag, value in
            if tag == .id { id = string(value) }
        }
        var names: [LocalizedText] = []
        var icons: [ImageRef] = []
        var links: [WebLink] = []
        readChildren { tag in
            switch tag {
            case .displayName:
                let name = localizedText()
                if !name.value.isEmpty { names.append(name) }
            case .icon:
                if let icon = readIcon() { icons.append(icon) }
            case .url:
                if let link = readLink() { links.append(link) }
            default: break
            }
        }
        guard !id.isEmpty, channelIDs.insert(id).inserted else { return }
        let first = names.first
        var channel = Channel(id: id, name: first?.value ?? id,
                              otherNames: names.count > 1 ? Array(names.dropFirst()) : nil,
                              language: first?.lang, logo: icons.first?.url, url: links.first?.url)
        // The whole lists only when they say more than logo and url.
        if icons.count > 1 || icons.contains(where: { $0.width != nil || $0.height != nil }) { channel.icons = icons }
        if links.count > 1 || links.contains(where: { $0.system != nil }) { channel.links = links }
        found.channels.append(channel)
    }

    // MARK: - <programme>

    private func readProgramme() {
        let line = currentLine
        let depth = xmlTextReaderDepth(reader)
        let empty = xmlTextReaderIsEmptyElement(reader) == 1
        var channel = ""
        var start: Int?
        // The start as written, kept only for the report of a programme that is skipped.
        var startText: String?
        var startBlank = true
        var stop: Int?
        var stopUnparsable = false
        var extras = XMLTVExtras()
        forEachAttribute { tag, value in
            switch tag {
            case .pdcStart: extras.pdcStart = nonEmpty(string(value))
            case .vpsStart: extras.vpsStart = nonEmpty(string(value))
            case .showview: extras.showview = nonEmpty(string(value))
            case .videoplus: extras.videoplus = nonEmpty(string(value))
            case .clumpidx: extras.clumpIndex = nonEmpty(string(value))
            case .start:
                start = XMLTVTime.epochSeconds(buffer(value))
                startBlank = start == nil && isBlank(value)
                if start == nil { startText = string(value) }
            case .stop:
                stop = XMLTVTime.epochSeconds(buffer(value))
                stopUnparsable = stop == nil && !isBlank(value)
            case .channel:
                channel = string(value)
            default: break
            }
        }

        let problem: XMLTVSkippedProgramme.Reason? =
            if startBlank { .missingStart }
            else if start == nil { .unparsableStart }
            else if channel.isEmpty { .missingChannel }
            else if stopUnparsable { .unparsableStop }
            else if let stop, let start, stop < start { .stopBeforeStart }
            else { nil }
        if let problem {
            if !empty { skipSubtree(depth: depth) }
            found.skipped.append(XMLTVSkippedProgramme(reason: problem, line: line, channel: channel.isEmpty ? nil : channel,
                                                 start: startText))
            return
        }

        var programme = Programme(channel: channel, start: Date(timeIntervalSince1970: TimeInterval(start!)),
                                  stop: stop.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                                  title: "", source: source)
        var titles = Texts()
        var subtitles = Texts()
        var descriptions = Texts()
        readChildren { tag in
            readProgrammeChild(tag, into: &programme, extras: &extras, titles: &titles, subtitles: &subtitles, descriptions: &descriptions)
        }

        guard let title = titles.first else {
            found.skipped.append(XMLTVSkippedProgramme(reason: .missingTitle, line: line, channel: channel,
                                                 start: XMLTVTime.format(programme.start)))
            return
        }
        programme.title = title.value
        programme.textLanguage = title.lang
        var others = titles.rest.map { ProgrammeText(field: .title, value: $0.value, lang: $0.lang) }
        if let subtitle = pickSameLanguage(subtitles, as: title.lang, field: .subtitle, others: &others) {
            programme.subtitle = subtitle.value
            if subtitle.lang != title.lang { extras.subtitleLang = subtitle.lang ?? "" }
        }
        var synopsisNumber = Self.noSynopsis
        if let synopsis = pickSameLanguage(descriptions, as: title.lang, field: .synopsis, others: &others) {
            if let number = synopses.number(synopsis.value) { synopsisNumber = UInt32(number) } else { programme.synopsis = synopsis.value }
            if synopsis.lang != title.lang { extras.synopsisLang = synopsis.lang ?? "" }
        }
        programme.xmltv = extras
        if !others.isEmpty { programme.otherTexts = others }
        programme.kind = kinds.kind(of: programme.categories)
        if let credits = programme.credits, !credits.isSorted(by: Credit.xmltvOrder) {
            programme.credits = credits.stableSorted(by: Credit.xmltvOrder)
        }
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

    /// Puts the run read on one channel in that channel's list, moved (a copy retains every field).
    private func endRun() {
        guard !run.isEmpty else { return }
        found.byChannel[runChannel, default: []].moveAppendingToFit(&run)
        synopsesByChannel[runChannel, default: []].appendToFit(runSynopses)
        run.removeAll(keepingCapacity: true)
        runSynopses.removeAll(keepingCapacity: true)
    }

    private static func setSynopses(_ numbers: [UInt32], of programmes: inout [Programme], in block: TextBlock) {
        programmes.withUnsafeMutableBufferPointer { programmes in
            for (index, number) in numbers.enumerated() where number != noSynopsis { programmes[index].setSynopsis(Int(number), in: block) }
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

    private func readProgrammeChild(_ tag: Tag, into p: inout Programme, extras: inout XMLTVExtras, titles: inout Texts,
                                    subtitles: inout Texts, descriptions: inout Texts) {
        switch tag {
        case .title:
            let text = localizedText()
            if !text.value.isEmpty { titles.append(text) }
        case .subTitle:
            let text = localizedText()
            if !text.value.isEmpty { subtitles.append(text) }
        case .desc:
            let text = localizedText()
            if !text.value.isEmpty { descriptions.append(text) }
        case .credits:
            readCredits(into: &p)
        case .date:
            let text = readText()
            if !text.isEmpty {
                p.date = text
                p.year = Self.year(of: text)
            }
        case .category:
            let text = localizedText()
            if !text.value.isEmpty { p.categories.append(text) }
        case .keyword:
            let text = localizedText()
            if !text.value.isEmpty { p.keywords.append(text) }
        case .language:
            let text = localizedText()
            if !text.value.isEmpty {
                p.language = text.value
                extras.languageLang = text.lang
            }
        case .origLanguage:
            let text = localizedText()
            if !text.value.isEmpty {
                p.originalLanguage = text.value
                extras.originalLanguageLang = text.lang
            }
        case .length:
            let units = attribute(.units)
            let text = readText()
            if let amount = Double(text), amount >= 0 {
                let scale: Double? = switch units {
                case "seconds": 1
                case "minutes": 60
                case "hours": 3_600
                default: nil
                }
                if let scale { p.length = Int((amount * scale).rounded()) }
            }
        case .icon:
            if let icon = readIcon() { p.images.append(icon) }
        case .image:
            if let image = readImage() { p.images.append(image) }
        case .url:
            if let link = readLink() {
                p.urls.append(link.url)
                if let system = link.system { extras.urlSystems = (extras.urlSystems ?? [:]).merging([link.url: system]) { first, _ in first } }
            }
        case .country:
            let text = localizedText()
            if !text.value.isEmpty {
                p.countries.append(text.value)
                if let lang = text.lang { extras.countryLangs = (extras.countryLangs ?? [:]).merging([text.value: lang]) { first, _ in first } }
            }
        case .episodeNum:
            let system = attribute(.system) ?? "onscreen"
            let text = readText()
            if !text.isEmpty { Self.addEpisodeNumber(text, system: system, to: &p) }
        case .video:
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
            if video != VideoInfo() { p.video = video }
        case .audio:
            var audio = AudioInfo()
            readChildren { tag in
                switch tag {
                case .present: audio.present = Self.yesNo(readText())
                case .stereo: audio.stereo = nonEmpty(readText())
                default: break
                }
            }
            if audio != AudioInfo() { p.audio = audio }
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
        case .review:
            let type = attribute(.type)
            let source = attribute(.source)
            let reviewer = attribute(.reviewer)
            let text = localizedText()
            if let type, !text.value.isEmpty {
                extras.reviews = (extras.reviews ?? []) + [Review(type: type, value: text.value, source: source, reviewer: reviewer, lang: text.lang)]
            }
        case .new:
            p.isNew = true
        case .subtitles:
            var subtitles = SubtitleInfo(type: attribute(.type))
            readChildren { tag in
                if tag == .language {
                    let language = localizedText()
                    subtitles.language = nonEmpty(language.value)
                    subtitles.languageLang = language.lang
                }
            }
            p.subtitles.append(subtitles)
        case .rating, .starRating:
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
            guard !value.isEmpty else { return }
            var rating = Rating(system: system, value: value, icon: icons.first?.url)
            if icons.count > 1 || icons.contains(where: { $0.width != nil || $0.height != nil }) { rating.icons = icons }
            if tag == .rating { p.ratings.append(rating) } else { p.starRatings.append(rating) }
        default:
            break
        }
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
    private func readIcon() -> ImageRef? {
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
    private func readLink() -> WebLink? {
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

    // MARK: - Reader primitives

    private func next() -> Bool {
        guard status == 1 else { return false }
        status = xmlTextReaderRead(reader)
        return status == 1
    }

    private var nodeType: Int32 { xmlTextReaderNodeType(reader) }

    private var currentLine: Int {
        guard let node = xmlTextReaderCurrentNode(reader) else { return Int(xmlTextReaderGetParserLineNumber(reader)) }
        return Int(xmlGetLineNo(node))
    }

    /// The tag of a qualified name (`xmlTextReaderConstName`, not the local name), so that another
    /// vocabulary's `x:rating` inside a programme is not taken for XMLTV's `rating`.
    private func tag(of name: UnsafePointer<xmlChar>?) -> Tag {
        guard let name else { return .other }
        let key = UnsafeRawPointer(name)
        if let tag = tags.lookup(key) { return tag }
        // A name outside the table; remembered by pointer, which the reader interns, so a file
        // full of extension elements costs one lookup each, with the table bounded all the same.
        let tag = Tag.byName[String(cString: name)] ?? .other
        tags.insert(key, tag)
        return tag
    }

    /// Calls `body` for each attribute of the current element, then moves back to the element.
    private func forEachAttribute(_ body: (Tag, UnsafePointer<xmlChar>) -> Void) {
        guard xmlTextReaderMoveToFirstAttribute(reader) == 1 else { return }
        repeat {
            if let value = xmlTextReaderConstValue(reader) {
                body(tag(of: xmlTextReaderConstName(reader)), value)
            }
        } while xmlTextReaderMoveToNextAttribute(reader) == 1
        xmlTextReaderMoveToElement(reader)
    }

    private func attribute(_ wanted: Tag) -> String? {
        var found: String?
        forEachAttribute { tag, value in
            if tag == wanted, found == nil { found = nonEmpty(string(value)) }
        }
        return found
    }

    /// Calls `body` with each child element of the current element; `body` may read the child's
    /// content. Leaves the reader on the current element's end tag.
    private func readChildren(_ body: (Tag) -> Void) {
        guard xmlTextReaderIsEmptyElement(reader) != 1 else { return }
        let depth = xmlTextReaderDepth(reader)
        while next() {
            let type = nodeType
            if type == Self.endElement {
                if xmlTextReaderDepth(reader) == depth { return }
                continue
            }
            guard type == Self.element, xmlTextReaderDepth(reader) == depth + 1 else { continue }
            body(tag(of: xmlTextReaderConstName(reader)))
        }
    }

    private func localizedText() -> LocalizedText {
        let lang = attribute(.lang)
        return LocalizedText(readText(), lang: lang)
    }

    /// The text directly inside the current element (not inside its child elements, as in a
    /// credit's `<url>`), trimmed. Leaves the reader on the element's end tag.
    private func readText() -> String {
        readText(children: { _ in })
    }

    /// `readText`, handing each child element to `child` (which may read it) instead of skipping
    /// it. The text so far is set aside while a child is read, since `child` reads text too.
    private func readText(children child: (Tag) -> Void) -> String {
        guard xmlTextReaderIsEmptyElement(reader) != 1 else { return "" }
        let depth = xmlTextReaderDepth(reader)
        textBytes.removeAll(keepingCapacity: true)
        while next() {
            let type = nodeType
            if type == Self.endElement, xmlTextReaderDepth(reader) == depth { break }
            guard xmlTextReaderDepth(reader) == depth + 1 else { continue }
            if type == Self.text || type == Self.cdata || type == Self.significantWhitespace, let value = xmlTextReaderConstValue(reader) {
                textBytes.append(contentsOf: buffer(value))
            } else if type == Self.element {
                let before = textBytes
                child(tag(of: xmlTextReaderConstName(reader)))
                textBytes = before
            }
        }
        return textBytes.withUnsafeBufferPointer { trimmedString($0) }
    }

    /// An attribute value, trimmed.
    private func string(_ value: UnsafePointer<xmlChar>) -> String {
        trimmedString(buffer(value))
    }

    /// How many `<programme` start tags the bytes hold, by a plain byte search: far cheaper than
    /// the parse, and it lets the programme array be allocated once. `handingBackPages`: the
    /// bytes map a file, whose pages are handed back behind the search (`PieceInput.handBack`),
    /// or the whole file was resident before the parse began.
    static func countProgrammeTags(in bytes: UnsafeRawBufferPointer, handingBackPages: Bool = false) -> Int {
        var count = 0
        var from = 0
        var released = 0
        while let at = XMLTVParts.find("<programme", in: bytes, from: from) {
            count += 1
            from = at + 1
            if handingBackPages, at - released >= PieceInput.releaseBatch {
                PieceInput.handBack(bytes, from: released, upTo: at)
                released = at
            }
        }
        if handingBackPages, bytes.count >= PieceInput.releasedPieceBytes { PieceInput.handBack(bytes, from: released, upTo: bytes.count) }
        return count
    }

    private func skipSubtree(depth: Int32) {
        while next() {
            if nodeType == Self.endElement, xmlTextReaderDepth(reader) == depth { return }
        }
    }
}

private extension Array {
    /// Appends `more`; a list made by it holds exactly its first run, and grows as usual after.
    mutating func appendToFit(_ more: [Element]) {
        if isEmpty { reserveCapacity(more.count) }
        append(contentsOf: more)
    }
}

private extension [Programme] {
    /// `appendToFit`, with the programmes moved (`moveAppending`).
    mutating func moveAppendingToFit(_ more: inout [Programme]) {
        if isEmpty { reserveCapacity(more.count) }
        more.withUnsafeMutableBufferPointer { moveAppending(from: $0) }
    }

    /// Moves the programmes to a list of their own size, when this one has an eighth more room.
    mutating func shrinkToFit() {
        guard capacity > count + count / 8 else { return }
        var fitted: [Programme] = []
        fitted.reserveCapacity(count)
        withUnsafeMutableBufferPointer { fitted.moveAppending(from: $0) }
        self = fitted
    }
}

/// Element and attribute names by the address of the reader's interned copy: an open-addressing
/// table of pointers, several times cheaper per node than hashing them into a Dictionary.
private struct TagTable {
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

/// A programme's titles (or sub-titles, or descriptions) in source order. Nearly every programme
/// has one of each at most, so the first is kept apart and costs no array.
private struct Texts {
    var first: LocalizedText?
    var rest: [LocalizedText] = []

    mutating func append(_ text: LocalizedText) {
        if first == nil { first = text } else { rest.append(text) }
    }
}

/// Collects libxml2's errors for one reader; the first fatal one is what the user is told.
private final class ErrorSink {
    typealias Entry = (line: Int, code: Int32, message: String)
    private(set) var fatal: Entry?
    private var firstError: Entry?

    func record(_ error: xmlError) {
        guard error.level == XML_ERR_ERROR || error.level == XML_ERR_FATAL else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code)"
        let entry = (line: Int(error.line), code: error.code, message: message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
        if error.level == XML_ERR_FATAL, fatal == nil { fatal = entry }
        if firstError == nil { firstError = entry }
    }

    /// `endedEarly`: the input stopped before `</tv>`. libxml2's streaming parser calls that
    /// "Extra content at the end of the document", which would send a user looking for the wrong thing.
    func describe(name: String, fallbackLine: Int, endedEarly: Bool) -> String {
        guard let entry = fatal ?? firstError else { return "\(name): line \(fallbackLine): not well-formed XML" }
        let line = entry.line > 0 ? entry.line : fallbackLine
        if endedEarly, entry.code == Int32(XML_ERR_DOCUMENT_END.rawValue) {
            return "\(name): line \(line): the document ends before </tv>, as if truncated (libxml2: \(entry.message))"
        }
        if entry.code == Int32(XML_ERR_INTERNAL_ERROR.rawValue), entry.message.hasPrefix("Excessive depth") {
            // libxml2's advice (XML_PARSE_HUGE) is for programmers; no guide nests that deep.
            return "\(name): line \(line): elements nested deeper than 256 levels, refused (no XMLTV guide needs that)"
        }
        return "\(name): line \(line): \(entry.message)"
    }
}

/// The element and attribute names the parser acts on.
private enum Tag: UInt8 {
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

@inline(__always)
private func buffer(_ value: UnsafePointer<xmlChar>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: value, count: strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)))
}

private func isBlank(_ value: UnsafePointer<xmlChar>) -> Bool {
    buffer(value).allSatisfy(isXMLSpace)
}

private func isBlank(_ text: String) -> Bool {
    text.utf8.allSatisfy(isXMLSpace)
}

private func nonEmpty(_ text: String) -> String? {
    text.isEmpty ? nil : text
}

/// The bytes as a String without surrounding XML whitespace; invalid UTF-8 (which libxml2 has
/// already refused) would be repaired, never trapped on.
private func trimmedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var start = 0
    var end = bytes.count
    while start < end, isXMLSpace(bytes[start]) { start += 1 }
    while end > start, isXMLSpace(bytes[end - 1]) { end -= 1 }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    // DEL and the C1 controls (0xC2 0x80–0x9F in UTF-8) are the characters of XML that XMLTV
    // does not carry (`XMLTVText`); the bytes are scanned first, since almost no text has them.
    var controls = false
    for index in start..<end where bytes[index] == 0x7F || bytes[index] == 0xC2 && index + 1 < end && bytes[index + 1] & 0xE0 == 0x80 {
        controls = true
        break
    }
    guard controls else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.filter(XMLTVText.carries)))
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

@inline(__always)
private func isXMLSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}
