import Foundation

/// Why a snapshot could not be read or written. Each case names the file when there is one.
package enum SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a snapshot: not JSON, a missing field, a value of the wrong type, a bad time.
    /// `file` is nil when the bytes did not come from a file.
    case corrupt(file: String?, detail: String)
    /// The snapshot was written by a newer tvguide whose schema this one does not know.
    case unsupportedSchemaVersion(file: String?, found: Int, supported: Int)
    /// Reading or writing a file failed (missing, permission, disk full…).
    case io(file: String, operation: String, detail: String)

    package var description: String {
        switch self {
        case .corrupt(let file?, let detail): "corrupt snapshot \(file): \(detail)"
        case .corrupt(nil, let detail): "corrupt snapshot: \(detail)"
        case .unsupportedSchemaVersion(let file, let found, let supported):
            "snapshot \(file.map { "\($0) " } ?? "")has schemaVersion \(found); this tvguide reads up to \(supported)"
        case .io(let file, let operation, let detail): "cannot \(operation) \(file): \(detail)"
        }
    }

    /// The same error, naming `file`.
    func naming(_ file: String) -> SnapshotError {
        switch self {
        case .corrupt(_, let detail): .corrupt(file: file, detail: detail)
        case .unsupportedSchemaVersion(_, let found, let supported): .unsupportedSchemaVersion(file: file, found: found, supported: supported)
        case .io: self
        }
    }
}

