import Foundation
import Hummingbird

/// The web guide's stylesheet and script, `Resources/guide.css` and `Resources/guide.js` embedded in
/// the binary: no resource bundle to ship, no build step, nothing fetched from another origin, so
/// the pages work offline.
enum WebAssets {
    /// Served under `/assets/{name}`: only these names, whatever the path says.
    static let files: [String: RenderedResponse] = [
        "guide.css": RenderedResponse(contentType: "text/css; charset=utf-8", bytes: Array(stylesheet.utf8), maxAge: 86_400),
        "guide.js": RenderedResponse(contentType: "text/javascript; charset=utf-8", bytes: Array(script.utf8), maxAge: 86_400),
    ]

    /// The pages link the assets with their checksum in the query: a day-long client cache,
    /// yet a new build's pages ask for the new files.
    static let stylesheetPath = "/assets/guide.css?v=" + version(of: stylesheet)
    static let scriptPath = "/assets/guide.js?v=" + version(of: script)

    private static func version(of text: String) -> String {
        var checksum = Checksum()
        checksum.add(text)
        return checksum.hex
    }

    static let stylesheet = String(decoding: PackageResources.guide_css, as: UTF8.self)

    /// Progressive enhancement only: without it every channel shows and the now line stays where
    /// the server drew it. Sets `data-js="ready"` on <body>, which scripts/screenshot.sh checks.
    static let script = String(decoding: PackageResources.guide_js, as: UTF8.self)
}
