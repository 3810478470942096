import Foundation
import GuideConfig
import GuideCore
import GuideStorage

extension GuideBuilder {
    /// Runs the build pipeline for a command, handing the run report to `report` (with whether
    /// anything was served), and turns its failures into the command's: invalid for a bad
    /// configuration or window, failed when nothing was served or the snapshot could not be written.
    @discardableResult
    package static func run(_ configuration: GuideConfiguration, _ request: BuildRequest,
                            progress: @escaping @Sendable (ChainProgress) -> Void = { _ in },
                            report: (RunSummary, _ served: Bool) -> Void) async throws(CommandFailure) -> RunSummary {
        do {
            let summary = try await build(configuration: configuration, request: request, progress: progress)
            report(summary, true)
            return summary
        } catch let error as ConfigError {
            throw CommandFailure(.invalid, "\(error)")
        } catch BuildError.nothingServed(let summary) {
            report(summary, false)
            throw CommandFailure(.failed, "\(BuildError.nothingServed(summary))")
        } catch let error as BuildError {
            throw CommandFailure(.invalid, "\(error)")
        } catch {
            throw CommandFailure(.failed, "could not write the snapshot: \(error)")
        }
    }
}

extension SnapshotStores {
    /// The store a command builds into or serves from; one it cannot use (no user, TLS asked
    /// for) is a configuration error.
    package static func forCommand(_ configuration: GuideConfiguration, directory: URL?) throws(CommandFailure) -> any SnapshotStorage {
        do {
            return try make(configuration, directory: directory)
        } catch {
            throw CommandFailure(.invalid, "\(error)")
        }
    }
}
