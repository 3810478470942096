#!/usr/bin/env python3
"""Crawls the web guide as a link checker would: plain HTTP, no browser, no cookies.

From `/` (and `/find?q=gladiator`, since a search is a form, not a link) it follows every
same-origin <a href>, and checks every same-origin <link href>, <script src> and <img src> once.
Never a link to another host: those are counted by host and left alone.

- Every page answers 200; the pages are HTML and say <html lang>.
- The links that change state (/my-calendar/add, /my-calendar/remove, /my-channels/save, /my-tastes/…,
  /language) are requested, without following them and without cookies: each must answer 303 to
  a local path (to `back` when the link gives one) and set a cookie. Their Location is not
  crawled (a page the crawl reaches anyway; without the cookie it is the same page). Each page
  links them with its own `back`, so one request per effect (programme, title, line-up,
  language) and one per kind of page in `back` (Crawl.action_keys).
- /reminders.ics links answer 200 with a VCALENDAR.
- No link leaves the guide's window: a grid `at` (+ `hours`) outside the snapshot's window, a
  grid, channel, Coming up or calendar `date` (a calendar's day, week or month) without a day of
  the guide, or a ratings `date` without figures, is an error, and such a page is not followed
  further (so links that would run on for ever, page after page, end at the first one out).
  A grid or channel page that says the guide has nothing there (class="empty") is an error too:
  every channel has programmes on every day of the golden guide.

Bounded by design: the guide's window is finite, so the pages are the days × the views' filters
plus one page per programme, and one list of airings per title: /programme/{id}/airings is the
same list from each airing of a title (2,594 links to 40 lists in the golden guide, the slowest
page the server renders), so one is requested per title (Crawl.airings_title). The golden guide
takes about 9,000 requests (5,200 pages, every one of its 4,010 programmes among them).
`--limit` (default 30000) is a failure when passed, never a silent stop: a crawl that gets there
has found links that do not end, and it says which routes grew.

    Tests/browser/crawl.py http://127.0.0.1:PORT [--snapshot latest.json] [--workers 4]

Exits 1 when any check failed; prints what it visited by route.
"""

import argparse
import collections
import html.parser
import http.client
import re
import sys
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import guide  # noqa: E402

ACTIONS = ("/my-calendar/add", "/my-calendar/remove", "/my-channels/save", "/language",
           "/my-tastes/like", "/my-tastes/dislike", "/my-tastes/forget", "/my-tastes/save")


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.pages, self.assets = [], []
        self.lang = None
        self.empty = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        elif tag == "a" and attrs.get("href"):
            self.pages.append(attrs["href"])
        elif tag == "link" and attrs.get("href"):
            self.assets.append(attrs["href"])
        elif tag in ("script", "img", "source") and attrs.get("src"):
            self.assets.append(attrs["src"])
        if "empty" in (attrs.get("class") or "").split():
            self.empty = True


def route(path):
    """The route a path belongs to, for the figures: /programme/X → /programme/{id}."""
    parts = path.split("/")
    if len(parts) > 2 and parts[1] in ("programme", "channel", "assets"):
        return "/" + parts[1] + "/{id}" + ("/" + "/".join(parts[3:]) if len(parts) > 3 else "")
    return path


