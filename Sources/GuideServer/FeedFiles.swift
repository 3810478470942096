import Foundation
import GuideCore
import GuideStorage
import NIOConcurrencyHelpers

/// The served guide's XMLTV feeds as files: the whole guide's and each line-up's, plain and
/// gzip, written once per guide version, in the background, as soon as the guide is served,
/// and sent from disk. A feed is hundreds of megabytes at thousands of channels: held in
/// memory it would be most of the server's, and rendered on the first request it would keep
/// that client waiting for seconds.
///
/// Files are named by the guide's version and never change once written (a write goes to a
/// temporary name, then is renamed), so a request gets a whole file of one guide or another,
/// never a partial one. While a new guide's files are written, requests get the previous
/// guide's; with none (the first start), they wait for the write.
final class FeedFiles: Sendable {
    /// A written feed: plain and gzip.
    struct Feed: Sendable {
        let plain: FeedFile
        let compressed: FeedFile
    }

    private struct State {
        var version: String?
        var current: [String: Feed] = [:]
        var previous: [String: Feed] = [:]
        /// Why a feed of the current version could not be written.
        var failures: [String: String] = [:]
        var waiting: [String: [CheckedContinuation<Result<Feed, FeedUnavailable>, Never>]] = [:]
    }

    let directory: URL
    private let lineups: [String: [String]]
    private let write: XMLTVFileWriter
    private let state = NIOLockedValueBox(State())
    /// One guide's feeds are written at a time, off Swift's cooperative threads: rendering is
    /// seconds of CPU that would otherwise hold one of the threads requests are answered on.
    private let queue = DispatchQueue(label: "tvguide.feeds", qos: .utility)

    /// - Parameters:
    ///   - directory: where the files go (beside the snapshots, or in the cache folder); made
    ///     when missing.
    ///   - lineups: providers.yaml's line-ups, each of which gets a feed.
    init(directory: URL, lineups: [String: [String]], write: @escaping XMLTVFileWriter) {
        self.directory = directory
        self.lineups = lineups
        self.write = write
    }

    /// The feed keys: "" for the whole guide, a line-up's name for its own.
    var keys: [String] { [""] + lineups.keys.sorted() }

    /// Starts writing `index`'s feeds, unless they are being written or are there already (a
    /// restart serving the same guide finds them). The previous guide's stay served meanwhile.
    func serve(_ index: GuideIndex) {
        let started: Bool = state.withLockedValue { state in
            guard state.version != index.version else { return false }
            state.version = index.version
            if !state.current.isEmpty { state.previous = state.current }
            state.current = [:]
            state.failures = [:]
            return true
        }
        guard started else { return }
        queue.async { [self] in writeAll(index) }
    }

    /// The feed of `key` to send now: the current guide's, else the previous guide's; nil while
    /// neither is written. What the fast lane sends, without waiting.
    func ready(_ key: String) -> Feed? {
        state.withLockedValue { $0.current[key] ?? $0.previous[key] }
    }

