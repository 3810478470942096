import Foundation
import GuideCore
import GzipCodec

/// A guide's XMLTV document written to a file and its gzip to another, in one pass: the server
/// serves feeds from files rather than from memory, and a feed is hundreds of megabytes.
package enum XMLTVFeedFiles {
    /// Writes both files; on an error, what was written is removed.
    /// - Parameter keeping: the channels to keep (a line-up's); every channel when nil.
    package static func write(channels: [Channel], programmes: [Programme], keeping: Set<String>?,
                              info: XMLTVInfo = XMLTVInfo(generatorInfoName: "tvguide"),
                              plain: URL, compressed: URL) throws {
        do {
            let plainFile = try BufferedFile(creating: plain)
            let compressedFile = try BufferedFile(creating: compressed)
            let gzip = try GzipStream { try compressedFile.write($0) }
            try XMLTVWriter.write(channels: channels, programmes: programmes, keeping: keeping, info: info) { bytes in
                try plainFile.write(bytes)
                try gzip.write(bytes)
            }
            try gzip.finish()
            try plainFile.close()
            try compressedFile.close()
        } catch {
            try? FileManager.default.removeItem(at: plain)
            try? FileManager.default.removeItem(at: compressed)
            throw error
        }
    }
}

/// A new file written through a buffer of its own: libxml2 and zlib hand over a few kilobytes
/// at a time, and a system call for each would be most of the cost.
private final class BufferedFile {
    private let handle: FileHandle
    private let url: URL
    private var buffer = Data()
    private static let capacity = 1 << 18

    init(creating url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw ProviderError.malformed("cannot create \(url.path)")
        }
        handle = try FileHandle(forWritingTo: url)
        self.url = url
        buffer.reserveCapacity(Self.capacity)
    }

    deinit {
        try? handle.close()
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.capacity { try flush() }
    }

    func close() throws {
        try flush()
        try handle.close()
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw ProviderError.malformed("cannot write \(url.path): \((error as NSError).localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
