#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A large guide cut into parts that separate readers parse at once, one per core: libxml2's
/// reader is sequential, and the parse is most of `tvguide build`.
///
/// Each part after the first is read as the document's own prolog and `<tv …>` start tag
/// (XML declaration, DOCTYPE and namespaces included), then its slice of programmes, then
/// `</tv>`; every part but the last ends with `</tv>`. Cuts are made just before a `<programme`
/// tag. A cut inside a comment, a CDATA section or a nested element leaves a part that is not
/// well-formed, and the caller then parses the whole document in one pass, which also gives the
/// error messages their exact lines.
/// Unchecked Sendable: it holds pointers into the document's bytes, which the parts' readers only
/// read, and which outlive them (`XMLTVParser.parse` uses them inside `withUnsafeBytes`).
struct XMLTVParts: @unchecked Sendable {
    /// The pieces each part's reader pulls, in order.
    let pieces: [[UnsafeRawBufferPointer]]
    /// Newlines in the prolog repeated at the top of every part after the first.
    let prologNewlines: Int
    /// Whether the bytes map a file (not memory of the process's own), so that what a reader
    /// has read can be handed back to the kernel and read from the file again if need be.
    let mappedFile: Bool

    /// Below this many bytes a document is parsed in one pass: starting readers costs more than it saves.
    static let minimumPartBytes = 2 << 20

    private static let rootClose = StaticString("</tv>")

    /// Cuts `bytes` into at most `count` parts of at least `minimumBytes`, or nil when it cannot be cut.
    init?(_ bytes: UnsafeRawBufferPointer, count: Int, minimumBytes: Int = minimumPartBytes, mappedFile: Bool = false) {
        let count = min(count, bytes.count / max(1, minimumBytes))
        guard count > 1, let rootEnd = Self.rootStartTagEnd(in: bytes) else { return nil }
        var cuts: [Int] = []
        for part in 1..<count {
            let target = max(rootEnd, cuts.last.map { $0 + 1 } ?? 0, bytes.count / count * part)
            guard let cut = Self.programmeTag(in: bytes, from: target) else { break }
            cuts.append(cut)
        }
        guard !cuts.isEmpty else { return nil }
        let prolog = UnsafeRawBufferPointer(rebasing: bytes[..<rootEnd])
        let close = UnsafeRawBufferPointer(start: Self.rootClose.utf8Start, count: Self.rootClose.utf8CodeUnitCount)
        let bounds = [0] + cuts + [bytes.count]
        var pieces: [[UnsafeRawBufferPointer]] = []
        for part in 0..<bounds.count - 1 {
            let slice = UnsafeRawBufferPointer(rebasing: bytes[bounds[part]..<bounds[part + 1]])
            let isLast = part == bounds.count - 2
            pieces.append((part == 0 ? [] : [prolog]) + [slice] + (isLast ? [] : [close]))
        }
        self.pieces = pieces
        prologNewlines = Self.newlines(in: prolog)
        self.mappedFile = mappedFile
    }

    static func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        var offset = 0
        while offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) {
            count += 1
            offset = base.distance(to: UnsafeRawPointer(found)) + 1
        }
        return count
    }

    /// Just past the `>` of the first `<tv` start tag; nil when it is empty (`<tv/>`) or missing.
    private static func rootStartTagEnd(in bytes: UnsafeRawBufferPointer) -> Int? {
        var from = 0
        while let at = find("<tv", in: bytes, from: from) {
            let next = at + 3
            guard next < bytes.count else { return nil }
            if bytes[next] == 0x3E || isSpace(bytes[next]) {
                guard let close = find(">", in: bytes, from: next), bytes[close - 1] != 0x2F else { return nil }
                return close + 1
            }
            from = next
        }
        return nil
    }

    /// The first `<programme` followed by a space at or after `from`.
    private static func programmeTag(in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        var from = from
        while let at = find("<programme", in: bytes, from: from) {
            let next = at + 10
            guard next < bytes.count else { return nil }
            if isSpace(bytes[next]) { return at }
            from = next
        }
        return nil
    }

    /// Where `needle` first stands at or after `from`: memchr for its first byte, then memcmp.
    static func find(_ needle: StaticString, in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let first = Int32(needle.utf8Start.pointee)
        var offset = from
        while offset + needle.utf8CodeUnitCount <= bytes.count, let found = memchr(base + offset, first, bytes.count - offset) {
            let at = base.distance(to: UnsafeRawPointer(found))
            guard at + needle.utf8CodeUnitCount <= bytes.count else { return nil }
            if memcmp(base + at, needle.utf8Start, needle.utf8CodeUnitCount) == 0 { return at }
            offset = at + 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// Input that libxml2 pulls through a read callback from pieces of memory, so that a part is read
/// without first being copied into a buffer of its own.
///
/// When the pieces map a file, what a large piece (a part's slice) has been read of is handed
/// back as it goes (`MADV_DONTNEED`): the mapped guide otherwise stays resident until the whole
/// parse ends, on top of the programmes made from it, and was about half of a build's peak
/// memory. Of a private read-only file mapping, the advice only drops the process's mapping of
/// the pages: they stay in the page cache for the next build, and are read from the file again
/// if touched again (a part that falls back to one pass). Memory of the process's own (a
/// download, an inflated .gz) is never advised: there the advice would zero it.
final class PieceInput {
    private let pieces: [UnsafeRawBufferPointer]
    private let handingBackPages: Bool
    private var piece = 0
    private var offset = 0
    /// How far into the current piece was handed back.
    private var released = 0
    /// Pieces smaller than this (a prolog every part shares, a closing tag) are kept.
    static let releasedPieceBytes = 1 << 20
    /// Handed back this much at a time, in whole pages.
    static let releaseBatch = 4 << 20
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    init(_ pieces: [UnsafeRawBufferPointer], handingBackPages: Bool) {
        self.pieces = pieces.filter { !$0.isEmpty }
        self.handingBackPages = handingBackPages
    }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        var written = 0
        while written < capacity, piece < pieces.count {
            let current = pieces[piece]
            let count = min(capacity - written, current.count - offset)
            memcpy(buffer + written, current.baseAddress! + offset, count)
            written += count
            offset += count
            if handingBackPages, current.count >= Self.releasedPieceBytes, offset - released >= Self.releaseBatch || offset == current.count {
                release(current, upTo: offset)
            }
            if offset == current.count {
                piece += 1
                offset = 0
                released = 0
            }
        }
        return written
    }

    /// The whole pages of `current` between what was handed back and `end`.
    private func release(_ current: UnsafeRawBufferPointer, upTo end: Int) {
        Self.handBack(current, from: released, upTo: end)
        released = end
    }

    /// Hands the kernel back the whole pages of a mapped file's `piece` between `start` and `end`:
    /// read once, they would otherwise stay resident (and counted) until the mapping goes.
    static func handBack(_ piece: UnsafeRawBufferPointer, from start: Int, upTo end: Int) {
        #if os(Linux)
        let base = UInt(bitPattern: piece.baseAddress!)
        let page = UInt(pageSize)
        let first = (base + UInt(start) + page - 1) / page * page
        let last = (base + UInt(end)) / page * page
        if first < last {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: first), Int(last - first), MADV_DONTNEED)
        }
        #endif
    }
}
