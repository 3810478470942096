import AsyncHTTPClient
import Foundation
@testable import GuideServer
import NIOHTTP1
import Testing

/// CORS only where configured: by default no answer lets another origin read it; configured,
/// only the listed origins may read the JSON API and the feeds, never the pages or operations.
@Suite struct CrossOriginTests {
    static let app = "https://app.example"
    static let settings: ServerSettings = {
        var settings = ServerHarness.patientSettings
        settings.corsOrigins = [app, "http://localhost:3000"]
        return settings
    }()

    static func preflight(_ client: ServerClient, _ path: String, origin: String) async throws -> ServerResponse {
        try await client.send(.OPTIONS, path, headers: ["Origin": origin, "Access-Control-Request-Method": "GET",
                                                        "Access-Control-Request-Headers": "if-none-match"])
    }

    @Test func byDefaultNoOriginIsAllowed() async throws {
        try await ServerHarness.run { client in
            for path in ["/now", "/channels", "/xmltv.xml", "/"] {
                let response = try await client.get(path, headers: ["Origin": Self.app])
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["access-control-allow-origin"] == nil, "\(path)")
                // `Vary: Accept-Encoding` where the body may be compressed; never `Origin`.
                #expect(response.headers["vary"] != "Origin", "\(path)")
            }
            let preflight = try await Self.preflight(client, "/now", origin: Self.app)
            #expect(preflight.status == 405)
            #expect(preflight.headers["access-control-allow-origin"] == nil)
        }
    }

    @Test func aListedOriginMayReadTheAPIAndFeeds() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            for path in ["/now", "/channels/La1.es/schedule", "/programmes/La1.es@20261021T190000Z", "/openapi.yaml",
                         "/reminders.ics?programme=La1.es@20261021T190000Z", "/xmltv.xml.gz", "/channels/Nope.es/schedule"] {
                let response = try await client.get(path, headers: ["Origin": Self.app])
                #expect(response.headers["access-control-allow-origin"] == Self.app, "\(path)")
                #expect(response.headers["access-control-expose-headers"] == "ETag", "\(path)")
                #expect(response.headers["vary"] == "Origin", "\(path)")
            }
            let local = try await client.get("/now", headers: ["Origin": "http://localhost:3000"])
            #expect(local.headers["access-control-allow-origin"] == "http://localhost:3000")
            // Anyone else, a sandboxed page's `null`, or the same host on another port: no.
            for origin in ["https://evil.example", "null", "https://app.example:8443", "http://app.example"] {
                let response = try await client.get("/now", headers: ["Origin": origin])
                #expect(response.status == 200)
                #expect(response.headers["access-control-allow-origin"] == nil, "\(origin)")
                #expect(response.headers["vary"] == "Origin")
            }
        }
    }

    @Test func pagesAssetsAndOperationsNeverGetIt() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            for path in ["/", "/channel/La1.es", "/programme/La1.es@20261021T190000Z", "/assets/guide.js", "/health", "/metrics"] {
                let response = try await client.get(path, headers: ["Origin": Self.app])
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["access-control-allow-origin"] == nil, "\(path)")
                #expect(try await Self.preflight(client, path, origin: Self.app).status == 405, "\(path)")
            }
        }
    }

    @Test func preflightIsAnsweredForListedOriginsOnly() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            let allowed = try await Self.preflight(client, "/grid?hours=2", origin: Self.app)
            #expect(allowed.status == 204)
            #expect(allowed.headers["access-control-allow-origin"] == Self.app)
            #expect(allowed.headers["access-control-allow-methods"] == "GET, HEAD")
            #expect(allowed.headers["access-control-allow-headers"] == "If-None-Match")
            #expect(allowed.headers["access-control-max-age"] == "600")
            let refused = try await Self.preflight(client, "/grid", origin: "https://evil.example")
            #expect(refused.status == 403)
            #expect(refused.headers["access-control-allow-origin"] == nil)
            #expect(try errorMessage(refused) == "origin 'https://evil.example' may not read this server's API; see server.cors_origins")
            // OPTIONS that is not a preflight is not a route.
            let options = try await client.send(.OPTIONS, "/now")
            #expect(options.status == 405)
            #expect(options.headers["allow"] == "GET, HEAD")
        }
    }

    /// The fast lane replays recorded answers byte for byte: one recorded for an allowed origin
    /// must never reach another origin, nor one recorded without `Origin` an allowed one.
    @Test func theFastLaneNeverReplaysAnotherOriginsAnswer() async throws {
        try await ServerHarness.run(settings: Self.settings) { client in
            for origin in [nil, Self.app, "https://evil.example", nil, Self.app, "https://evil.example"] {
                let response = try await client.get("/now", headers: origin.map { ["Origin": $0] } ?? [:])
                let expected = origin == Self.app ? Self.app : nil
                #expect(response.headers["access-control-allow-origin"] == expected, "\(origin ?? "no origin")")
            }
        }
    }

    @Test func anyOriginWithAStar() async throws {
        var settings = ServerHarness.patientSettings
        settings.corsOrigins = ["*"]
        try await ServerHarness.run(settings: settings) { client in
            let api = try await client.get("/now", headers: ["Origin": "https://anyone.example"])
            #expect(api.headers["access-control-allow-origin"] == "*")
            let page = try await client.get("/", headers: ["Origin": "https://anyone.example"])
            #expect(page.headers["access-control-allow-origin"] == nil)
        }
    }

    @Test func theAPIRoutesAreExactlyTheCoveredOnes() async throws {
        let pages: Set = ["GET /", "GET /channel/{id}", "GET /programme/{id}", "GET /programme/{id}/airings", "GET /coming-up", "GET /find",
                          "GET /ratings", "GET /my-calendar", "GET /my-calendar/add", "GET /my-calendar/remove", "GET /my-channels",
                          "GET /my-channels/save", "GET /my-tastes/like", "GET /my-tastes/dislike", "GET /my-tastes/forget",
                          "GET /my-tastes/save", "GET /language", "GET /assets/{name}", "GET /favicon.ico", "GET /health", "GET /metrics"]
        try await ServerHarness.run { client in
            for route in client.routes {
                let path = String(route.dropFirst("GET ".count))
                #expect(CrossOrigin.covers(path) == !pages.contains(route), "\(route)")
            }
        }
    }
}
