import Foundation
import GuideCore

/// Many texts as one block of UTF-8 and where each ends. A snapshot companion's synopses are
/// kept so: nearly every airing has a synopsis of its own, and as a `String` each was an
/// allocation with about 45 bytes of header and rounding besides its text (bench/scale.sh counts
/// a served guide's bytes per programme). A text is made a `String` only when read.
///
/// A block a parser gathered past `SpillFile.keptInMemory` keeps its texts in a temporary file
/// (`SpillFile`) rather than in memory: a large guide's synopses are a third of what a build
/// holds, and in the page cache they count against no process and the kernel may write them out.
package final class TextBlock: SharedTexts, @unchecked Sendable {
    /// The texts kept in memory: all of them, or those after the `spilledBytes` written out.
    private let bytes: [UInt8]
    /// Where the first `spilledBytes` of the texts were written out.
    private let spilled: SpillFile?
    private let spilledBytes: Int
    /// Where each text ends in the texts' bytes; the first starts at 0 and each next where the last ended.
    private let ends: [UInt32]
    /// Each text's `TextBlock.hash`, when the block was gathered in this process
    /// (`TextBlock.Gathering`): a snapshot companion then numbers the texts without hashing
    /// them again.
    private let hashes: [Int]?

    /// Nil when the bytes do not fit 32-bit offsets, or a text is not whole UTF-8.
    package init?(bytes: [UInt8], ends: [UInt32]) {
        guard bytes.count <= Int(UInt32.max), ends.last.map(Int.init) ?? 0 == bytes.count,
              Self.isWholeUTF8(bytes, ends: ends) else { return nil }
        self.bytes = bytes
        spilled = nil
        spilledBytes = 0
        self.ends = ends
        hashes = nil
        super.init()
    }

    /// Texts that were `String`s, so whole UTF-8 already.
    private init(gathered bytes: [UInt8], spilled: SpillFile?, spilledBytes: Int, ends: [UInt32], hashes: [Int]) {
        self.bytes = bytes
        self.spilled = spilled
        self.spilledBytes = spilledBytes
        self.ends = ends
        self.hashes = hashes
        super.init()
    }

    package var count: Int { ends.count }

    package func text(_ number: Int) -> String {
        withUTF8(number) { String(decoding: $0, as: UTF8.self) }
    }

    package override func withUTF8<Result>(_ number: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let range = (number == 0 ? 0 : Int(ends[number - 1]))..<Int(ends[number])
        return try Self.withBytes(range, in: bytes, after: spilledBytes, of: spilled, body)
    }

    /// Texts' bytes from wherever a block keeps them; a text is never split between the two.
    fileprivate static func withBytes<Result>(_ range: Range<Int>, in bytes: [UInt8], after spilledBytes: Int, of spilled: SpillFile?,
                                              _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if range.lowerBound < spilledBytes, let spilled { return try spilled.withBytes(range, body) }
        return try bytes.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[(range.lowerBound - spilledBytes)..<(range.upperBound - spilledBytes)]))
        }
    }

    /// How many of the texts' bytes are in a temporary file rather than in memory.
    package var bytesWrittenOut: Int { spilledBytes }

    /// The text's length in UTF-8 bytes, without reading it.
    package func utf8Count(_ number: Int) -> Int {
        Int(ends[number]) - (number == 0 ? 0 : Int(ends[number - 1]))
    }

    /// The text's `TextBlock.hash`.
    package func hash(_ number: Int) -> Int {
        hashes?[number] ?? withUTF8(number, Self.hash)
    }

    /// A text's hash as tables of texts compare them: of its UTF-8 bytes (as `UTF8Key`), valid in
    /// this process only.
    package static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(utf8))
        return hasher.finalize()
    }

    /// Texts read one at a time into a block, each distinct text once: a parser's synopses, which
    /// as `String`s cost an allocation each, with about 45 bytes of header and rounding. Past
    /// `threshold` bytes they are written to a temporary file as they come, a buffer at a time.
    package struct Gathering {
        /// The texts not yet written out, which follow those in `spill`'s file.
        private var bytes: [UInt8] = []
        private var spill: SpillFile.Writer
        private let threshold: Int
        private var ends: [UInt32] = []
        private var hashes: [Int] = []
        private var index = TextIndex()

        /// `bytes`: about as many bytes as the texts will take; room not used is never touched.
        /// `texts`: about how many texts will come (a guide's tables grown by doubling were up to
        /// twice their size). `threshold`: kept in memory up to this many bytes, then written out,
        /// to the file `makeFile` gives.
        package init(bytes: Int, texts: Int = 0, spillingPast threshold: Int = SpillFile.keptInMemory,
                     to makeFile: @escaping () -> SpillFile? = { SpillFile() }) {
            self.threshold = threshold
            spill = SpillFile.Writer(makingFileWith: makeFile)
            self.bytes.reserveCapacity(threshold > bytes / 2 ? bytes : 2 * threshold)
            ends.reserveCapacity(texts)
            hashes.reserveCapacity(texts)
            index = TextIndex(capacity: texts)
        }

        package var isEmpty: Bool { ends.isEmpty }

        /// The text's number in the block, the same for equal texts. Nil once the block holds
        /// 4 GiB, beyond a 32-bit offset: the caller keeps that text as a `String`.
        package mutating func number(_ text: String) -> Int? {
            var text = text
            return text.withUTF8 { utf8 -> Int? in
                let hash = TextBlock.hash(utf8)
                let found = index.number(hash: hash) { number in
                    let range = (number == 0 ? 0 : Int(ends[number - 1]))..<Int(ends[number])
                    return TextBlock.withBytes(range, in: bytes, after: spill.written, of: spill.file) { sameBytes(utf8, $0) }
                }
                if let found { return found }
                guard spill.written + bytes.count + utf8.count <= Int(UInt32.max) else { return nil }
                bytes.append(contentsOf: utf8)
                ends.append(UInt32(spill.written + bytes.count))
                hashes.append(hash)
                if bytes.count >= threshold { writeOut() }
                return index.add(hash: hash) { hashes[$0] }
            }
        }

        /// Writes the buffered texts out. When no temporary file can be made, or a write fails (a
        /// full disk), the texts from there on stay in memory; those written out stay there.
        private mutating func writeOut() {
            if spill.write(bytes) != nil { bytes.removeAll(keepingCapacity: true) }
        }

        package consuming func block() -> TextBlock {
            if spill.file != nil, !bytes.isEmpty { writeOut() }
            // The buffer's room goes with the texts written out.
            if bytes.isEmpty { bytes = [] }
            return TextBlock(gathered: bytes, spilled: spill.file, spilledBytes: spill.written, ends: ends, hashes: hashes)
        }
    }

    /// Every text valid UTF-8 on its own: the texts rise, each slice of them is valid, and none
    /// starts on a continuation byte (so no character is split between two texts). Checked in
    /// slices of texts on every core, in place (`UTF8Span`).
    private static func isWholeUTF8(_ bytes: [UInt8], ends: [UInt32]) -> Bool {
        let slices = stride(from: 0, to: ends.count, by: 16_384).map { $0..<min($0 + 16_384, ends.count) }
        return concurrentMap(slices.count) { slice -> Bool in
            var start = slices[slice].lowerBound == 0 ? 0 : Int(ends[slices[slice].lowerBound - 1])
            let sliceStart = start
            for number in slices[slice] {
                let end = Int(ends[number])
                guard start <= end, end <= bytes.count else { return false }
                if start < end, UTF8.isContinuation(bytes[start]) { return false }
                start = end
            }
            return (try? UTF8Span(validating: bytes.span.extracting(sliceStart..<start))) != nil
        }.allSatisfy { $0 }
    }
}