    /// The feed of `key`, waiting for the current guide's when no file is there yet.
    func feed(_ key: String) async -> Result<Feed, FeedUnavailable> {
        await withCheckedContinuation { continuation in
            let answer: Result<Feed, FeedUnavailable>? = state.withLockedValue { state in
                if let feed = state.current[key] ?? state.previous[key] { return .success(feed) }
                if let failure = state.failures[key] { return .failure(FeedUnavailable(reason: failure)) }
                if state.version == nil { return .failure(FeedUnavailable(reason: "no guide is loaded yet")) }
                state.waiting[key, default: []].append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    // MARK: Writing

    private func writeAll(_ index: GuideIndex) {
        let folder = directory.appendingPathComponent(index.version, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            for key in keys { finish(key, version: index.version, .failure(FeedUnavailable(reason: "cannot make \(folder.path): \(error)"))) }
            return
        }
        for key in keys {
            guard isCurrent(index.version) else { return }
            finish(key, version: index.version, writeFeed(key, of: index, in: folder))
        }
        // The buffers of a render go back to the system rather than stay in the heap's free lists.
        FreedMemory.release()
        removeOtherVersions()
    }

    private func writeFeed(_ key: String, of index: GuideIndex, in folder: URL) -> Result<Feed, FeedUnavailable> {
        let name = Self.fileName(key)
        let plain = folder.appendingPathComponent(name + ".xml")
        let compressed = folder.appendingPathComponent(name + ".xml.gz")
        if let feed = try? Feed(plain: FeedFile(plain, contentType: FeedFile.xmlType), compressed: FeedFile(compressed, contentType: FeedFile.gzipType)) {
            return .success(feed)
        }
        let partial = ".partial-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        let plainPartial = folder.appendingPathComponent(name + ".xml" + partial)
        let compressedPartial = folder.appendingPathComponent(name + ".xml.gz" + partial)
        do {
            let keeping = key.isEmpty ? nil : Set(lineups[key] ?? [])
            try write(index.snapshot, keeping, plainPartial, compressedPartial)
            // The gzip first: a plain file found at start-up means both were written.
            try Self.rename(compressedPartial, to: compressed)
            try Self.rename(plainPartial, to: plain)
            return .success(Feed(plain: try FeedFile(plain, contentType: FeedFile.xmlType),
                                 compressed: try FeedFile(compressed, contentType: FeedFile.gzipType)))
        } catch {
            try? FileManager.default.removeItem(at: plainPartial)
            try? FileManager.default.removeItem(at: compressedPartial)
            return .failure(FeedUnavailable(reason: "the XMLTV feed could not be written to \(folder.path): \(error)"))
        }
    }

    private func finish(_ key: String, version: String, _ result: Result<Feed, FeedUnavailable>) {
        let waiting: [CheckedContinuation<Result<Feed, FeedUnavailable>, Never>] = state.withLockedValue { state in
            guard state.version == version else { return [] }
            switch result {
            case .success(let feed): state.current[key] = feed
            case .failure(let failure): state.failures[key] = failure.reason
            }
            return state.waiting.removeValue(forKey: key) ?? []
        }
        for continuation in waiting { continuation.resume(returning: result) }
    }

    private func isCurrent(_ version: String) -> Bool {
        state.withLockedValue { $0.version == version }
    }

    /// Removes the folders of guides neither served nor the one before.
    private func removeOtherVersions() {
        let kept: Set<String> = state.withLockedValue { state in
            Set(([state.version] + (state.current.values.map(\.plain.version) + state.previous.values.map(\.plain.version))).compactMap { $0 })
        }
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for folder in folders where GuideVersion.isVersion(folder) && !kept.contains(folder) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(folder, isDirectory: true))
        }
    }

    private static func rename(_ from: URL, to: URL) throws {
        guard Foundation.rename(from.path, to.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: to.path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
    }

    /// `xmltv` for the whole guide, `xmltv-lineup-NAME` for a line-up: the name's letters,
    /// digits, `-` and `_` kept and the rest as hex, so that any name is a file name and two
    /// names never share one.
    static func fileName(_ key: String) -> String {
        guard !key.isEmpty else { return "xmltv" }
        let safe = key.unicodeScalars.map { scalar -> String in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-") ? String(scalar)
                : scalar.utf8Bytes.map { "_" + String($0, radix: 16, uppercase: true) }.joined()
        }
        return "xmltv-lineup-" + safe.joined()
    }
}

/// Why a feed cannot be sent: no guide yet, or its files could not be written (a full disk).
struct FeedUnavailable: Error, Sendable {
    let reason: String
}

/// The names of the guide versions' folders: a version is 16 hex digits or fewer.
enum GuideVersion {
    static func isVersion(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 16 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

private extension Unicode.Scalar {
    var utf8Bytes: [UInt8] { Array(String(self).utf8) }
}
