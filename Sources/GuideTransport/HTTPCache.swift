import Foundation
import GuideCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An on-disk HTTP cache: one file per URL in a directory, shared by every run and process.
///
/// An entry file is one line of JSON metadata, a newline, then the body bytes, so that a single
/// atomic rename publishes metadata and body together: a crash leaves the old entry or the new
/// one, never half of either. The file name is a FNV-1a hash of the URL without its credentials;
/// the metadata repeats that URL and a read checks it, so a hash collision is a miss, not a
/// wrong answer.
public struct HTTPCache: Sendable {
    /// What the cache knows about one stored response.
    public struct Metadata: Codable, Sendable, Hashable {
        /// The URL without credential query items or user-info (`URLRedaction.withoutSecrets`).
        public var url: String
        public var etag: String?
        public var lastModified: String?
        /// When the body was last fetched or confirmed unchanged (304).
        public var fetchedAt: Date
        public var contentType: String?
        /// Guards against a truncated file from outside (a copy, a full disk).
        public var bodyLength: Int

        public init(url: String, etag: String?, lastModified: String?, fetchedAt: Date, contentType: String?, bodyLength: Int) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.fetchedAt = fetchedAt
            self.contentType = contentType
            self.bodyLength = bodyLength
        }
    }

    public struct Entry: Sendable, Hashable {
        public var metadata: Metadata
        public var body: Data
    }

    public let directory: URL

    /// A cache in `directory`, created on first write.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The stored entry for `url`, or nil when there is none or it is unreadable.
    public func entry(for url: URL) -> Entry? {
        let identity = URLRedaction.withoutSecrets(url)
        guard let data = try? Data(contentsOf: fileURL(forIdentity: identity)),
              let newline = data.firstIndex(of: UInt8(ascii: "\n")),
              let metadata = try? Self.decoder.decode(Metadata.self, from: data[data.startIndex..<newline])
        else { return nil }
        let body = Data(data[data.index(after: newline)...])
        guard metadata.url == identity, metadata.bodyLength == body.count else { return nil }
        return Entry(metadata: metadata, body: body)
    }

    /// Stores `body` for `url`, replacing any previous entry atomically.
    @discardableResult
    public func store(_ body: Data, for url: URL, etag: String?, lastModified: String?, contentType: String?, fetchedAt: Date) throws -> Entry {
        let metadata = Metadata(
            url: URLRedaction.withoutSecrets(url),
            etag: etag,
            lastModified: lastModified,
            fetchedAt: fetchedAt,
            contentType: contentType,
            bodyLength: body.count
        )
        var contents = try Self.encoder.encode(metadata)
        contents.append(UInt8(ascii: "\n"))
        contents.append(body)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.writeAtomically(contents, to: fileURL(forIdentity: metadata.url))
        return Entry(metadata: metadata, body: body)
    }

    /// The entry file for `url` (whether or not it exists).
    public func fileURL(for url: URL) -> URL {
        fileURL(forIdentity: URLRedaction.withoutSecrets(url))
    }

    private func fileURL(forIdentity identity: String) -> URL {
        directory.appendingPathComponent(Self.key(for: identity) + ".entry", isDirectory: false)
    }

    /// 64-bit FNV-1a as 16 hex digits: stable across runs and platforms, unlike `Hasher`, and
    /// collisions are harmless (see the type's comment), so no cryptographic hash is needed.
    static func key(for identity: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Temp file in the same directory, fsync, rename over the target, fsync the directory.
    static func writeAtomically(_ contents: Data, to target: URL) throws {
        let directory = target.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: contents)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        let directoryDescriptor = open(directory.path, O_RDONLY)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
