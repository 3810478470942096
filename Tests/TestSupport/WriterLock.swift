import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file as a live writer holds it: open, with the exclusive `flock` that
/// `AtomicFile.write` keeps from creation to rename. Another open file description (a cleaner,
/// even in this process) cannot take the lock until `release()`.
package final class WriterLock {
    private var fd: Int32

    package init(_ url: URL) throws {
        fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    package func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
