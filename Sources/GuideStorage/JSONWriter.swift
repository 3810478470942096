import Foundation
import GuideCore

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
    /// Where the bytes go as they are written, when they are not all kept.
    private let drain: ByteDrain?

    /// `depth`: the nesting the bytes will be put at, for a slice of an array written apart.
    init(pretty: Bool, capacity: Int = 1_024, recordingMembers: Bool = false, depth: Int = 0) {
        self.pretty = pretty
        self.recordingMembers = recordingMembers
        self.depth = depth
        self.drain = nil
        bytes.reserveCapacity(capacity)
    }

    /// A writer that hands its bytes to `drain` a megabyte at a time (and what is left at
    /// `finish()`), instead of keeping them all.
    init(pretty: Bool, drain: ByteDrain) {
        self.pretty = pretty
        self.recordingMembers = false
        self.drain = drain
        bytes.reserveCapacity(ByteDrain.capacity)
    }

    /// Hands what is left to the drain; throws the drain's first failure, if any.
    mutating func finish() throws {
        try drain?.finish(&bytes)
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
        let cut = min(cores, values.count / max(1, minimumPerSlice))
        // A writer with a drain goes a round at a time even on one core, never holding the array.
        guard cut > 1 || (drain != nil && !values.isEmpty), !recordingMembers else { return self.values(values) }
        let slices = max(1, cut)
        let pretty = pretty
        let depth = depth + 1
        // With a drain, the elements are written a round of slices at a time, and each round
        // drained before the next is written: the array's bytes are never all held at once.
        let round = drain == nil ? values.count : slices * max(1, minimumPerSlice)
        bytes.append(0x5B)
        for roundStart in stride(from: 0, to: values.count, by: round) {
            let count = min(round, values.count - roundStart)
            var written = concurrentMap(slices) { slice -> [UInt8] in
                let range = (roundStart + slice * count / slices)..<(roundStart + (slice + 1) * count / slices)
                var writer = JSONWriter(pretty: pretty, capacity: range.count * 800, depth: depth)
                for index in range {
                    writer.element(index) { values[index].write(to: &$0) }
                }
                return writer.bytes
            }
            // Each slice is let go once copied: the document and every slice at once would hold
            // the programmes' bytes twice. With a drain, it is handed over as it is, after what
            // came before it: copied, it grew the writer's buffer to a round's size.
            for slice in written.indices {
                if let drain {
                    drain.take(&bytes)
                    drain.take(&written[slice])
                } else {
                    bytes.append(contentsOf: written[slice])
                }
                written[slice] = []
            }
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
        var value = value
        value.withUTF8 { string(utf8: $0) }
    }

    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
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
        let sorted = values.sorted { UTF8Order.precedes($0.key, $1.key) }
        object { json in
            for (key, value) in sorted {
                json.key(key)
                json.string(value)
            }
        }
    }

    /// A map to objects, keys sorted.
    mutating func map<W: JSONWritable>(_ values: [String: W]) {
        let keys = values.keys.sorted(by: UTF8Order.precedes)
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

    /// A text left where its programme keeps it (`TextBlock`), written without a `String` made of it.
    mutating func member(_ name: StaticString, _ value: StoredText?) {
        guard let value else { return }
        key(name)
        value.withUTF8 { string(utf8: $0) }
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
