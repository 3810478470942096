import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// How `ConnectionGuard` words the requests it refuses before routing (400, 405, 408, 413, 414,
/// 431): as the router would word an error on the same request. `WebErrorRule` decides: under a
/// web page the web guide's HTML error page, under no route the HTML page when `Accept` asks for
/// HTML, and otherwise the API's JSON error. A request refused before its head was read whole
/// (a head too large for the parser, a malformed one, one not received in time) has the target
/// of its request line when that arrived whole, and no `Accept`: its answer follows the path.
struct RefusalBody: Sendable {
    struct Answer {
        var contentType: String
        var bytes: [UInt8]
        /// The page's own fields (its Content-Security-Policy); none for JSON.
        var fields: [(name: String, value: String)]
    }

    /// Nil: every refusal in JSON.
    let rule: WebErrorRule?
    /// The server's clock (`--now`), which the page shows as the web guide's other pages do.
    let clock: @Sendable () -> Date

    func answer(_ status: HTTPResponseStatus, _ message: String, target: Substring?, accept: [String]) -> Answer {
        guard let rule, let target, rule.answersInHTML(path: WebErrorRule.path(ofTarget: target), accept: accept) else {
            return Answer(contentType: "application/json; charset=utf-8",
                          bytes: APIError.json(status: Int(status.code), message: message), fields: [])
        }
        let page = WebPages.errorPage(HTTPResponse.Status(code: Int(status.code), reasonPhrase: status.reasonPhrase), message,
                                      zone: WebQuery.defaultZone, now: WebTime.minute(clock()))
        return Answer(contentType: page.contentType, bytes: Array(page.body.readableBytesView),
                      fields: page.extraHeaders.map { (name: $0.name.rawName, value: $0.value) })
    }
}
