import Foundation
import GuideCore

/// An on-disk HTTP cache: one file per URL in a directory, shared by every run and process.
///
/// An entry file is one line of JSON metadata, a newline, then the body bytes, so that a single
/// atomic rename (`AtomicFile`) publishes metadata and body together: a crash leaves the old entry
/// or the new one, never half of either, and perhaps a temporary file that a later write removes.
/// The file name is a FNV-1a hash of the URL without its credentials; the metadata repeats that
/// URL and a read checks it, so a hash collision is a miss, not a wrong answer.
package struct HTTPCache: Sendable {
    /// What the cache knows about one stored response.
    package struct Metadata: Codable, Sendable, Hashable {
        /// The URL without credential query items or user-info (`URLRedaction.withoutSecrets`).
        package var url: String
        package var etag: String?
        package var lastModified: String?
        /// When the body was last fetched or confirmed unchanged (304).
        package var fetchedAt: Date
        package var contentType: String?
        /// Guards against a truncated file from outside (a copy, a full disk).
        package var bodyLength: Int

        package init(url: String, etag: String?, lastModified: String?, fetchedAt: Date, contentType: String?, bodyLength: Int) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.fetchedAt = fetchedAt
            self.contentType = contentType
            self.bodyLength = bodyLength
        }
    }

    package struct Entry: Sendable, Hashable {
        package var metadata: Metadata
        package var body: Data
    }

    package let directory: URL
    /// Values never written to disk (API keys and tokens from the environment): hidden in the
    /// stored URL, where a user's `${VAR}` can sit in the path, and a body holding one (a server
    /// echoing the request) is not stored at all.
    package var secrets = SecretScrubber([])

    /// A cache in `directory`, created on first write.
    package init(directory: URL) {
        self.directory = directory
    }

    /// The stored entry for `url`, or nil when there is none or it is unreadable.
    package func entry(for url: URL) -> Entry? {
        let identity = URLRedaction.withoutSecrets(url)
        guard let data = try? Data(contentsOf: fileURL(forIdentity: identity)),
              let newline = data.firstIndex(of: UInt8(ascii: "\n")),
              let metadata = try? Self.decoder.decode(Metadata.self, from: data[data.startIndex..<newline])
        else { return nil }
        let body = Data(data[data.index(after: newline)...])
        guard metadata.url == secrets.scrub(identity), metadata.bodyLength == body.count else { return nil }
        return Entry(metadata: metadata, body: body)
    }

    /// Stores `body` for `url`, replacing any previous entry atomically.
    @discardableResult
    package func store(_ body: Data, for url: URL, etag: String?, lastModified: String?, contentType: String?, fetchedAt: Date) throws -> Entry {
        let metadata = Metadata(
            url: secrets.scrub(URLRedaction.withoutSecrets(url)),
            etag: etag,
            lastModified: lastModified,
            fetchedAt: fetchedAt,
            contentType: contentType,
            bodyLength: body.count
        )
        guard !secrets.holdsLongSecret(body) else { return Entry(metadata: metadata, body: body) }
        var contents = try Self.encoder.encode(metadata)
        contents.append(UInt8(ascii: "\n"))
        contents.append(body)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        sweepIfDue()
        try AtomicFile.write(contents, to: fileURL(for: url))
        return Entry(metadata: metadata, body: body)
    }

    /// The entry file for `url` (whether or not it exists).
    package func fileURL(for url: URL) -> URL {
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

    /// Removes the temporary files of writes a crash cut off, at the first write of a process and
    /// then at most every ten minutes: a long-running server sweeps too, without listing a large
    /// folder on every write.
    private func sweepIfDue() {
        guard Self.sweeps.isDue(directory.path) else { return }
        AtomicFile.removeAbandonedTemporaryFiles(in: directory)
    }

    private static let sweeps = SweepSchedule()

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

/// When each cache folder was last swept, shared by every `HTTPCache` value of the process.
private final class SweepSchedule: @unchecked Sendable {
    // Guards `last`.
    private let lock = NSLock()
    private var last: [String: ContinuousClock.Instant] = [:]
    private static let interval: Duration = .seconds(600)

    /// True, and the sweep counted as done, when `directory` was never swept or not for a while.
    /// Monotonic time: a wall clock stepped back would postpone sweeps indefinitely.
    func isDue(_ directory: String) -> Bool {
        let now = ContinuousClock.now
        lock.lock()
        defer { lock.unlock() }
        if let previous = last[directory], now - previous < Self.interval { return false }
        last[directory] = now
        return true
    }
}
