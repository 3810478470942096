import Foundation
import Testing
@testable import GuideConfig

@Suite struct EnvironmentTests {
    let location = SourceLocation(file: configFile, line: 1, column: 1)

    func expand(_ raw: String, _ environment: [String: String]) throws(ConfigError) -> String {
        try EnvironmentExpansion.expand(raw, environment: environment, at: location).text
    }

    @Test func expansionRules() throws {
        let environment = ["HOST": "mirror.local", "PORT": "8080", "EMPTY": ""]
        #expect(try expand("http://${HOST}:${PORT}/1/", environment) == "http://mirror.local:8080/1/")
        #expect(try expand("${MISSING:-fallback}", environment) == "fallback")
        #expect(try expand("${EMPTY:-fallback}", environment) == "fallback")
        #expect(try expand("${HOST:-fallback}", environment) == "mirror.local")
        #expect(try expand("${MISSING:-}", environment) == "")
        #expect(try expand("cost: $5 and $${HOST}", environment) == "cost: $5 and ${HOST}")
        #expect(try expand("no variables", environment) == "no variables")
        #expect(try EnvironmentExpansion.expand("${HOST}", environment: environment, at: location).usedEnvironment)
        #expect(try !EnvironmentExpansion.expand("${MISSING:-x}", environment: environment, at: location).usedEnvironment)
    }

    @Test func missingOrEmptyVariableIsReportedByName() {
        let error = thrownError { () throws(ConfigError) in try expand("key=${API_KEY}", ["EMPTY": ""]) }
        #expect(error == .missingEnvironment(variable: "API_KEY", location))
        #expect(thrownError { () throws(ConfigError) in try expand("${EMPTY}", ["EMPTY": ""]) } == .missingEnvironment(variable: "EMPTY", location))
        #expect(error?.description == "/srv/tvguide/providers.yaml:1:1: environment variable API_KEY is not set (or is empty)")
    }

    @Test func malformedReferences() {
        #expect(thrownError { () throws(ConfigError) in try expand("${1ABC}", [:]) }?.message
            == "'${1ABC}' in '${1ABC}' is not a variable reference: a name is letters, digits and '_', not starting with a digit (write $${ for a literal ${)")
        #expect(thrownError { () throws(ConfigError) in try expand("abc ${OPEN", [:]) }?.message == "'${' without a closing '}' in 'abc ${OPEN'")
    }

    @Test func referencesListsNamesAndDefaults() {
        let references = EnvironmentExpansion.references(in: "${A}/${B:-x}/$${C}/${bad name}")
        #expect(references.map(\.name) == ["A", "B"])
        #expect(references.map(\.hasDefault) == [false, true])
    }

    @Test func aMissingSecretInProviderOptionsIsReportedByTheAccessorNotTheParse() throws {
        let yaml = """
            providers:
              miguiatv: { type: miguiatv }
              tmdb:
                type: tmdb
                api_key: "${TMDB_API_KEY}"
                language: ${TMDB_LANGUAGE:-es-ES}
            guide: [miguiatv]
            metadata: { movie: [tmdb] }
            """
        let config = try parse(yaml, environment: [:])
        let tmdb = try #require(config.provider("tmdb")).options
        #expect(tmdb.missingVariables == ["TMDB_API_KEY"])
        #expect(try tmdb.string("language") == "es-ES")
        let error = thrownError { () throws(ConfigError) in try tmdb.string("api_key") }
        #expect(error == .missingEnvironment(variable: "TMDB_API_KEY", SourceLocation(file: configFile, line: 5, column: 14)))

        let configured = try parse(yaml, environment: ["TMDB_API_KEY": "abc123", "TMDB_LANGUAGE": "en-US"])
        let options = try #require(configured.provider("tmdb")).options
        #expect(try options.string("api_key") == "abc123")
        #expect(try options.string("language") == "en-US")
        #expect(options.missingVariables.isEmpty)
    }

    @Test func aMissingVariableOutsideProvidersIsAnError() {
        let error = parseError(minimalYAML + "snapshots:\n  dir: ${SNAPSHOT_DIR}\n")
        #expect(error == .missingEnvironment(variable: "SNAPSHOT_DIR", SourceLocation(file: configFile, line: 5, column: 8)))
        let channel = parseError(minimalYAML + "channels:\n  - { id: La1.es, miguiatv: \"${LA1}\" }\n")
        #expect(channel == .missingEnvironment(variable: "LA1", SourceLocation(file: configFile, line: 5, column: 29)))
    }

    @Test func expandedValuesOutsideProviders() throws {
        let config = try parse(minimalYAML + "snapshots:\n  dir: ${DATA:-/var/lib/tvguide}/snapshots\ncache: { ttl: \"${TTL}\" }\n", environment: ["TTL": "30m"])
        #expect(config.snapshots.directory.path == "/var/lib/tvguide/snapshots")
        #expect(config.cache.ttl == 1_800)
    }

    @Test func errorsNeverShowAnExpandedValue() throws {
        let secret = "hunter2-very-secret"
        let yaml = """
            providers:
              p:
                type: x
                timeout: "${SECRET}"
                base_url: "ftp://${SECRET}@example.org"
            guide: [p]
            """
        let options = try parse(yaml, environment: ["SECRET": secret]).providers[0].options
        let duration = try #require(thrownError { () throws(ConfigError) in try options.duration("timeout") })
        #expect(duration.description == "/srv/tvguide/providers.yaml:4:14: expected a duration like 2h, got the value of '${SECRET}' (units: ms, s, m, h, d, w; combined like 1h30m)")
        let url = try #require(thrownError { () throws(ConfigError) in try options.url("base_url") })
        #expect(!url.description.contains(secret))
        #expect(url.description.contains("'ftp://${SECRET}@example.org'"))

        let version = try #require(parseError("version: ${SECRET}\n" + minimalYAML, environment: ["SECRET": secret]))
        #expect(version.message == "unsupported version '${SECRET}'; this tvguide reads version 1")
        let keep = try #require(parseError(minimalYAML + "snapshots: { keep: \"${SECRET}\" }\n", environment: ["SECRET": secret]))
        #expect(!keep.description.contains(secret))
    }
}
