import Foundation

/// One provider's `.found` answer, as a chain collects them in its order.
public struct MetadataAnswer: Sendable, Hashable {
    public var providerID: String
    public var metadata: Metadata
    public var match: MetadataMatch

    public init(providerID: String, metadata: Metadata, match: MetadataMatch) {
        self.providerID = providerID
        self.metadata = metadata
        self.match = match
    }
}

/// A chain's answers merged into one `Metadata`, with who gave what.
public struct MergedMetadata: Sendable, Hashable {
    public var metadata: Metadata
    /// Metadata property name → the provider that gave it; provider ids count per system
    /// (`providerIDs.imdb`).
    public var sources: [String: String]
    /// How each provider whose answer was merged found the work.
    public var matches: [String: MetadataMatch]
    /// Providers whose answer was left out because its ids name another work than the answers
    /// before it (a different `tmdb` id, say): they matched a different film or series.
    public var disagreeing: [String]

    public init(metadata: Metadata = Metadata(), sources: [String: String] = [:],
                matches: [String: MetadataMatch] = [:], disagreeing: [String] = []) {
        self.metadata = metadata
        self.sources = sources
        self.matches = matches
        self.disagreeing = disagreeing
    }
}

/// The per-field merge of a metadata chain: the first provider's non-empty value wins (nil, a
/// blank string and an empty list are empty), empty fields are filled from the next provider,
/// and each field remembers which provider gave it. Provider ids merge per system.
public enum MetadataMerge {
    /// The id systems a work is known by, in the order a work id prefers them.
    package static let workIDSystems = ["tmdb", "thetvdb", "imdb"]

    public static func merge(_ answers: [MetadataAnswer]) -> MergedMetadata {
        var result = MergedMetadata()
        var ids: [String: String] = [:]
        for answer in answers {
            let offered = nonBlank(answer.metadata.providerIDs)
            guard !offered.contains(where: { system, id in ids[system].map { $0 != id } ?? false }) else {
                result.disagreeing.append(answer.providerID)
                continue
            }
            if result.matches[answer.providerID] == nil {
                result.matches[answer.providerID] = answer.match
            }
            for group in fieldGroups where group.allSatisfy({ $0.isEmpty(result.metadata) }) {
                for field in group where !field.isEmpty(answer.metadata) {
                    field.copy(answer.metadata, &result.metadata)
                    result.sources[field.name] = answer.providerID
                }
            }
            for (system, id) in offered.sorted(by: { $0.key < $1.key }) where ids[system] == nil {
                ids[system] = id
                result.sources["providerIDs.\(system)"] = answer.providerID
            }
        }
        result.metadata.providerIDs = ids.isEmpty ? nil : ids
        return result
    }

    /// True when no later provider could add anything: every field group and every work id
    /// system is filled.
    public static func isComplete(_ metadata: Metadata) -> Bool {
        let ids = nonBlank(metadata.providerIDs)
        return workIDSystems.allSatisfy { ids[$0] != nil }
            && fieldGroups.allSatisfy { group in group.contains { !$0.isEmpty(metadata) } }
    }

    /// `<kind>/<system>/<id>` from the first of `workIDSystems` the ids have; without any,
    /// `<kind>/title/<normalised title words>-<year>` from the title and year.
    package static func workID(kind: ProgrammeKind, providerIDs: [String: String]?, title: String, year: Int?) -> String {
        let ids = nonBlank(providerIDs)
        if let system = workIDSystems.first(where: { ids[$0] != nil }), let id = ids[system] {
            return "\(kind.rawValue)/\(system)/\(id)"
        }
        let key = TitleKey(title)
        let words = key.words + ((year ?? key.year).map { [String($0)] } ?? [])
        return "\(kind.rawValue)/title/\(words.joined(separator: "-"))"
    }

    /// The `Metadata` property names the merge fills, in declaration order (`providerIDs`, which
    /// merges per system, is not among them).
    package static var fieldNames: [String] { fieldGroups.flatMap { $0.map(\.name) } }

    /// Every `Metadata` property but `providerIDs`. A group is taken whole from one provider:
    /// a score and its vote count only mean something together.
    static let fieldGroups: [[Field]] = [
        [.text("title", \.title)],
        [.text("originalTitle", \.originalTitle)],
        [.text("originalLanguage", \.originalLanguage)],
        [.value("year", \.year)],
        [.text("released", \.released)],
        [.text("overview", \.overview)],
        [.text("tagline", \.tagline)],
        [.list("genres", \.genres)],
        [.value("runtime", \.runtime)],
        [.text("status", \.status)],
        [.text("network", \.network)],
        [.list("countries", \.countries)],
        [.text("contentRating", \.contentRating)],
        [.text("homepage", \.homepage)],
        [.value("budget", \.budget)],
        [.value("revenue", \.revenue)],
        [.value("voteAverage", \.voteAverage), .value("voteCount", \.voteCount)],
        [.value("seasons", \.seasons)],
        [.list("cast", \.cast)],
        [.list("crew", \.crew)],
        [.text("poster", \.poster)],
        [.text("backdrop", \.backdrop)],
        [.list("images", \.images)],
        [.list("videos", \.videos)],
    ]

    struct Field: Sendable {
        let name: String
        let isEmpty: @Sendable (Metadata) -> Bool
        let copy: @Sendable (Metadata, inout Metadata) -> Void

        static func text(_ name: String, _ path: WritableKeyPath<Metadata, String?> & Sendable) -> Field {
            Field(name: name,
                  isEmpty: { $0[keyPath: path].map { $0.allSatisfy(\.isWhitespace) } ?? true },
                  copy: { $1[keyPath: path] = $0[keyPath: path] })
        }

        static func list<Element: Sendable>(_ name: String, _ path: WritableKeyPath<Metadata, [Element]?> & Sendable) -> Field {
            Field(name: name,
                  isEmpty: { $0[keyPath: path]?.isEmpty ?? true },
                  copy: { $1[keyPath: path] = $0[keyPath: path] })
        }

        static func value<Value: Sendable>(_ name: String, _ path: WritableKeyPath<Metadata, Value?> & Sendable) -> Field {
            Field(name: name,
                  isEmpty: { $0[keyPath: path] == nil },
                  copy: { $1[keyPath: path] = $0[keyPath: path] })
        }
    }

    private static func nonBlank(_ ids: [String: String]?) -> [String: String] {
        (ids ?? [:]).filter { !$0.value.allSatisfy(\.isWhitespace) }
    }
}