/// Snapshot ⇄ bytes. The bytes are deterministic (docs/snapshot.md): keys sorted by their UTF-8
/// bytes, two-space indentation with one member per line, times as ISO 8601 UTC whole seconds,
/// nil fields left out, channels sorted by id, programmes by (channel, start) and audiences by day
/// and rank, and a trailing newline — the layout of Python's `json.dumps(…, indent=2, sort_keys=True, ensure_ascii=False)`.
package enum SnapshotCodec {
    package static func encode(_ snapshot: Snapshot) throws -> Data {
        Data(try encodedBytes(snapshot))
    }

    /// `encode`'s bytes without the copy into `Data`: a file store writes them as they are,
    /// which spares a build as much memory as the snapshot file is large (331 MB at 3,000
    /// channels × 7 days).
    package static func encodedBytes(_ snapshot: Snapshot) throws -> [UInt8] {
        var canonical = snapshot
        canonical.channels = sortedChannels(snapshot.channels)
        canonical.programmes = sortedProgrammes(snapshot.programmes)
        canonical.audiences = sortedAudiences(snapshot.audiences)
        // About 800 bytes per programme; reserving once avoids copying tens of MB while growing.
        let audienceRecords = canonical.audiences.reduce(0) { $0 + $1.records.count }
        var writer = JSONWriter(pretty: true, capacity: 4_096 + canonical.programmes.count * 800 + canonical.channels.count * 300
                                    + audienceRecords * 350)
        canonical.write(to: &writer)
        writer.newline()
        return writer.bytes
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
        let inOrder = zip(channels, channels.dropFirst()).allSatisfy { !precedes($1.id, $0.id) }
        return inOrder ? channels : channels.sorted { precedes($0.id, $1.id) }
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

    static func programmePrecedes(_ a: Programme, _ b: Programme) -> Bool {
        if a.channel != b.channel { return precedes(a.channel, b.channel) }
        if a.start != b.start { return a.start < b.start }
        if a.sameStartIndex != b.sameStartIndex { return (a.sameStartIndex ?? 0) < (b.sameStartIndex ?? 0) }
        if a.title != b.title { return precedes(a.title, b.title) }
        if a.source != b.source { return precedes(a.source, b.source) }
        return (a.stop ?? .distantPast) < (b.stop ?? .distantPast)
    }

    /// UTF-8 byte order, the order that `sort`, `jq -S` and Python agree on.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
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
}

// MARK: - Decoding the programmes in parallel

extension SnapshotCodec {
    /// Below twice this many programmes one decoder reads the whole file: splitting would cost
    /// more than it saves.
    static let defaultProgrammesPerChunk = 2_000

    /// The snapshot with its programmes decoded in chunks on every core at once, each by
    /// `ProgrammeJSONReader` (`JSONDecoder` where it gives up): decoding is most of
    /// `tvguide serve`'s start-up (`JSONDecoder` alone takes 1.2 s of CPU for a 50,000-programme
    /// week). The programmes array is cut between elements; the rest of the file decodes with
    /// an empty array in its place, alongside the chunks. Nil when the file is small, not laid out as a
    /// snapshot, or any part fails: the caller then decodes the whole file in one go, whose
    /// errors name the failing field from the top (`programmes[4012].start`) as they always did.
    static func decodeInParallel(_ data: Data, programmesPerChunk: Int) -> Snapshot? {
        let perChunk = max(1, programmesPerChunk)
        guard let layout = ProgrammesLayout(data), layout.elementCount / perChunk >= 2 else { return nil }
        let chunkCount = min(layout.elementCount / perChunk, 4 * ProcessInfo.processInfo.activeProcessorCount)
        let bounds = (0...chunkCount).map { $0 * layout.elementCount / chunkCount }
        // The last task reads everything but the programmes.
        let pieces = concurrentMap(chunkCount + 1) { task -> DecodedPiece in
            if task == chunkCount {
                let rest = data.bytes(0..<layout.open + 1, then: layout.close..<data.count)
                return .rest(try? decoder().decode(Snapshot.self, from: rest))
            }
            let elements = layout.bytes(ofElements: bounds[task]..<bounds[task + 1])
            let chunk = data.bytes(elements, bracketed: true)
            return .programmes(ProgrammeJSONReader.programmes(in: chunk) ?? (try? decoder().decode([Programme].self, from: chunk)).map(interned))
        }
        return DecodedPiece.snapshot(pieces, expecting: layout.elementCount)
    }

    /// What `JSONDecoder` read, holding each repeated value once as `ProgrammeJSONReader`'s
    /// programmes do.
    private static func interned(_ programmes: [Programme]) -> [Programme] {
        var interner = Interner()
        var programmes = programmes
        for index in programmes.indices { interner.intern(&programmes[index]) }
        return programmes
    }

    private static func interned(_ snapshot: Snapshot) -> Snapshot {
        var snapshot = snapshot
        snapshot.programmes = interned(snapshot.programmes)
        return snapshot
    }
}

/// What one task of a parallel decode produced.
private enum DecodedPiece: Sendable {
    case programmes([Programme]?)
    case rest(Snapshot?)

    /// The whole snapshot, or nil when a piece failed or the pieces do not add up.
    static func snapshot(_ pieces: [DecodedPiece], expecting count: Int) -> Snapshot? {
        guard case .rest(var snapshot?) = pieces.last, snapshot.programmes.isEmpty else { return nil }
        var programmes: [Programme] = []
        programmes.reserveCapacity(count)
        for piece in pieces.dropLast() {
            guard case .programmes(let chunk?) = piece else { return nil }
            programmes.append(contentsOf: chunk)
        }
        guard programmes.count == count else { return nil }
        snapshot.programmes = programmes
        return snapshot
    }
}

/// Where the top-level `programmes` array of a snapshot's JSON and the commas between its
/// elements are: a scan that only follows strings and nesting, so it is a small part of the
/// decoding it splits.
struct ProgrammesLayout {
    /// Offsets of the array's `[` and `]`.
    private(set) var open = -1
    private(set) var close = -1
    /// Offsets of the commas between the array's elements.
    private(set) var commas: [Int] = []
    private(set) var elementCount = 0

    /// Nil unless the bytes are an object with one `"programmes"` member that is an array.
    init?(_ data: Data) {
        guard let layout = data.withUnsafeBytes({ Self.scan($0) }) else { return nil }
        self = layout
    }

    private init() {}

    /// The byte range of elements `elements` without the commas around them.
    func bytes(ofElements elements: Range<Int>) -> Range<Int> {
        let start = elements.lowerBound == 0 ? open + 1 : commas[elements.lowerBound - 1] + 1
        let end = elements.upperBound == elementCount ? close : commas[elements.upperBound - 1]
        return start..<end
    }

    private static func scan(_ bytes: UnsafeRawBufferPointer) -> ProgrammesLayout? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var layout = ProgrammesLayout()
        var depth = 0
        var inProgrammes = false
        // The last string that ended at the top level: the key of the member whose value follows.
        var key = 0..<0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case quote:
                let start = index + 1
                index = start
                while index < bytes.count && bytes[index] != quote {
                    index += bytes[index] == backslash ? 2 : 1
                }
                guard index < bytes.count else { return nil }
                if depth == 1 { key = start..<index }
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "["):
                guard depth > 0 else { return nil }
                if depth == 1 && isProgrammes(bytes, key) {
                    guard layout.open < 0 else { return nil }
                    layout.open = index
                    inProgrammes = true
                }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if inProgrammes && depth == 1 {
                    layout.close = index
                    inProgrammes = false
                }
            case UInt8(ascii: ","):
                if inProgrammes && depth == 2 { layout.commas.append(index) }
            default:
                break
            }
            index += 1
        }
        guard layout.close > layout.open, layout.open >= 0 else { return nil }
        let isEmpty = layout.commas.isEmpty && bytes[(layout.open + 1)..<layout.close].allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        layout.elementCount = isEmpty ? 0 : layout.commas.count + 1
        return layout
    }

    private static func isProgrammes(_ bytes: UnsafeRawBufferPointer, _ key: Range<Int>) -> Bool {
        let name = "programmes".utf8
        return key.count == name.count && zip(bytes[key], name).allSatisfy { $0 == $1 }
    }
}

