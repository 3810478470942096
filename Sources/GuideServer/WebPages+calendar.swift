import Foundation
import GuideCore

/// `/my-calendar`'s view model: the saved programmes and titles, by day, week or month.
struct CalendarPage {
    struct ViewLink { let key: String; let label: String; let href: String; let current: Bool }
    struct SavedSeries { let title: String; let href: String; let removeHref: String }
    struct MonthCell { let day: Int; let date: String; let inMonth: Bool; let today: Bool; let items: [ListedAiring] }
    struct MonthWeek { let cells: [MonthCell] }

    let chrome: PageChrome
    let t: [String: String]
    let heading: String
    let views: [ViewLink]
    let previousHref: String?
    let nextHref: String?
    let spanLabel: String?
    let days: [ListedDay]
    let hasDays: Bool
    let isMonth: Bool
    let weekdayNames: [String]
    let weeks: [MonthWeek]
    let series: [SavedSeries]
    let hasSeries: Bool
    let isEmpty: Bool
    let emptyText: String
    /// The subscription: the saved list as an iCalendar feed, nil while nothing is saved.
    let subscribeHref: String?
}

extension WebPages {
    /// `GET /my-calendar?view=day|week|month&date=`: what the person saved (`WebPreferences`).
    static func calendar(_ index: GuideIndex, query: WebQuery, settings: ServerSettings, now: Date) throws -> CalendarPage {
        let t = query.t, zone = query.zone, preferences = query.preferences
        let view = query.reader.string("view") ?? "day"
        guard ["day", "week", "month"].contains(view) else { throw APIError.badParameter("view", "\(Quoted(view)) is not one of day, week, month") }
        let today = Day(now, in: zone)
        let date = try query.reader.day("date") ?? today
        let channels = try query.channels(settings, index)
        let saved = SavedAirings.programmes(preferences, in: index, channels: Set(channels.map(\.id)))

        func link(view: String, date: Day?) -> String {
            query.link(PageChrome.View.calendar.path, [("view", view == "day" ? nil : view), ("date", date.map(\.description))])
        }
        let listed = CalendarSpan(index: index, query: query, now: now, saved: saved, today: today)
        let shown = switch view {
        case "week": listed.week(of: date)
        case "month": listed.month(of: date)
        default: CalendarSpan.Shown(days: groupedByDay(saved, index: index, query: query, now: now))
        }
        let (previous, next) = listed.withinGuide(previous: shown.previous, next: shown.next, isMonth: view == "month")
        let subscribe = SavedAirings.feedLink(preferences, knownIn: index, lineup: query.lineupName, channels: preferences.channels)
        return CalendarPage(
            chrome: PageChrome(query, page: "calendar", view: .calendar, index: index, now: now), t: t.strings,
            heading: t["calendarHeading"],
            views: [("day", "day"), ("week", "week"), ("month", "month")].map { key, label in
                // The day view lists everything saved: it takes no date.
                CalendarPage.ViewLink(key: key, label: t[label], href: link(view: key, date: key == "day" || view == "day" ? nil : date), current: key == view)
            },
            previousHref: previous.map { link(view: view, date: $0) }, nextHref: next.map { link(view: view, date: $0) },
            spanLabel: shown.spanLabel,
            days: shown.days, hasDays: !shown.days.isEmpty && shown.days.contains { !$0.items.isEmpty } || view == "week",
            isMonth: view == "month",
            weekdayNames: (1...7).map { t.weekdaysShort[$0 % 7] },
            weeks: shown.weeks,
            series: preferences.series.map { title in
                CalendarPage.SavedSeries(title: title, href: query.link("/find", [("q", title)]),
                                         removeHref: WebLinks.withQuery("/my-calendar/remove", [("series", title)]))
            },
            hasSeries: !preferences.series.isEmpty,
            isEmpty: saved.isEmpty && preferences.series.isEmpty,
            emptyText: t["calendarEmpty"],
            subscribeHref: subscribe)
    }
}

/// The saved airings laid out as a week or a month, with the spans before and after it.
private struct CalendarSpan {
    /// What one view shows, and the first day of the spans its arrows move to.
    struct Shown {
        var days: [ListedDay] = []
        var weeks: [CalendarPage.MonthWeek] = []
        var previous: Day?
        var next: Day?
        var spanLabel: String?
    }

    let index: GuideIndex
    let query: WebQuery
    let now: Date
    let saved: [Programme]
    let today: Day

    private func listed(on day: Day, from programmes: [Programme]) -> [ListedAiring] {
        programmes.filter { Day($0.start, in: query.zone) == day }.map { ListedAiring($0, index: index, query: query, now: now) }
    }

