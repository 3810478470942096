/// Where a writer hands its bytes as it goes: a snapshot's JSON and its companion are written
/// straight to their files, a megabyte at a time, rather than held whole. After a failure
/// the rest is dropped, and the writer's `finish()` throws it.
final class ByteDrain {
    /// About how many bytes a writer holds before handing them over.
    static let batch = 1 << 20
    /// What a writer reserves: a batch, and what it may write past it before handing it over.
    static let capacity = 2 * batch
    private let write: (UnsafeRawBufferPointer) throws -> Void
    private var failure: (any Error)?

    init(_ write: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.write = write
    }

    func take(_ bytes: inout [UInt8]) {
        if failure == nil, !bytes.isEmpty {
            do { try bytes.withUnsafeBytes(write) } catch { failure = error }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Takes `bytes` once they are a batch or more.
    func takeIfFull(_ bytes: inout [UInt8]) {
        if bytes.count >= Self.batch { take(&bytes) }
    }

    /// Takes what is left; throws the first failure, if any.
    func finish(_ bytes: inout [UInt8]) throws {
        take(&bytes)
        if let failure { throw failure }
    }
}
