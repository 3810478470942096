import Foundation

/// The repository's `Fixtures/` folder, found from this file's path so tests run from any
/// working directory.
package enum Fixtures {
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // TestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// `relative` (e.g. `"xmltv/sample.xml"`) inside `Fixtures/`.
    package static func url(_ relative: String) -> URL {
        root.appendingPathComponent(relative, isDirectory: false)
    }
}
