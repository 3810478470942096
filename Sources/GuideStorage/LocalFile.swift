import Foundation
import GuideCore

/// Reads a file the configuration names (an XMLTV guide, a playlist): a regular file, no larger
/// than `limit`. A directory, a FIFO or a device is named as such instead of being opened (a FIFO
/// would block, `/dev/zero` never end), and a failure says why in words, not a Cocoa error code.
package enum LocalFile {
    /// `mapped`: the bytes map the file (private, read-only) rather than being read into memory,
    /// so that a reader may hand pages it is done with back to the kernel (`MADV_DONTNEED`,
    /// which would zero memory of the process's own). Mapped here rather than by Foundation,
    /// whose `.alwaysMapped` does not promise a mapping.
    package static func read(_ url: URL, limit: Int, mapped: Bool = false) throws(LocalFileError) -> Data {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            throw LocalFileError(path: url.path, reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw LocalFileError(path: url.path, reason: "is a directory, not a file")
        case S_IFIFO: throw LocalFileError(path: url.path, reason: "is a FIFO (named pipe), not a file")
        case S_IFCHR, S_IFBLK: throw LocalFileError(path: url.path, reason: "is a device, not a file")
        default: throw LocalFileError(path: url.path, reason: "is not a regular file")
        }
        guard Int(status.st_size) <= limit else { throw tooLarge(url, size: Int(status.st_size), limit: limit) }
        // Root reads a file whatever its mode: asking access() gives the reason before Foundation's vaguer one.
        guard access(url.path, R_OK) == 0 else {
            throw LocalFileError(path: url.path, reason: String(cString: strerror(errno)))
        }
        if mapped { return try map(url, limit: limit) }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw LocalFileError(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func tooLarge(_ url: URL, size: Int, limit: Int) -> LocalFileError {
        LocalFileError(path: url.path, reason: "is \(size) bytes, more than the \(limit >> 20) MiB allowed")
    }

    /// The file's bytes as a private read-only mapping, unmapped when the `Data` goes.
    private static func map(_ url: URL, limit: Int) throws(LocalFileError) -> Data {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LocalFileError(path: url.path, reason: String(cString: strerror(errno))) }
        // The mapping outlives the descriptor.
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw LocalFileError(path: url.path, reason: String(cString: strerror(errno))) }
        let count = Int(status.st_size)
        // Checked again: the file may have grown since it was first looked at.
        guard count <= limit else { throw tooLarge(url, size: count, limit: limit) }
        guard count > 0 else { return Data() }
        guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw LocalFileError(path: url.path, reason: String(cString: strerror(errno)))
        }
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { base, count in munmap(base, count) })
    }
}

package struct LocalFileError: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var reason: String

    package var description: String { "\(path): \(reason)" }
}