private extension Data {
    /// A copy of the bytes at `range` (offsets from the first byte), in `[` `]` when `bracketed`.
    func bytes(_ range: Range<Int>, bracketed: Bool) -> Data {
        var out = Data(capacity: range.count + 2)
        if bracketed { out.append(UInt8(ascii: "[")) }
        out.append(self[(startIndex + range.lowerBound)..<(startIndex + range.upperBound)])
        if bracketed { out.append(UInt8(ascii: "]")) }
        return out
    }

    /// A copy of the bytes at `first` followed by those at `second`.
    func bytes(_ first: Range<Int>, then second: Range<Int>) -> Data {
        var out = Data(capacity: first.count + second.count)
        out.append(self[(startIndex + first.lowerBound)..<(startIndex + first.upperBound)])
        out.append(self[(startIndex + second.lowerBound)..<(startIndex + second.upperBound)])
        return out
    }
}

// MARK: - JSON writer

/// Something that writes itself as JSON with its keys in UTF-8 byte order.
protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

/// Appends JSON to a byte buffer, either pretty (two-space indentation, one member or element per
/// line, `"key": value`) or compact.
///
/// Hand-written, with each model type listing its members in sorted order below, because
/// `JSONEncoder` (`.sortedKeys`, `.prettyPrinted`, ISO date strategy) takes about 1 s in a release
/// build for a 46,500-programme week, and a generic `Encoder` that sorts keys as it goes still
/// took 0.8 s; this takes under a tenth of that. The tests hold it to the Codable model: a full
/// round trip through `JSONDecoder`, and the same JSON as `JSONEncoder` for a snapshot in which
/// every optional field is set.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    let pretty: Bool
    private var depth = 0
    private var isFirstInContainer = true
    /// Top-level members as written, when asked for with `recordingMembers`.
    private(set) var members: [(key: String, range: Range<Int>)] = []
    private let recordingMembers: Bool

    /// `depth`: the nesting the bytes will be put at, for a slice of an array written apart.
    init(pretty: Bool, capacity: Int = 1_024, recordingMembers: Bool = false, depth: Int = 0) {
        self.pretty = pretty
        self.recordingMembers = recordingMembers
        self.depth = depth
        bytes.reserveCapacity(capacity)
    }

    /// Each top-level member of `value` as compact JSON.
    static func members(of value: some JSONWritable) -> [String: String] {
        var writer = JSONWriter(pretty: false, recordingMembers: true)
        value.write(to: &writer)
        var result: [String: String] = [:]
        for member in writer.members {
            result[member.key] = String(decoding: writer.bytes[member.range], as: UTF8.self)
        }
        return result
    }

    /// `value` as compact JSON.
    static func compact(_ value: some JSONWritable) -> String {
        var writer = JSONWriter(pretty: false)
        value.write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    // MARK: containers

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        bytes.append(0x7B)
        let outerIsFirst = isFirstInContainer
        isFirstInContainer = true
        depth += 1
        body(&self)
        if recordingMembers, depth == 1 { closeRecordedMember() }
        depth -= 1
        if !isFirstInContainer { newlineAndIndent() }
        bytes.append(0x7D)
        isFirstInContainer = outerIsFirst
    }

    /// An array of `count` elements, each written by index: the element is read in place, not
    /// copied (a copy of a programme retains every one of its fields).
    mutating func array(count: Int, _ writeElement: (inout JSONWriter, Int) -> Void) {
        guard count > 0 else { return bytes.append(contentsOf: [0x5B, 0x5D]) }
        bytes.append(0x5B)
        depth += 1
        for index in 0..<count {
            element(index) { writeElement(&$0, index) }
        }
        depth -= 1
        newlineAndIndent()
        bytes.append(0x5D)
    }

    private mutating func element(_ index: Int, _ write: (inout JSONWriter) -> Void) {
        if index > 0 { bytes.append(0x2C) }
        newlineAndIndent()
        write(&self)
    }

    /// `values(_:)`, with the elements written in slices on every core at once when there are
    /// many: the programmes are most of a snapshot's encoding. The bytes are the same.
    mutating func values<W: JSONWritable & Sendable>(inParallel values: [W], minimumPerSlice: Int = 4_096,
                                                     cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let slices = min(cores, values.count / max(1, minimumPerSlice))
        guard slices > 1, !recordingMembers else { return self.values(values) }
        let pretty = pretty
        let depth = depth + 1
        var written = concurrentMap(slices) { slice -> [UInt8] in
            let range = (slice * values.count / slices)..<((slice + 1) * values.count / slices)
            var writer = JSONWriter(pretty: pretty, capacity: range.count * 800, depth: depth)
            for index in range {
                writer.element(index) { values[index].write(to: &$0) }
            }
            return writer.bytes
        }
        bytes.append(0x5B)
        // Each slice is let go once copied: the document and every slice at once would hold
        // the programmes' bytes twice.
        for slice in written.indices {
            bytes.append(contentsOf: written[slice])
            written[slice] = []
        }
        newlineAndIndent()
        bytes.append(0x5D)
    }

    /// Starts a member. Callers give keys in UTF-8 byte order; the tests check that they do.
    mutating func key(_ name: StaticString) {
        startMember()
        bytes.append(0x22)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        finishKey(name.description)
    }

    mutating func key(_ name: String) {
        startMember()
        string(name)
        finishKey(name)
    }

    private mutating func startMember() {
        if recordingMembers, depth == 1 { closeRecordedMember() }
        if !isFirstInContainer { bytes.append(0x2C) }
        isFirstInContainer = false
        newlineAndIndent()
    }

    private mutating func finishKey(_ name: @autoclosure () -> String) {
        bytes.append(0x3A)
        if pretty { bytes.append(0x20) }
        if recordingMembers, depth == 1 { members.append((name(), bytes.count..<bytes.count)) }
    }

    private mutating func closeRecordedMember() {
        guard let last = members.indices.last, members[last].range.isEmpty else { return }
        members[last].range = members[last].range.lowerBound..<bytes.count
    }

    private mutating func newlineAndIndent() {
        guard pretty else { return }
        bytes.append(0x0A)
        for _ in 0..<depth { bytes.append(contentsOf: [0x20, 0x20]) }
    }

    mutating func newline() {
        bytes.append(0x0A)
    }

    // MARK: scalars

    /// JSON string escaping (RFC 8259 §7): `"`, `\` and control characters; everything else, `/`
    /// and non-ASCII included, stays as UTF-8 so that names read well in a diff.
    mutating func string(_ value: String) {
        bytes.append(0x22)
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
                case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
                case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
                case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
                default:
                    bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0F)]])
                }
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(0x22)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number as Python's `repr` writes it, which is what `json.dumps` writes: the
    /// shortest digits that read back as the same `Double`, in positional notation with at least
    /// one fractional digit (`7.9`, `1.0`, `0.0001`) unless that takes more than 16 digits before
    /// the point or 4 zeros after it (`1e+16`, `1.5e-05`). Swift's `description` finds the same
    /// shortest digits but switches to an exponent at other magnitudes.
    mutating func double(_ value: Double) {
        precondition(value.isFinite, "JSON has no \(value)")
        var text = value.magnitude.description
        if value.sign == .minus { bytes.append(0x2D) }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integer = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        // value = 0.<digits> × 10^point
        var digits = Array((integer + fraction).utf8)
        var point = integer.count + exponent
        while digits.count > 1, digits.first == 0x30 {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.last == 0x30 { digits.removeLast() }
        if digits == [0x30] { point = 1 }

        if point > 16 || point <= -4 {
            bytes.append(digits[0])
            if digits.count > 1 {
                bytes.append(0x2E)
                bytes.append(contentsOf: digits[1...])
            }
            let power = point - 1
            bytes.append(contentsOf: Array("e\(power < 0 ? "-" : "+")".utf8))
            if abs(power) < 10 { bytes.append(0x30) }
            bytes.append(contentsOf: String(abs(power)).utf8)
        } else if point <= 0 {
            bytes.append(contentsOf: [0x30, 0x2E])
            bytes.append(contentsOf: repeatElement(0x30, count: -point))
            bytes.append(contentsOf: digits)
        } else if point < digits.count {
            bytes.append(contentsOf: digits[..<point])
            bytes.append(0x2E)
            bytes.append(contentsOf: digits[point...])
        } else {
            bytes.append(contentsOf: digits)
            bytes.append(contentsOf: repeatElement(0x30, count: point - digits.count))
            bytes.append(contentsOf: [0x2E, 0x30])
        }
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: value ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
    }

    mutating func date(_ value: Date) {
        string(ISOTime.format(value))
    }

    mutating func value(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    mutating func strings(_ values: [String]) {
        array(count: values.count) { $0.string(values[$1]) }
    }

    mutating func values<W: JSONWritable>(_ values: [W]) {
        array(count: values.count) { values[$1].write(to: &$0) }
    }

    /// A string-to-string map, keys sorted (a Dictionary's own order changes from run to run).
    mutating func map(_ values: [String: String]) {
        let sorted = values.sorted { SnapshotCodec.precedes($0.key, $1.key) }
        object { json in
            for (key, value) in sorted {
                json.key(key)
                json.string(value)
            }
        }
    }

    /// A map to objects, keys sorted.
    mutating func map<W: JSONWritable>(_ values: [String: W]) {
        let keys = values.keys.sorted(by: SnapshotCodec.precedes)
        object { json in
            for key in keys {
                json.key(key)
                values[key]?.write(to: &json)
            }
        }
    }

    // MARK: members, nil left out

    mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name); string(value)
    }

    mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name); int(value)
    }

    /// Left out when not finite as well: JSON has no NaN or infinity, and a score that is not
    /// a number is no score.
    mutating func member(_ name: StaticString, _ value: Double?) {
        guard let value, value.isFinite else { return }
        key(name); double(value)
    }

    mutating func member(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name); bool(value)
    }

    mutating func member(_ name: StaticString, _ value: Date?) {
        guard let value else { return }
        key(name); date(value)
    }

    mutating func member(_ name: StaticString, _ value: (some JSONWritable)?) {
        guard let value else { return }
        key(name); value.write(to: &self)
    }

    mutating func member(_ name: StaticString, _ value: [String]?) {
        guard let value else { return }
        key(name); strings(value)
    }

    mutating func member<W: JSONWritable>(_ name: StaticString, _ value: [W]?) {
        guard let value else { return }
        key(name); values(value)
    }

    mutating func member(_ name: StaticString, _ value: [String: String]?) {
        guard let value else { return }
        key(name); map(value)
    }

    mutating func member<W: JSONWritable>(_ name: StaticString, _ value: [String: W]?) {
        guard let value else { return }
        key(name); map(value)
    }

    mutating func member<R: RawRepresentable<String>>(_ name: StaticString, _ value: R?) {
        guard let value else { return }
        key(name); string(value.rawValue)
    }
}

