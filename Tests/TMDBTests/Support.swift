import Foundation
import GuideCore
import GuideTransport
import TestSupport
import TMDB

/// TMDB's real base URL, the one the recordings are named under.
let recordedBaseURL = URL(string: "https://api.themoviedb.org/3/")!
let casesFolder = Fixtures.url("tmdb-cases")
let imageBase = "https://image.tmdb.org/t/p/"
let testKey = "test-key-0123"

/// The query each details request of a film sends (after the `api_key`), in the order sent.
let movieDetailsQuery = "append_to_response=credits%2Cvideos%2Cimages&include_image_language=es%2Cen%2Cnull&language=es-ES"

/// A fake TMDB on loopback: the recorded cases under `/3/`, except the paths in `overrides`
/// (percent-encoded, `/3/movie/597`), which answer as given.
func fakeTMDB(overrides: [String: LoopbackHandler] = [:]) -> LoopbackHandler {
    let recordings = LoopbackServer.serving(directory: casesFolder, mountPath: "/3/")
    return { request in
        if let override = overrides[request.path] { return await override(request) }
        return await recordings(request)
    }
}

/// Runs `body` with a provider talking to a fake TMDB (see `fakeTMDB`) through a live transport.
func withFakeTMDB<T: Sendable>(
    log: RequestLog,
    overrides: [String: LoopbackHandler] = [:],
    policy: TransportPolicy = .loopbackExact,
    credentials: TMDBCredentials = .apiKey(testKey),
    fallbackLanguage: String? = "en-US",
    _ body: (TMDBProvider) async throws -> T
) async throws -> T {
    try await LoopbackServer.run(log: log, fakeTMDB(overrides: overrides)) { root in
        let provider = TMDBProvider(
            id: "tmdb", baseURL: root.appendingPathComponent("3", isDirectory: true), credentials: credentials,
            fallbackLanguage: fallbackLanguage, transport: LiveTransport(policy: policy))
        return try await body(provider)
    }
}

/// The recorded answers, each held back for `delay`.
func recorded(after delay: Duration) -> LoopbackHandler {
    let recordings = fakeTMDB()
    return { request in await recordings(request).delayed(by: delay) }
}

/// `failures` in turn for the first requests, then the recorded answers.
func recorded(after failures: [LoopbackResponse]) -> LoopbackHandler {
    let script = FailureScript(failures)
    let recordings = fakeTMDB()
    return { request in
        if let failure = await script.next() { return failure }
        return await recordings(request)
    }
}

actor FailureScript {
    private var remaining: [LoopbackResponse]

    init(_ failures: [LoopbackResponse]) {
        remaining = failures
    }

    func next() -> LoopbackResponse? {
        remaining.isEmpty ? nil : remaining.removeFirst()
    }
}

/// An error body as TMDB sends it.
func tmdbError(_ status: Int, code: Int, message: String, headers: [String: String] = [:]) -> LoopbackResponse {
    .json(#"{"status_code":\#(code),"status_message":"\#(message)","success":false}"#, status: status, headers: headers)
}

let invalidKey = tmdbError(401, code: 7, message: "Invalid API key: You must be granted a valid key.")
let resourceNotFound = tmdbError(404, code: 34, message: "The resource you requested could not be found.")

func film(_ title: String, year: Int? = nil, tmdb: String? = nil) -> MetadataQuery {
    MetadataQuery(kind: .movie, title: title, year: year, providerIDs: tmdb.map { ["tmdb": $0] } ?? [:])
}

func series(_ title: String, year: Int? = nil, kind: ProgrammeKind = .series) -> MetadataQuery {
    MetadataQuery(kind: kind, title: title, year: year)
}

extension RequestLog {
    /// The raw query strings of the requests for `path`, in order.
    func queries(path: String) -> [String?] {
        requests.filter { $0.path == path }.map(\.query)
    }
}
