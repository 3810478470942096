import Foundation
import GuideCore

/// Series and film details from TheTVDB API v4 (`https://api4.thetvdb.com/v4/`).
///
/// Requests, relative to `baseURL`; every answer is wrapped in `{"status", "data", "links"}`:
/// - `POST login` with `{"apikey": …, "pin": …}` → a bearer token, sent on every GET as
///   `Authorization: Bearer …`. The token is kept until its JWT `exp` (or 28 days when that cannot
///   be read) and renewed then, or once when a request is refused with 401 (the request is then
///   repeated once). Concurrent lookups share one login.
/// - `series/{id}/extended?meta=translations` (films: `movies/{id}/extended`) directly
///   when the query carries `providerIDs["thetvdb"]`; a 404 for that id falls back to searching.
/// - Otherwise `search?query=<title>&type=series|movie&year=<year>`, again without `year` when
///   nothing matched, the best result chosen by `TitleMatcher`, then its extended record.
///   Concurrent lookups of one record share one request, and a record is fetched once per provider.
///
/// Title and overview come from the record's translations in `language`, else
/// `fallbackLanguage`, else the record's own (original-language) text.
package actor TheTVDBProvider: MetadataProvider {
    package static let defaultBaseURL = URL(string: "https://api4.thetvdb.com/v4/")!

    package nonisolated let id: String
    package nonisolated let baseURL: URL
    /// 3 letters (`spa`), as TheTVDB names languages.
    package nonisolated let language: String
    package nonisolated let fallbackLanguage: String?

    private let apiKey: String?
    private let pin: String?
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    private let mapping: TheTVDBMapping

    private var token: TheTVDBToken?
    /// Every token the logins of this run returned: secrets too, though not from the environment.
    private var issuedTokens: [String] = []
    private var pendingLogin: Task<TheTVDBToken, any Error>?
    /// Set when the login itself was refused: the key will not get better within this run.
    private var keyRejected = false
    /// Records asked for, by `series/81189`: in flight or done (failed ones are dropped).
    private var records: [String: Task<Metadata, any Error>] = [:]
    private var usage = Usage()

    /// - Parameters:
    ///   - id: the provider's name in providers.yaml.
    ///   - apiKey: the project's API key. Nil only with a transport that answers the login itself
    ///     (a replay answers it from its recording, whatever the key): a live server refuses the
    ///     login, and lookups fail as `notConfigured`.
    ///   - pin: the subscriber PIN of a user-supported key.
    ///   - language: 3 letters; `fallbackLanguage` is used for the texts missing in it.
    ///   - now: the clock that decides whether the token has expired.
    package init(
        id: String,
        baseURL: URL = TheTVDBProvider.defaultBaseURL,
        apiKey: String?,
        pin: String? = nil,
        language: String = "spa",
        fallbackLanguage: String? = "eng",
        transport: any HTTPTransport,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.id = id
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.pin = pin
        self.language = language
        self.fallbackLanguage = fallbackLanguage
        self.transport = transport
        self.now = now
        self.mapping = TheTVDBMapping(language: language, fallbackLanguage: fallbackLanguage)
    }

    package func lookup(_ query: MetadataQuery) async throws -> MetadataLookup {
        let kind: TheTVDBMapping.RecordKind = query.kind == .movie ? .movie : .series

        if let given = query.providerIDs["thetvdb"].flatMap(TheTVDBMapping.numericID) {
            do {
                let metadata = try await record(given, kind: kind)
                let match = MetadataMatch(method: .providerID, confidence: TitleMatcher.confidence(.providerID),
                                          providerID: given, title: metadata.title ?? query.title)
                return .found(metadata, match)
            } catch ProviderError.http(let status, _) where status == 404 {
                // The guide's id is stale or of the other kind: the title may still find the work.
            }
        }

        let title = query.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return .noMatch }
        var found = try await search(title, year: query.year, filtered: true, kind: kind)
        if case .noMatch = found.decision, query.year != nil {
            // TheTVDB's year filter is exact: a guide a year or two off, or a remake, needs every
            // result of the title, still matched against the guide's year.
            found = try await search(title, year: query.year, filtered: false, kind: kind)
        }
        switch found.decision {
        case .noMatch:
            return .noMatch
        case .ambiguous(let tied):
            return .ambiguous(tied.map { TheTVDBMapping.describe($0, name: found.names[$0.id]) })
        case .match(let candidate, let method, let confidence):
            let metadata = try await record(candidate.id, kind: kind)
            let match = MetadataMatch(method: method, confidence: confidence, providerID: candidate.id,
                                      title: metadata.title ?? found.names[candidate.id] ?? title)
            return .found(metadata, match)
        }
    }

    /// `12 request(s): 12 from recordings; 1 login`; nothing when the provider was never asked.
    package func reportNotes() async -> [String] {
        usage.notes
    }

    // MARK: - Search and records

    private struct SearchOutcome {
        var decision: TitleMatcher.Decision
        /// Each candidate's own name, for the report.
        var names: [String: String]
    }

    /// Results for `title`, matched with `year`; `filtered` sends the year to TheTVDB too.
    private func search(
        _ title: String, year: Int?, filtered: Bool, kind: TheTVDBMapping.RecordKind
    ) async throws -> SearchOutcome {
        var items = [(name: "query", value: title), (name: "type", value: kind.searchType)]
        if filtered, let year { items.append((name: "year", value: String(year))) }
        let url = QueryEncoding.url(baseURL, path: "search", query: items)
        let results = try Self.payload([SearchResult].self, of: try await authorizedGet(url), url: url, required: false, hiding: credentials) ?? []

        var candidates: [TitleMatcher.Candidate] = []
        var names: [String: String] = [:]
        for result in results where result.type.map({ $0 == kind.searchType }) ?? true {
            guard let candidate = TheTVDBMapping.candidate(result) else { continue }
            candidates.append(candidate)
            if names[candidate.id] == nil { names[candidate.id] = result.name }
        }
        return SearchOutcome(decision: TitleMatcher.decide(title: title, year: year, among: candidates), names: names)
    }

    /// The extended record `id` as `Metadata`: fetched once, however many lookups ask at once.
    private func record(_ id: String, kind: TheTVDBMapping.RecordKind) async throws -> Metadata {
        let key = "\(kind.pathSegment)/\(id)"
        if let known = records[key] { return try await known.value }
        let fetch = Task { try await self.fetchRecord(id, kind: kind) }
        records[key] = fetch
        do {
            return try await fetch.value
        } catch {
            // A failure is not kept: a later lookup asks again.
            if records[key] == fetch { records[key] = nil }
            throw error
        }
    }

    private func fetchRecord(_ id: String, kind: TheTVDBMapping.RecordKind) async throws -> Metadata {
        let url = QueryEncoding.url(baseURL, path: "\(kind.pathSegment)/\(id)/extended",
                                    query: [(name: "meta", value: "translations")])
        let record = try Self.payload(ExtendedRecord.self, of: try await authorizedGet(url), url: url, required: true, hiding: credentials)
        guard let record else { throw ProviderError.malformed("\(URLRedaction.redacted(url)): no data") }
        return mapping.metadata(record, kind: kind, id: id)
    }

    // MARK: - Token

    private static let rejected = ProviderError.notConfigured("TheTVDB rejected the API key (HTTP 401)")
    private static let keyMissing = ProviderError.notConfigured("TheTVDB needs an API key (its login refused none, HTTP 401)")

    private var rejection: ProviderError { apiKey == nil ? Self.keyMissing : Self.rejected }

    /// A GET with the bearer token; on a 401 the token is renewed and the request repeated once.
    private func authorizedGet(_ url: URL) async throws -> TransportResponse {
        let used = try await validToken()
        do {
            return try await get(url, token: used)
        } catch let error as ProviderError where error.isUnauthorized {
            if token == used { token = nil }
            let renewed = try await validToken()
            do {
                return try await get(url, token: renewed)
            } catch let error as ProviderError where error.isUnauthorized {
                throw Self.rejected
            }
        }
    }

    private func get(_ url: URL, token: TheTVDBToken) async throws -> TransportResponse {
        usage.requests += 1
        do {
            let response = try await transport.get(url, headers: [
                "Authorization": "Bearer \(token.value)", "Accept": "application/json",
            ])
            usage.origins[response.origin, default: 0] += 1
            return response
        } catch {
            usage.failed += 1
            throw error
        }
    }

    /// The current token, or a new one; concurrent callers share one login.
    private func validToken() async throws -> TheTVDBToken {
        if keyRejected { throw rejection }
        if let token, token.isValid(at: now()) { return token }
        if let pendingLogin { return try await pendingLogin.value }
        let login = Task { try await self.login() }
        pendingLogin = login
        return try await login.value
    }

    /// Runs on the actor, so the token is stored before any caller waiting for it resumes.
    private func login() async throws -> TheTVDBToken {
        defer { pendingLogin = nil }
        let url = QueryEncoding.url(baseURL, path: "login")
        let body = try LoginRequest(apikey: apiKey ?? "", pin: pin.flatMap { $0.isEmpty ? nil : $0 }).encoded()
        usage.logins += 1
        let response: TransportResponse
        do {
            response = try await transport.post(url, headers: [
                "Content-Type": "application/json", "Accept": "application/json",
            ], body: body)
        } catch let error as ProviderError where error.isUnauthorized {
            keyRejected = true
            throw rejection
        }
        let data = try Self.payload(LoginData.self, of: response, url: url, required: true, hiding: credentials)
        guard let value = data?.token, !value.isEmpty else {
            throw ProviderError.malformed("\(URLRedaction.redacted(url)): no token in the answer")
        }
        let fresh = TheTVDBToken(value, issued: now(), forWholeRun: response.origin == .replay)
        issuedTokens.append(value)
        token = fresh
        return fresh
    }

    // MARK: - Envelope

    /// The key, the PIN and the tokens: what the server's own words must not carry into a report.
    private var credentials: [String] { [apiKey, pin].compactMap { $0 } + issuedTokens }

    /// The envelope's `data`; a body that is not JSON, an envelope whose `status` is not
    /// `success`, or (when `required`) one without `data` is `.malformed`, naming the URL and
    /// quoting the envelope's message with `secrets` hidden (a server may echo the request).
    private static func payload<Payload: Decodable>(
        _ type: Payload.Type, of response: TransportResponse, url: URL, required: Bool, hiding secrets: [String]
    ) throws -> Payload? {
        let shown = URLRedaction.redacted(url)
        let envelope: Envelope<Payload>
        do {
            envelope = try JSONDecoder().decode(Envelope<Payload>.self, from: response.body)
        } catch let error as DecodingError {
            throw ProviderError.htmlPage(in: response.body, contentType: response.headers["content-type"], expected: "JSON", source: shown)
                ?? ProviderError.malformed("\(shown): \(DecodingErrorDescription(error))")
        }
        guard envelope.status == "success" else {
            let message = envelope.message.map { " (\(URLRedaction.scrub($0, removing: secrets)))" } ?? ""
            throw ProviderError.malformed("\(shown): status \(envelope.status.map { "\"\($0)\"" } ?? "missing")\(message)")
        }
        if required && envelope.data == nil {
            throw ProviderError.malformed("\(shown): no data")
        }
        return envelope.data
    }
}

/// What the provider asked, for the run report.
private struct Usage {
    var requests = 0
    var origins: [TransportResponse.Origin: Int] = [:]
    var failed = 0
    var logins = 0

    var notes: [String] {
        guard requests > 0 || logins > 0 else { return [] }
        let labels: [(TransportResponse.Origin, String)] = [
            (.network, "from the network"), (.cache, "from the cache"), (.revalidated, "revalidated"),
            (.replay, "from recordings"),
        ]
        var parts = labels.compactMap { origin, label in origins[origin].map { "\($0) \(label)" } }
        if failed > 0 { parts.append("\(failed) failed") }
        let requestsPart = parts.isEmpty ? "\(requests) request(s)" : "\(requests) request(s): " + parts.joined(separator: ", ")
        return [requestsPart + "; \(logins) login" + (logins == 1 ? "" : "s")]
    }
}

extension ProviderError {
    fileprivate var isUnauthorized: Bool {
        if case .http(let status, _) = self { return status == 401 }
        return false
    }
}
