import Foundation
import FuzzSupport
import GuideCore
import GuideStorage
@testable import GuideServer
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import XMLTV
import Yams

/// The request side: the server's real router (every middleware and route of `tvguide serve`, over
/// the golden snapshot) answers a GET whose target is the input, its bytes outside visible ASCII
/// percent-encoded as an HTTP/1.1 parser would have them. Every answer must be 2xx, 3xx or 4xx,
/// with a status and content type that `/openapi.yaml` documents for the route (an unknown route:
/// a JSON 404), and a body of that type (JSON that parses, an HTML page, an iCalendar object…).
/// Seeds: a request per operation with its parameters set, built from the document by fuzz/seeds.py.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let target = RouterFuzz.target(fuzzData(bytes, count))
    let (status, contentType, body) = blocking { await RouterFuzz.shared.get(target) }
    guard (200..<500).contains(status) else { fatalError("GET \(target): status \(status): \(String(decoding: body.prefix(300), as: UTF8.self))") }
    let path = String(target.prefix { $0 != "?" })
    let documented = RouterFuzz.shared.contract.responses(for: path)
    guard let types = documented[status] else {
        fatalError("GET \(target): status \(status) is not documented for this path (\(documented.keys.sorted()))")
    }
    let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    if types.isEmpty {
        guard body.isEmpty else { fatalError("GET \(target): status \(status) has a body, none is documented") }
        return 0
    }
    guard types.contains(mediaType) else { fatalError("GET \(target): status \(status) answered \(contentType), documented \(types.sorted())") }
    if let problem = RouterFuzz.problem(body: body, mediaType: mediaType) {
        fatalError("GET \(target): status \(status), \(mediaType): \(problem)")
    }
    return 0
}

enum RouterFuzz {
    /// Built once for the process: the server over the golden snapshot, its clock fixed inside the
    /// snapshot's window (as the tests' harness has it), and the document's promises.
    static let shared: Driver = {
        do {
            let snapshot = try SnapshotStore.load(URL(fileURLWithPath: "Fixtures/golden/offline-default.json"))
            let source = GuideSource(
                refresh: nil,
                xmltv: { try XMLTVWriter.write(channels: $0.channels, programmes: $0.programmes) },
                gzip: { try Gzip.compress($0) },
                clock: { Date(timeIntervalSince1970: 1_792_609_200) })
            var logger = Logger(label: "fuzz.router")
            logger.logLevel = .critical
            let server = GuideServer(settings: ServerSettings(port: 0, lineups: ["main": ["La1.es", "Antena3.es"]]), source: source, latest: snapshot, logger: logger)
            let responder = GuideServer.makeRouter(server.serving).router.buildResponder()
            let contract = try Contract(yaml: String(decoding: OpenAPIDocument.yaml, as: UTF8.self))
            return Driver(responder: responder, logger: logger, contract: contract)
        } catch {
            fatalError("fuzz-router cannot start (run it from the repository's root): \(error)")
        }
    }()

    /// The target as a parser passes it on: visible ASCII as sent, anything else percent-encoded,
    /// and a leading `/` when the input has none.
    static func target(_ data: Data) -> String {
        var target = data.first == UInt8(ascii: "/") ? "" : "/"
        for byte in data {
            if (0x21...0x7E).contains(byte) {
                target.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                target += String(format: "%%%02X", byte)
            }
        }
        return target
    }

    /// What is wrong with a body of `mediaType`; nil when nothing is.
    static func problem(body: [UInt8], mediaType: String) -> String? {
        func starts(_ prefix: String) -> Bool { body.starts(with: Array(prefix.utf8)) }
        switch mediaType {
        case "application/json":
            return (try? JSONSerialization.jsonObject(with: Data(body))) == nil ? "not JSON" : nil
        case "text/html": return starts("<!doctype html>") ? nil : "not an HTML page"
        case "text/calendar": return starts("BEGIN:VCALENDAR\r\n") && body.suffix(15).elementsEqual(Array("END:VCALENDAR\r\n".utf8)) ? nil : "not an iCalendar object"
        case "application/xml": return starts("<?xml") ? nil : "not XML"
        case "application/gzip": return starts("\u{1F}") && body.dropFirst().first == 0x8B ? nil : "not gzip"
        case "application/yaml": return body == OpenAPIDocument.yaml ? nil : "not the document"
        case "audio/x-mpegurl": return starts("#EXTM3U") ? nil : "not an M3U playlist"
        case "image/vnd.microsoft.icon": return body.starts(with: [0, 0, 1, 0]) ? nil : "not an ICO file"
        default: return String(validating: body, as: UTF8.self) == nil || body.isEmpty ? "empty, or not UTF-8" : nil
        }
    }

    struct Driver: Sendable {
        let responder: RouterResponder<BasicRequestContext>
        let logger: Logger
        let contract: Contract

        func get(_ target: String) async -> (status: Int, contentType: String, body: [UInt8]) {
            let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: target), body: RequestBody(buffer: ByteBuffer()))
            let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: logger))
            do {
                let response = try await responder.respond(to: request, context: context)
                let sink = BodySink()
                try await response.body.write(BodyCollector(sink: sink))
                return (Int(response.status.code), response.headers[.contentType] ?? "", sink.bytes)
            } catch {
                // The error middleware answers every error; one that escapes it is a finding.
                fatalError("GET \(target): \(type(of: error)) escaped the middleware: \(error)")
            }
        }
    }

    /// Per path template, per status, the documented media types (none: no body).
    struct Contract: Sendable {
        let templates: [(segments: [Substring], responses: [Int: Set<String>])]
        /// Where no route matches: the router's JSON 404, and the refusals of the middleware.
        let unmatched: [Int: Set<String>] = [404: ["application/json"], 400: ["application/json"]]

        init(yaml: String) throws {
            guard let document = try Yams.load(yaml: yaml) as? [String: Any],
                  let paths = document["paths"] as? [String: [String: Any]],
                  let shared = (document["components"] as? [String: Any])?["responses"] as? [String: [String: Any]]
            else { throw ContractError.malformed }
            templates = try paths.sorted { $0.key < $1.key }.map { path, item in
                guard let responses = (item["get"] as? [String: Any])?["responses"] as? [String: [String: Any]] else { throw ContractError.malformed }
                var table: [Int: Set<String>] = [:]
                for (status, response) in responses {
                    guard let code = Int(status) else { throw ContractError.malformed }
                    let resolved = (response["$ref"] as? String).flatMap { shared[String($0.split(separator: "/").last ?? "")] } ?? response
                    table[code] = Set((resolved["content"] as? [String: Any] ?? [:]).keys.map { $0.lowercased() })
                }
                return (path.split(separator: "/"), table)
            }
        }

        func responses(for path: String) -> [Int: Set<String>] {
            let segments = path.split(separator: "/")
            return templates.first { template in
                template.segments.count == segments.count
                    && zip(template.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
            }?.responses ?? unmatched
        }
    }

    enum ContractError: Error { case malformed }
}

/// Hummingbird writes a body into a writer; this one keeps the bytes.
private struct BodyCollector: ResponseBodyWriter {
    let sink: BodySink

    mutating func write(_ buffer: ByteBuffer) async throws {
        sink.append(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

private final class BodySink: @unchecked Sendable {
    // @unchecked: written by the one task that renders the body, read after it returns.
    private(set) var bytes: [UInt8] = []

    func append(_ buffer: ByteBuffer) {
        bytes += buffer.readableBytesView
    }
}

@_cdecl("fuzz_router_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzRouter)
}
