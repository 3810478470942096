import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child ended: its exit status, or the signal that killed it.
package struct Termination: Sendable, Hashable, CustomStringConvertible {
    package var status: Int32
    /// True when `status` is a signal number (the child did not exit by itself).
    package var signalled: Bool

    package var description: String { signalled ? "killed by signal \(status)" : "exit \(status)" }
}

/// A child process the caller can signal while it runs: `Subprocess.run` waits for the end, a
/// crash test needs to cut the child off at a moment of its choosing. Output goes to files, not
/// pipes, so that a child nobody reads from never blocks on a full pipe.
package final class RunningProcess: @unchecked Sendable {
    package let pid: Int32
    // Only `isRunning` is read after start; Process is thread-safe for that.
    private let process: Process
    private let ended: Task<Termination, Never>
    package let started: ContinuousClock.Instant
    package let currentDirectory: URL

    /// Starts `executable`; stdout and stderr are written to the given files (created or truncated).
    package init(
        _ executable: URL, _ arguments: [String], environment: [String: String], currentDirectory: URL,
        stdout: URL, stderr: URL
    ) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = currentDirectory
        for file in [stdout, stderr] {
            FileManager.default.createFile(atPath: file.path, contents: nil)
        }
        let out = try FileHandle(forWritingTo: stdout)
        let err = try FileHandle(forWritingTo: stderr)
        // The child holds its own descriptors once started; the parent's copies would only leak.
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        let (terminations, continuation) = AsyncStream.makeStream(of: Termination.self)
        process.terminationHandler = { finished in
            continuation.yield(Termination(status: finished.terminationStatus, signalled: finished.terminationReason == .uncaughtSignal))
            continuation.finish()
        }
        try ChildProcesses.start(process)
        self.process = process
        self.pid = process.processIdentifier
        self.started = .now
        self.currentDirectory = currentDirectory
        self.ended = Task {
            for await termination in terminations { return termination }
            return Termination(status: -1, signalled: true)
        }
    }

    package var isRunning: Bool { process.isRunning }

    /// Sends `signal` unless the child has already ended (and its pid may belong to another process).
    package func send(_ signal: Int32) {
        guard process.isRunning else { return }
        kill(pid, signal)
    }

    /// Sends `signal` `delay` after `condition` first holds (checked every `interval`), or not at
    /// all when the child ends first. The wait runs on a thread of its own: Swift's cooperative
    /// threads, busy with other tests, would oversleep the short moments a crash test aims at.
    package func send(
        _ signal: Int32, after delay: Duration, once condition: @escaping @Sendable () -> Bool = { true },
        checkingEvery interval: Duration = .microseconds(250)
    ) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [self] in
                while isRunning, !condition() {
                    Thread.sleep(forTimeInterval: interval.seconds)
                }
                if isRunning {
                    Thread.sleep(forTimeInterval: delay.seconds)
                    send(signal)
                }
                continuation.resume()
            }
        }
    }

    /// Calls `probe` every `interval` until the child ends, on a thread of its own (see
    /// `send(_:after:once:checkingEvery:)`); returns each answer with the time since the start.
    package func sample<T: Sendable>(every interval: Duration, _ probe: @escaping @Sendable () -> T) async -> [(at: Duration, value: T)] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                var samples: [(at: Duration, value: T)] = []
                while isRunning {
                    samples.append((started.duration(to: .now), probe()))
                    Thread.sleep(forTimeInterval: interval.seconds)
                }
                continuation.resume(returning: samples)
            }
        }
    }

    /// Waits for the child to end.
    package func termination() async -> Termination {
        await ended.value
    }
}

extension Duration {
    var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
