import Foundation
import FuzzSupport
import GuideCore
import TheTVDB

/// TheTVDB v4 JSON through `TheTVDBProvider.lookup`. The input is three parts (`FuzzParts`): the
/// `login` answer (its token's JWT expiry is read too), the search answer, and the extended record.
/// Each input runs a series lookup by title (search, then record) and a film lookup by TheTVDB id
/// (record only). Seeds: Fixtures/thetvdb-cases and Fixtures/thetvdb.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTheTVDB(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let parts = FuzzParts.split(fuzzData(bytes, count), maximum: 3)
    let answer: @Sendable (URL) -> Data? = { url in
        let path = url.path
        if path.hasSuffix("/login") { return parts[0] }
        if path.hasSuffix("/search") { return parts.count > 1 ? parts[1] : nil }
        return parts.count > 2 ? parts[2] : nil
    }
    let queries = [
        MetadataQuery(kind: .series, title: "Hermanos", year: 2024),
        MetadataQuery(kind: .movie, title: "Titanic", year: 1997, providerIDs: ["thetvdb": "597"]),
    ]
    blocking {
        for query in queries {
            let provider = TheTVDBProvider(id: "thetvdb", apiKey: "fuzz", transport: FuzzTransport(answer: answer))
            do { _ = try await provider.lookup(query) } catch { requireTyped(error, "TheTVDBProvider.lookup") }
        }
    }
    return 0
}

@_cdecl("fuzz_thetvdb_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzTheTVDB)
}
