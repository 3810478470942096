import CLibXML2
import Foundation
import GuideCore

/// Writes channels and programmes as XMLTV that `tv_validate_file` accepts: elements in the DTD's
/// order, times in UTC, channels sorted by id and programmes by channel then start, so that the
/// same guide always gives the same bytes. libxml2's xmlTextWriter does the escaping.
package enum XMLTVWriter {
    /// The bytes of an XMLTV document; `info` becomes the `<tv>` element's attributes. Channels
    /// without programmes are left out unless `everyChannel` (a grabber's `--list-channels`).
    package static func write(channels: [Channel], programmes: [Programme],
                             info: XMLTVInfo = XMLTVInfo(generatorInfoName: "tvguide"), everyChannel: Bool = false) throws -> Data {
        _ = LibXML2.initialised
        let out = try TextWriter()
        write(channels: channels, programmes: programmes, keeping: nil, info: info, everyChannel: everyChannel, to: out)
        return try out.finish()
    }

    /// The same document handed to `sink` a few kilobytes at a time as it is written, never held
    /// whole: a guide's feed is hundreds of megabytes. Only the channels `keeping` holds, when
    /// given (a line-up's); the programmes are read where they are, not copied.
    package static func write(channels: [Channel], programmes: [Programme], keeping: Set<String>?,
                             info: XMLTVInfo = XMLTVInfo(generatorInfoName: "tvguide"),
                             to sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        _ = LibXML2.initialised
        let out = try TextWriter(sink: sink)
        write(channels: channels, programmes: programmes, keeping: keeping, info: info, everyChannel: false, to: out)
        try out.finishStream()
    }

    private static func write(channels: [Channel], programmes: [Programme], keeping: Set<String>?, info: XMLTVInfo, everyChannel: Bool,
                              to out: TextWriter) {
        out.startDocument()
        out.start("tv")
        out.attribute("date", info.date)
        out.attribute("source-info-url", info.sourceInfoURL)
        out.attribute("source-info-name", info.sourceInfoName)
        out.attribute("source-data-url", info.sourceDataURL)
        out.attribute("generator-info-name", info.generatorInfoName)
        out.attribute("generator-info-url", info.generatorInfoURL)
        // Positions, not copies: a copy of a guide's programmes is hundreds of megabytes.
        var order = programmes.indices.filter { index in
            carriesTitle(programmes[index].title) && keeping.map { $0.contains(programmes[index].channel) } ?? true
        }
        let precedes = { (a: Int, b: Int) in (programmes[a].channel, programmes[a].start) < (programmes[b].channel, programmes[b].start) }
        // A guide is in this order already; sorting is for programmes given in another.
        if zip(order, order.dropFirst()).contains(where: { precedes($1, $0) }) {
            order.sort(by: precedes)
        }
        // tv_validate_file refuses a channel without programmes ("No programme entries found").
        var served = Set<String>()
        var lastChannel: String?
        for index in order where programmes[index].channel != lastChannel {
            lastChannel = programmes[index].channel
            served.insert(programmes[index].channel)
        }
        for channel in channels.sorted(by: { $0.id < $1.id }) where everyChannel || served.contains(channel.id) {
            write(channel, to: out)
        }
        var kinds = XMLTVKinds.Memo()
        for index in order {
            write(programmes[index], to: out, kinds: &kinds)
        }
        out.end()
    }

    /// What `write` leaves out or cannot make valid for `tv_validate_file`, in words for a report;
    /// empty when the export is valid as it is. `emptyChannels: false` leaves out the note on
    /// channels without programmes, for a report that already names them.
    package static func validityNotes(channels: [Channel], programmes: [Programme], emptyChannels: Bool = true) -> [String] {
        var notes: [String] = []
        // Field by field: passing each programme whole, to a closure or a property of another
        // module, copies all its fields (a guide's worth of retains and releases).
        var untitled = 0
        var served = Set<String>()
        var lastChannel: String?
        for index in programmes.indices {
            guard carriesTitle(programmes[index].title) else {
                untitled += 1
                continue
            }
            // A guide lists a channel's programmes together: hash each channel once, not each programme.
            if programmes[index].channel != lastChannel {
                lastChannel = programmes[index].channel
                served.insert(programmes[index].channel)
            }
        }
        if untitled > 0 {
            notes.append("\(untitled) programme(s) whose title is empty once control characters are removed are left out")
        }
        let empty = channels.map(\.id).filter { !served.contains($0) }.sorted()
        if emptyChannels, !empty.isEmpty {
            notes.append("\(empty.count) channel(s) without programmes are left out, as XMLTV wants: " + shortList(empty))
        }
        let invalid = channels.map(\.id).filter { !isValidChannelID($0) }.sorted()
        if !invalid.isEmpty {
            notes.append("\(invalid.count) channel id(s) are not name.domain of letters, digits and '-', which tv_validate_file wants "
                + "(players read them all the same): " + shortList(invalid))
        }
        return notes
    }

    /// `La1.es`, `bbc1.bbc.co.uk`: what tv_validate_file accepts as a channel id.
    static func isValidChannelID(_ id: String) -> Bool {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        }
    }

    private static func shortList(_ ids: [String]) -> String {
        ids.prefix(5).map { "'\(TerminalText.escaped($0, limit: 60))'" }
            .joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
    }

    private static func write(_ channel: Channel, to out: TextWriter) {
        out.start("channel")
        out.attribute("id", channel.id)
        // display-name and title are required: written even when a source left them empty.
        out.requiredElement("display-name", channel.name, lang: channel.language)
        for name in channel.otherNames ?? [] {
            out.element("display-name", name.value, lang: name.lang)
        }
        if let icons = channel.icons {
            for icon in icons { writeIcon(icon, to: out) }
        } else if let logo = channel.logo {
            writeIcon(ImageRef(url: logo), to: out)
        }
        if let links = channel.links {
            for link in links { writeLink(link, to: out) }
        } else {
            out.element("url", channel.url)
        }
        out.end()
    }

    private static func writeIcon(_ icon: ImageRef, to out: TextWriter) {
        out.start("icon")
        out.attribute("src", icon.url)
        out.attribute("width", icon.width.map(String.init))
        out.attribute("height", icon.height.map(String.init))
        out.end()
    }

    private static func writeLink(_ link: WebLink, to out: TextWriter) {
        out.start("url")
        out.attribute("system", link.system)
        out.text(link.url)
        out.end()
    }

    private static func writeImage(_ image: ImageRef, to out: TextWriter) {
        out.start("image")
        out.attribute("type", image.kind)
        out.attribute("size", image.size)
        out.attribute("orient", image.orient)
        out.attribute("system", image.system)
        out.text(image.url)
        out.end()
    }

    /// `lang` of a sub-title or description: its own when it was not the title's.
    private static func lang(_ own: String?, else title: String?) -> String? {
        guard let own else { return title }
        return own.isEmpty ? nil : own
    }

    private static func write(_ p: Programme, to out: TextWriter, kinds: inout XMLTVKinds.Memo) {
        out.start("programme")
        out.attribute("start", XMLTVTime.format(p.start))
        out.attribute("stop", p.stop.map(XMLTVTime.format))
        let extras = p.xmltv ?? XMLTVExtras()
        out.attribute("pdc-start", extras.pdcStart)
        out.attribute("vps-start", extras.vpsStart)
        out.attribute("showview", extras.showview)
        out.attribute("videoplus", extras.videoplus)
        out.attribute("channel", p.channel)
        out.attribute("clumpidx", extras.clumpIndex)

        let others = p.otherTexts ?? []
        out.requiredElement("title", p.title, lang: p.textLanguage)
        for text in others where text.field == .title { out.element("title", text.value, lang: text.lang) }
        out.element("sub-title", p.subtitle, lang: lang(extras.subtitleLang, else: p.textLanguage))
        for text in others where text.field == .subtitle { out.element("sub-title", text.value, lang: text.lang) }
        out.element("desc", p.synopsis, lang: lang(extras.synopsisLang, else: p.textLanguage))
        for text in others where text.field == .synopsis { out.element("desc", text.value, lang: text.lang) }

        if let credits = p.credits, !credits.isEmpty { write(credits: credits, to: out) }
        out.element("date", p.date ?? p.year.map(String.init))
        for category in categoriesWithKind(p, kinds: &kinds) { out.element("category", category.value, lang: category.lang) }
        for keyword in p.keywords ?? [] { out.element("keyword", keyword.value, lang: keyword.lang) }
        out.element("language", p.language, lang: extras.languageLang)
        out.element("orig-language", p.originalLanguage, lang: extras.originalLanguageLang)
        if let length = p.length { write(length: length, to: out) }
        let images = p.images ?? []
        for image in images where !image.isXMLTVImage { writeIcon(image, to: out) }
        for url in p.urls ?? [] { writeLink(WebLink(url: url, system: extras.urlSystems?[url]), to: out) }
        for country in p.countries ?? [] { out.element("country", country, lang: extras.countryLangs?[country]) }
        if let episode = p.episode { write(episode, to: out) }
        for (system, text) in XMLTVDatabaseID.episodeNumbers(for: p) {
            out.start("episode-num")
            out.attribute("system", system)
            out.text(text)
            out.end()
        }
        if let video = p.video, video != VideoInfo() { write(video: video, to: out) }
        if let audio = p.audio, audio != AudioInfo() { write(audio: audio, to: out) }
        if let shown = p.previouslyShown {
            out.start("previously-shown")
            out.attribute("start", shown.start)
            out.attribute("channel", shown.channel)
            out.end()
        }
        if p.premiere == true { writeNote("premiere", extras.premiereNote, to: out) }
        if p.lastChance == true { writeNote("last-chance", extras.lastChanceNote, to: out) }
        if p.isNew == true { out.emptyElement("new") }
        for subtitles in p.subtitles ?? [] { write(subtitles: subtitles, to: out) }
        for rating in p.ratings ?? [] { write(rating, as: "rating", to: out) }
        for rating in p.starRatings ?? [] { write(rating, as: "star-rating", to: out) }
        for review in extras.reviews ?? [] { write(review: review, to: out) }
        for image in images where image.isXMLTVImage { writeImage(image, to: out) }
        out.end()
    }

    /// `<credits>`, in XMLTV's order of roles.
    private static func write(credits: [Credit], to out: TextWriter) {
        out.start("credits")
        for credit in credits.stableSorted(by: Credit.xmltvOrder) {
            out.start(credit.role.elementName)
            if credit.role == .actor {
                out.attribute("role", credit.character)
                out.attribute("guest", credit.guest.map(Self.yesNo))
            }
            out.text(credit.name)
            for image in credit.images ?? [] { writeImage(image, to: out) }
            for link in credit.urls ?? [] { writeLink(link, to: out) }
            out.end()
        }
        out.end()
    }

    /// `<length>` in minutes when it is whole minutes, else in seconds.
    private static func write(length: Int, to out: TextWriter) {
        out.start("length")
        if length % 60 == 0 {
            out.attribute("units", "minutes")
            out.text(String(length / 60))
        } else {
            out.attribute("units", "seconds")
            out.text(String(length))
        }
        out.end()
    }

    private static func write(video: VideoInfo, to out: TextWriter) {
        out.start("video")
        out.element("present", video.present.map(Self.yesNo))
        out.element("colour", video.colour.map(Self.yesNo))
        out.element("aspect", video.aspect)
        out.element("quality", video.quality)
        out.end()
    }

    private static func write(audio: AudioInfo, to out: TextWriter) {
        out.start("audio")
        out.element("present", audio.present.map(Self.yesNo))
        out.element("stereo", audio.stereo)
        out.end()
    }

    /// `<subtitles>`; a type outside XMLTV's three is left out.
    private static func write(subtitles: SubtitleInfo, to out: TextWriter) {
        out.start("subtitles")
        if let type = subtitles.type, ["teletext", "onscreen", "deaf-signed"].contains(type) {
            out.attribute("type", type)
        }
        out.element("language", subtitles.language, lang: subtitles.languageLang)
        out.end()
    }

    private static func write(review: Review, to out: TextWriter) {
        out.start("review")
        out.attribute("type", review.type)
        out.attribute("source", review.source)
        out.attribute("reviewer", review.reviewer)
        out.attribute("lang", review.lang)
        out.text(review.value)
        out.end()
    }

    /// The programme's categories, plus one naming its kind when none does, so that an imported
    /// guide keeps its kinds (`movie` from a source with typed programmes but no categories).
    private static func categoriesWithKind(_ p: Programme, kinds: inout XMLTVKinds.Memo) -> [LocalizedText] {
        let categories = p.categories ?? []
        guard let kind = p.kind, kinds.kind(of: categories) != kind,
              let extra = XMLTVKinds.category(for: kind) else { return categories }
        return categories + [extra]
    }

    private static func write(_ episode: Episode, to out: TextWriter) {
        // The source's own notation when it is valid, so that an export gives it back unchanged.
        let xmltvNS = episode.xmltvNS.flatMap { XMLTVEpisode.parse($0) != nil ? $0 : nil } ?? XMLTVEpisode.format(episode)
        if let xmltvNS {
            out.start("episode-num")
            out.attribute("system", "xmltv_ns")
            out.text(xmltvNS)
            out.end()
        }
        if let onscreen = episode.onscreen {
            out.start("episode-num")
            out.attribute("system", "onscreen")
            out.text(onscreen)
            out.end()
        }
        for (system, value) in (episode.other ?? [:]).sorted(by: { $0.key < $1.key }) {
            out.start("episode-num")
            out.attribute("system", system)
            out.text(value)
            out.end()
        }
    }

    private static func write(_ rating: Rating, as name: StaticString, to out: TextWriter) {
        out.start(name)
        out.attribute("system", rating.system)
        out.element("value", rating.value)
        if let icons = rating.icons {
            for icon in icons { writeIcon(icon, to: out) }
        } else if let icon = rating.icon {
            writeIcon(ImageRef(url: icon), to: out)
        }
        out.end()
    }

    /// `<premiere>` or `<last-chance>`: empty, or with the source's text.
    private static func writeNote(_ name: StaticString, _ note: LocalizedText?, to out: TextWriter) {
        guard let note else {
            out.emptyElement(name)
            return
        }
        out.element(name, note.value, lang: note.lang)
    }

    private static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }
}

