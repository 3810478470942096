import NIOCore

/// Rewrites `HTTP/1.2` … `HTTP/1.9` in request lines to `HTTP/1.1` before NIO's parser reads them.
///
/// RFC 9110 §2.5: a recipient SHOULD process a message of a higher minor version of a major
/// version it implements as the highest minor version it implements (nginx serves `HTTP/1.2` as
/// 1.1). llhttp, the parser NIO embeds, refuses any HTTP/1 minor version but 0 and 1 unless its
/// lenient-version flag is set, and NIO offers no way to set it; so the digit is changed in the
/// bytes, in place: the same length, so body lengths and offsets hold. Only request lines
/// match (a method token, a space, a target, a space, `HTTP/1.`): a header field's name ends in a
/// colon, which no method has. Bytes of a body may match, and change; every route ignores them.
/// The scan keeps its place across reads, so a request line split between two is seen whole.
struct MinorVersionScan {
    private enum State {
        case lineStart
        case method
        case target(empty: Bool)
        /// This many bytes of `HTTP/1.` matched.
        case version(Int)
        case rest
    }

    private var state = State.lineStart
    private static let prefix = Array("HTTP/1.".utf8)
    /// The last bytes scanned held a line shaped as a request line up to its version digit:
    /// what tells a method NIO's parser does not know (`BREW / HTTP/1.1`) from bytes that are
    /// not HTTP at all, which its parser reports alike.
    private(set) var sawRequestLine = false
    /// The first `targetPrefix` bytes of the target of the last whole request line scanned (up to
    /// its version digit): the path of a request whose head the parser gives up on (too large,
    /// malformed), which `ConnectionGuard` answers in the form `WebErrorRule` gives that path.
    private(set) var target: [UInt8] = []
    private var pendingTarget: [UInt8] = []
    /// The bytes of the target of the request line being read, or of the last one read: what
    /// tells a head too large because of its target (414) from one too large in its fields (431)
    /// when the parser gives up before the line is whole.
    private(set) var targetLength = 0
    /// Enough for a path's first segment, which is all `WebErrorRule` reads.
    static let targetPrefix = 64

    /// Scans the readable bytes of `buffer`, rewriting any higher minor version; false when none
    /// was found (the buffer is then untouched, not even copied).
    mutating func rewrite(_ buffer: inout ByteBuffer) -> Bool {
        sawRequestLine = false
        var found: [Int] = []
        buffer.withUnsafeReadableBytes { bytes in
            for (offset, byte) in bytes.enumerated() {
                if advance(byte) { found.append(offset) }
            }
        }
        for offset in found {
            buffer.setInteger(UInt8(ascii: "1"), at: buffer.readerIndex + offset)
        }
        return !found.isEmpty
    }

    /// Moves the scan over `byte`; true when `byte` is the minor version digit to rewrite.
    private mutating func advance(_ byte: UInt8) -> Bool {
        if byte == UInt8(ascii: "\n") {
            state = .lineStart
            return false
        }
        switch state {
        case .lineStart:
            state = byte == UInt8(ascii: "\r") ? .lineStart : (Self.isTokenByte(byte) ? .method : .rest)
        case .method:
            if Self.isTokenByte(byte) {
                state = .method
            } else if byte == UInt8(ascii: " ") {
                state = .target(empty: true)
                pendingTarget.removeAll(keepingCapacity: true)
                targetLength = 0
            } else {
                state = .rest
            }
        case .target(let empty):
            if byte == UInt8(ascii: " ") {
                state = empty ? .rest : .version(0)
            } else if byte > 0x20 && byte != 0x7F {
                state = .target(empty: false)
                targetLength += 1
                if pendingTarget.count < Self.targetPrefix { pendingTarget.append(byte) }
            } else {
                state = .rest
            }
        case .version(let matched) where matched < Self.prefix.count:
            state = byte == Self.prefix[matched] ? .version(matched + 1) : .rest
        case .version:
            state = .rest
            sawRequestLine = true
            // A swap, not a copy: each buffer stays uniquely held, so neither is reallocated
            // for the next request line.
            swap(&target, &pendingTarget)
            return (UInt8(ascii: "2")...UInt8(ascii: "9")).contains(byte)
        case .rest:
            break
        }
        return false
    }

    /// `tchar` (RFC 9110 §5.6.2): the bytes of a method.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            tokenPunctuation.contains(byte)
        }
    }

    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
}
