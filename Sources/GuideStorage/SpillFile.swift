import Foundation
import GuideCore

/// A temporary file that bytes a build holds until the end are written to instead of being kept
/// in memory (a guide's synopses, `TextBlock.Gathering`; a companion's records,
/// `PackedSnapshot.Contents`). Removed from its folder as soon as it is made: it goes with its
/// last reader, or with the process however that ends. In the system's temporary folder (`TMPDIR`).
package final class SpillFile: Sendable {
    let descriptor: Int32
    /// What a caller keeps in memory before it writes out: a mebibyte, so that a large guide's
    /// bytes (its synopses) go out in writes large enough to cost nothing, while a small guide's
    /// never leave memory.
    package static let keptInMemory = 1 << 20
    /// Which file a thread's window holds, without a reference to it (a weak one cost a lock a
    /// read): a file made later, even at the same address, has another.
    fileprivate let serial: UInt64
    private static let serials = SerialNumbers()

    /// Nil when no temporary file can be made; the bytes then stay in memory.
    package convenience init?() {
        var template = Array((FileManager.default.temporaryDirectory.path + "/tvguide-spill.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.init(descriptor: descriptor)
    }

    /// Bytes written to and read from `descriptor`, which it closes when it goes.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        serial = Self.serials.next()
    }

    deinit {
        close(descriptor)
    }

    /// All of `bytes` at `offset`, or false.
    package func write(_ bytes: [UInt8], at offset: Int) -> Bool {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let count = pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
    }

    /// The bytes in `range`, read through this thread's window on the file (`ReadWindow`): a
    /// writer going through a guide in order reads its texts a window at a time, while a lookup
    /// reads only its text. Bytes the file cannot give (an I/O error) read as none.
    func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let window = ReadWindow.current
        if window.reading || range.count > ReadWindow.capacity {
            // Read while the window is lent out (comparing two texts), or too long for it.
            var bytes = [UInt8](repeating: 0, count: range.count)
            let count = bytes.withUnsafeMutableBytes { read(into: $0, at: range.lowerBound) }
            return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
        if window.file != serial || range.lowerBound < window.start || range.upperBound > window.start + window.count {
            let following = window.file == serial && range.lowerBound >= window.start
                && range.lowerBound <= window.start + window.count + ReadWindow.followingGap
            let wanted = following ? ReadWindow.capacity : range.count
            window.file = serial
            window.start = range.lowerBound
            window.count = read(into: UnsafeMutableRawBufferPointer(rebasing: window.buffer[..<wanted]), at: range.lowerBound)
        }
        window.reading = true
        defer { window.reading = false }
        let from = range.lowerBound - window.start
        let count = max(0, min(range.count, window.count - from))
        return try body(UnsafeBufferPointer(start: window.buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + from, count: count))
    }

    /// The bytes of `range`, read straight from the file (no window): fewer when the file ends
    /// sooner or cannot be read.
    package func read(_ range: Range<Int>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: range.count)
        let count = bytes.withUnsafeMutableBytes { read(into: $0, at: range.lowerBound) }
        bytes.removeLast(range.count - count)
        return bytes
    }

    /// Reads from `offset` until `buffer` is full or the file ends; how many bytes it read.
    private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        return done
    }
}

extension SpillFile {
    /// Bytes written one after another to a spill file made when first needed. After a failure
    /// (no file could be made, or a write failed: a full disk) it writes no more; what it wrote
    /// stays in the file, and the caller keeps the rest in memory.
    struct Writer {
        private(set) var file: SpillFile?
        /// How many bytes are in `file`.
        private(set) var written = 0
        private var failed = false
        private let makeFile: () -> SpillFile?

        init(makingFileWith makeFile: @escaping () -> SpillFile? = { SpillFile() }) {
            self.makeFile = makeFile
        }

        /// Where `bytes` went in `file`, or nil when they stay with the caller.
        mutating func write(_ bytes: [UInt8]) -> Range<Int>? {
            guard !failed else { return nil }
            if file == nil { file = makeFile() }
            guard let file, file.write(bytes, at: written) else {
                failed = true
                return nil
            }
            written += bytes.count
            return written - bytes.count..<written
        }
    }
}

/// A thread's last read of a `SpillFile`, kept for the next: the JSON and companion writers
/// each go through a guide's synopses in the order they were written, on several threads at once.
/// Per thread (a pthread key, as Swift has no thread-local variables), so that no lock is taken.
private final class ReadWindow {
    static let capacity = 256 << 10
    /// A read that starts at most this far past the window continues a pass in order: the window
    /// moves on by a whole `capacity`, rather than by the one text.
    static let followingGap = 64 << 10

    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    // Only ever used by its own thread: not checked for overlapping access at run time, which
    // for every synopsis a writer read cost more than the read.
    /// The `SpillFile.serial` of the file read, 0 for none.
    @exclusivity(unchecked) var file: UInt64 = 0
    @exclusivity(unchecked) var start = 0
    @exclusivity(unchecked) var count = 0
    /// The buffer is lent to a reader's body, which may read another text.
    @exclusivity(unchecked) var reading = false

    deinit {
        buffer.deallocate()
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { window in
            if let window { Unmanaged<ReadWindow>.fromOpaque(window).release() }
        }
        return key
    }()

    static var current: ReadWindow {
        if let window = pthread_getspecific(key) { return Unmanaged<ReadWindow>.fromOpaque(window).takeUnretainedValue() }
        let window = ReadWindow()
        pthread_setspecific(key, Unmanaged.passRetained(window).toOpaque())
        return window
    }
}

/// 1, 2, 3… to every caller, whatever its thread.
private final class SerialNumbers: @unchecked Sendable {
    private let lock = NSLock()
    private var last: UInt64 = 0

    func next() -> UInt64 {
        lock.withLock {
            last += 1
            return last
        }
    }
}
