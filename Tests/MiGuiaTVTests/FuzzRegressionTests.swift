import Foundation
import GuideCore
import MiGuiaTV
import TestSupport
import Testing

/// Inputs that fuzzing (fuzz/README.md) showed MiGuiaTV's reading must survive.
@Suite("MiGuiaTV fuzz regressions")
struct MiGuiaTVFuzzRegressionTests {
    private static let everything = DateInterval(start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 4_102_444_800))

    @Test("a whole rating too large for an Int is written as a Double, not a crash")
    func rateTooLargeForInt() async throws {
        // A show rated 1e300: the rating's formatting converted every whole number to Int, which traps.
        let body = try Data(contentsOf: Fixtures.url("fuzz/miguiatv/rate-too-large-for-int.json"))
        let programmes = try await provider(ScriptedTransport { _ in body })
            .schedule(for: ChannelRef(id: "La1.es", providerID: "1"), in: Self.everything)
        #expect(programmes.map(\.title) == ["X"])
        #expect(programmes.first?.starRatings == [Rating(system: "MiGuiaTV", value: "1e+300/10")])
    }
}
