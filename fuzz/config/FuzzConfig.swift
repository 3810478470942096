import Foundation
import FuzzSupport
import GuideConfig

/// providers.yaml bytes through `GuideConfiguration.load(from:environment:)`: the UTF-8 check,
/// Yams (libyaml), `${VAR}` expansion and every section's checks. The bytes go through a file
/// because the UTF-8 check is only on that path. Seeds: providers.yaml and docs/*.md's examples.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    do {
        try fuzzData(bytes, count).write(to: ConfigFile.url)
    } catch {
        fatalError("cannot write \(ConfigFile.url.path): \(error)")
    }
    // ConfigError is the only error `load` can throw (typed throws); anything else would be a crash.
    _ = try? GuideConfiguration.load(from: ConfigFile.url, environment: ConfigFile.environment)
    return 0
}

private enum ConfigFile {
    static let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("tvguide-fuzz-config-\(ProcessInfo.processInfo.processIdentifier).yaml")
    static let environment = ["TMDB_API_KEY": "key", "THETVDB_API_KEY": "", "HOME": "/home/fuzz", "EMPTY": ""]
}

@_cdecl("fuzz_config_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzConfig)
}
