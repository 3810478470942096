import Foundation
import GuideConfig
import GuideCore
import GuideStorage

/// Why a command stopped, as the command line reports it: the line it prints after `error: `
/// and how the process ends. TVGuideKit's command functions throw only this, so each command
/// reports its failures in one place.
package struct CommandFailure: Error, CustomStringConvertible {
    package enum Status: Sendable {
        /// The run could not produce what was asked (no provider served anything, a file it
        /// could not write): exit status 1.
        case failed
        /// Invalid input: a bad configuration, an unreadable snapshot, a bad argument: exit status 2.
        case invalid
        /// An argument the command's options cannot express: reported with the usage, as
        /// ArgumentParser reports a bad option.
        case usage
    }

    package var status: Status
    package var description: String

    package init(_ status: Status, _ description: String) {
        self.status = status
        self.description = description
    }
}

/// How commands read providers.yaml: the file's checks, and its secret values withheld from
/// every log line and error the run then shows.
package enum ConfigurationLoading {
    package static func load(_ file: URL) throws(CommandFailure) -> GuideConfiguration {
        let configuration: GuideConfiguration
        do {
            configuration = try GuideConfiguration.load(from: file)
        } catch {
            throw CommandFailure(.invalid, "\(error)")
        }
        SecretValues.shared.add(configuration.environmentValues)
        return configuration
    }
}

/// Snapshot files as the commands that read one see them.
package enum SnapshotFiles {
    /// The snapshot at `file`; unreadable, the command's input is invalid.
    package static func load(_ file: URL) throws(CommandFailure) -> Snapshot {
        do {
            return try SnapshotStore.load(file)
        } catch {
            throw CommandFailure(.invalid, "\(error)")
        }
    }

    /// `latest.json` of the snapshot folder `folder`.
    package static func latest(in folder: String) throws(CommandFailure) -> Snapshot {
        try load(URL(fileURLWithPath: folder).appendingPathComponent("latest.json"))
    }
}
