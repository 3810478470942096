import Foundation

/// What a finished process printed and how it ended.
package struct ProcessResult: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

package enum Subprocess {
    /// Runs `executable` to completion. The wait happens off Swift's cooperative threads: there
    /// are only as many of those as cores, and blocking one would stall every test running
    /// meanwhile, loopback servers included.
    package static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, currentDirectory: URL? = nil
    ) async throws -> ProcessResult {
        await slots.acquire()
        defer { Task { await slots.release() } }
        return try await runNow(executable, arguments, environment: environment, currentDirectory: currentDirectory)
    }

    /// Children running at once. Each `tvguide build` keeps a core busy; two dozen at once on a
    /// small CI machine starve the test process itself, and its loopback servers with it.
    private static let slots = Slots(2)

    private static func runNow(
        _ executable: URL, _ arguments: [String], environment: [String: String]?, currentDirectory: URL?
    ) async throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try ChildProcesses.start(process)
        return await withCheckedContinuation { continuation in
            // Both pipes are drained at once so that a child filling one cannot block on it.
            let reads = DispatchGroup()
            nonisolated(unsafe) var stdout = Data()
            nonisolated(unsafe) var stderr = Data()
            DispatchQueue.global().async(group: reads) { stdout = out.fileHandleForReading.readDataToEndOfFile() }
            DispatchQueue.global().async(group: reads) { stderr = err.fileHandleForReading.readDataToEndOfFile() }
            reads.notify(queue: .global()) {
                process.waitUntilExit()
                continuation.resume(returning: ProcessResult(
                    status: process.terminationStatus,
                    stdout: String(decoding: stdout, as: UTF8.self),
                    stderr: String(decoding: stderr, as: UTF8.self)))
            }
        }
    }
}

/// A counting semaphore for the children: FIFO, waiting without blocking a thread.
private actor Slots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) {
        free = count
    }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
