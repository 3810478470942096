import Foundation
import GuideCore
import XMLTV

/// `tvguide export`: a snapshot in another format.
package enum SnapshotExport {
    /// The snapshot at `file` as XMLTV, and what in it tv_validate_file would object to (ids
    /// that are not name.domain, channels and programmes left out), one note each.
    package static func xmltv(_ file: URL) throws(CommandFailure) -> (xml: Data, notes: [String]) {
        let guide = try SnapshotFiles.load(file)
        do {
            let xml = try XMLTVWriter.write(channels: guide.channels, programmes: guide.programmes)
            return (xml, XMLTVWriter.validityNotes(channels: guide.channels, programmes: guide.programmes))
        } catch {
            throw CommandFailure(.invalid, "\(error)")
        }
    }
}
