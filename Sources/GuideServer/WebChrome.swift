import Foundation
import GuideCore

/// What every page shows around its own content (`layout.mustache`): the header's views and
/// search, the banner when the guide is not the live one, the footer's zone and language switch.
struct PageChrome {
    struct NavItem { let view: String; let href: String; let label: String; let current: Bool }
    struct LanguageLink { let code: String; let href: String; let label: String; let current: Bool }

    let nowEpoch: Int
    let zoneName: String
    let lang: String
    let page: String
    let nav: [NavItem]
    let searchText: String?
    let banner: String?
    let languages: [LanguageLink]
    let footerTimes: String

    /// The views of the header, in the order the original app's menu had them.
    enum View: String, CaseIterable {
        case grid, comingUp = "coming-up", calendar, audiences, channels

        var path: String {
            switch self {
            case .grid: "/"
            case .comingUp: "/coming-up"
            case .calendar: "/my-calendar"
            case .audiences: "/ratings"
            case .channels: "/my-channels"
            }
        }

        var labelKey: String {
            switch self {
            case .grid: "navGrid"
            case .comingUp: "navComingUp"
            case .calendar: "navCalendar"
            case .audiences: "navAudiences"
            case .channels: "navChannels"
            }
        }
    }

    init(_ query: WebQuery, page: String, view: View?, index: GuideIndex, now: Date) {
        self.init(language: query.language, zone: query.zone, page: page, view: view, now: now, target: query.target,
                  link: { query.link($0) }, searchText: page == "search" ? query.reader.string("q") : nil,
                  banner: GuideStatus.fallback(index.snapshot.report).map { fallback in
                      query.t.text("degradedBanner", ["failed": fallback.failed.joined(separator: ", "), "served": fallback.served.joined(separator: ", ")])
                  })
    }

    /// The chrome of a page that has no guide to read: an error, a refusal before routing.
    init(language: WebLanguage, zone: TimeZone, page: String, view: View?, now: Date, target: String,
         link: (String) -> String = { $0 }, searchText: String? = nil, banner: String? = nil) {
        let t = WebCatalogue.of(language)
        nowEpoch = WebTime.epoch(now)
        zoneName = zone.identifier
        lang = language.rawValue
        self.page = page
        nav = View.allCases.map { item in
            NavItem(view: item.rawValue, href: link(item.path), label: t[item.labelKey], current: item == view)
        }
        self.searchText = searchText
        self.banner = banner
        languages = WebLanguage.allCases.map { other in
            LanguageLink(code: other.rawValue, href: WebLinks.withQuery("/language", [("set", other.rawValue), ("back", target)]),
                         label: WebCatalogue.of(other)["languageName"], current: other == language)
        }
        footerTimes = t.text("footerTimes", ["zone": zoneName])
    }
}

/// Whether the guide served is the one its configuration prefers.
enum GuideStatus {
    /// The guide providers that failed and the ones that served in their place, when every
    /// channel of the guide comes from a fallback (the offline recordings of the default
    /// configuration, or a mirror): a person should know the guide may be out of date.
    static func fallback(_ report: RunReport) -> (failed: [String], served: [String])? {
        let served = report.providers.filter { $0.channelsServed > 0 }
        guard !served.isEmpty, served.allSatisfy({ $0.channelsFallenBack == $0.channelsServed }) else { return nil }
        let failed = report.providers.filter { $0.status == .failed }.map(\.id)
        return failed.isEmpty ? nil : (failed, served.map(\.id))
    }
}
