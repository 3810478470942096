import CLibXML2
import Foundation
import GuideCore
import GuideStorage

/// One pass of the reader over one document. Not shared between threads: it lives for one `parse` call.
final class ReaderRun {
    let reader: xmlTextReaderPtr
    /// What an input read through callbacks reads from; held for as long as the reader.
    private let input: PieceInput?
    let name: String
    let source: String
    private let errors = ErrorSink()
    private var status: Int32 = 1
    private var tags = TagTable()
    /// Reused for every element's text, so that reading one allocates only the final String.
    private var textBytes: [UInt8] = []
    var kinds = XMLTVKinds.Memo()

    var found = ParsedPart()
    var interner = Interner()
    /// The programmes' synopses, kept in one block (`TextBlock`) instead of a `String` each, and
    /// each programme's number in it (`noSynopsis` when it has none there), set once the part is read.
    var synopses: TextBlock.Gathering
    var synopsisNumbers: [UInt32] = []
    static let noSynopsis = UInt32.max
    /// Reading by channel (`ParsedPart.byChannel`): the run of programmes on one channel being
    /// read, and their synopses' numbers, each put in its channel's list (sized to fit) when the
    /// channel changes. Grouped once the part was read, the programmes were resident twice, on
    /// every core at once: a build's peak.
    let byChannel: Bool
    var run: [Programme] = []
    var runSynopses: [UInt32] = []
    var runChannel = ""
    private var synopsesByChannel: [String: [UInt32]] = [:]
    private var channelIDs: Set<String> = []

    // xmlReaderTypes as the Int32 that xmlTextReaderNodeType returns.
    static let element = Int32(XML_READER_TYPE_ELEMENT.rawValue)
    private static let endElement = Int32(XML_READER_TYPE_END_ELEMENT.rawValue)
    static let text = Int32(XML_READER_TYPE_TEXT.rawValue)
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

    /// Puts the run read on one channel in that channel's list, moved (a copy retains every field).
    func endRun() {
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
    // MARK: - Reader primitives

    private func next() -> Bool {
        guard status == 1 else { return false }
        status = xmlTextReaderRead(reader)
        return status == 1
    }

    private var nodeType: Int32 { xmlTextReaderNodeType(reader) }

    var currentLine: Int {
        guard let node = xmlTextReaderCurrentNode(reader) else { return Int(xmlTextReaderGetParserLineNumber(reader)) }
        return Int(xmlGetLineNo(node))
    }

    /// The tag of a qualified name (`xmlTextReaderConstName`, not the local name), so that another
    /// vocabulary's `x:rating` inside a programme is not taken for XMLTV's `rating`.
    func tag(of name: UnsafePointer<xmlChar>?) -> Tag {
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
    func forEachAttribute(_ body: (Tag, UnsafePointer<xmlChar>) -> Void) {
        guard xmlTextReaderMoveToFirstAttribute(reader) == 1 else { return }
        repeat {
            if let value = xmlTextReaderConstValue(reader) {
                body(tag(of: xmlTextReaderConstName(reader)), value)
            }
        } while xmlTextReaderMoveToNextAttribute(reader) == 1
        xmlTextReaderMoveToElement(reader)
    }

    func attribute(_ wanted: Tag) -> String? {
        var found: String?
        forEachAttribute { tag, value in
            if tag == wanted, found == nil { found = nonEmpty(string(value)) }
        }
        return found
    }

    /// Calls `body` with each child element of the current element; `body` may read the child's
    /// content. Leaves the reader on the current element's end tag.
    func readChildren(_ body: (Tag) -> Void) {
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

    func localizedText() -> LocalizedText {
        let lang = attribute(.lang)
        return LocalizedText(readText(), lang: lang)
    }

    /// The text directly inside the current element (not inside its child elements, as in a
    /// credit's `<url>`), trimmed. Leaves the reader on the element's end tag.
    func readText() -> String {
        readText(children: { _ in })
    }

    /// `readText`, handing each child element to `child` (which may read it) instead of skipping
    /// it. The text so far is set aside while a child is read, since `child` reads text too.
    func readText(children child: (Tag) -> Void) -> String {
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
    func string(_ value: UnsafePointer<xmlChar>) -> String {
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

    func skipSubtree(depth: Int32) {
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

/// Collects libxml2's errors for one reader; the first fatal one is what the user is told.
final class ErrorSink {
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

@inline(__always)
func buffer(_ value: UnsafePointer<xmlChar>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: value, count: strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)))
}

func isBlank(_ value: UnsafePointer<xmlChar>) -> Bool {
    buffer(value).allSatisfy(isXMLSpace)
}

func nonEmpty(_ text: String) -> String? {
    text.isEmpty ? nil : text
}

/// The bytes as a String without surrounding XML whitespace; invalid UTF-8 (which libxml2 has
/// already refused) would be repaired, never trapped on.
func trimmedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
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
func isXMLSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}