    func week(of date: Day) -> Shown {
        let zone = query.zone, t = query.t
        let monday = date.adding(days: -((WebTime.weekdayIndex(date) + 6) % 7))
        let span = monday.interval(in: zone).start..<monday.adding(days: 7).interval(in: zone).start
        let inSpan = saved.filter { span.contains($0.start) }
        // Every day of the week, the empty ones too: a week reads as seven days.
        let days = (0..<7).map { offset in
            let day = monday.adding(days: offset)
            return ListedDay(label: WebPages.dayHeading(day, today: today, t), date: day.description, items: listed(on: day, from: inSpan))
        }
        return Shown(days: days, previous: monday.adding(days: -7), next: monday.adding(days: 7),
                     spanLabel: WebTime.shortDay(monday, t) + " – " + WebTime.shortDay(monday.adding(days: 6), t))
    }

    func month(of date: Day) -> Shown {
        let first = Day(year: date.year, month: date.month, day: 1)
        let start = first.adding(days: -((WebTime.weekdayIndex(first) + 6) % 7))
        var weeks: [CalendarPage.MonthWeek] = []
        var cursor = start
        repeat {
            weeks.append(CalendarPage.MonthWeek(cells: (0..<7).map { offset in
                let day = cursor.adding(days: offset)
                return CalendarPage.MonthCell(day: day.day, date: day.description, inMonth: day.month == first.month, today: day == today,
                                              items: listed(on: day, from: saved))
            }))
            cursor = cursor.adding(days: 7)
        } while cursor.month == first.month && cursor.year == first.year
        let lastOfPrevious = first.adding(days: -1)
        let nextMonth = first.adding(days: 31)
        return Shown(weeks: weeks, previous: Day(year: lastOfPrevious.year, month: lastOfPrevious.month, day: 1),
                     next: Day(year: nextMonth.year, month: nextMonth.month, day: 1),
                     spanLabel: query.t.months[first.month - 1] + " " + String(first.year))
    }

    /// Saved airings are the guide's: the views move only through weeks and months it covers.
    func withinGuide(previous: Day?, next: Day?, isMonth: Bool) -> (previous: Day?, next: Day?) {
        let guideDays = WebDays.guideDays(index, in: query.zone)
        guard let first = guideDays.first, let last = guideDays.last else { return (nil, nil) }
        // The last day the previous week or month shows.
        func lastDay(from start: Day) -> Day {
            guard isMonth else { return start.adding(days: 6) }
            let after = start.adding(days: 31)
            return Day(year: after.year, month: after.month, day: 1).adding(days: -1)
        }
        var previous = previous, next = next
        if let shown = previous, lastDay(from: shown) < first { previous = nil }
        if let shown = next, shown > last { next = nil }
        return (previous, next)
    }
}

/// What a person saved, as airings of the guide.
enum SavedAirings {
    /// The saved programmes still in the guide, and every airing on `channels` of each saved
    /// title, by start, each once.
    static func programmes(_ preferences: WebPreferences, in index: GuideIndex, channels: Set<String>?) -> [Programme] {
        var seen = Set<String>()
        var result: [Programme] = []
        for programme in preferences.reminders.compactMap(index.programme) where seen.insert(programme.id).inserted {
            result.append(programme)
        }
        for title in preferences.series {
            for programme in index.airings(titled: title) where channels?.contains(programme.channel) ?? true && seen.insert(programme.id).inserted {
                result.append(programme)
            }
        }
        return result.sorted { ($0.start, $0.channel) < ($1.start, $1.channel) }
    }

    /// `/reminders.ics` for exactly the saved list: the programmes still in the guide, the
    /// titles as series rules, narrowed to the person's channels.
    static func feedLink(_ preferences: WebPreferences, knownIn index: GuideIndex, lineup: String?, channels: WebPreferences.Channels?) -> String? {
        let ids = preferences.reminders.filter { index.programme($0) != nil }
        guard !ids.isEmpty || !preferences.series.isEmpty else { return nil }
        var parameters: [(String, String?)] = [("programme", ids.isEmpty ? nil : ids.joined(separator: ","))]
        parameters += preferences.series.map { ("series", $0) }
        if !preferences.series.isEmpty {
            if let lineup {
                parameters.append(("lineup", lineup))
            } else if case .chosen(let chosen)? = channels {
                parameters.append(("channels", chosen.joined(separator: ",")))
            }
        }
        return WebLinks.withQuery("/reminders.ics", parameters)
    }
}

extension GuideIndex {
    /// Every airing whose title is `title` once folded (case and accents aside), by start.
    func airings(titled title: String) -> [Programme] {
        let folded = SearchText.fold(title)
        guard let number = foldedTitles.firstIndex(of: folded) else { return [] }
        return titledPositions(Int32(number)).map { snapshot.programmes[Int($0)] }
    }
}
