import Foundation
import GuideCore

/// Metadata lookups on disk: one file per provider, `<directory>/metadata/<provider id>.json`,
/// holding the provider's settings fingerprint and, per query key, its answer. A file is written
/// whole, atomically, with sorted keys, so equal contents give equal bytes.
package struct MetadataLookupFolder: MetadataLookupStorage {
    /// The folder holding the per-provider files (`<directory>/metadata`).
    package let folder: URL

    package init(directory: URL) {
        folder = directory.appendingPathComponent("metadata", isDirectory: true)
    }

    package func fileURL(for provider: String) -> URL {
        let safe = String(provider.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        return folder.appendingPathComponent(safe + ".json", isDirectory: false)
    }

    package func answers(provider: String, fingerprint: String) async throws(CacheStorageError) -> [String: StoredMetadataLookup] {
        let url = fileURL(for: provider)
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        let contents: Contents
        do {
            contents = try Self.decoder.decode(Contents.self, from: Data(contentsOf: url))
        } catch {
            throw .unreadable(cache: "the lookup cache \(url.path)", reason: Self.reason(error))
        }
        guard contents.version == Self.version, contents.fingerprint == fingerprint else {
            throw .otherSettings(cache: "the lookup cache \(url.path)")
        }
        return contents.entries
    }

    package func save(provider: String, fingerprint: String, answers: [String: StoredMetadataLookup], changed: Set<String>,
                      expiredUpTo: Date) async throws(CacheStorageError) {
        let url = fileURL(for: provider)
        do {
            let data = try Self.encoder.encode(Contents(version: Self.version, provider: provider, fingerprint: fingerprint, entries: answers))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AtomicFile.write(data, to: url)
        } catch {
            throw .unwritable(cache: "the lookup cache \(url.path)", reason: "\(error)")
        }
    }

    package func removeAbandonedWrites() async {
        AtomicFile.removeAbandonedTemporaryFiles(in: folder)
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

    private struct Contents: Codable {
        var version: Int
        var provider: String
        var fingerprint: String
        var entries: [String: StoredMetadataLookup]
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

extension MetadataLookupCache {
    /// A cache in the folder `<directory>/metadata`.
    package init(directory: URL, ttl: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(storage: MetadataLookupFolder(directory: directory), ttl: ttl, now: now)
    }
}
