import ArgumentParser
import Foundation
import TVGuideKit

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a snapshot in another format.",
        subcommands: [XMLTVExport.self]
    )

    struct XMLTVExport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "xmltv",
            abstract: "Write a snapshot as XMLTV (for Kodi, Plex, Jellyfin, Tvheadend…).",
            discussion: """
            Times are written in UTC. The output passes tv_validate_file from xmltv-util, except for \
            channel ids that are not name.domain (La1.es), which are kept as they are and named in a \
            warning; channels without programmes and programmes without a title are left out, with a \
            warning on standard error.
            """
        )

        @Option(help: ArgumentHelp("The snapshot to export.", valueName: "path"))
        var snapshot: String = "snapshots/latest.json"

        @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of standard output.", valueName: "path"))
        var output: String?

        func run() throws {
            let export = try reporting { () throws(CommandFailure) in try SnapshotExport.xmltv(URL(fileURLWithPath: snapshot)) }
            for note in export.notes {
                printError("warning: \(note)")
            }
            do {
                if let output {
                    try export.xml.write(to: URL(fileURLWithPath: output), options: .atomic)
                } else {
                    FileHandle.standardOutput.write(export.xml)
                }
            } catch {
                printError("error: \(error)")
                throw Exit.invalid
            }
        }
    }
}
