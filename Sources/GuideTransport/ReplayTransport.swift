import Foundation
import GuideCore
import Logging

/// Answers requests from recorded responses instead of the network (layout: `RecordingLayout`,
/// docs/recording.md). Every recorded file is a 200 with a content type guessed from its
/// extension; a request without a recording is `ProviderError.notFound`. A POST is answered from
/// the file its URL maps to, like a GET: the body sent is not part of the key (a login).
package struct ReplayTransport: HTTPTransport {
    /// The recording folder.
    package let root: URL
    /// The provider's `base_url`: request paths are taken relative to it.
    package let baseURL: URL
    private let logger: Logger

    package init(root: URL, baseURL: URL, logger: Logger = Logger(label: "tvguide.transport")) {
        self.root = root
        self.baseURL = baseURL
        self.logger = logger
    }

    package func post(_ url: URL, headers: [String: String], body: Data) async throws -> TransportResponse {
        try await get(url, headers: headers)
    }

    package func get(_ url: URL, headers: [String: String]) async throws -> TransportResponse {
        let shown = URLRedaction.redacted(url)
        guard let relative = RecordingLayout.relativePath(for: url, under: baseURL) else {
            throw ProviderError.notFound(
                "no recording for \(shown) (it is not under base_url \(URLRedaction.redacted(baseURL)))")
        }
        let file = root.appendingPathComponent(relative, isDirectory: false)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let body = try? Data(contentsOf: file)
        else {
            throw ProviderError.notFound("no recording for \(shown) (looked for \(file.path))")
        }
        logger.debug("replay", metadata: ["url": "\(shown)", "file": "\(relative)"])
        return TransportResponse(
            status: 200,
            headers: ["content-type": RecordingLayout.contentType(forFileName: relative), "content-length": String(body.count)],
            body: body,
            url: url,
            origin: .replay
        )
    }
}
