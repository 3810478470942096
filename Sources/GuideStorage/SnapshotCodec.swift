import Foundation
import GuideCore

/// Snapshot ⇄ bytes. The bytes are deterministic (docs/snapshot.md): keys sorted by their UTF-8
/// bytes, two-space indentation with one member per line, times as ISO 8601 UTC whole seconds,
/// nil fields left out, channels sorted by id, programmes by (channel, start) and audiences by day
/// and rank, and a trailing newline — the layout of Python's `json.dumps(…, indent=2, sort_keys=True, ensure_ascii=False)`.
package enum SnapshotCodec {
    package static func encode(_ snapshot: Snapshot) throws -> Data {
        Data(try encodedBytes(snapshot))
    }

    /// `encode`'s bytes without the copy into `Data`, for small documents kept whole (the
    /// companion's snapshot without its programmes). A whole snapshot goes to its file through
    /// `write(canonical:to:)`.
    package static func encodedBytes(_ snapshot: Snapshot) throws -> [UInt8] {
        try encodedBytes(canonical: canonical(snapshot))
    }

    /// `encodedBytes` of a snapshot that is canonical already (`canonical(_:)`).
    package static func encodedBytes(canonical: Snapshot) throws -> [UInt8] {
        // About 800 bytes per programme; reserving once avoids copying tens of MB while growing.
        let audienceRecords = canonical.audiences.reduce(0) { $0 + $1.records.count }
        var writer = JSONWriter(pretty: true, capacity: 4_096 + canonical.programmes.count * 800 + canonical.channels.count * 300
                                    + audienceRecords * 350)
        canonical.write(to: &writer)
        writer.newline()
        return writer.bytes
    }

    /// The bytes of `encodedBytes(snapshot)`, handed to `write` a megabyte at a time: a
    /// build writes its snapshot straight to the file, without holding the whole JSON, which is
    /// larger than the guide it describes. `snapshot` must be canonical already.
    package static func write(canonical snapshot: Snapshot, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        try withoutActuallyEscaping(write) { write in
            var writer = JSONWriter(pretty: true, drain: ByteDrain(write))
            snapshot.write(to: &writer)
            writer.newline()
            try writer.finish()
        }
    }

    /// `snapshot` in the order its bytes list things: channels, programmes and audiences sorted.
    package static func canonical(_ snapshot: Snapshot) -> Snapshot {
        var canonical = snapshot
        canonical.channels = sortedChannels(snapshot.channels)
        canonical.programmes = sortedProgrammes(snapshot.programmes)
        canonical.audiences = sortedAudiences(snapshot.audiences)
        return canonical
    }

    /// Reads every schema up to `Snapshot.currentSchemaVersion`.
    package static func decode(_ data: Data) throws -> Snapshot {
        try decode(data, programmesPerChunk: defaultProgrammesPerChunk)
    }

    /// `programmesPerChunk`: how many programmes one task of the parallel decode reads.
    static func decode(_ data: Data, programmesPerChunk: Int) throws -> Snapshot {
        let snapshot: Snapshot
        do {
            snapshot = try decodeInParallel(data, programmesPerChunk: programmesPerChunk) ?? interned(decoder().decode(Snapshot.self, from: data))
        } catch let error as DecodingError {
            // A newer schema may fail to decode for reasons that say nothing useful; its version does.
            if let probe = try? decoder().decode(SchemaProbe.self, from: data), probe.schemaVersion > Snapshot.currentSchemaVersion {
                throw SnapshotError.unsupportedSchemaVersion(file: nil, found: probe.schemaVersion, supported: Snapshot.currentSchemaVersion)
            }
            throw SnapshotError.corrupt(file: nil, detail: describe(error))
        }
        guard snapshot.schemaVersion <= Snapshot.currentSchemaVersion else {
            throw SnapshotError.unsupportedSchemaVersion(file: nil, found: snapshot.schemaVersion, supported: Snapshot.currentSchemaVersion)
        }
        // An older file is read as a current snapshot (schema 1: one without works or audiences;
        // schema 2: one without audiences), so that
        // writing it back labels the bytes with the schema they are written in.
        var current = snapshot
        current.schemaVersion = Snapshot.currentSchemaVersion
        return current
    }

    /// A decoder for JSON written by `JSONWriter`: times are ISO 8601 strings.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISOTime.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time: '\(text)'")
            }
            return date
        }
        return decoder
    }

    static func sortedChannels(_ channels: [Channel]) -> [Channel] {
        let inOrder = zip(channels, channels.dropFirst()).allSatisfy { !UTF8Order.precedes($1.id, $0.id) }
        return inOrder ? channels : channels.sorted { UTF8Order.precedes($0.id, $1.id) }
    }

    /// Days by day, each day's records in ranking order (`AudienceRecord.ranksBefore`).
    static func sortedAudiences(_ days: [AudienceDay]) -> [AudienceDay] {
        var sorted = zip(days, days.dropFirst()).allSatisfy { $0.day <= $1.day } ? days : days.sorted { $0.day < $1.day }
        for index in sorted.indices {
            let records = sorted[index].records
            if !records.indices.dropFirst().allSatisfy({ !AudienceRecord.ranksBefore(records[$0], records[$0 - 1]) }) {
                sorted[index].records = records.sorted(by: AudienceRecord.ranksBefore)
            }
        }
        return sorted
    }

    /// By (channel, start, place among the airings sharing the start); title, source and stop only
    /// break ties between duplicates that normalisation should have removed, so that even those
    /// never depend on input order.
    static func sortedProgrammes(_ programmes: [Programme]) -> [Programme] {
        let inOrder = programmes.indices.dropFirst().allSatisfy { !programmePrecedes(programmes[$0], programmes[$0 - 1]) }
        return inOrder ? programmes : programmes.sorted(by: programmePrecedes)
    }

    // Inlined, so that the comparisons read the fields where the programmes are rather than
    // copying both whole (every field retained and released) to pass them.
    @inline(__always)
    static func programmePrecedes(_ a: Programme, _ b: Programme) -> Bool {
        if a.channel != b.channel { return UTF8Order.precedes(a.channel, b.channel) }
        if a.start != b.start { return a.start < b.start }
        if a.sameStartIndex != b.sameStartIndex { return (a.sameStartIndex ?? 0) < (b.sameStartIndex ?? 0) }
        if a.title != b.title { return UTF8Order.precedes(a.title, b.title) }
        if a.source != b.source { return UTF8Order.precedes(a.source, b.source) }
        return (a.stop ?? .distantPast) < (b.stop ?? .distantPast)
    }

    private struct SchemaProbe: Decodable {
        var schemaVersion: Int
    }

    /// `programmes[12].start: not an ISO 8601 time: 'x'` rather than DecodingError's dump.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var out = ""
            for key in keys {
                if let index = key.intValue {
                    out += "[\(index)]"
                } else {
                    out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return out.isEmpty ? "top level" : out
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\(String(describing: $0)))" } ?? ""
            return "\(path(context.codingPath)): \(context.debugDescription)\(underlying)"
        @unknown default:
            return String(describing: error)
        }
    }

    /// What `JSONDecoder` read, holding each repeated value once as `ProgrammeJSONReader`'s
    /// programmes do.
    static func interned(_ programmes: [Programme]) -> [Programme] {
        var interner = Interner(programmes: programmes.count)
        var programmes = programmes
        for index in programmes.indices { interner.intern(&programmes[index]) }
        return programmes
    }

    static func interned(_ snapshot: Snapshot) -> Snapshot {
        var snapshot = snapshot
        snapshot.programmes = interned(snapshot.programmes)
        return snapshot
    }
}
