import Foundation
import GuideCore

/// Where an airing can be watched again: a web page its source gave, never one made up.
///
/// The airing's own page comes first (a site recipe's `url`, XMLTV's `<url>`), then, for a
/// series, the homepage its metadata gives, which is the broadcaster's or platform's page of the
/// series. A film's homepage is left out: it is more often its distributor's promotion than a
/// place to watch it. So are film databases' pages (IMDb, TMDB, TheTVDB), which XMLTV's `<url>`
/// often names: they describe a work and play nothing.
struct WatchAgain: Encodable, Sendable, Hashable {
    var url: String
    /// The page's host without `www.`: the site "Watch again on …" names.
    var site: String

    init?(_ programme: Programme, work: Work?) {
        let homepage = work?.kind == .series ? work?.metadata.homepage : nil
        guard let page = ((programme.urls ?? []) + [homepage].compactMap { $0 }).lazy.compactMap(Self.init(page:)).first else {
            return nil
        }
        self = page
    }

    /// `page` when it is a web page off the film databases.
    init?(page: String) {
        guard let components = URLComponents(string: page), ["http", "https"].contains(components.scheme?.lowercased()),
              let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        let site = host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        guard !Self.databases.contains(where: { site == $0 || site.hasSuffix("." + $0) }) else { return nil }
        self.url = page
        self.site = site
    }

    static let databases = ["imdb.com", "themoviedb.org", "thetvdb.com"]
}

/// An airing's catch-up stream: the playlist entry of its channel rebuilt for its time.
struct CatchupLink: Encodable, Sendable, Hashable {
    var url: String
    /// Until when the provider keeps it: `catchup-days` after the start.
    var until: Date

    /// The link of `programme` at `now`, when the provider still keeps it and its URL can be built.
    init?(_ catchup: PlaylistCatchup, programme: Programme, now: Date, timeZone: TimeZone) {
        guard catchup.keeps(start: programme.start, end: programme.end, at: now),
              let url = catchup.url(start: programme.start, end: programme.end, now: now, timeZone: timeZone) else { return nil }
        self.url = url
        self.until = programme.start.addingTimeInterval(Double(catchup.days) * 86_400)
    }
}
