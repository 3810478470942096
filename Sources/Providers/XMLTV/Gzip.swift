import CLibXML2
import Foundation
import GuideCore

/// Gzip in memory (an `.xml.gz` file, an HTTP body, the served `/xmltv.xml.gz`), on zlib:
/// Foundation on Linux has no compression, and libxml2 only decompresses files it opens itself.
package enum Gzip {
    static func isCompressed(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }

    /// How many times its own size a gzip input may inflate to (and at least `ratioFloor` times
    /// that many bytes): the cap `LiveTransport` puts on a compressed HTTP body, so that a small
    /// `.xml.gz` cannot fill memory (XMLTV compresses about 10:1).
    static let maximumRatio = 100
    static let ratioFloor = 64 * 1024

    /// Inflates every gzip member of `data` (concatenated members are one stream, as `gunzip` reads them).
    static func decompress(_ data: Data, name: String) throws -> Data {
        guard data.count <= Int(uInt.max) else { throw ProviderError.malformed("\(name): gzip: larger than 4 GiB") }
        // libxml2 reads at most 2 GiB, so more than that is refused as it inflates, not after.
        let limit = min(max(data.count, ratioFloor) * maximumRatio, Int(Int32.max))
        var stream = z_stream()
        // 15 + 16: a gzip header, not a raw zlib stream.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ProviderError.malformed("\(name): gzip: cannot start zlib")
        }
        defer { inflateEnd(&stream) }

        var output = Data()
        output.reserveCapacity(data.count * 6)
        let chunkSize = 1 << 18
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        try data.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            guard let base = input.bindMemory(to: Bytef.self).baseAddress else { return }
            stream.next_in = UnsafeMutablePointer(mutating: base)
            stream.avail_in = uInt(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output.append(chunk, count: chunkSize - Int(stream.avail_out))
                guard output.count <= limit else {
                    throw ProviderError.malformed(limit == Int(Int32.max)
                        ? "\(name): gzip: inflates to more than 2 GiB, which libxml2 cannot read; refused while inflating (a decompression bomb?)"
                        : "\(name): gzip: inflates to more than \(maximumRatio) times its \(data.count) bytes, refused as a decompression bomb")
                }
                switch status {
                case Z_OK:
                    continue
                case Z_STREAM_END:
                    // Another member may follow; anything that is not one is trailing garbage gzip ignores too.
                    guard stream.avail_in >= 2, stream.next_in[0] == 0x1F, stream.next_in[1] == 0x8B else { return }
                    inflateReset(&stream)
                case Z_BUF_ERROR where stream.avail_in == 0:
                    throw ProviderError.malformed("\(name): gzip: unexpected end of compressed data")
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw ProviderError.malformed("\(name): gzip: \(reason)")
                }
            }
        }
        return output
    }

    /// One gzip member holding `data`, at zlib's default level.
    package static func compress(_ data: Data) throws -> Data {
        var stream = z_stream()
        // 15 + 16: write a gzip header and trailer, not a raw zlib stream.
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ProviderError.malformed("gzip: cannot start zlib")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let status = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Int32 in
            output.withUnsafeMutableBufferPointer { buffer in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(bound)
                return deflate(&stream, Z_FINISH)
            }
        }
        // deflateBound guarantees room for the whole stream in one call.
        guard status == Z_STREAM_END else { throw ProviderError.malformed("gzip: compression failed (\(status))") }
        return Data(output[0..<Int(stream.total_out)])
    }
}
