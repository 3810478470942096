import CLibXML2
import Foundation
import GuideCore

/// Gzip in memory (an `.xml.gz` file, an HTTP body, the served `/xmltv.xml.gz`), on zlib:
/// Foundation on Linux has no compression, and libxml2 only decompresses files it opens itself.
package enum Gzip {
    package static func isCompressed(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }

    /// How many times its own size a gzip input may inflate to (and at least `ratioFloor` times
    /// that many bytes): the cap `LiveTransport` puts on a compressed HTTP body, so that a small
    /// `.xml.gz` cannot fill memory (XMLTV compresses about 10:1).
    static let maximumRatio = 100
    static let ratioFloor = 64 * 1024

    /// Inflates every gzip member of `data` (concatenated members are one stream, as `gunzip` reads them).
    package static func decompress(_ data: Data, name: String) throws -> Data {
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
        try startDeflate(&stream)
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

    /// Starts `stream` as `compress` and `GzipStream` both make gzip: zlib's default level, and
    /// 15 + 16 window bits for a gzip header and trailer rather than a raw zlib stream.
    static func startDeflate(_ stream: inout z_stream) throws {
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ProviderError.malformed("gzip: cannot start zlib")
        }
    }
}

/// A gzip member made a piece at a time: what `Gzip.compress` makes of the whole, for bytes that
/// arrive in pieces and go out to a file without ever being held together.
package final class GzipStream {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var ended = false

    /// - Parameter sink: gets the compressed bytes, 64 KiB at most at a time.
    package init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        self.sink = sink
        try Gzip.startDeflate(&stream)
    }

    deinit {
        deflateEnd(&stream)
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.bindMemory(to: Bytef.self).baseAddress, !bytes.isEmpty else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base)
        stream.avail_in = uInt(bytes.count)
        try deflateAll(Z_NO_FLUSH)
    }

    /// Writes the end of the member (the last block and the trailer).
    package func finish() throws {
        guard !ended else { return }
        ended = true
        stream.next_in = nil
        stream.avail_in = 0
        try deflateAll(Z_FINISH)
    }

    private func deflateAll(_ flush: Int32) throws {
        while true {
            let (status, produced) = output.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                let status = deflate(&stream, flush)
                return (status, buffer.count - Int(stream.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw ProviderError.malformed("gzip: compression failed (\(status))")
            }
            if produced > 0 { try output.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) } }
            // More to come while zlib filled the whole buffer; done once it left room.
            if flush == Z_FINISH ? status == Z_STREAM_END : (stream.avail_in == 0 && produced < output.count) { return }
        }
    }
}
