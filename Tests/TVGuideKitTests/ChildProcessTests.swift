import Foundation
import Testing
import TestSupport

/// The children tests start (`tvguide serve`, `tvguide build`) do not outlive a test process
/// that crashes or is killed.
@Suite("Test children")
struct ChildProcessTests {
    @Test("a child is started through setpriv --pdeathsig, and the kernel kills it with its parent")
    func childrenDieWithTheirParent() async throws {
        // The harness's way: the child runs the program asked for, under the same pid.
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["600"]
        try ChildProcesses.start(sleeper)
        defer { sleeper.terminate() }
        // setpriv replaces itself with the program: wait for that, however loaded the machine.
        var command = ""
        for _ in 0..<200 where !command.hasPrefix("/bin/sleep\0") {
            command = (try? String(contentsOfFile: "/proc/\(sleeper.processIdentifier)/cmdline", encoding: .utf8)) ?? ""
            if !command.hasPrefix("/bin/sleep\0") { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(command.split(separator: "\0") == ["/bin/sleep", "600"], "\(command)")

        // What it rests on: a parent killed outright (SIGKILL, nothing runs after it) takes its child along.
        let parent = try await Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", """
            /usr/bin/setpriv --pdeathsig KILL -- /bin/sleep 600 >/dev/null 2>&1 &
            child=$!; echo $child
            # setpriv sets the signal before it becomes sleep: once it is sleep, the parent may go.
            until tr '\\0' ' ' < /proc/$child/cmdline | grep -q '^/bin/sleep'; do sleep 0.05; done
            kill -9 $$
            """])
        let child = try #require(Int32(parent.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        var alive = true
        for _ in 0..<300 where alive {
            try await Task.sleep(for: .milliseconds(100))
            alive = kill(child, 0) == 0 && !((try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.contains(") Z ") ?? true)
        }
        #expect(!alive, "the child \(child) outlived its killed parent")
    }
}
