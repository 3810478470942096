import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// The JSON API.
    static func addAPIRoutes(to routes: RouteTable, _ serving: ServingContext) {
    }
}
