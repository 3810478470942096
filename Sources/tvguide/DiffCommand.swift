import ArgumentParser
import Foundation
import GuideCore
import GuideStorage
import TVGuideKit

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two snapshots.",
        discussion: """
        Programmes added, removed and changed per channel (with the fields that changed), \
        channels added or removed, and films and series (works) added, removed or changed, with \
        their changed fields and the providers they now come from, and audience days added, \
        removed or changed. Programmes are matched by \
        channel and start time; the run report, schemaVersion and generatedAt are not compared. \
        Exit status: 0 when equal, 1 when different, 2 on error.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The older snapshot.", valueName: "old"))
    var old: String

    @Argument(help: ArgumentHelp("The newer snapshot.", valueName: "new"))
    var new: String

    @Option(help: "Output format.")
    var format: Format = .text

    func run() throws {
        let before = try reporting { () throws(CommandFailure) in try SnapshotFiles.load(URL(fileURLWithPath: old)) }
        let after = try reporting { () throws(CommandFailure) in try SnapshotFiles.load(URL(fileURLWithPath: new)) }
        let diff = SnapshotDiff.compare(before, after)
        switch format {
        case .text: print(diff.text(), terminator: diff.text().hasSuffix("\n") ? "" : "\n")
        case .json: FileHandle.standardOutput.write(diff.json())
        }
        if !diff.isEmpty { throw ExitCode(1) }
    }
}
