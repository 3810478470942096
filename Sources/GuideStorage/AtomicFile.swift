import Foundation
import GuideCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files replaced whole, for every store that must survive a crash (snapshots, the HTTP cache,
/// the metadata lookup cache): a temporary file in the same folder, written, fsynced, renamed over
/// the target, and the folder fsynced, so that a crash or a full disk leaves either the old file
/// or the new one, never a torn one. `Data.write(options: .atomic)` renames but does not fsync,
/// hence the POSIX calls.
///
/// A crash between creating the temporary file and renaming it leaves the temporary file behind:
/// readers never see it (its name is not a store's), and `removeAbandonedTemporaryFiles(in:)`
/// clears such leftovers.
package enum AtomicFile {
    static let temporarySuffix = ".tmp"

    /// Temporary files are `.<target>.<pid>.<random>.tmp`, and their writer holds an exclusive
    /// `flock` on each from creation to rename. The kernel drops the lock when the writer dies,
    /// however it dies, so a temporary file whose lock can be taken was abandoned. Neither a clock
    /// (a jump forward would make a live write look old) nor a pid (reused, and pid 1 in every
    /// container run) can tell that.
    package static func removeAbandonedTemporaryFiles(in directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(temporarySuffix) {
            let path = directory.appendingPathComponent(name).path
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                unlink(path)
            }
            close(fd)
        }
    }

    static func temporaryURL(for target: URL) -> URL {
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(getpid()).\(random)\(temporarySuffix)")
    }

    /// Replaces `target` with `data`: afterwards it holds the old bytes or all of the new ones.
    package static func write(_ data: some ContiguousBytes, to target: URL) throws(SnapshotError) {
        try write(to: target) { write in try data.withUnsafeBytes(write) }
    }

    /// Replaces `target` with what `produce` writes, a piece at a time, through the function it
    /// is given: afterwards `target` holds the old bytes or all of the new ones. `produce` runs
    /// again if the write is retried; nothing is replaced when it throws.
    package static func write(to target: URL, retrying: Bool = true,
                              _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws(SnapshotError) {
        let file = try Unplaced(target, produce)
        do {
            try file.place()
        } catch Unplaced.Failure.vanished where retrying {
            return try write(to: target, retrying: false, produce)
        } catch {
            throw file.failure(error)
        }
        try syncDirectory(target.deletingLastPathComponent())
    }

    /// A temporary file written whole but not yet renamed over its target: `write(to:)` in two
    /// steps, for a file some bytes of which are known only once something else is done (a
    /// snapshot companion names the JSON written meanwhile). One dropped unplaced is removed.
    /// Unchecked Sendable: the one that wrote it hands it to the one that places it, and the
    /// descriptor is given up under the lock.
    package final class Unplaced: @unchecked Sendable {
        private let target: URL
        private let temporary: URL
        private let lock = NSLock()
        /// Open until the file is placed or removed.
        private var descriptor: Int32?

        enum Failure: Error {
            /// Failed, with `errno`: `operation` names what, as `SnapshotError.io` does.
            case failed(operation: String, code: Int32)
            /// The temporary file was gone at the rename: a cleaner took it between `open` and `flock`.
            case vanished
        }

        /// Writes what `produce` writes into a new temporary file beside `target`.
        package init(_ target: URL, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws(SnapshotError) {
            self.target = target
            temporary = temporaryURL(for: target)
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw SnapshotError.io(file: target.path, operation: "create a temporary file for", detail: errnoText()) }
            descriptor = fd
            // Held until close: while it is, a cleaner in another process leaves the file alone.
            // Between open and flock a cleaner could still take it; the rename then fails with
            // ENOENT (`vanished`) and `write(to:)` retries once.
            _ = flock(fd, LOCK_EX)
            do {
                try produce { buffer throws(Failure) in
                    guard let base = buffer.baseAddress else { return }
                    var offset = 0
                    while offset < buffer.count {
                        let count = posixWrite(fd, base + offset, buffer.count - offset)
                        if count < 0 {
                            if errno == EINTR { continue }
                            throw Failure.failed(operation: "write", code: errno)
                        }
                        offset += count
                    }
                }
            } catch let failure as Failure {
                throw self.failure(failure)
            } catch {
                remove()
                throw SnapshotError.io(file: target.path, operation: "encode", detail: "\(error)")
            }
        }

        deinit {
            remove()
        }

        /// Writes `bytes` over what the file holds at `offset`, then syncs it and renames it over
        /// its target.
        package func place(patching bytes: [UInt8], at offset: Int) throws(SnapshotError) {
            do {
                try place(patching: (bytes, offset))
            } catch {
                throw failure(error)
            }
            try syncDirectory(target.deletingLastPathComponent())
        }

        fileprivate func place(patching patch: (bytes: [UInt8], offset: Int)? = nil) throws(Failure) {
            lock.lock()
            defer { lock.unlock() }
            guard let fd = descriptor else { throw Failure.failed(operation: "replace", code: EBADF) }
            if let patch {
                let written = patch.bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(patch.offset)) }
                guard written == patch.bytes.count else { throw Failure.failed(operation: "write", code: written < 0 ? errno : EIO) }
            }
            guard fsync(fd) == 0 else { throw Failure.failed(operation: "write", code: errno) }
            guard rename(temporary.path, target.path) == 0 else {
                throw errno == ENOENT ? Failure.vanished : Failure.failed(operation: "replace", code: errno)
            }
            descriptor = nil
            guard close(fd) == 0 else { throw Failure.failed(operation: "write", code: errno) }
        }

        /// The error `failure` is to the caller, the temporary file removed.
        fileprivate func failure(_ failure: Failure) -> SnapshotError {
            let error = switch failure {
            case .failed(let operation, let code): SnapshotError.io(file: target.path, operation: operation, detail: String(cString: strerror(code)))
            case .vanished: SnapshotError.io(file: target.path, operation: "replace", detail: String(cString: strerror(ENOENT)))
            }
            remove()
            return error
        }

        private func remove() {
            lock.withLock {
                guard let fd = descriptor else { return }
                unlink(temporary.path)
                close(fd)
                descriptor = nil
            }
        }
    }

    /// Points `target` at the file `source` through a hard link, swapped in by rename like a
    /// write: the same bytes without writing and syncing them twice. Where the file system has
    /// no hard links, writes what `produce` writes instead.
    static func link(_ source: URL, to target: URL,
                     orWrite produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws(SnapshotError) {
        let temporary = temporaryURL(for: target)
        guard posixLink(source.path, temporary.path) == 0 else {
            try write(to: target, produce)
            return
        }
        let fd = open(temporary.path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { _ = flock(fd, LOCK_EX) }
        defer { if fd >= 0 { close(fd) } }
        guard rename(temporary.path, target.path) == 0 else {
            if errno == ENOENT {
                try write(to: target, produce)
                return
            }
            let error = SnapshotError.io(file: target.path, operation: "replace", detail: errnoText())
            unlink(temporary.path)
            throw error
        }
        try syncDirectory(target.deletingLastPathComponent())
    }

    /// Makes the rename itself durable: without it a crash can bring back the old directory entry.
    static func syncDirectory(_ directory: URL) throws(SnapshotError) {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SnapshotError.io(file: directory.path, operation: "open", detail: errnoText()) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SnapshotError.io(file: directory.path, operation: "sync", detail: errnoText()) }
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}

/// `write(2)` and `link(2)`, which `AtomicFile.write` and `AtomicFile.link` hide inside the type.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

private func posixLink(_ source: String, _ target: String) -> Int32 {
    link(source, target)
}
