import Foundation

/// Reads a file the configuration names (an XMLTV guide, a playlist): a regular file, no larger
/// than `limit`. A directory, a FIFO or a device is named as such instead of being opened (a FIFO
/// would block, `/dev/zero` never end), and a failure says why in words, not a Cocoa error code.
package enum LocalFile {
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
        guard Int(status.st_size) <= limit else {
            throw LocalFileError(path: url.path, reason: "is \(status.st_size) bytes, more than the \(limit >> 20) MiB allowed")
        }
        // Root reads a file whatever its mode: asking access() gives the reason before Foundation's vaguer one.
        guard access(url.path, R_OK) == 0 else {
            throw LocalFileError(path: url.path, reason: String(cString: strerror(errno)))
        }
        do {
            return try Data(contentsOf: url, options: mapped ? .alwaysMapped : [])
        } catch {
            throw LocalFileError(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }
}

package struct LocalFileError: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var reason: String

    package var description: String { "\(path): \(reason)" }
}