// MARK: - The snapshot model, members in UTF-8 byte order of their JSON keys

extension Snapshot: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("audiences", audiences)
            json.member("channels", channels)
            json.member("generatedAt", generatedAt)
            json.key("programmes")
            json.values(inParallel: programmes)
            json.member("report", report)
            json.member("schemaVersion", schemaVersion)
            json.member("window", window)
            json.member("works", works)
        }
    }
}

extension TimeWindow: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("from", from)
            json.member("to", to)
        }
    }
}

extension Channel: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("icons", icons)
            json.member("id", id)
            json.member("language", language)
            json.member("links", links)
            json.member("logo", logo)
            json.member("name", name)
            json.member("otherNames", otherNames)
            json.member("providerIDs", providerIDs)
            json.member("type", type)
            json.member("url", url)
        }
    }
}

extension LocalizedText: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("lang", lang)
            json.member("value", value)
        }
    }
}

extension Programme: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("audio", audio)
            json.member("categories", categories)
            json.member("channel", channel)
            json.member("countries", countries)
            json.member("credits", credits)
            json.member("date", date)
            json.member("episode", episode)
            json.member("images", images)
            json.member("keywords", keywords)
            json.member("kind", kind)
            json.member("language", language)
            json.member("lastChance", lastChance)
            json.member("length", length)
            json.member("new", isNew)
            json.member("originalLanguage", originalLanguage)
            json.member("otherTexts", otherTexts)
            json.member("premiere", premiere)
            json.member("previouslyShown", previouslyShown)
            json.member("providerIDs", providerIDs)
            json.member("ratings", ratings)
            json.member("sameStartIndex", sameStartIndex)
            json.member("source", source)
            json.member("starRatings", starRatings)
            json.member("start", start)
            json.member("stop", stop)
            json.member("subtitle", subtitle)
            json.member("subtitles", subtitles)
            json.member("synopsis", synopsis)
            json.member("textLanguage", textLanguage)
            json.member("title", title)
            json.member("urls", urls)
            json.member("video", video)
            json.member("work", work)
            json.member("xmltv", xmltv)
            json.member("year", year)
        }
    }
}

