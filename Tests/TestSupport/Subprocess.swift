import Foundation

/// What a finished process printed and how it ended.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public enum Subprocess {
    /// Runs `executable` to completion. The wait happens off Swift's cooperative threads: there
    /// are only as many of those as cores, and blocking one would stall every test running
    /// meanwhile, loopback servers included.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, currentDirectory: URL? = nil
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
        try process.run()
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
