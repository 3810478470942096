import Foundation

/// A providers.yaml and how it was found, which commands say in one line.
package struct ConfigurationLocation: Sendable, Equatable {
    package var file: URL
    /// Where it came from: `--config`, `$TVGUIDE_CONFIG`, the working folder, `$XDG_CONFIG_HOME`,
    /// `/etc/tvguide` or the installed example.
    package var origin: String

    package init(file: URL, origin: String) {
        self.file = file
        self.origin = origin
    }
}

/// Where tvguide looks for providers.yaml, as Unix tools look for their configuration: the file
/// named (`--config`, `$TVGUIDE_CONFIG`), else the first that exists of the working folder's,
/// the user's (`$XDG_CONFIG_HOME/tvguide/`, `~/.config/tvguide/` by default), the system's
/// (`/etc/tvguide/`) and the example installed beside the binary (`PREFIX/share/tvguide/`).
package struct ConfigurationSearch: Sendable {
    package var environment: [String: String]
    package var workingDirectory: URL
    /// The running binary, whose `../share/tvguide/` holds the installed example: the file
    /// itself (`/proc/self/exe`), since a command found on `PATH` has no folder in its `argv[0]`.
    package var executable: URL
    package var systemDirectory = URL(fileURLWithPath: "/etc/tvguide", isDirectory: true)

    package init(environment: [String: String] = ProcessInfo.processInfo.environment,
                 workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
                 executable: URL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])) {
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.executable = executable
    }

    static let fileName = "providers.yaml"

    /// The places searched when no file is named, in order.
    package var candidates: [ConfigurationLocation] {
        var places = [ConfigurationLocation(file: workingDirectory.appendingPathComponent(Self.fileName), origin: "the working folder")]
        if let user = userDirectory {
            places.append(ConfigurationLocation(file: user.appendingPathComponent(Self.fileName), origin: userDirectoryName))
        }
        places.append(ConfigurationLocation(file: systemDirectory.appendingPathComponent(Self.fileName), origin: systemDirectory.path))
        let prefix = executable.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        places.append(ConfigurationLocation(file: prefix.appendingPathComponent("share/tvguide/\(Self.fileName)"), origin: "the installed example"))
        return places
    }

    /// The file `named` (an argument), else `$TVGUIDE_CONFIG`, else the first candidate that
    /// exists; nil when there is none.
    package func locate(named: String?, exists: (URL) -> Bool = { FileManager.default.fileExists(atPath: $0.path) }) -> ConfigurationLocation? {
        if let named, !named.isEmpty {
            return ConfigurationLocation(file: resolved(named), origin: "--config")
        }
        if let named = environment["TVGUIDE_CONFIG"], !named.isEmpty {
            return ConfigurationLocation(file: resolved(named), origin: "$TVGUIDE_CONFIG")
        }
        return candidates.first { exists($0.file) }.map { ConfigurationLocation(file: $0.file.standardizedFileURL, origin: $0.origin) }
    }

    /// `path` as given, or in the working folder when relative.
    private func resolved(_ path: String) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : workingDirectory.appendingPathComponent(path)).standardizedFileURL
    }

    /// Why no configuration was found: the places looked at.
    package var notFound: String {
        "no providers.yaml: give --config FILE, or put one in "
            + candidates.map { "\($0.file.path) (\($0.origin))" }.joined(separator: ", ")
    }

    /// `$XDG_CONFIG_HOME/tvguide`, or `~/.config/tvguide` when it is unset or not absolute (the
    /// XDG Base Directory rule).
    private var userDirectory: URL? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("tvguide", isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config/tvguide", isDirectory: true)
    }

    private var userDirectoryName: String {
        environment["XDG_CONFIG_HOME"].map { $0.hasPrefix("/") } == true ? "$XDG_CONFIG_HOME/tvguide" : "~/.config/tvguide"
    }
}