extension XMLTVExtras: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("clumpIndex", clumpIndex)
            json.member("countryLangs", countryLangs)
            json.member("languageLang", languageLang)
            json.member("lastChanceNote", lastChanceNote)
            json.member("originalLanguageLang", originalLanguageLang)
            json.member("pdcStart", pdcStart)
            json.member("premiereNote", premiereNote)
            json.member("reviews", reviews)
            json.member("showview", showview)
            json.member("subtitleLang", subtitleLang)
            json.member("synopsisLang", synopsisLang)
            json.member("urlSystems", urlSystems)
            json.member("videoplus", videoplus)
            json.member("vpsStart", vpsStart)
        }
    }
}

extension Review: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("lang", lang)
            json.member("reviewer", reviewer)
            json.member("source", source)
            json.member("type", type)
            json.member("value", value)
        }
    }
}

extension WebLink: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("system", system)
            json.member("url", url)
        }
    }
}

extension ProgrammeText: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("field", field)
            json.member("lang", lang)
            json.member("value", value)
        }
    }
}

extension Episode: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("episodeCount", episodeCount)
            json.member("number", number)
            json.member("onscreen", onscreen)
            json.member("other", other)
            json.member("part", part)
            json.member("partCount", partCount)
            json.member("season", season)
            json.member("seasonCount", seasonCount)
            json.member("xmltvNS", xmltvNS)
        }
    }
}

