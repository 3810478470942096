import Foundation
import GuideCore
@testable import GuideServer
import OpenAPIKit
import Testing

/// `/openapi.yaml` is a valid OpenAPI 3.1 document (OpenAPIKit), describes exactly the routes the
/// server registers, and real answers conform to it.
@Suite struct OpenAPITests {
    @Test func theDocumentIsValidOpenAPI31ServedAsYAML() async throws {
        try await ServerHarness.run { client in
            let response = try await client.get("/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/yaml")
            #expect(response.headers["etag"] != nil)
            // The file as written, not a re-encoding of it.
            #expect(response.body == (try Data(contentsOf: Self.file)))
            let contract = try OpenAPIContract(yaml: response.text)
            #expect(contract.document.openAPIVersion.rawValue.hasPrefix("3.1."))
            #expect(contract.document.info.title == "tvguide")
            // The default validations (references resolve, ids unique…) and the ones OpenAPIKit
            // leaves out by default that a served API needs.
            let validator = Validator()
                .validating(\.documentContainsPaths, \.pathsContainOperations, \.operationsContainResponses, \.pathParametersAreDefined)
            try contract.document.validate(using: validator)
            for (route, _, operation) in contract.operations {
                // The links that save a choice answer 303 and nothing else on success.
                #expect(operation.responses[.status(code: 200)] != nil || operation.responses[.status(code: 303)] != nil, "\(route) has no 200 or 303")
            }
        }
    }

    @Test func pathsAndMethodsAreExactlyTheRoutesServed() async throws {
        try await ServerHarness.run { client in
            let contract = try OpenAPIContract(yaml: try await client.get("/openapi.yaml").text)
            let described = Set(contract.operations.map(\.route))
            let served = Set(client.routes)
            #expect(served.count == client.routes.count, "a route is registered twice")
            #expect(described.subtracting(served).sorted() == [], "described but not served")
            #expect(served.subtracting(described).sorted() == [], "served but not described")
        }
    }

    /// `tz` takes what `TimeZoneName` lists: Foundation's canonical zones and UTC, every one of
    /// them, and nothing else (no alias, abbreviation or offset that the document could not list).
    @Test func timeZoneNamesAreExactlyTheZonesTheServerTakes() async throws {
        try await ServerHarness.run { client in
            let contract = try OpenAPIContract(yaml: try await client.get("/openapi.yaml").text)
            let schema = try #require(contract.document.components.schemas["TimeZoneName"])
            let listed = Set((schema.allowedValues ?? []).compactMap { $0.value as? String })
            #expect(listed == Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"]), "regenerate TimeZoneName's enum from TimeZone.knownTimeZoneIdentifiers")
            // Every name through the one reader every route uses (443 requests would hold up the
            // suite's timing-sensitive tests), and a few through the routes themselves.
            for name in listed.sorted() {
                #expect((try? QueryReader.zone(named: name)) != nil, "\(name)")
            }
            for name in ["UTC", "Europe/Madrid", "America/St_Johns"] {
                #expect(listed.contains(name))
                let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
                #expect(try await client.get("/now?limit=1&tz=\(encoded)").status == 200, "\(name)")
                #expect(try await client.get("/?tz=\(encoded)").status == 200, "\(name)")
            }
            for name in ["US/Eastern", "Etc/GMT+1", "EST", "GMT+1", "GMT+0100", "europe/madrid", "Mars/Olympus"] {
                let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
                #expect(try await client.get("/now?tz=\(encoded)").status == 400, "\(name)")
                #expect(try await client.get("/?tz=\(encoded)").status == 400, "\(name)")
            }
        }
    }

    /// A real answer of each route against its documented status, content type and schema.
    static let samples = [
        "/channels", "/lineups", "/now", "/grid", "/channels/La1.es/schedule", "/programmes/BeMad.es@20261021T200000Z",
        "/programmes/BeMad.es@20261021T200000Z/airings", "/upcoming", "/search?q=matrix", "/audiences", "/audiences/top",
        "/health", "/metrics", "/openapi.yaml", "/reminders.ics?programme=BeMad.es@20261021T200000Z", "/calendar.ics?kind=movie",
        "/xmltv.xml", "/xmltv.xml.gz", "/", "/channel/La1.es", "/programme/BeMad.es@20261021T200000Z", "/assets/guide.css",
        "/assets/guide.js", "/channels?limit=0", "/channels/Nope.es/schedule", "/channel/Nope.es", "/assets/nope.css",
        "/grid?tz=Nowhere", "/?hours=99", "/playlist.m3u",
    ]

    @Test func answersConformToTheDocument() async throws {
        try await ServerHarness.run(settings: ServerSettings(port: 0, lineups: ["main": ["La1.es"]])) { client in
            let contract = try OpenAPIContract(yaml: try await client.get("/openapi.yaml").text)
            var statuses: Set<Int> = []
            for request in Self.samples {
                let path = String(request.prefix { $0 != "?" })
                let operation = try #require(contract.operation(matching: path), "\(request) matches no path")
                let response = try await client.get(request)
                statuses.insert(response.status)
                #expect(OpenAPIContract.violations(of: response, to: operation) == [], "\(request)")
            }
            // The samples reach answers and refusals alike.
            #expect(statuses.isSuperset(of: [200, 400, 404]))
        }
    }

    /// The checker itself: answers that break the document are caught.
    @Test func theConformanceCheckFindsWhatIsWrong() async throws {
        try await ServerHarness.run { client in
            let contract = try OpenAPIContract(yaml: try await client.get("/openapi.yaml").text)
            let channels = try #require(contract.operation(matching: "/channels"))
            let json = ["content-type": "application/json"]
            func check(_ status: Int, _ headers: [String: String], _ body: String) -> [String] {
                OpenAPIContract.violations(of: ServerResponse(status: status, headers: headers, body: Data(body.utf8)), to: channels)
            }
            let page = #"{"total":1,"offset":0,"limit":100,"items":[{"id":"La1.es","name":"La 1"}]}"#
            #expect(check(200, json, page) == [])
            #expect(check(200, json, page.replacingOccurrences(of: #""name":"La 1""#, with: #""name":1"#)) != [])
            #expect(check(200, json, page.replacingOccurrences(of: #","name":"La 1""#, with: "")) != [])
            #expect(check(200, json, page.replacingOccurrences(of: #""name":"La 1""#, with: #""name":"La 1","extra":true"#)) != [])
            #expect(check(200, ["content-type": "text/html"], page) != [])
            #expect(check(418, json, #"{"error":{"status":418,"message":"teapot"}}"#) != [])
            #expect(check(500, json, #"{"error":{"status":500,"message":"internal error"}}"#) != [])
            #expect(check(400, json, #"{"error":{"status":400,"message":"bad"}}"#) == [])
            #expect(check(400, json, #"{"error":{"status":"400","message":"bad"}}"#) != [])
            #expect(check(304, [:], "") == [])
            #expect(check(304, [:], "body") != [])
        }
    }

    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/GuideServer/Resources/openapi.yaml")
}

extension OpenAPIContract {
    /// The GET operation whose path template matches a concrete path (`{id}` one segment).
    func operation(matching path: String) -> DereferencedOperation? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return dereferenced.routes.first { route in
            let template = route.path.rawValue.split(separator: "/", omittingEmptySubsequences: false)
            return template.count == segments.count
                && zip(template, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
                && route.pathItem.get != nil
        }?.pathItem.get
    }
}