/// What the storage asks of a programme's text beside reading it: the storage made every
/// `SharedTexts` a programme holds, and each is a `TextBlock`.
extension StoredText {
    package var utf8Count: Int {
        switch self {
        case .string(let text): text.utf8.count
        case .stored(let texts, let number): Self.block(texts).utf8Count(Int(number))
        }
    }

    /// The same bytes: without reading them when both are one text of one block, which holds each
    /// text once; a block written out is read only for a text that may be the same.
    package func sameBytes(as other: StoredText) -> Bool {
        if case .stored(let left, let a) = self, case .stored(let right, let b) = other, left === right { return a == b }
        guard utf8Count == other.utf8Count else { return false }
        return withUTF8 { mine in other.withUTF8 { GuideStorage.sameBytes(mine, $0) } }
    }

    /// Its `TextBlock.hash`.
    package var hash: Int {
        switch self {
        case .string(var text): text.withUTF8(TextBlock.hash)
        case .stored(let texts, let number): Self.block(texts).hash(Int(number))
        }
    }

    /// Unchecked in release builds: these are asked once per airing when a guide is written.
    private static func block(_ texts: SharedTexts) -> TextBlock {
        unsafeDowncast(texts, to: TextBlock.self)
    }
}

func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
}

/// Numbers of distinct texts, found by their hashes. Written by hand because the texts are not
/// keys a `Dictionary` could hold: they are ranges of one growing buffer, or texts kept wherever
/// their programme keeps them, and only the table's owner can compare them. Open addressing
/// over the numbers, each slot with the high half of its text's hash: a search reads one slot
/// per step and touches a text only when that half matches (the table is larger than the caches,
/// and each other read was a miss). The owner keeps the hashes (a block has them already) and
/// gives them back when the table grows, so a text costs a few bytes where a `Dictionary` of
/// `String`s cost several times that (docs/internals.md).
struct TextIndex {
    /// A text's number + 1 in the low 32 bits and its hash's high 32 bits above, at its hash's
    /// place or the next free one after it; 0 is free.
    private var slots: [UInt64]
    private(set) var count = 0