extension Credit: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("character", character)
            json.member("guest", guest)
            json.member("images", images)
            json.member("name", name)
            json.member("role", role)
            json.member("urls", urls)
        }
    }
}

extension ImageRef: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("height", height)
            json.member("kind", kind)
            json.member("orient", orient)
            json.member("size", size)
            json.member("system", system)
            json.member("url", url)
            json.member("width", width)
            json.member("xmltvImage", xmltvImage)
        }
    }
}

extension VideoInfo: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("aspect", aspect)
            json.member("colour", colour)
            json.member("present", present)
            json.member("quality", quality)
        }
    }
}

extension AudioInfo: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("present", present)
            json.member("stereo", stereo)
        }
    }
}

extension PreviouslyShown: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channel", channel)
            json.member("start", start)
        }
    }
}

extension SubtitleInfo: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("language", language)
            json.member("languageLang", languageLang)
            json.member("type", type)
        }
    }
}

extension Rating: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("icon", icon)
            json.member("icons", icons)
            json.member("system", system)
            json.member("value", value)
        }
    }
}

extension RunReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("audience", audience)
            json.member("channels", channels)
            json.member("metadata", metadata)
            json.member("normalisation", normalisation)
            json.member("playlist", playlist)
            json.member("providers", providers)
            json.member("warnings", warnings)
        }
    }
}

extension PlaylistReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("ambiguous", ambiguous)
            json.member("entries", entries)
            json.member("error", error)
            json.member("matched", matched)
            json.member("source", source)
            json.member("unmatched", unmatched)
        }
    }
}

extension PlaylistReport.Ambiguity: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("candidates", candidates)
            json.member("entry", entry)
        }
    }
}

extension PlaylistReport.Match: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("by", by)
            json.member("channel", channel)
            json.member("entry", entry)
        }
    }
}

extension PlaylistReport.Unmatched: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("entry", entry)
            json.member("tvgID", tvgID)
        }
    }
}