class Crawl:
    def __init__(self, base, window, workers, limit, titles=None):
        self.base = base.rstrip("/")
        split = urllib.parse.urlsplit(self.base)
        self.host, self.port = split.hostname, split.port
        self.window = window
        self.titles = titles or {}  # programme id → title
        self.workers = workers
        self.limit = limit
        self.seen = set()
        self.visited = []
        self.actions = set()  # effects and shapes of state-changing links already checked
        self.errors = []
        self.notes = []
        self.kinds = collections.Counter()      # page, action, calendar, asset
        self.routes = collections.Counter()
        self.external = collections.Counter()
        self.local = threading.local()
        self.lock = threading.Lock()

    # --- HTTP, one keep-alive connection per worker ---------------------------------------------

    def get(self, target):
        for attempt in (1, 2):
            connection = getattr(self.local, "connection", None)
            if connection is None:
                connection = self.local.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                connection.request("GET", target, headers={"Accept": "text/html,*/*"})
                response = connection.getresponse()
                return response.status, response.headers, response.read()
            except (http.client.HTTPException, OSError):
                connection.close()
                self.local.connection = None
                if attempt == 2:
                    raise

    # --- What a link is --------------------------------------------------------------------------

    def local_target(self, href, page):
        """The path?query of a same-origin link, or None (another host, or not http)."""
        absolute = urllib.parse.urljoin(self.base + page, href)
        parts = urllib.parse.urlsplit(absolute)
        if parts.scheme not in ("http", "https"):
            return None
        if (parts.hostname, parts.port) != (self.host, self.port):
            with self.lock:
                self.external[parts.hostname or absolute] += 1
            return None
        return parts.path + ("?" + parts.query if parts.query else "")

    @staticmethod
    def key(target):
        path, _, query = target.partition("?")
        return path + "?" + "&".join(sorted(query.split("&"))) if query else path

    def airings_title(self, target):
        """The title whose airings /programme/{id}/airings lists, or None for another link.
        Every airing of a title links the same list (2,594 links for 260 titles in the golden
        guide, each page the slowest the server renders), so one per title is requested."""
        path, _, query = target.partition("?")
        match = re.fullmatch(r"/programme/([^/]+)/airings", path)
        if not match or query:
            return None
        programme = urllib.parse.unquote(match.group(1))
        return self.titles.get(programme, programme)

    @staticmethod
    def action_keys(target):
        """A state-changing link's effect (its route and parameters but `back`) and its shape (its
        route and the route of `back`). Each page links its own `back`, so the links number
        pages × actions; one request per effect and per shape covers them: every programme's
        reminder, every title's series, every line-up and language, and `back` from every
        kind of page."""
        path, _, query = target.partition("?")
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
        back = [value for name, value in pairs if name == "back"]
        effect = path + "?" + urllib.parse.urlencode(sorted(p for p in pairs if p[0] != "back"))
        shape = path + " back=" + (route(urllib.parse.urlsplit(back[0]).path) if back else "-")
        return effect, shape

    def outside_window(self, target):
        """Why the page's time lies outside the guide, or None."""
        path, _, query = target.partition("?")
        params = {k: v[-1] for k, v in urllib.parse.parse_qs(query).items()}
        day = params.get("date")
        days = self.window.days
        if day is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            return f"date={day!r} is not a day"
        if path == "/ratings":
            if day and day not in self.window.audience_days:
                return f"date={day}: no audience figures for that day ({min(self.window.audience_days)}…{max(self.window.audience_days)})"
            return None
        if path == "/my-calendar":
            if day:
                span = {"day": 1, "week": 7, "month": 31}.get(params.get("view", "day"), 1)
                first = date.fromisoformat(day)
                if not any((first + timedelta(days=n)).isoformat() in days for n in range(span)):
                    return f"the calendar's {params.get('view', 'day')} from {day} has no day of the guide"
            return None
        if path == "/" or path.startswith("/channel/") or path == "/coming-up":
            if day and day not in days:
                return f"date={day} is not a day of the guide ({min(days)}…{max(days)})"
        if path == "/" and "at" in params:
            at = params["at"]
            try:
                if re.fullmatch(r"\d{1,2}:\d{2}", at):
                    local_day = date.fromisoformat(day) if day else guide.NOW.astimezone(guide.MADRID).date()
                    hour, minute = map(int, at.split(":"))
                    moment = datetime(local_day.year, local_day.month, local_day.day, hour, minute, tzinfo=guide.MADRID)
                else:
                    moment = guide.parse_time(at)
                    if moment.tzinfo is None:
                        moment = moment.replace(tzinfo=guide.MADRID)
            except ValueError:
                return f"at={at!r} is not a time"
            hours = float(params.get("hours", 3) or 3)
            if moment >= self.window.end or moment + timedelta(hours=hours) <= self.window.start:
                return (f"at={at} (+{hours:g} h) lies outside the guide's window "
                        f"({self.window.start:%Y-%m-%dT%H:%MZ}…{self.window.end:%Y-%m-%dT%H:%MZ})")
        return None

    # --- One request -----------------------------------------------------------------------------

    def visit(self, target, kind, referrer):
        """Checks one target; returns the same-origin page links found in it."""
        try:
            status, headers, body = self.get(target)
        except Exception as error:  # noqa: BLE001 — any failure to answer is the finding
            self.fail(target, referrer, f"no answer: {error}")
            return []
        if kind == "action":
            location = headers.get("Location", "")
            split = urllib.parse.urlsplit(location)
            local = (not split.netloc or (split.hostname, split.port) == (self.host, self.port)) \
                and location.startswith(("/", self.base + "/")) and not location.startswith("//")
            back = urllib.parse.parse_qs(target.partition("?")[2]).get("back")
            if status != 303 or not local:
                self.fail(target, referrer, f"answered {status} to {location!r}, expected 303 to a local path")
            elif back and urllib.parse.unquote(location.removeprefix(self.base)) != back[0]:
                self.fail(target, referrer, f"answered 303 to {location!r}, not to back={back[0]!r}")
            elif not headers.get_all("Set-Cookie"):
                self.fail(target, referrer, "answered 303 without setting a cookie")
            return []
        if status != 200:
            self.fail(target, referrer, f"answered {status}")
            return []
        if kind == "asset":
            return []
        content_type = headers.get("Content-Type", "")
        if kind == "calendar":
            if not content_type.startswith("text/calendar") or not body.startswith(b"BEGIN:VCALENDAR"):
                self.fail(target, referrer, f"is not a calendar ({content_type})")
            return []
        if not content_type.startswith("text/html"):
            self.fail(target, referrer, f"a link to a page answered {content_type!r}")
            return []
        parser = Links()
        parser.feed(body.decode("utf-8", "replace"))
        if parser.lang not in ("es", "en"):
            self.fail(target, referrer, f"<html lang={parser.lang!r}>")
        path = target.partition("?")[0]
        if parser.empty and (path == "/" or path.startswith("/channel/")):
            # Every channel has programmes on every day of the golden guide: an empty grid or
            # channel day is a page outside the guide (the server's "nothing at this time").
            self.fail(target, referrer, "the page says the guide has nothing there (class=\"empty\")")
        found = []
        for href in parser.pages:
            local = self.local_target(href, target)
            if local is not None:
                found.append(("page", local))
        for href in parser.assets:
            local = self.local_target(href, target)
            if local is not None:
                found.append(("asset", local))
        return found

    def fail(self, target, referrer, why):
        with self.lock:
            self.errors.append(f"{target} (linked from {referrer}): {why}")

    # --- The crawl, level by level ---------------------------------------------------------------

    def classify(self, target):
        path = target.partition("?")[0]
        if path in ACTIONS:
            return "action"
        if path == "/reminders.ics":
            return "calendar"
        return "page"

    def run(self, seeds):
        frontier = []
        for seed in seeds:
            self.seen.add(self.key(seed))
            frontier.append((seed, "page", "(start)"))
        with ThreadPoolExecutor(self.workers) as pool:
            while frontier:
                if len(self.seen) > self.limit:
                    self.errors.append(
                        f"more than {self.limit} distinct links: the crawl does not end; by route so far: "
                        + ", ".join(f"{r} {n}" for r, n in self.routes.most_common(8)))
                    return
                for target, kind, _ in frontier:
                    self.visited.append(target)
                    self.kinds[kind] += 1
                    self.routes[route(target.partition("?")[0])] += 1
                results = list(pool.map(lambda item: (item[0], self.visit(*item)), frontier))
                frontier = []
                for referrer, found in results:
                    for kind, target in found:
                        if kind == "page":
                            kind = self.classify(target)
                        if kind == "action":
                            effect, shape = self.action_keys(target)
                            if effect in self.actions and shape in self.actions:
                                continue
                            self.actions.update((effect, shape))
                        key = self.key(target)
                        title = self.airings_title(target)
                        if title is not None:
                            key = "airings of " + title
                        if key in self.seen:
                            continue
                        self.seen.add(key)
                        if kind == "page":
                            why = self.outside_window(target)
                            if why:
                                self.fail(target, referrer, "outside the guide's window: " + why)
                                continue
                        frontier.append((target, kind, referrer))


