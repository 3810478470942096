import Foundation
@testable import GuideConfig

/// Every test config pretends to live here, so locations and resolved paths are predictable.
let configFile = URL(fileURLWithPath: "/srv/tvguide/providers.yaml")

/// The smallest valid configuration, to which a test appends what it examines.
let minimalYAML = """
    providers:
      miguiatv: { type: miguiatv }
    guide: [miguiatv]

    """

func parse(_ yaml: String, environment: [String: String] = [:]) throws(ConfigError) -> GuideConfiguration {
    try GuideConfiguration.parse(yaml: yaml, file: configFile, environment: environment)
}

/// The error parsing `yaml` throws, or nil when it parses.
func parseError(_ yaml: String, environment: [String: String] = [:]) -> ConfigError? {
    do {
        _ = try parse(yaml, environment: environment)
        return nil
    } catch {
        return error
    }
}

/// The error `body` throws, or nil when it succeeds.
func thrownError<T>(_ body: () throws(ConfigError) -> T) -> ConfigError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The options of the one provider `options` describes, e.g. `{ type: xmltv, url: a.xml }`.
func options(_ flowMapping: String, environment: [String: String] = [:]) throws -> ProviderOptions {
    let config = try parse("providers:\n  p: \(flowMapping)\nguide: [p]\n", environment: environment)
    return config.providers[0].options
}

extension ConfigError {
    var line: Int? { location?.line }
    var column: Int? { location?.column }
}
