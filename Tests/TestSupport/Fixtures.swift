import Foundation

/// The repository's `Fixtures/` folder, found from this file's path so tests run from any
/// working directory.
public enum Fixtures {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // TestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// `relative` (e.g. `"xmltv/sample.xml"`) inside `Fixtures/`.
    public static func url(_ relative: String) -> URL {
        root.appendingPathComponent(relative, isDirectory: false)
    }
}
