import CLibJQ
import Foundation
import GuideCore

/// A jq filter of a site recipe, compiled by libjq 1.6 and run on responses.
///
/// Recipes are shared (a catalogue site, a recipe pasted from a forum), so a filter may read
/// nothing but its input and the variables tvguide gives it: `$ENV`/`env`, `input`/`inputs`,
/// `input_filename`, `debug`/`stderr`, `import`/`include`, `halt`/`halt_error` and the clock
/// (`now`, `localtime`, `strflocaltime`) are refused when the recipe is read, so a recipe cannot
/// carry `TMDB_API_KEY` into a published guide nor depend on the machine it runs on.
///
/// Variables are bound through the input, not jq's `--arg`: libjq binds those at compile time,
/// and compiling (most of it jq's own builtins, whatever the filter) once per response would
/// cost more than the work. The filter is compiled once as `.[0] as $a | .[1] as $b | … | .[n] |
/// FILTER` and its states are pooled. A recipe's filters are compiled together as one program
/// (`JQBundle`), each chosen by an index bound after the variables.
///
/// libjq 1.6 is not thread-safe: two states used at once on two threads were seen to corrupt each
/// other and spin forever. Every call into libjq holds `JQFilter.serial`; a run's time limit
/// counts from when it holds it.
///
/// Work per run is bounded: a watchdog halts a run after `limits.time` (jq checks between
/// instructions, so `def f: f; f` stops too), at most `limits.outputs` results are taken, and
/// the input is bounded by the transport's body limit. Memory follows from time: jq allocates at
/// most a few hundred MB a second (docs/sources.md gives the figure measured).
package final class JQFilter: @unchecked Sendable {
    // @unchecked: `idle` is only touched under `lock`; a jq state is used by one thread at a time.
    package struct Limits: Sendable, Hashable {
        package var time: Duration
        package var outputs: Int

        package init(time: Duration = .seconds(2), outputs: Int = 200_000) {
            self.time = time
            self.outputs = outputs
        }
    }

    /// The filter as written in the recipe.
    package let source: String
    /// The variables it may use, in the order they are bound (`channel`, `date`, …).
    package let variables: [String]
    package let limits: Limits
    private let body: Body
    private let lock = NSLock()
    private var idle: [OpaquePointer] = []

    /// jq 1.6's `mktime` (and so `fromdateiso8601`, `fromdate`) reads the process's time zone: under
    /// TZ=America/St_Johns `"2025-08-25T00:00:00Z" | fromdateiso8601` is an hour off. Recipes get
    /// them as pure functions of their input, in UTC as jq's manual says, defined in jq: days
    /// from the civil date (H. Hinnant's algorithm), which no library of the package offers to jq.
    static let utcTime = #"""
    def mktime: if type != "array" or length < 6 then error("mktime requires array of 6 numbers") else (.[0] | floor) as $year | (.[1] | floor + 1) as $month | (if $month <= 2 then $year - 1 else $year end) as $y | (($y - (if $y >= 0 then 0 else 399 end)) / 400 | floor) as $era | ($y - $era * 400) as $yoe | (((153 * (if $month > 2 then $month - 3 else $month + 9 end) + 2) / 5 | floor) + (.[2] | floor) - 1) as $doy | ($yoe * 365 + ($yoe / 4 | floor) - ($yoe / 100 | floor) + $doy) as $doe | ($era * 146097 + $doe - 719468) * 86400 + (.[3] | floor) * 3600 + (.[4] | floor) * 60 + (.[5] | floor) end; def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime; def fromdate: fromdateiso8601;
    """#

    /// Held around every call into libjq (recursive: a run may compile a state).
    static let serial = NSRecursiveLock()

    /// Names a recipe may not call: they read the environment, files, other inputs or the clock.
    static let forbidden: Set<String> = [
        "env", "$ENV", "input", "inputs", "input_filename", "input_line_number", "debug", "stderr",
        "import", "include", "modulemeta", "get_search_list", "$__prog_args", "halt", "halt_error",
        "now", "localtime", "strflocaltime", "get_prog_origin", "get_jq_origin", "$__loc__",
    ]

    /// Checks the filter and compiles it once; a syntax error or a forbidden name is a `JQError`
    /// whose message quotes jq's.
    package init(_ source: String, variables: [String], limits: Limits = Limits()) throws(JQError) {
        self.source = source
        self.variables = variables
        self.limits = limits
        if let name = Self.forbiddenName(in: source) {
            throw .forbidden(name: name)
        }
        // A newline before the closing parenthesis: the recipe's filter may end in a # comment.
        body = .compiled(program: Self.prelude(binding: variables) + ".[\(variables.count)] | (\n" + source + "\n)")
        Self.serial.lock()
        defer { Self.serial.unlock() }
        let state = try compile()
        give(state)
    }

    /// One of a `JQBundle`'s filters, run by the bundle's program once it is sealed.
    fileprivate init(entry index: Int, of bundle: JQBundle, source: String) {
        self.source = source
        variables = bundle.variables
        limits = bundle.limits
        body = .entry(bundle, index)
    }

    /// The bundle's program, its filters chosen by the entry bound after the variables.
    fileprivate init(program: String, source: String, variables: [String], limits: Limits) throws(JQError) {
        self.source = source
        self.variables = variables
        self.limits = limits
        body = .compiled(program: program)
        Self.serial.lock()
        defer { Self.serial.unlock() }
        give(try compile())
    }

    /// The text before a filter: the functions every filter has, then its variables bound.
    fileprivate static func prelude(binding variables: [String]) -> String {
        var prelude = Self.utcTime + " " + JQNative.definitions + " "
        for (index, name) in variables.enumerated() {
            prelude += ".[\(index)] as $\(name) | "
        }
        return prelude
    }

    private enum Body {
        case compiled(program: String)
        case entry(JQBundle, Int)
    }

    deinit {
        Self.serial.lock()
        defer { Self.serial.unlock() }
        for state in idle {
            var pointer: OpaquePointer? = state
            jq_teardown(&pointer)
        }
    }

    /// Runs the filter on `input` with `values` for its variables (missing ones are null), and
    /// returns every result it gives.
    package func run(_ input: JQInput, _ values: [String: JQInput] = [:]) throws(JQError) -> [JSONValue] {
        Self.serial.lock()
        defer { Self.serial.unlock() }
        var bound = jv_array()
        for name in variables {
            let converted = values[name]?.jv() ?? jv_null()
            guard jv_is_valid(converted) != 0 else {
                jv_free(bound)
                throw .input(Self.invalidMessage(converted) + " (in $\(name))")
            }
            bound = jv_array_append(bound, converted)
        }
        defer { jv_free(bound) }
        let converted = input.jv()
        guard jv_is_valid(converted) != 0 else { throw .input(Self.invalidMessage(converted)) }
        var results: [JSONValue] = []
        let limit = limits.outputs
        try outputs(of: converted, bound: bound, until: .now + limits.time) { (next: jv) throws(JQError) in
            guard results.count < limit else {
                jv_free(next)
                throw .tooManyResults(limit)
            }
            results.append(JSONValue(consuming: next))
        }
        return results
    }

    /// Runs the filter on `input` (consumed) with the variables' values `bound`, and hands each
    /// result (owned) to `take`; stops at `deadline`.
    private func outputs(
        of input: jv, bound: jv, until deadline: ContinuousClock.Instant, _ take: (jv) throws(JQError) -> Void
    ) throws(JQError) {
        if case .entry(let bundle, let index) = body {
            let chosen = jv_array_append(jv_copy(bound), jv_number(Double(index)))
            defer { jv_free(chosen) }
            try bundle.program().outputs(of: input, bound: chosen, until: deadline, take)
            return
        }
        let state: OpaquePointer
        do {
            state = try self.take()
        } catch {
            jv_free(input)
            throw error
        }
        let watchdog = Watchdog.shared
        watchdog.arm(state, until: deadline)
        jq_start(state, jv_array_append(jv_copy(bound), input), 0)
        var failure: JQError?
        while true {
            let next = jq_next(state)
            if jv_is_valid(next) == 0 {
                if jq_halted(state) != 0 {
                    failure = watchdog.wasFired ? .timeLimit(limits.time) : .runtime("the filter halted")
                    jv_free(next)
                } else if jv_invalid_has_msg(jv_copy(next)) != 0 {
                    failure = .runtime(Self.invalidMessage(next))
                } else {
                    jv_free(next)
                }
                break
            }
            do {
                try take(next)
            } catch {
                failure = error
                break
            }
        }
        if watchdog.finish() {
            give(state)
        } else {
            // The watchdog halted this state: a halted state is not reused.
            var pointer: OpaquePointer? = state
            jq_teardown(&pointer)
        }
        if let failure { throw failure }
    }

    // MARK: - States

    private func take() throws(JQError) -> OpaquePointer {
        if let state = lock.withLock({ idle.popLast() }) { return state }
        return try compile()
    }

    private func give(_ state: OpaquePointer) {
        lock.withLock { idle.append(state) }
    }

    private func compile() throws(JQError) -> OpaquePointer {
        guard case .compiled(let program) = body else { preconditionFailure("a bundle's filter has no program of its own") }
        guard let state = jq_init() else { throw .runtime("libjq could not start (out of memory)") }
        JQNative.install(on: state)
        let messages = MessageBox()
        let box = Unmanaged.passRetained(messages)
        jq_set_error_cb(state, { data, message in
            guard let data else { jv_free(message); return }
            let box = Unmanaged<MessageBox>.fromOpaque(data).takeUnretainedValue()
            box.messages.append(JQFilter.text(of: message))
        }, box.toOpaque())
        let compiled = jq_compile(state, program)
        jq_set_error_cb(state, nil, nil)
        box.release()
        guard compiled != 0 else {
            var pointer: OpaquePointer? = state
            jq_teardown(&pointer)
            let lines = messages.messages.map(Self.relocated)
            throw .syntax(lines.isEmpty ? "jq could not compile the filter" : lines.joined(separator: "; "))
        }
        return state
    }

    /// jq counts lines from the wrapper, whose first line is the prelude.
    private static func relocated(_ message: String) -> String {
        // jq's command-line hint, which misleads in a YAML file: there is no shell in between.
        let message = message.replacingOccurrences(of: " (Unix shell quoting issues?)", with: "")
        guard let range = message.range(of: #"at <top-level>, line (\d+):"#, options: .regularExpression) else { return message }
        let digits = message[range].filter(\.isNumber)
        guard let line = Int(digits) else { return message }
        return message.replacingCharacters(in: range, with: "at line \(max(line - 1, 1)) of the filter:")
            .replacingOccurrences(of: "jq: error: ", with: "")
    }

    private final class MessageBox {
        var messages: [String] = []
    }

    /// Halts the run that takes too long, from a thread of its own: a dispatch queue's block can
    /// wait behind busy workers on a loaded machine (the jq run itself holds one), and a halt
    /// that never comes is a run that never ends. Deadlines are on the monotonic clock, checked
    /// every 10 ms while a run is armed: a timed wait on a condition counts on the wall clock,
    /// which a step forward or back (NTP, a clock set decades ahead) would stretch without end.
    private final class Watchdog: @unchecked Sendable {
        // @unchecked: `state`, `deadline` and `fired` are only touched under `condition`.
        static let shared = Watchdog()

        private let condition = NSCondition()
        private var state: OpaquePointer?
        private var deadline = ContinuousClock.now
        private var fired = false

        private init() {
            let thread = Thread { [unowned self] in self.watch() }
            thread.name = "tvguide.jq-watchdog"
            thread.start()
        }

        var wasFired: Bool {
            condition.lock()
            defer { condition.unlock() }
            return fired
        }

        /// Runs are serialised, so one is armed at a time.
        func arm(_ state: OpaquePointer, until deadline: ContinuousClock.Instant) {
            condition.lock()
            self.state = state
            self.deadline = deadline
            fired = false
            condition.signal()
            condition.unlock()
        }

        /// Disarms; true when the run ended on its own and its state can be reused.
        func finish() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            state = nil
            return !fired
        }

        private func watch() {
            condition.lock()
            while true {
                guard let armed = state else {
                    condition.wait()
                    continue
                }
                if ContinuousClock.now < deadline {
                    condition.unlock()
                    Thread.sleep(forTimeInterval: 0.01)
                    condition.lock()
                    continue
                }
                fired = true
                jq_halt(armed, jv_invalid(), jv_string("time limit"))
                state = nil
            }
        }
    }

    // MARK: - Checking the filter

    /// The first forbidden name the filter calls, outside string literals (but inside their
    /// `\(…)` interpolations) and comments; a field (`.env`) or an object key (`{"input": 1}`)
    /// is not a call.
    static func forbiddenName(in source: String) -> String? {
        let characters = Array(source.unicodeScalars)
        var index = 0
        // Each open string interpolation remembers the parenthesis depth at which it ends.
        var interpolations: [Int] = []
        var depth = 0
        var inString = false
        while index < characters.count {
            let character = characters[index]
            if inString {
                if character == "\\", index + 1 < characters.count {
                    if characters[index + 1] == "(" {
                        inString = false
                        depth += 1
                        interpolations.append(depth)
                    }
                    index += 2
                    continue
                }
                if character == "\"" { inString = false }
                index += 1
                continue
            }
            switch character {
            case "\"":
                inString = true
            case "#":
                while index < characters.count, characters[index] != "\n" { index += 1 }
            case "(":
                depth += 1
            case ")":
                if interpolations.last == depth {
                    interpolations.removeLast()
                    inString = true
                }
                depth -= 1
            default:
                guard isNameStart(character) else { break }
                var end = index + 1
                while end < characters.count, isNamePart(characters[end]) { end += 1 }
                let name = String(String.UnicodeScalarView(characters[index..<end]))
                let previous = characters[..<index].last { $0 != " " && $0 != "\t" && $0 != "\n" }
                if previous != ".", forbidden.contains(name) { return name }
                index = end
                continue
            }
            index += 1
        }
        return nil
    }

    private static func isNameStart(_ character: Unicode.Scalar) -> Bool {
        character == "$" || character == "_" || (character.isASCII && character.properties.isAlphabetic)
    }

    private static func isNamePart(_ character: Unicode.Scalar) -> Bool {
        character == "_" || (character.isASCII && (character.properties.isAlphabetic || ("0"..."9").contains(character)))
    }

    // MARK: - jv helpers

    /// The message of an invalid value, which it consumes.
    static func invalidMessage(_ value: jv) -> String {
        let message = jv_invalid_get_msg(value)
        defer { jv_free(message) }
        if jv_get_kind(message) == JV_KIND_STRING {
            return shortened(String(cString: jv_string_value(message)))
        }
        return "invalid value"
    }

    /// libjq's parse error quotes the whole text it could not read (`… (while parsing '…')`): an
    /// HTML page of 150 kB in one message. Its first 200 bytes say what the answer is.
    static func shortened(_ message: String) -> String {
        guard let quoted = message.range(of: " (while parsing '") else { return message }
        let text = message[quoted.upperBound...].dropLast(message.hasSuffix("')") ? 2 : 0)
        guard text.utf8.count > quotedBytes else { return message }
        let head = String(decoding: text.utf8.prefix(quotedBytes), as: UTF8.self)
        return message[..<quoted.upperBound] + head + "…' (\(text.utf8.count) bytes))"
    }

    static let quotedBytes = 200

    /// A message jq hands to the error callback (consumed): a string, or an invalid value.
    static func text(of message: jv) -> String {
        if jv_get_kind(message) == JV_KIND_STRING {
            defer { jv_free(message) }
            return String(cString: jv_string_value(message))
        }
        if jv_get_kind(message) == JV_KIND_INVALID {
            return invalidMessage(message)
        }
        let dumped = jv_dump_string(message, 0)
        defer { jv_free(dumped) }
        return String(cString: jv_string_value(dumped))
    }
}

/// What a filter reads: JSON bytes (parsed by libjq itself, the fast path for responses), a
/// value tvguide made, or one converted once for many runs (a page's `$details`, read by the
/// programme filter of each of its items).
package enum JQInput: Sendable {
    case json(Data)
    case value(JSONValue)
    case prepared(JQPrepared)

    /// A new jv the caller owns; invalid (with jq's parse message) when the bytes are not JSON.
    func jv() -> CLibJQ.jv {
        switch self {
        case .json(let data):
            guard !data.isEmpty else { return jv_invalid_with_msg(jv_string("the response is empty")) }
            guard data.count < Int(Int32.max) else { return jv_invalid_with_msg(jv_string("the response is too large")) }
            return data.withUnsafeBytes { raw in
                raw.baseAddress!.withMemoryRebound(to: CChar.self, capacity: raw.count) { jv_parse_sized($0, Int32(raw.count)) }
            }
        case .value(let value):
            return value.jv()
        case .prepared(let prepared):
            return jv_copy(prepared.value)
        }
    }
}

/// A value converted to libjq's form once; each run takes a reference (`jv_copy`), not a copy.
package final class JQPrepared: @unchecked Sendable {
    // @unchecked: `value` is never changed, and libjq touches it only under `JQFilter.serial`.
    fileprivate let value: jv

    package init(_ input: JQInput) {
        JQFilter.serial.lock()
        defer { JQFilter.serial.unlock() }
        value = input.jv()
    }

    deinit {
        JQFilter.serial.lock()
        defer { JQFilter.serial.unlock() }
        jv_free(value)
    }
}

/// Why a filter cannot run, or stopped.
package enum JQError: Error, Sendable, Hashable, CustomStringConvertible {
    case syntax(String)
    case forbidden(name: String)
    case input(String)
    case runtime(String)
    case timeLimit(Duration)
    case tooManyResults(Int)

    package var description: String {
        switch self {
        case .syntax(let message): "jq: \(message)"
        case .forbidden(let name):
            "jq: '\(name)' is not available in recipes (a recipe reads only its responses and the variables tvguide gives it: no environment, files, other inputs or clock)"
        case .input(let message): "the response is not JSON: \(message)"
        case .runtime(let message): "jq: \(message)"
        case .timeLimit(let limit): "jq: the filter ran longer than \(limit.timeInterval) s on one response and was stopped"
        case .tooManyResults(let count): "jq: the filter gave more than \(count) results for one response"
        }
    }
}

extension JSONValue {
    /// Takes ownership of `value`.
    init(consuming value: jv) {
        switch jv_get_kind(value) {
        case JV_KIND_NULL:
            jv_free(value)
            self = .null
        case JV_KIND_TRUE:
            jv_free(value)
            self = .bool(true)
        case JV_KIND_FALSE:
            jv_free(value)
            self = .bool(false)
        case JV_KIND_NUMBER:
            let number = jv_number_value(value)
            jv_free(value)
            self = .number(number)
        case JV_KIND_STRING:
            let length = Int(jv_string_length_bytes(jv_copy(value)))
            let text = jv_string_value(value).withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
            jv_free(value)
            self = .string(text)
        case JV_KIND_ARRAY:
            let count = Int(jv_array_length(jv_copy(value)))
            var items: [JSONValue] = []
            items.reserveCapacity(count)
            for index in 0..<count {
                items.append(JSONValue(consuming: jv_array_get(jv_copy(value), Int32(index))))
            }
            jv_free(value)
            self = .array(items)
        case JV_KIND_OBJECT:
            var fields: [String: JSONValue] = [:]
            fields.reserveCapacity(Int(jv_object_length(jv_copy(value))))
            var iterator = jv_object_iter(value)
            while jv_object_iter_valid(value, iterator) != 0 {
                let key = JSONValue(consuming: jv_object_iter_key(value, iterator))
                let item = JSONValue(consuming: jv_object_iter_value(value, iterator))
                if case .string(let name) = key { fields[name] = item }
                iterator = jv_object_iter_next(value, iterator)
            }
            jv_free(value)
            self = .object(fields)
        default:
            jv_free(value)
            self = .null
        }
    }

    /// A new jv the caller owns.
    func jv() -> CLibJQ.jv {
        switch self {
        case .null: return jv_null()
        case .bool(let value): return value ? jv_true() : jv_false()
        case .number(let value): return jv_number(value)
        case .string(let text):
            var text = text
            return text.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) { jv_string_sized($0.baseAddress, Int32($0.count)) }
            }
        case .array(let items):
            var array = jv_array()
            for item in items { array = jv_array_append(array, item.jv()) }
            return array
        case .object(let fields):
            var object = jv_object()
            for (key, item) in fields { object = jv_object_set(object, JSONValue.string(key).jv(), item.jv()) }
            return object
        }
    }

    /// Parses JSON text with libjq's parser; nil when it is not JSON.
    package init?(json data: Data) {
        JQFilter.serial.lock()
        defer { JQFilter.serial.unlock() }
        let parsed = JQInput.json(data).jv()
        guard jv_is_valid(parsed) != 0 else {
            jv_free(parsed)
            return nil
        }
        self.init(consuming: parsed)
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// A recipe's filters compiled as one jq program, each chosen by its index: libjq 1.6 binds its
/// own builtins (written in jq) on every compile, which costs far more than a recipe's filters,
/// so a recipe of five filters compiles once rather than five times. Filters are added (each
/// checked for forbidden names), then `seal()` compiles them all; a bundle whose program does
/// not compile names the first filter that does not compile alone.
package final class JQBundle: @unchecked Sendable {
    // @unchecked: `sources` and `sealed` change only before `seal()` returns, on the reader's
    // thread; runs read `sealed` after.
    package let variables: [String]
    package let limits: JQFilter.Limits
    private var sources: [String] = []
    private var sealed: JQFilter?

    package init(variables: [String], limits: JQFilter.Limits = JQFilter.Limits()) {
        self.variables = variables
        self.limits = limits
    }

    /// A filter of the bundle, usable once the bundle is sealed.
    package func filter(_ source: String) throws(JQError) -> JQFilter {
        precondition(sealed == nil, "a sealed bundle takes no more filters")
        if let name = JQFilter.forbiddenName(in: source) { throw .forbidden(name: name) }
        sources.append(source)
        return JQFilter(entry: sources.count - 1, of: self, source: source)
    }

    /// Compiles the filters added. On a fault, the error is the first faulty filter's as it
    /// compiles alone (its index in the order added), so that its message and lines are its own.
    package func seal() throws(JQBundleError) {
        guard sealed == nil else { return }
        let entry = "__filter"
        var program = JQFilter.prelude(binding: variables + [entry]) + ".[\(variables.count + 1)] | "
        for (index, source) in sources.enumerated() {
            program += (index == 0 ? "if" : " elif") + " $\(entry) == \(index) then (\n" + source + "\n)"
        }
        program += sources.isEmpty ? "empty" : " else empty end"
        do {
            sealed = try JQFilter(program: program, source: sources.joined(separator: "\n"), variables: variables + [entry], limits: limits)
        } catch {
            for (index, source) in sources.enumerated() {
                do {
                    _ = try JQFilter(source, variables: variables, limits: limits)
                } catch {
                    throw JQBundleError(index: index, error: error)
                }
            }
            throw JQBundleError(index: 0, error: error)
        }
    }

    fileprivate func program() -> JQFilter {
        guard let sealed else { preconditionFailure("a bundle's filter runs only once the bundle is sealed") }
        return sealed
    }
}

/// Which filter of a bundle did not compile, and why.
package struct JQBundleError: Error, Sendable {
    package var index: Int
    package var error: JQError
}
