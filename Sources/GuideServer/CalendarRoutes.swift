import Foundation
import GuideCore
import Hummingbird

extension GuideServer {
    /// iCalendar reminders and saved-search feeds, and the XMLTV export.
    static func addCalendarRoutes(to routes: RouteTable, _ serving: ServingContext) {
    }
}
