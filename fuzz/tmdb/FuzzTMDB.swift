import Foundation
import FuzzSupport
import GuideCore
import TMDB

/// TMDB v3 JSON through `TMDBProvider.lookup`. The input is three parts (`FuzzParts`): the
/// `configuration` answer, the search answer, and the details answer of `movie/…` or `tv/…`.
/// Each input runs a film lookup by title (search, then details) and a series lookup by TMDB id
/// (details only). Seeds: Fixtures/tmdb-cases and Fixtures/tmdb.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTMDB(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let parts = FuzzParts.split(fuzzData(bytes, count), maximum: 3)
    let answer: @Sendable (URL) -> Data? = { url in
        let path = url.path
        if path.hasSuffix("/configuration") { return parts[0] }
        if path.contains("/search/") { return parts.count > 1 ? parts[1] : nil }
        return parts.count > 2 ? parts[2] : nil
    }
    let queries = [
        MetadataQuery(kind: .movie, title: "Titanic", year: 1997),
        MetadataQuery(kind: .series, title: "Los Simpson", year: 1989, providerIDs: ["tmdb": "456"]),
    ]
    blocking {
        for query in queries {
            let provider = TMDBProvider(id: "tmdb", credentials: .none, transport: FuzzTransport(answer: answer))
            do { _ = try await provider.lookup(query) } catch { requireTyped(error, "TMDBProvider.lookup") }
        }
    }
    return 0
}

@_cdecl("fuzz_tmdb_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzTMDB)
}