    /// Room for `capacity` texts before the table grows.
    init(capacity: Int = 0) {
        var size = 16
        while size * 3 < capacity * 4 { size *= 2 }
        slots = [UInt64](repeating: 0, count: size)
    }

    /// The number of the text with `hash` that `isText` says is the one looked for, if any.
    func number(hash: Int, isText: (Int) -> Bool) -> Int? {
        let mask = slots.count - 1
        let tag = Self.tag(hash)
        var place = hash & mask
        while slots[place] != 0 {
            if slots[place] & 0xFFFF_FFFF_0000_0000 == tag {
                let number = Int(slots[place] & 0xFFFF_FFFF) - 1
                if isText(number) { return number }
            }
            place = (place + 1) & mask
        }
        return nil
    }

    /// Numbers a text not yet in the table. `hashOf`: the hash of a text numbered before, for
    /// placing them all again when the table grows.
    mutating func add(hash: Int, hashOf: (Int) -> Int) -> Int {
        let number = count
        count += 1
        // At most three quarters full, so a search soon meets a free slot.
        if count * 4 > slots.count * 3 {
            slots = [UInt64](repeating: 0, count: slots.count * 2)
            for earlier in 0..<number { place(earlier, hash: hashOf(earlier)) }
        }
        place(number, hash: hash)
        return number
    }

    private static func tag(_ hash: Int) -> UInt64 {
        UInt64(UInt(bitPattern: hash)) & 0xFFFF_FFFF_0000_0000
    }

    private mutating func place(_ number: Int, hash: Int) {
        let mask = slots.count - 1
        var place = hash & mask
        while slots[place] != 0 { place = (place + 1) & mask }
        slots[place] = Self.tag(hash) | UInt64(number + 1)
    }
}
