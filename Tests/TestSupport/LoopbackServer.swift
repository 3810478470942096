import Foundation
import GuideCore
import Hummingbird
import Logging

/// A request as the loopback server saw it.
package struct LoopbackRequest: Sendable {
    package var method: String
    /// The path as sent, percent-encoded, starting with `/`.
    package var path: String
    /// The raw query string without `?`, when there is one.
    package var query: String?
    /// Header names lower-cased; repeated headers joined with ", ".
    package var headers: [String: String]
    /// The request body (a POSTed login), empty for a GET.
    package var body: Data

    package init(method: String = "GET", path: String, query: String? = nil, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// What the loopback server answers.
package struct LoopbackResponse: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: Data
    /// Wait this long before answering (to provoke client timeouts).
    package var delay: Duration?

    package init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: Duration? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    package static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: headers.merging(["content-type": "application/json"]) { own, _ in own },
                         body: Data(text.utf8))
    }

    package static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8",
                            headers: [String: String] = [:]) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: headers.merging(["content-type": contentType]) { own, _ in own },
                         body: Data(text.utf8))
    }

    /// The file's bytes with a content type from its extension; 404 when it cannot be read.
    package static func file(_ url: URL, headers: [String: String] = [:]) -> LoopbackResponse {
        guard let data = try? Data(contentsOf: url) else { return .status(404) }
        return LoopbackResponse(
            status: 200,
            headers: headers.merging(["content-type": RecordingLayout.contentType(forFileName: url.lastPathComponent)]) { own, _ in own },
            body: data)
    }

    /// An empty response with `status` (and optional headers, e.g. `Retry-After`).
    package static func status(_ status: Int, headers: [String: String] = [:]) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: headers)
    }

    /// The same response, answered after `delay`.
    package func delayed(by delay: Duration) -> LoopbackResponse {
        var copy = self
        copy.delay = delay
        return copy
    }
}

package typealias LoopbackHandler = @Sendable (LoopbackRequest) async -> LoopbackResponse

/// A real HTTP/1.1 server on 127.0.0.1 and a random free port, for tests: providers and the
/// transport talk to it exactly as to a remote host.
package enum LoopbackServer {
    package struct StartFailure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Starts a server answering with `handler`, runs `body` with its base URL
    /// (`http://127.0.0.1:PORT/`), and stops the server when `body` returns or throws. Requests
    /// still being answered (a `delay`) are cancelled, so the test never waits for them.
    /// - Parameter log: records every request and the number in flight (including the delay).
    package static func run<T: Sendable>(
        log: RequestLog? = nil,
        _ handler: @escaping LoopbackHandler,
        _ body: (URL) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            let loopbackRequest = await LoopbackRequest(request)
            await log?.began(loopbackRequest)
            let response = await handler(loopbackRequest)
            if let delay = response.delay {
                try? await Task.sleep(for: delay)
            }
            await log?.ended()
            return Response(response)
        }
        var app = Application(
            responder: responder,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { portContinuation.yield(port) }
                portContinuation.finish()
            }
        )
        // Hummingbird logs its start-up at info level; tests want silence.
        app.logger.logLevel = .critical
        let server = app

        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portContinuation.finish() }
                try await server.runService(gracefulShutdownSignals: [])
            }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await group.next()
                throw StartFailure(description: "the loopback server stopped before it listened")
            }
            return try await body(URL(string: "http://127.0.0.1:\(port)/")!)
        }
    }

    /// A handler serving the files under `directory` in the recording layout (docs/recording.md):
    /// the request path below `mountPath`, plus `?` and the query items sorted by name (credential
    /// items such as `api_key` left out). 404 when there is no such file, 403 for a path that
    /// climbs out with `..`.
    package static func serving(directory: URL, mountPath: String = "/", headers: [String: String] = [:]) -> LoopbackHandler {
        let mount = mountPath.hasSuffix("/") ? mountPath : mountPath + "/"
        return { request in
            let decoded = request.path.removingPercentEncoding ?? request.path
            guard decoded.hasPrefix(mount) else { return .status(404) }
            let relative = String(decoded.dropFirst(mount.count))
            if relative.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) { return .status(403) }
            var query = URLComponents()
            query.percentEncodedQuery = request.query
            guard let name = RecordingLayout.fileName(path: relative, percentEncodedQueryItems: query.percentEncodedQueryItems ?? []) else {
                return .status(404)
            }
            var isDirectory: ObjCBool = false
            let file = directory.appendingPathComponent(name, isDirectory: false)
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                return .status(404)
            }
            return .file(file, headers: headers)
        }
    }
}

extension LoopbackRequest {
    init(_ request: Request) async {
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        let body = (try? await request.body.collect(upTo: 1 << 20)).map { Data($0.readableBytesView) } ?? Data()
        self.init(method: request.method.rawValue, path: request.uri.path, query: request.uri.query, headers: headers, body: body)
    }
}

extension Response {
    init(_ response: LoopbackResponse) {
        var fields = HTTPFields()
        // A value with newlines is one field per line: several Set-Cookie, as a site sends them.
        for (name, value) in response.headers {
            guard let fieldName = HTTPFields.Element.Name(name) else { continue }
            for line in value.split(separator: "\n") { fields.append(HTTPFields.Element(name: fieldName, value: String(line))) }
        }
        var buffer = ByteBuffer()
        buffer.writeBytes(response.body)
        self.init(status: HTTPResponse.Status(code: response.status), headers: fields, body: ResponseBody(byteBuffer: buffer))
    }
}

/// A loopback port that refuses every connection at once: bound, never listened on, and held
/// until this goes, so that no other test's server can take it meanwhile (a port closed after
/// listening was, on two cores running the tests at once, sometimes another server's).
package final class RefusingPort {
    package let port: Int
    private let descriptor: Int32

    package init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClusterError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else {
            close(descriptor)
            throw ClusterError("bind: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}
