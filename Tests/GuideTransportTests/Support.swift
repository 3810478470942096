import Foundation
import GuideTransport

/// A wall clock the test moves by hand. NSLock rather than `Mutex`, which needs macOS 15 while
/// the package supports macOS 14.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_792_900_800)) {
        current = start
    }

    var now: Date {
        lock.withLock { current }
    }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }
}

/// A fresh directory under the system temp folder, removed when `body` ends.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tvguide-transport-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// Writes `text` to `relative` under `root`, creating folders.
func write(_ text: String, to relative: String, under root: URL) throws {
    let file = root.appendingPathComponent(relative, isDirectory: false)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
}

/// Quick retries so failure paths finish in milliseconds; a timeout long enough that a loaded
/// machine (the CLI tests run several builds at once) never turns a slow answer into a retry.
func fastPolicy(timeout: Duration = .seconds(30), retries: Int = 2, maxConcurrent: Int = 4) -> TransportPolicy {
    TransportPolicy(timeout: timeout, retries: retries, backoffBase: .milliseconds(10), maxConcurrent: maxConcurrent)
}

func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
