import Foundation
import GuideCore
import GuideStorage

/// A guide read from one XMLTV document: a local file (`file://` or a path, `.gz` too) or an
/// `http(s)://` URL fetched through the transport. The document is fetched and parsed once per
/// provider; every `channels()` and `schedule(for:in:)` call, concurrent ones included, shares it.
package struct XMLTVProvider: GuideProvider {
    package let id: String
    package let source: URL
    private let transport: (any HTTPTransport)?
    private let loader: DocumentLoader

    package init(id: String, source: URL, transport: (any HTTPTransport)?) {
        self.id = id
        self.source = source
        self.transport = transport
        self.loader = DocumentLoader()
    }

    package func channels() async throws -> [Channel] {
        try await loaded().document.channels
    }

    package func schedule(for channel: ChannelRef, in window: DateInterval) async throws -> [Programme] {
        let loaded = try await loaded()
        let span = TimeWindow(from: window.start, to: window.end)
        let recorded = loaded.byChannel[channel.providerID] ?? []
        // The parsed array itself when nothing changes: copying 50,000 programmes costs more than parsing them.
        if channel.id == channel.providerID, recorded.allSatisfy({ $0.source == id && span.overlaps(start: $0.start, stop: $0.stop) }) {
            return recorded
        }
        return recorded.compactMap { programme in
            guard span.overlaps(start: programme.start, stop: programme.stop) else { return nil }
            var programme = programme
            programme.channel = channel.id
            programme.source = id
            return programme
        }
    }

    /// `parsed 3501 programmes on 24 channels from sample.xml, skipped 2 (1 unparsable start, 1 unknown channel)`.
    package func reportNotes() async -> [String] {
        guard let loaded = try? await loaded() else { return [] }
        let document = loaded.document
        var note = "parsed \(Self.count(loaded.programmeCount, "programme")) on "
            + "\(Self.count(document.channels.count, "channel")) from \(loaded.name)"
        if !document.skipped.isEmpty {
            note += ", skipped \(document.skipped.count) (\(document.skippedSummary))"
        }
        // The file's own <tv> attributes: an export names tvguide as its generator, so the
        // source's stay here, in the snapshot's run report.
        let info = document.info
        let described = [("date", info.date), ("source-info-name", info.sourceInfoName), ("source-info-url", info.sourceInfoURL),
                         ("source-data-url", info.sourceDataURL), ("generator-info-name", info.generatorInfoName),
                         ("generator-info-url", info.generatorInfoURL)]
            .compactMap { name, value in value.map { "\(name) '\($0)'" } }
        return described.isEmpty ? [note] : [note, "<tv> " + described.joined(separator: ", ")]
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    /// The whole document, parsed once.
    package func document() async throws -> XMLTVDocument {
        try await loaded().document
    }

    private func loaded() async throws -> LoadedDocument {
        try await loader.load { [source, transport, id] in
            try await Self.load(source, transport: transport, providerID: id)
        }
    }

    private static func load(_ url: URL, transport: (any HTTPTransport)?, providerID: String) async throws -> LoadedDocument {
        let parser = XMLTVParser(source: providerID)
        switch url.scheme?.lowercased() {
        case "file", nil:
            let file = url.scheme == nil ? URL(fileURLWithPath: url.path) : url
            return try await offCooperativeThreads {
                LoadedDocument(parts: try parser.parsedParts(contentsOf: file, byChannel: true), name: file.lastPathComponent)
            }
        case "http", "https":
            guard let transport else {
                throw ProviderError.notConfigured("\(providerID): no HTTP transport to fetch \(URLRedaction.redacted(url))")
            }
            let response = try await transport.get(url)
            do {
                return try await offCooperativeThreads {
                    LoadedDocument(parts: try parser.parsedParts(response.body, name: url.lastPathComponent, byChannel: true),
                                   name: URLRedaction.redacted(url))
                }
            } catch let error as ProviderError {
                throw ProviderError.htmlPage(in: response.body, contentType: response.headers["content-type"], expected: "XMLTV",
                                             source: URLRedaction.redacted(url)) ?? error
            }
        case let scheme?:
            throw ProviderError.notConfigured("\(providerID): XMLTV cannot read \(scheme):// URLs (\(URLRedaction.redacted(url)))")
        }
    }
}

struct LoadedDocument: Sendable {
    /// The document without its programmes, which are in `byChannel`: held once, not twice.
    var document: XMLTVDocument
    var programmeCount: Int
    /// The file name or URL, as the run report names it.
    var name: String
    /// Programmes by the source's channel id, in start order.
    var byChannel: [String: [Programme]]

    /// From parts grouped by channel (`XMLTVParser.parsedParts(…, byChannel: true)`): a
    /// channel's list is taken whole from the part that holds it, and only a channel split
    /// between parts has its airings copied.
    init(parts: [ParsedPart], name: String) {
        document = XMLTVDocument(merging: parts)
        self.name = name
        var byChannel: [String: [Programme]] = [:]
        var count = 0
        for part in parts {
            for (channel, programmes) in part.byChannel {
                count += programmes.count
                if byChannel[channel] == nil {
                    byChannel[channel] = programmes
                } else {
                    byChannel[channel]!.append(contentsOf: programmes)
                }
            }
        }
        for channel in Array(byChannel.keys) where !byChannel[channel]!.isSorted(by: { $0.start < $1.start }) {
            byChannel[channel] = byChannel[channel]!.stableSorted { $0.start < $1.start }
        }
        programmeCount = count
        self.byChannel = byChannel
    }
}

/// Runs the load once: the first caller starts it, later and concurrent callers await the same
/// task, and a failure is kept too, so a broken source is not fetched and parsed again per channel.
actor DocumentLoader {
    private var task: Task<LoadedDocument, any Error>?

    func load(_ work: @escaping @Sendable () async throws -> LoadedDocument) async throws -> LoadedDocument {
        if let task { return try await task.value }
        let task = Task { try await work() }
        self.task = task
        return try await task.value
    }
}
