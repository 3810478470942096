import Foundation
import GuideCore
import GuideServer
import Testing

@Suite struct ServerBasicsTests {
    @Test func healthReportsTheLoadedGuide() async throws {
        try await ServerHarness.run { client in
            let response = try await client.get("/health")
            #expect(response.status == 200)
            let health = try response.object()
            // The golden guide is the offline default's: every live source failed and the recorded week served.
            #expect(health["status"] as? String == "degraded")
            let reasons = try #require(health["reasons"] as? [String])
            #expect(reasons == ["every live guide source failed (elpais, movistarplus, miguiatv); the guide comes from xmltv-sample"])
            #expect(health["origin"] as? String == "latest.json")
            #expect(health["programmes"] as? Int == ServerHarness.golden.programmes.count)
            #expect(health["generatedAt"] as? String == "2026-10-21T19:00:00Z")
        }
    }

    @Test func anUnknownRouteIsAJSON404() async throws {
        try await ServerHarness.run { client in
            let response = try await client.get("/no/such/route")
            #expect(response.status == 404)
            #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
            let error = try #require(try response.object()["error"] as? [String: Any])
            #expect(error["status"] as? Int == 404)
            #expect((error["message"] as? String)?.contains("/no/such/route") == true)
        }
    }

    @Test func withoutASnapshotTheServerAnswersAndHealthSaysEmpty() async throws {
        try await ServerHarness.run(snapshot: nil) { client in
            let response = try await client.get("/health")
            #expect(response.status == 503)
            #expect(try response.object()["status"] as? String == "empty")
        }
    }

    @Test func metricsCountRequestsByRoutePattern() async throws {
        try await ServerHarness.run { client in
            _ = try await client.get("/health")
            _ = try await client.get("/nowhere")
            let metrics = try await client.get("/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.text.contains(#"tvguide_http_requests_total{route="/health",status="200"} 1"#))
            #expect(metrics.text.contains(#"status="404"} 1"#))
            #expect(metrics.text.contains("tvguide_guide_programmes \(ServerHarness.golden.programmes.count)"))
        }
    }
}
