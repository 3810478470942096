"""The markup the contract names, view by view (the hooks that the other tests, guide.js and
anyone scripting the guide rely on), looked up in the page as the browser has it after guide.js ran."""

import urllib.parse

import pytest
from selenium.webdriver.common.by import By

import guide

# On air at the golden clock (La 1's Telediario 2, 21:00–21:35 Madrid), ended that morning, and a
# title with more airings than the page lists (Los Simpson).
ON_AIR = "La1.es@20261021T190000Z"
ENDED = "La1.es@20261021T060000Z"
MANY_AIRINGS = "Neox.es@20261021T223000Z"
DAYS = len(guide.Window(guide.snapshot()).days)

# path → [(CSS selector, how many at least, what the contract says)]
CONTRACT = {
    "/": [
        ("nav.days a", DAYS, f"a day picker with a link per day of the guide ({DAYS})"),
        ("a[data-jump=prime]", 1, "a prime-time jump"),
        ("a[rel=prev]", 1, "an earlier link"),
        ("a[rel=next]", 1, "a later link"),
        ("ul.legend", 1, "a legend"),
        (".row[data-channel]", 24, "a row per channel"),
        ("section.first-start a[data-lineup][href^='/my-channels/save?lineup=']", 4, "first start: a link per line-up"),
        ("div.banner.degraded[role=status]", 1, "the fallback banner (the golden guide comes from the offline sample)"),
    ],
    "/?at=2026-10-20T19:00:00Z": [
        (".row[data-channel]", 24, "the first hours of the guide"),
    ],
    "/channel/La1.es": [
        ("nav.days a", DAYS, f"the same day picker ({DAYS} days)"),
    ],
    "/programme/" + guide.FILM: [
        (f"a.button.primary[data-action=add-reminder][href^='/my-calendar/add?programme={guide.FILM}']", 1, "Add reminder"),
        ("a[data-action=add-series][href^='/my-calendar/add?series=Gladiator']", 1, "every airing of the title"),
        ("button[data-action=share]", 1, "a share button"),
        ("button[data-action=speak]", 1, "a read-aloud button"),
        ("ul.gallery", 1, "a gallery"),
        ("section.airings a[href='/programme/Antena3.es@20261024T161500Z']", 1, "next airings: Saturday's Gladiator"),
    ],
    "/programme/" + ON_AIR: [
        ("a[data-action=add-reminder]", 1, "Add reminder while on air"),
        ("p.on-air-note", 1, "the on-air note"),
    ],
    "/programme/" + MANY_AIRINGS: [
        (f"section.airings a[href='/programme/{MANY_AIRINGS}/airings']", 1, "a link to all the airings"),
    ],
    "/programme/" + MANY_AIRINGS + "/airings": [
        (f"a[href^='/programme/Neox.es@']", 10, "the title's airings"),
    ],
    "/coming-up": [
        *[(f"nav.kinds a[data-kind={kind}]", 1, f"a {kind} filter")
          for kind in ("movie", "series", "programme", "documentary", "sports", "kids", "news")],
        ("nav.kinds a[data-filter=tonight], a[data-filter=tonight]", 1, "a tonight filter"),
        ("section.day-group[data-day] li.item[data-programme] a.title[href^='/programme/']", 1, "items grouped by day in section.day-group"),
    ],
    "/find?q=gladiator": [
        ("section.result", 1, "results grouped by title"),
        (f"section.result a[href='/programme/{guide.FILM}']", 1, "a link to Gladiator's airing"),
    ],
    "/ratings": [
        ("table.ranking tbody tr", 1, "the ranked day as a table, one row an entry"),
        ("nav.days a", 2, "a day picker"),
    ],
    "/my-calendar": [
        (f"li[data-programme='{guide.FILM}'] a[href='/programme/{guide.FILM}']", 1, "the saved film, linked"),
        ("a.button.subscribe[data-action=subscribe][data-href*='/reminders.ics?programme=']", 1, "the subscribe link"),
    ],
    "/my-channels": [
        ("form[action='/my-channels/save'] input[type=checkbox][name=channel]", 24, "a checkbox per channel"),
    ],
}
ABSENT = {
    "/?at=2026-10-20T19:00:00Z": [("a[rel=prev]", "no earlier link at the guide's first hour")],
    "/programme/" + ENDED: [("a[data-action=add-reminder]", "no Add reminder once a programme has ended")],
}


@pytest.fixture(scope="module")
def browser():
    driver = guide.new_driver("en", "desktop")
    yield driver
    driver.quit()


@pytest.mark.parametrize("path", list(CONTRACT))
def test_view_has_the_contracts_markup(browser, path):
    # No cookie but, for My calendar, the film saved.
    browser.delete_all_cookies()
    if path == "/my-calendar":
        browser.get(guide.url("/my-calendar/add?programme=" + guide.FILM))
    browser.get(guide.url(path))
    guide.wait_ready(browser)
    missing = []
    for selector, least, what in CONTRACT[path]:
        found = len(browser.find_elements(By.CSS_SELECTOR, selector))
        if found < least:
            missing.append(f"{what}: {selector} matches {found}, expected at least {least}")
    for selector, what in ABSENT.get(path, []):
        found = len(browser.find_elements(By.CSS_SELECTOR, selector))
        if found:
            missing.append(f"{what}: {selector} matches {found}")
    assert not missing, f"{path}:\n  " + "\n  ".join(missing)


def link_day(href):
    """The day a day-picker link shows: its date=, else the local day of its at=, else today."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)
    if "date" in query:
        return query["date"][0]
    if "at" in query:
        return guide.parse_time(query["at"][0]).astimezone(guide.MADRID).date().isoformat()
    return guide.NOW.astimezone(guide.MADRID).date().isoformat()


@pytest.mark.parametrize("path", ["/", "/channel/La1.es"])
def test_day_picker_links_every_day_once(browser, path):
    browser.get(guide.url(path))
    guide.wait_ready(browser)
    days = [link_day(a.get_attribute("href")) for a in browser.find_elements(By.CSS_SELECTOR, "nav.days a")]
    assert sorted(days) == sorted(guide.Window(guide.snapshot()).days), f"{path}: the day picker links {days}"
