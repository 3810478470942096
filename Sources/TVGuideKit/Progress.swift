#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GuideCore

/// Shows the chain's progress on standard error: a bar redrawn in place on a terminal, one plain
/// line per finished request otherwise (logs, CI), so output stays readable in both.
package final class ProgressDisplay: @unchecked Sendable {
    // Mutable state is guarded by `lock`: progress events arrive from concurrent tasks.
    private let lock = NSLock()
    private let interactive: Bool
    private let quiet: Bool
    private var total = 0
    private var done = 0
    private var failed = 0

    package init(quiet: Bool) {
        self.quiet = quiet
        self.interactive = isatty(STDERR_FILENO) != 0
    }

    package func handle(_ event: ChainProgress) {
        guard !quiet else { return }
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .planned(let total):
            self.total = total
            if !interactive { write("fetching \(total) schedule(s)\n") }
        case .scheduleFinished(let provider, let channel, let didFail):
            done += 1
            if didFail { failed += 1 }
            if interactive {
                let width = 30
                let filled = total == 0 ? width : width * done / total
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                write("\r\(bar) \(done)/\(total) schedules, \(failed) failed ")
                if done == total { write("\n") }
            } else {
                write("[\(done)/\(total)] \(provider) \(channel) \(didFail ? "failed" : "ok")\n")
            }
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