def main(argv=None, say=print):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", nargs="?", default=guide.BASE)
    parser.add_argument("--snapshot", default=str(guide.SNAPSHOT))
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--limit", type=int, default=30000)
    parser.add_argument("--list", help="write every link requested to this file")
    args = parser.parse_args(argv)
    if not args.base:
        parser.error("give the server's address (or set TVGUIDE_BASE)")
    guide.SNAPSHOT = Path(args.snapshot)
    data = guide.snapshot()
    window = guide.Window(data)
    titles = {f"{p['channel']}@{guide.parse_time(p['start']):%Y%m%dT%H%M%SZ}": p["title"] for p in data["programmes"]}
    crawl = Crawl(args.base, window, args.workers, args.limit, titles)
    started = time.monotonic()
    crawl.run(["/", "/find?q=gladiator"])
    seconds = time.monotonic() - started
    if args.list:
        Path(args.list).write_text("\n".join(sorted(crawl.visited)) + "\n")
    say(f"crawl: {sum(crawl.kinds.values())} requests in {seconds:.1f} s: "
          f"{crawl.kinds['page']} pages, {crawl.kinds['action']} state-changing links (303 checked, not followed), "
          f"{crawl.kinds['calendar']} calendars, {crawl.kinds['asset']} assets")
    say("crawl: by route: " + ", ".join(f"{r} {n}" for r, n in sorted(crawl.routes.items(), key=lambda kv: -kv[1])))
    reached = {t.partition("?")[0][len("/programme/"):] for t in crawl.visited
               if re.fullmatch(r"/programme/[^/]+", t.partition("?")[0])}
    reached = {urllib.parse.unquote(p) for p in reached}
    say(f"crawl: programme pages reached: {len(reached & set(titles))} of the snapshot's {len(titles)} programmes"
        + (f"; {len(reached - set(titles))} not in it" if reached - set(titles) else "")
        + f"; airings lists: {crawl.routes['/programme/{id}/airings']} (one per title)")
    if crawl.external:
        say(f"crawl: links to other hosts, not followed: {sum(crawl.external.values())} to "
              + ", ".join(f"{h} ({n})" for h, n in crawl.external.most_common(6)))
    for error in crawl.errors[:60]:
        say("crawl: FAIL " + error)
    if len(crawl.errors) > 60:
        say(f"crawl: … and {len(crawl.errors) - 60} more failures")
    return crawl


if __name__ == "__main__":
    sys.exit(1 if main().errors else 0)
