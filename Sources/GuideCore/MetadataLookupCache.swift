import Foundation

/// Metadata providers' answers kept across runs, so that a run within the TTL of the last one
/// asks no provider at all.
///
/// One file per provider, `<directory>/metadata/<provider id>.json`: the provider's settings
/// fingerprint and, per query key, when the answer was fetched and the answer (found, no match or
/// ambiguous; errors are never kept). A file is read once, the first time its provider is asked,
/// and written once by `save()`, atomically, with sorted keys, so equal contents give equal bytes.
/// A file that cannot be read, or that was written for other settings (another fingerprint), is
/// ignored and replaced at the next save; it never fails a run.
package actor MetadataLookupCache {
    /// The folder holding the per-provider files (`<directory>/metadata`).
    package nonisolated let folder: URL
    /// Answers older than this many seconds are ignored; 0 or less disables the cache.
    package nonisolated let ttl: TimeInterval
    private let now: @Sendable () -> Date
    private var files: [String: ProviderFile] = [:]
    private var notes: [String: [String]] = [:]

    package init(directory: URL, ttl: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = directory.appendingPathComponent("metadata", isDirectory: true)
        self.ttl = ttl
        self.now = now
    }

    package nonisolated func fileURL(for provider: String) -> URL {
        let safe = String(provider.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        return folder.appendingPathComponent(safe + ".json", isDirectory: false)
    }

    /// The answer `provider` gave to `key` within the TTL, under the same `fingerprint`.
    package func answer(provider: String, fingerprint: String, key: MetadataQueryKey) -> MetadataLookup? {
        guard ttl > 0, let entry = file(provider, fingerprint).entries[key.rawValue] else { return nil }
        let age = now().timeIntervalSince(entry.fetchedAt)
        guard age >= 0, age < ttl else { return nil }
        return entry.lookup
    }

    package func store(_ lookup: MetadataLookup, provider: String, fingerprint: String, key: MetadataQueryKey) {
        guard ttl > 0 else { return }
        var file = file(provider, fingerprint)
        file.entries[key.rawValue] = Entry(lookup, fetchedAt: now())
        file.changed = true
        files[provider] = file
    }

    /// Writes the file of every provider that got new answers, leaving out those past the TTL,
    /// and removes what a crashed run left half-written. A failed write is reported in
    /// `notes(for:)`; the run goes on.
    package func save() {
        let now = now()
        AtomicFile.removeAbandonedTemporaryFiles(in: folder)
        for (provider, var file) in files.sorted(by: { $0.key < $1.key }) where file.changed {
            file.entries = file.entries.filter { _, entry in
                let age = now.timeIntervalSince(entry.fetchedAt)
                return age >= 0 && age < ttl
            }
            let url = fileURL(for: provider)
            do {
                let data = try Self.encoder.encode(Contents(version: Self.version, provider: provider, fingerprint: file.fingerprint, entries: file.entries))
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try AtomicFile.write(data, to: url)
                file.changed = false
                files[provider] = file
            } catch {
                note(provider, "could not write the lookup cache \(url.path): \(error)")
            }
        }
    }

    /// What happened to `provider`'s file: ignored because unreadable or made for other
    /// settings, or not written.
    package func notes(for provider: String) -> [String] {
        notes[provider] ?? []
    }

    // MARK: -

    private func file(_ provider: String, _ fingerprint: String) -> ProviderFile {
        if let loaded = files[provider], loaded.fingerprint == fingerprint { return loaded }
        let loaded = load(provider, fingerprint)
        files[provider] = loaded
        return loaded
    }

    private func load(_ provider: String, _ fingerprint: String) -> ProviderFile {
        let empty = ProviderFile(fingerprint: fingerprint)
        let url = fileURL(for: provider)
        guard FileManager.default.fileExists(atPath: url.path) else { return empty }
        let contents: Contents
        do {
            contents = try Self.decoder.decode(Contents.self, from: Data(contentsOf: url))
        } catch {
            note(provider, "the lookup cache \(url.path) is unreadable and was ignored: \(Self.reason(error))")
            return empty
        }
        guard contents.version == Self.version, contents.fingerprint == fingerprint else {
            note(provider, "the lookup cache \(url.path) was made with other settings and was ignored")
            return empty
        }
        return ProviderFile(fingerprint: fingerprint, entries: contents.entries)
    }

    private func note(_ provider: String, _ text: String) {
        notes[provider, default: []].append(text)
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): "not JSON (\(context.debugDescription))"
        case DecodingError.keyNotFound(let key, _): "no \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "unexpected value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: (error as NSError).localizedDescription
        }
    }

    static let version = 1

    private struct ProviderFile {
        var fingerprint: String
        var entries: [String: Entry] = [:]
        var changed = false
    }

    private struct Contents: Codable {
        var version: Int
        var provider: String
        var fingerprint: String
        var entries: [String: Entry]
    }

    private struct Entry: Codable {
        enum Outcome: String, Codable { case found, noMatch, ambiguous }
        var fetchedAt: Date
        var outcome: Outcome
        var metadata: Metadata?
        var match: MetadataMatch?
        var candidates: [String]?

        init(_ lookup: MetadataLookup, fetchedAt: Date) {
            self.fetchedAt = fetchedAt
            switch lookup {
            case .found(let metadata, let match):
                outcome = .found
                self.metadata = metadata
                self.match = match
            case .noMatch:
                outcome = .noMatch
            case .ambiguous(let candidates):
                outcome = .ambiguous
                self.candidates = candidates
            }
        }

        /// Nil for an entry that says found but lacks its metadata (edited by hand): a miss.
        var lookup: MetadataLookup? {
            switch outcome {
            case .found: metadata.flatMap { metadata in match.map { .found(metadata, $0) } }
            case .noMatch: .noMatch
            case .ambiguous: .ambiguous(candidates ?? [])
            }
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
