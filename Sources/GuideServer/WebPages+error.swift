import Foundation
import Hummingbird

extension WebPages {
    /// The HTML answer to an error on a page (unknown id or path, bad parameter): a readable
    /// message and a way home, never cached.
    static func errorPage(_ status: HTTPResponse.Status, _ message: String, zone: TimeZone, now: Date) -> RenderedResponse {
        let heading = switch status {
        case .notFound: "Not found"
        case .badRequest: "Bad request"
        default: status.reasonPhrase
        }
        let model = ErrorPage(nowEpoch: WebTime.epoch(now), zoneName: zone.identifier, heading: heading, message: message)
        return render(model, .error, status: status, maxAge: 0)
    }
}

struct ErrorPage {
    let nowEpoch: Int
    let zoneName: String
    let heading: String
    let message: String
}
