import Foundation

/// Where a recorded response lives (docs/recording.md): the request path after the provider's
/// `base_url`, plus `?` and the query items sorted by name when there is a query. Credential
/// items (`api_key`, `token`…) are left out of file names, so a recording never holds a key and
/// replays whatever key the configuration carries.
package enum RecordingLayout {
    /// The recording's path relative to the recording folder, or nil when `url` is not under
    /// `baseURL` (another scheme, host or port, or a path outside the base path) or would climb
    /// out of the folder with `..`.
    package static func relativePath(for url: URL, under baseURL: URL) -> String? {
        guard let request = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
              request.scheme?.lowercased() == base.scheme?.lowercased(),
              request.host?.lowercased() == base.host?.lowercased(),
              effectivePort(request) == effectivePort(base)
        else { return nil }

        let basePath = base.path.hasSuffix("/") ? base.path : base.path + "/"
        let requestPath = request.path.isEmpty ? "/" : request.path
        guard requestPath.hasPrefix(basePath) else { return nil }
        let remainder = String(requestPath.dropFirst(basePath.count))
        return fileName(path: remainder, percentEncodedQueryItems: request.percentEncodedQueryItems ?? [])
    }

    /// The file name for a path (relative to the recording folder, already percent-decoded) and
    /// the query items as they were sent (still percent-encoded).
    package static func fileName(path: String, percentEncodedQueryItems items: [URLQueryItem]) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.isEmpty, !segments.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        let query = sortedQuery(items)
        let joined = segments.joined(separator: "/")
        return query.isEmpty ? joined : joined + "?" + query
    }

    /// Query items without credentials, sorted by name (items of the same name keep their order).
    package static func sortedQuery(_ items: [URLQueryItem]) -> String {
        items.enumerated()
            .filter { !URLRedaction.isSecret(queryItemNamed: $0.element.name) }
            .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
            .map { entry in entry.element.value.map { "\(entry.element.name)=\($0)" } ?? entry.element.name }
            .joined(separator: "&")
    }

    /// A content type for a recorded file, from its extension (the query part ignored).
    package static func contentType(forFileName name: String) -> String {
        let withoutQuery = name.split(separator: "?", maxSplits: 1).first.map(String.init) ?? name
        switch (withoutQuery as NSString).pathExtension.lowercased() {
        case "json": return "application/json"
        case "xml", "xmltv": return "application/xml"
        case "html", "htm": return "text/html; charset=utf-8"
        case "gz": return "application/gzip"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }

    private static func effectivePort(_ components: URLComponents) -> Int? {
        if let port = components.port { return port }
        switch components.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
