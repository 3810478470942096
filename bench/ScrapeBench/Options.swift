import Foundation

/// The command line: `scrape-bench --guide FILE [--pages DIR] [--replay DIR] [--sample FILE]
/// [--passes N] [--json] [--dump FILE]`, paths relative to the current directory.
struct Options {
    /// The recorded pages, one per day, named `DD-MM-YYYY`.
    var pages = "Fixtures/formulatv/audiencias"
    /// The recording folder `ReplayTransport` serves for the formulatv base URL.
    var replay = "Fixtures/formulatv"
    /// The 50,000-programme benchmark guide (bench/make_xmltv.py).
    var guide: String
    /// The guide whose channels and times the recorded audiences measure.
    var sample = "Fixtures/xmltv/sample.xml"
    var passes = 30
    var json = false
    /// Writes the single-thread pass's records as JSON lines, to compare with the lxml peer's `--dump`.
    var dump: String?

    static let usage = """
        usage: scrape-bench --guide FILE [--pages DIR] [--replay DIR] [--sample FILE] [--passes N] [--json] [--dump FILE]
        """

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        var guide: String?
        func value(_ flag: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
            return next
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--pages": pages = try value(flag)
            case "--replay": replay = try value(flag)
            case "--guide": guide = try value(flag)
            case "--sample": sample = try value(flag)
            case "--dump": dump = try value(flag)
            case "--json": json = true
            case "--passes":
                guard let passes = Int(try value(flag)), passes > 0 else { throw UsageError("--passes needs a positive number") }
                self.passes = passes
            default: throw UsageError("unknown argument \(flag)")
            }
        }
        guard let guide else { throw UsageError("--guide is required") }
        self.guide = guide
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
