import Foundation

/// Where `MetadataLookupCache` keeps providers' answers: a folder (`MetadataLookupFolder`, the
/// default) or the PostgreSQL store that replicas share, so that a work one builder looked up is
/// not looked up again by another. The cache above it decides what is fresh (the TTL) and when
/// to write; a storage keeps answers per provider, under the provider's settings fingerprint.
package protocol MetadataLookupStorage: Sendable {
    /// `provider`'s answers stored under `fingerprint`, by query key, whatever their age. Throws
    /// when they cannot be read or were stored for other settings: the run then asks the provider.
    func answers(provider: String, fingerprint: String) async throws(CacheStorageError) -> [String: StoredMetadataLookup]
    /// Stores `provider`'s answers. `answers` is every answer within the TTL, `changed` the keys
    /// answered since the last save (a storage that keeps answers apart writes only those), and
    /// answers fetched at or before `expiredUpTo` are past the TTL and may be dropped.
    func save(provider: String, fingerprint: String, answers: [String: StoredMetadataLookup], changed: Set<String>,
              expiredUpTo: Date) async throws(CacheStorageError)
    /// Removes what writes cut off by a crash left behind; called before each save.
    func removeAbandonedWrites() async
}

/// One answer as stored: when it was fetched and what it was (found, no match or ambiguous;
/// errors are never kept).
package struct StoredMetadataLookup: Codable, Sendable {
    enum Outcome: String, Codable { case found, noMatch, ambiguous }
    package var fetchedAt: Date
    var outcome: Outcome
    var metadata: Metadata?
    var match: MetadataMatch?
    var candidates: [String]?

    package init(_ lookup: MetadataLookup, fetchedAt: Date) {
        self.fetchedAt = fetchedAt
        switch lookup {
        case .found(let metadata, let match):
            outcome = .found
            self.metadata = metadata
            self.match = match
        case .noMatch:
            outcome = .noMatch
        case .ambiguous(let candidates):
            outcome = .ambiguous
            self.candidates = candidates
        }
    }

    /// Nil for an entry that says found but lacks its metadata (edited by hand): a miss.
    package var lookup: MetadataLookup? {
        switch outcome {
        case .found: metadata.flatMap { metadata in match.map { .found(metadata, $0) } }
        case .noMatch: .noMatch
        case .ambiguous: .ambiguous(candidates ?? [])
        }
    }

    /// The answer alone as JSON, for a storage that keeps answers one by one.
    package func json() throws -> Data {
        try Self.encoder.encode(self)
    }

    package init(json: Data) throws {
        self = try Self.decoder.decode(Self.self, from: json)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