private extension ImageRef {
    /// Read from an `<image>`, or of a type XMLTV's `<image>` takes; any other picture is written as an `<icon>`.
    var isXMLTVImage: Bool {
        if xmltvImage == true { return true }
        guard let kind else { return false }
        return ["poster", "backdrop", "still", "person", "character"].contains(kind)
    }
}

private extension Credit.Role {
    var elementName: StaticString {
        switch self {
        case .director: "director"
        case .actor: "actor"
        case .writer: "writer"
        case .adapter: "adapter"
        case .producer: "producer"
        case .composer: "composer"
        case .editor: "editor"
        case .presenter: "presenter"
        case .commentator: "commentator"
        case .guest: "guest"
        }
    }
}

/// A thin wrapper over libxml2's xmlTextWriter writing to memory or, a few kilobytes at a time, to a
/// sink, indented by two spaces.
private final class TextWriter {
    /// Where the document goes: libxml2's memory buffer, or `sink` through an output buffer.
    private let buffer: xmlBufferPtr?
    private let sink: Sink?
    private let writer: xmlTextWriterPtr
    private var failed = false

    /// `write`'s destination and the first error it threw, which libxml2 only sees as a -1.
    final class Sink {
        let write: (UnsafeRawBufferPointer) throws -> Void
        var error: (any Error)?

