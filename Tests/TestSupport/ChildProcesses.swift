import Foundation

/// Children of the test process die with it, even when it crashes or is killed and cannot stop
/// them: each is started through util-linux's `setpriv --pdeathsig KILL`, which has the kernel
/// kill the child when its parent goes. The kernel ties that signal to the thread that started
/// the child, not to the process, and Dispatch's and Swift's worker threads come and go; so
/// every child is started from one thread that lives as long as the test process.
package enum ChildProcesses {
    static let setpriv = "/usr/bin/setpriv"

    /// Starts `process` (its executable run through `setpriv` where the machine has it).
    package static func start(_ process: Process) throws {
        if FileManager.default.isExecutableFile(atPath: setpriv), let executable = process.executableURL {
            process.arguments = ["--pdeathsig", "KILL", "--", executable.path] + (process.arguments ?? [])
            process.executableURL = URL(fileURLWithPath: setpriv)
        }
        try launcher.perform { try process.run() }
    }

    private static let launcher = Launcher()
}

/// A thread that runs what it is given, one at a time, and never ends.
private final class Launcher: @unchecked Sendable {
    // @unchecked: `jobs` is only touched with `condition` held.
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    init() {
        let thread = Thread { [unowned self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
        thread.name = "test child launcher"
        thread.start()
    }

    /// Runs `body` on the launcher's thread and waits for it: a spawn takes a moment.
    func perform(_ body: @escaping () throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        condition.lock()
        jobs.append {
            do { try body() } catch { failure = error }
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        if let failure { throw failure }
    }
}
