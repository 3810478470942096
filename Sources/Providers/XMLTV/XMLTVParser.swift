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