        init(_ write: @escaping (UnsafeRawBufferPointer) throws -> Void) {
            self.write = write
        }
    }

    init() throws {
        guard let buffer = xmlBufferCreate() else { throw ProviderError.malformed("XMLTV export: out of memory") }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else {
            xmlBufferFree(buffer)
            throw ProviderError.malformed("XMLTV export: out of memory")
        }
        self.buffer = buffer
        self.sink = nil
        self.writer = writer
        configure()
    }

    init(sink write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        let sink = Sink(write)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        // The writer owns the output buffer and closes it when freed; `sink` outlives both.
        guard let output = xmlOutputBufferCreateIO({ context, bytes, count in
            guard let context, let bytes else { return -1 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            guard sink.error == nil else { return -1 }
            do {
                try sink.write(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
                return count
            } catch {
                sink.error = error
                return -1
            }
        }, nil, context, nil) else { throw ProviderError.malformed("XMLTV export: out of memory") }
        guard let writer = xmlNewTextWriter(output) else {
            xmlOutputBufferClose(output)
            throw ProviderError.malformed("XMLTV export: out of memory")
        }
        self.buffer = nil
        self.sink = sink
        self.writer = writer
        configure()
    }

    private func configure() {
        xmlTextWriterSetIndent(writer, 1)
        check(xmlTextWriterSetIndentString(writer, "  "))
    }

    deinit {
        xmlFreeTextWriter(writer)
        if let buffer { xmlBufferFree(buffer) }
    }

    func startDocument() {
        check(xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil))
        check(xmlTextWriterWriteDTD(writer, "tv", nil, "xmltv.dtd", nil))
    }

    func start(_ name: StaticString) {
        check(xmlTextWriterStartElement(writer, name.utf8Start))
    }

    func end() {
        check(xmlTextWriterEndElement(writer))
    }

    func emptyElement(_ name: StaticString) {
        start(name)
        end()
    }

    func attribute(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        Self.withXMLChars(value) { check(xmlTextWriterWriteAttribute(writer, name.utf8Start, $0)) }
    }

    func text(_ value: String) {
        Self.withXMLChars(value) { check(xmlTextWriterWriteString(writer, $0)) }
    }

    /// `<name lang="…">value</name>`, or nothing when there is no value.
    func element(_ name: StaticString, _ value: String?, lang: String? = nil) {
        guard let value, !value.isEmpty else { return }
        start(name)
        attribute("lang", lang)
        text(value)
        end()
    }

    func requiredElement(_ name: StaticString, _ value: String, lang: String?) {
        start(name)
        attribute("lang", lang)
        text(value)
        end()
    }

    func finish() throws -> Data {
        check(xmlTextWriterEndDocument(writer))
        check(xmlTextWriterFlush(writer))
        guard !failed, let buffer, let content = xmlBufferContent(buffer) else {
            throw ProviderError.malformed("XMLTV export: libxml2's writer failed")
        }
        return Data(bytes: content, count: Int(xmlBufferLength(buffer)))
    }

    /// Ends the document and hands the last bytes to the sink; rethrows what the sink threw.
    func finishStream() throws {
        check(xmlTextWriterEndDocument(writer))
        check(xmlTextWriterFlush(writer))
        if let error = sink?.error { throw error }
        guard !failed else { throw ProviderError.malformed("XMLTV export: libxml2's writer failed") }
    }

    private func check(_ result: Int32) {
        if result < 0 { failed = true }
    }

    /// Passes `value` as a C string with the characters XMLTV cannot carry (`XMLTVText`)
    /// removed: one stray byte in a source must not make the whole export unreadable.
    private static func withXMLChars(_ value: String, _ body: (UnsafePointer<xmlChar>) -> Void) {
        // 0xEF leads U+FFFE and U+FFFF, 0xC2 the C1 controls (and other characters, which the
        // slow path keeps).
        let needsCleaning = value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F || $0 == 0xC2 || $0 == 0xEF }
        } ?? true
        let clean = needsCleaning
            ? String(String.UnicodeScalarView(value.unicodeScalars.filter(XMLTVText.carries)))
            : value
        clean.withCString { pointer in
            body(UnsafeRawPointer(pointer).assumingMemoryBound(to: xmlChar.self))
        }
    }
}

extension XMLTVWriter {
    /// Whether `title` is not empty once the characters XMLTV cannot carry are removed.
    static func carriesTitle(_ title: String) -> Bool {
        // Almost every title has a printable ASCII character: no need to look further.
        for byte in title.utf8 where byte > 0x20 && byte < 0x7F { return true }
        return title.unicodeScalars.contains { XMLTVText.carries($0) && !$0.properties.isWhitespace }
    }
}
