import Foundation
import FuzzSupport
import GuideCore
import MiGuiaTV

/// MiGuiaTV's JSON (channels, a channel's schedule, now on air) through `MiGuiaTVProvider`, the
/// bytes answering every request. Seeds: Fixtures/miguiatv.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMiGuiaTV(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let body = fuzzData(bytes, count)
    let provider = MiGuiaTVProvider(
        id: "miguiatv", baseURL: URL(string: "http://api.miguia.tv/1/")!, transport: FuzzTransport { _ in body })
    let everything = DateInterval(start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 4_102_444_800))
    blocking {
        do { _ = try await provider.channels() } catch { requireTyped(error, "channels") }
        do {
            _ = try await provider.schedule(for: ChannelRef(id: "La1.es", providerID: "1"), in: everything)
        } catch {
            requireTyped(error, "schedule")
        }
        do { _ = try await provider.nowOnAir() } catch { requireTyped(error, "nowOnAir") }
    }
    return 0
}

@_cdecl("fuzz_miguiatv_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzMiGuiaTV)
}
