import Foundation
import GuideCore
import GuideStorage

/// The HTTP cache on disk: one file per URL in a directory, shared by every run and process on
/// the machine.
///
/// An entry file is one line of JSON metadata, a newline, then the body bytes, so that a single
/// atomic rename (`AtomicFile`) publishes metadata and body together: a crash leaves the old entry
/// or the new one, never half of either, and perhaps a temporary file that a later write removes.
/// The file name is a FNV-1a hash of the URL without its credentials; the metadata repeats that
/// URL and `HTTPCache` checks it, so a hash collision is a miss, not a wrong answer.
package struct HTTPCacheFolder: HTTPCacheStorage {
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    package func entry(for key: HTTPCacheKey) async -> HTTPCacheEntry? {
        guard let data = try? Data(contentsOf: fileURL(forIdentity: key.identity)),
              let newline = data.firstIndex(of: UInt8(ascii: "\n")),
              let metadata = try? Self.decoder.decode(HTTPCacheEntry.Metadata.self, from: data[data.startIndex..<newline])
        else { return nil }
        return HTTPCacheEntry(metadata: metadata, body: Data(data[data.index(after: newline)...]))
    }

    package func store(_ entry: HTTPCacheEntry, for key: HTTPCacheKey) async throws(CacheStorageError) {
        do {
            var contents = try Self.encoder.encode(entry.metadata)
            contents.append(UInt8(ascii: "\n"))
            contents.append(entry.body)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            sweepIfDue()
            try AtomicFile.write(contents, to: fileURL(forIdentity: key.identity))
        } catch {
            throw .unwritable(cache: "the HTTP cache \(directory.path)", reason: "\(error)")
        }
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

/// When each cache folder was last swept, shared by every `HTTPCacheFolder` value of the process.
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
