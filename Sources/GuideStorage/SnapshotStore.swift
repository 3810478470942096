import Foundation
import GuideCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of snapshots: `latest.json` plus dated `guide-<CompactTime of generatedAt>.json`
/// files, the newest `keep` of them kept, and `latest.packed`, the binary companion of
/// `latest.json` that `loadLatest` reads while `latest.json` is the file it was made for
/// (`PackedSnapshot`). Every file is written with `AtomicFile`, so that a crash or a full disk
/// leaves either the old file or the new one, never a torn one.
package struct SnapshotStore: Sendable {
    package let directory: URL
    /// How many dated files to keep; below 1 counts as 1, so the snapshot just written stays.
    package let keep: Int

    package static let latestName = "latest.json"
    package static let packedName = "latest.packed"
    static let datedPrefix = "guide-"
    static let datedSuffix = ".json"

    package init(directory: URL, keep: Int) {
        self.directory = directory
        self.keep = max(1, keep)
    }

    package var latestURL: URL { directory.appendingPathComponent(Self.latestName) }
    package var packedURL: URL { directory.appendingPathComponent(Self.packedName) }

    package func datedURL(for generatedAt: Date) -> URL {
        directory.appendingPathComponent(Self.datedPrefix + CompactTime.format(generatedAt) + Self.datedSuffix)
    }

    /// Writes the dated file, then `latest.json`, then its companion `latest.packed`, then
    /// prunes old dated files; returns the dated file. Nothing is replaced when encoding or the
    /// dated write fails, so `latest.json` is always the last snapshot that was written whole.
    @discardableResult
    package func write(_ snapshot: Snapshot) throws -> URL {
        let canonical = SnapshotCodec.canonical(snapshot)
        let dated = datedURL(for: snapshot.generatedAt)
        let writeJSON = { (write: (UnsafeRawBufferPointer) throws -> Void) throws in
            try SnapshotCodec.write(canonical: canonical, to: write)
        }
        try createDirectory()
        AtomicFile.removeAbandonedTemporaryFiles(in: directory)
        // The companion is written meanwhile too, all but the identity of the JSON it is for.
        let (_, companion) = try concurrently({
            try AtomicFile.write(to: dated, writeJSON)
            try AtomicFile.link(dated, to: latestURL, orWrite: writeJSON)
        }, { [packedURL] in
            try? AtomicFile.Unplaced(packedURL) { write in
                try PackedSnapshot.Contents(canonical: canonical).write(for: PackedSnapshot.Identity.unknown, to: write)
            }
        })
        placeCompanion(companion)
        try prune()
        return dated
    }

    /// The snapshot in `latest.json`, or nil when there is none yet: read from `latest.packed`
    /// when that was made for this `latest.json`, else from the JSON.
    package func loadLatest() throws -> Snapshot? {
        guard FileManager.default.fileExists(atPath: latestURL.path) else { return nil }
        if let identity = PackedSnapshot.Identity(of: latestURL), let packed = try? Data(contentsOf: packedURL, options: .alwaysMapped),
           let snapshot = PackedSnapshot.decode(packed, expecting: identity) {
            return snapshot
        }
        return try Self.load(latestURL)
    }

    /// The companion only spares the next reader the JSON's parse: when it cannot be made or
    /// written (a full disk), the build still stands, and the stale companion is removed; were the
    /// removal to fail too, its identity no longer matches `latest.json` and it is not read.
    private func placeCompanion(_ companion: AtomicFile.Unplaced?) {
        guard let companion, let identity = PackedSnapshot.Identity(of: latestURL),
              (try? companion.place(patching: identity.bytes, at: PackedSnapshot.identityOffset)) != nil
        else {
            unlink(packedURL.path)
            return
        }
    }

    /// Any snapshot file, in a store or not.
    package static func load(_ url: URL) throws -> Snapshot {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SnapshotError.io(file: url.path, operation: "read", detail: reason(error))
        }
        do {
            return try SnapshotCodec.decode(data)
        } catch let error as SnapshotError {
            throw error.naming(url.path)
        }
    }

    /// The dated files, newest first (their names sort by time). Empty when the folder is missing.
    package func list() -> [URL] {
        datedNames().sorted(by: >).map { directory.appendingPathComponent($0) }
    }

    // MARK: -

    private func createDirectory() throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw SnapshotError.io(file: directory.path, operation: "create the snapshot folder", detail: Self.reason(error))
        }
    }

    private func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    private func datedNames() -> [String] {
        names().filter { $0.hasPrefix(Self.datedPrefix) && $0.hasSuffix(Self.datedSuffix) }
    }

    private func prune() throws {
        for name in datedNames().sorted(by: >).dropFirst(keep) {
            let path = directory.appendingPathComponent(name).path
            guard unlink(path) == 0 || errno == ENOENT else {
                throw SnapshotError.io(file: path, operation: "remove", detail: AtomicFile.errnoText())
            }
        }
    }

    static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}
