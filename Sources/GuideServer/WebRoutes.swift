import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// The web guide: server-rendered pages and their assets.
    static func addWebRoutes(to routes: RouteTable, _ serving: ServingContext) {
    }
}
