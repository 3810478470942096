import Foundation
import Hummingbird

extension WebPages {
    /// The HTML answer to an error on a page (unknown id or path, bad parameter): a readable
    /// message and a way home, never cached.
    static func errorPage(_ status: HTTPResponse.Status, _ message: String, zone: TimeZone, now: Date,
                          language: WebLanguage = .fallback, target: String = "/") -> RenderedResponse {
        let t = WebCatalogue.of(language)
        let heading = switch status {
        case .notFound: t["notFound"]
        case .badRequest: t["badRequest"]
        default: status.reasonPhrase
        }
        let model = ErrorPage(chrome: PageChrome(language: language, zone: zone, page: "error", view: nil, now: now, target: target),
                              t: t.strings, heading: heading, message: message)
        return render(model, .error, status: status, maxAge: 0)
    }
}

struct ErrorPage {
    let chrome: PageChrome
    let t: [String: String]
    let heading: String
    let message: String
}