extension ProviderReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channelsFallenBack", channelsFallenBack)
            json.member("channelsServed", channelsServed)
            json.member("errors", errors)
            json.member("gapsFilled", gapsFilled)
            json.member("id", id)
            json.member("notes", notes)
            json.member("programmes", programmes)
            json.member("status", status)
            json.member("type", type)
        }
    }
}

extension ProviderFailure: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channel", channel)
            json.member("day", day)
            json.member("kind", kind)
            json.member("message", message)
        }
    }
}

extension ChannelReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("id", id)
            json.member("programmes", programmes)
            json.member("provider", provider)
            json.member("stale", stale)
            json.member("staleSince", staleSince)
        }
    }
}

extension NormalisationReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("duplicatesDropped", duplicatesDropped)
            json.member("invalidDropped", invalidDropped)
            json.member("outsideWindow", outsideWindow)
            json.member("overlapping", overlapping)
            json.member("overlapsDropped", overlapsDropped)
            json.member("stopsFilled", stopsFilled)
            json.member("unknownChannel", unknownChannel)
        }
    }
}

extension Work: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("guideTitles", guideTitles)
            json.member("id", id)
            json.member("kind", kind)
            json.member("matches", matches)
            json.member("metadata", metadata)
            json.member("sources", sources)
        }
    }
}

extension Metadata: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("backdrop", backdrop)
            json.member("budget", budget)
            json.member("cast", cast)
            json.member("contentRating", contentRating)
            json.member("countries", countries)
            json.member("crew", crew)
            json.member("genres", genres)
            json.member("homepage", homepage)
            json.member("images", images)
            json.member("network", network)
            json.member("originalLanguage", originalLanguage)
            json.member("originalTitle", originalTitle)
            json.member("overview", overview)
            json.member("poster", poster)
            json.member("providerIDs", providerIDs)
            json.member("released", released)
            json.member("revenue", revenue)
            json.member("runtime", runtime)
            json.member("seasons", seasons)
            json.member("status", status)
            json.member("tagline", tagline)
            json.member("title", title)
            json.member("videos", videos)
            json.member("voteAverage", voteAverage)
            json.member("voteCount", voteCount)
            json.member("year", year)
        }
    }
}

extension CastMember: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("character", character)
            json.member("name", name)
            json.member("photo", photo)
        }
    }
}

extension CrewMember: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("department", department)
            json.member("job", job)
            json.member("name", name)
        }
    }
}

extension Video: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("key", key)
            json.member("language", language)
            json.member("name", name)
            json.member("site", site)
            json.member("type", type)
        }
    }
}

extension MetadataMatch: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("confidence", confidence)
            json.member("method", method)
            json.member("providerID", providerID)
            json.member("title", title)
        }
    }
}

extension MetadataReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("ambiguous", ambiguous)
            json.member("programmesEnriched", programmesEnriched)
            json.member("providers", providers)
            json.member("titles", titles)
            json.member("unmatched", unmatched)
            json.member("works", works)
        }
    }
}

extension MetadataProviderReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("ambiguous", ambiguous)
            json.member("cached", cached)
            json.member("errors", errors)
            json.member("failed", failed)
            json.member("id", id)
            json.member("lookups", lookups)
            json.member("matched", matched)
            json.member("noMatch", noMatch)
            json.member("notes", notes)
            json.member("status", status)
            json.member("type", type)
            json.member("worksContributed", worksContributed)
        }
    }
}

extension Day: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.string(description)
    }
}

extension AudienceDay: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("day", day)
            json.member("records", records)
        }
    }
}

extension AudienceRecord: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channel", channel)
            json.member("day", day)
            json.member("programme", programme)
            json.member("rank", rank)
            json.member("share", share)
            json.member("source", source)
            json.member("start", start)
            json.member("title", title)
            json.member("viewers", viewers)
        }
    }
}

extension AudienceReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("days", days)
            json.member("failed", failed)
            json.member("fetched", fetched)
            json.member("joined", joined)
            json.member("providers", providers)
            json.member("records", records)
            json.member("stale", stale)
        }
    }
}

extension AudienceProviderReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("errors", errors)
            json.member("failed", failed)
            json.member("id", id)
            json.member("kept", kept)
            json.member("notes", notes)
            json.member("records", records)
            json.member("served", served)
            json.member("status", status)
            json.member("type", type)
        }
    }
}
