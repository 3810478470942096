import Foundation
import FuzzSupport
@testable import GuideCore
import GuideStorage

/// Snapshot bytes through `SnapshotCodec.decode`, with three differential checks, since the
/// hand-written readers promise to read exactly what `JSONDecoder` reads:
/// - `ProgrammeJSONReader` (the fast programme reader) either gives up or returns what
///   `JSONDecoder` returns for the same array;
/// - the parallel decode (programmes in chunks of one, so that small inputs take that path)
///   agrees with the one-piece decode: the same snapshot, or both fail;
/// - a snapshot that decodes encodes to bytes that decode again, to the same bytes.
/// Seeds: Fixtures/golden/offline-default.json cut to a few items, and its programmes array.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshot(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = fuzzData(bytes, count)

    if let fast = ProgrammeJSONReader.programmes(in: data) {
        guard let slow = try? SnapshotCodec.decoder().decode([Programme].self, from: data) else {
            fatalError("ProgrammeJSONReader read \(fast.count) programme(s) that JSONDecoder rejects")
        }
        guard fast == slow else { fatalError("ProgrammeJSONReader and JSONDecoder disagree: \(fast) vs \(slow)") }
    }

    let whole = decode(data, programmesPerChunk: .max)
    let chunked = decode(data, programmesPerChunk: 1)
    guard whole == chunked else { fatalError("parallel decode disagrees: \(String(describing: chunked)) vs \(String(describing: whole))") }

    if let snapshot = whole {
        do {
            let written = try SnapshotCodec.encode(snapshot)
            let again = try SnapshotCodec.encode(try SnapshotCodec.decode(written))
            guard again == written else { fatalError("a decoded snapshot does not encode to stable bytes") }
        } catch {
            fatalError("a decoded snapshot does not encode and decode again: \(error)")
        }
    }
    return 0
}

/// The snapshot, or nil when the bytes are refused with a `SnapshotError` (any other error stops the run).
private func decode(_ data: Data, programmesPerChunk: Int) -> Snapshot? {
    do {
        return try SnapshotCodec.decode(data, programmesPerChunk: programmesPerChunk)
    } catch is SnapshotError {
        return nil
    } catch {
        fatalError("SnapshotCodec.decode: untyped error \(type(of: error)): \(error)")
    }
}

@_cdecl("fuzz_snapshot_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzSnapshot)
}
