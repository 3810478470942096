import Foundation

/// Why a snapshot could not be read or written. Each case names the file when there is one.
package enum SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a snapshot: not JSON, a missing field, a value of the wrong type, a bad time.
    /// `file` is nil when the bytes did not come from a file.
    case corrupt(file: String?, detail: String)
    /// The snapshot was written by a newer tvguide whose schema this one does not know.
    case unsupportedSchemaVersion(file: String?, found: Int, supported: Int)
    /// Reading or writing a file failed (missing, permission, disk full…).
    case io(file: String, operation: String, detail: String)

    package var description: String {
        switch self {
        case .corrupt(let file?, let detail): "corrupt snapshot \(file): \(detail)"
        case .corrupt(nil, let detail): "corrupt snapshot: \(detail)"
        case .unsupportedSchemaVersion(let file, let found, let supported):
            "snapshot \(file.map { "\($0) " } ?? "")has schemaVersion \(found); this tvguide reads up to \(supported)"
        case .io(let file, let operation, let detail): "cannot \(operation) \(file): \(detail)"
        }
    }

    /// The same error, naming `file`.
    package func naming(_ file: String) -> SnapshotError {
        switch self {
        case .corrupt(_, let detail): .corrupt(file: file, detail: detail)
        case .unsupportedSchemaVersion(_, let found, let supported): .unsupportedSchemaVersion(file: file, found: found, supported: supported)
        case .io: self
        }
    }
}
