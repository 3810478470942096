"""A person's first visit, by clicks: the first-start section, a line-up, Coming up's films
tonight, a reminder, My calendar and its subscription read by a real iCalendar parser; and the
chosen line-up holding across the views."""

import urllib.parse
import urllib.request
from datetime import datetime, timedelta

import icalendar
from selenium.webdriver.common.by import By

import guide

CSS = By.CSS_SELECTOR


def open_page(driver, path):
    driver.get(guide.url(path))
    assert guide.wait_ready(driver), f"guide.js did not run on {path}"


def click(driver, selector, within=None):
    elements = (within or driver).find_elements(CSS, selector)
    assert elements, f"{guide.path_of(driver.current_url)}: nothing matches {selector!r}"
    before = driver.current_url
    href = elements[0].get_attribute("href")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", elements[0])
    elements[0].click()
    assert guide.wait_ready(driver), f"after clicking {selector!r} ({href}) on {before}: guide.js did not run on {driver.current_url}"


def query(driver):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(driver.current_url).query)


def grid_rows(driver):
    return [row.get_attribute("data-channel") for row in driver.find_elements(CSS, ".row[data-channel]")]


def item_ids(driver):
    return [item.get_attribute("data-programme") for item in driver.find_elements(CSS, "li.item[data-programme]")]


def kinds_by_id():
    kinds = {}
    for p in guide.snapshot()["programmes"]:
        start = guide.parse_time(p["start"]).strftime("%Y%m%dT%H%M%SZ")
        kinds[f"{p['channel']}@{start}"] = p["kind"]
    return kinds


def test_person_path_to_a_subscribed_reminder(fresh_driver):
    driver = fresh_driver("en", "desktop")
    national = guide.lineups()["national"]
    kinds = kinds_by_id()

    # A fresh profile: the first-start section above the grid, with a link per line-up.
    open_page(driver, "/")
    first = driver.find_elements(CSS, "section.first-start")
    assert first and first[0].is_displayed(), "/ in a fresh profile shows no section.first-start"
    offered = {a.get_attribute("data-lineup"): a.get_attribute("href")
               for a in first[0].find_elements(CSS, "a[data-lineup]")}
    assert set(offered) == set(guide.lineups()), f"first start offers {sorted(offered)}, providers.yaml has {sorted(guide.lineups())}"
    for name, href in offered.items():
        parts = urllib.parse.urlsplit(href)
        assert parts.path == "/my-channels/save" and urllib.parse.parse_qs(parts.query) == {"lineup": [name], "back": ["/"]}, \
            f"first start's link for {name} is {href}"
    assert any(guide.path_of(a.get_attribute("href")) == "/my-channels" for a in first[0].find_elements(CSS, "a[href]")), \
        "the first-start section has no link to /my-channels"

    # Choose national: back on the grid, with national's channels only and no first-start section.
    click(driver, "a[data-lineup=national]", within=first[0])
    assert guide.path_of(driver.current_url) == "/", f"choosing national led to {driver.current_url}"
    assert not driver.find_elements(CSS, "section.first-start"), "the first-start section is still there after choosing a line-up"
    assert grid_rows(driver) == national, f"after choosing national the grid's rows are {grid_rows(driver)}"
    assert driver.get_cookie("tvguide_channels"), "no tvguide_channels cookie after choosing national"

    # Coming up from the header, then films, then tonight.
    click(driver, "header.top nav.views a[data-view=coming-up]")
    assert guide.path_of(driver.current_url).startswith("/coming-up"), f"the header's Coming up led to {driver.current_url}"
    click(driver, "nav.kinds a[data-kind=movie]")
    assert query(driver).get("kind") == ["movie"], f"the Films filter led to {driver.current_url}"
    click(driver, "a[data-filter=tonight]")
    assert query(driver).get("kind") == ["movie"] and query(driver).get("tonight") == ["1"], \
        f"tonight after films led to {driver.current_url}: the filters should combine (kind=movie&tonight=1)"
    ids = item_ids(driver)
    assert ids, f"{driver.current_url}: no li.item"
    evening = datetime(2026, 10, 21, 12, 0, tzinfo=guide.MADRID)
    for programme in ids:
        assert kinds.get(programme) == "movie", f"{programme} listed among films is a {kinds.get(programme)!r}"
        assert programme.split("@")[0] in national, f"{programme} is not on a national channel"
        start = guide.programme_start(programme)
        assert evening <= start < evening + timedelta(hours=18), f"{programme} listed for tonight starts {start.astimezone(guide.MADRID)}"
    assert guide.FILM in ids, f"Gladiator ({guide.FILM}, 22:50 tonight on Antena 3) is not among tonight's films: {ids}"
    other = next((p for p in ids if p != guide.FILM and guide.programme_start(p) > guide.NOW), None)
    assert other, f"no second film still to start tonight among {ids}"

    # Open the film, add a reminder: My calendar lists it.
    saved = []
    tonight = driver.current_url
    for programme in (guide.FILM, other):
        driver.get(tonight)
        guide.wait_ready(driver)
        item = driver.find_element(CSS, f"li.item[data-programme='{programme}']")
        click(driver, "a.title", within=item)
        assert guide.path_of(driver.current_url) == "/programme/" + programme, \
            f"the item's title link for {programme} led to {driver.current_url}"
        add = driver.find_element(CSS, "a.button.primary[data-action=add-reminder]")
        back = urllib.parse.parse_qs(urllib.parse.urlsplit(add.get_attribute("href")).query).get("back", ["/my-calendar"])[0]
        click(driver, "a.button.primary[data-action=add-reminder]")
        saved.append(programme)
        # 303 to /my-calendar, or to the link's back= (the contract allows both).
        assert guide.path_of(driver.current_url) == back, \
            f"Add reminder on {programme} led to {driver.current_url}, expected {back}"
        if not guide.path_of(driver.current_url).startswith("/my-calendar"):
            click(driver, "header.top nav.views a[data-view=calendar]")
        listed = {li.get_attribute("data-programme") for li in driver.find_elements(CSS, "li[data-programme]")}
        assert set(saved) <= listed, f"My calendar lists {sorted(listed)}, saved {saved}"
        for saved_id in saved:
            links = driver.find_elements(CSS, f"li[data-programme='{saved_id}'] a[href]")
            assert any(guide.path_of(a.get_attribute("href")) == "/programme/" + saved_id for a in links), \
                f"My calendar's entry for {saved_id} does not link to its programme page"

    # The subscription: webcal:// for the phone, the http address kept in data-href.
    subscribe = driver.find_elements(CSS, "a.button.subscribe[data-action=subscribe]")
    assert subscribe, "My calendar has no subscribe link"
    href, http = subscribe[0].get_attribute("href"), subscribe[0].get_attribute("data-href")
    assert href.startswith("webcal://"), f"guide.js did not turn the subscribe link into webcal:// ({href})"
    assert http and guide.absolute(http).startswith(guide.BASE + "/reminders.ics"), f"subscribe data-href is {http!r}"
    with urllib.request.urlopen(guide.absolute(http), timeout=30) as response:
        assert response.status == 200
        kind = response.headers.get("Content-Type", "")
        body = response.read()
    assert kind.startswith("text/calendar"), f"{http} is served as {kind!r}"
    calendar = icalendar.Calendar.from_ical(body)
    events = list(calendar.walk("VEVENT"))
    assert len(events) == len(saved), f"{http}: {len(events)} VEVENTs for {len(saved)} saved programmes"
    pages = {}
    for event in events:
        alarms = [c for c in event.subcomponents if c.name == "VALARM"]
        assert alarms, f"the event {event.get('SUMMARY')} has no VALARM"
        for alarm in alarms:
            trigger = alarm.decoded("TRIGGER")
            assert trigger == timedelta(minutes=-5), f"{event.get('SUMMARY')}: VALARM TRIGGER {trigger}, expected -5 minutes"
        address = str(event.get("URL", ""))
        assert address.startswith(guide.BASE + "/programme/"), f"{event.get('SUMMARY')}: URL {address!r} is not a programme page on the server"
        programme = guide.path_of(address)[len("/programme/"):]
        pages[programme] = event
        start = event.decoded("DTSTART")
        assert start == guide.programme_start(programme), f"{programme}: DTSTART {start}"
    assert set(pages) == set(saved), f"the calendar's URLs name {sorted(pages)}, saved {saved}"
    # Each URL opens that programme's page.
    for programme in saved:
        with urllib.request.urlopen(guide.url("/programme/" + programme), timeout=30) as response:
            assert response.status == 200


def test_chosen_lineup_holds_across_the_views(fresh_driver):
    driver = fresh_driver("en", "desktop")
    national = guide.lineups()["national"]
    # Before any choice: every channel, and a search finds TV3's Polònia.
    open_page(driver, "/")
    assert grid_rows(driver) == guide.channel_map_order(), "without a choice the grid should show every channel in the channel map's order"
    open_page(driver, "/find?q=Pol%C3%B2nia")
    assert driver.find_elements(CSS, "section.result"), "/find?q=Polònia finds nothing without a line-up chosen"

    open_page(driver, "/")
    click(driver, "section.first-start a[data-lineup=national]")
    for view in ("coming-up", "calendar", "audiences", "channels", "grid"):
        click(driver, f"header.top nav.views a[data-view={view}]")
        if view == "coming-up":
            channels = {p.split("@")[0] for p in item_ids(driver)}
            assert channels and channels <= set(national), f"Coming up with national shows channels {sorted(channels - set(national))}"
        if view == "channels":
            ticked = {box.get_attribute("value") for box in
                      driver.find_elements(CSS, "form[action='/my-channels/save'] input[type=checkbox][name=channel]")
                      if box.is_selected()}
            assert ticked == set(national), f"My channels ticks {sorted(ticked)} after choosing national"
    assert guide.path_of(driver.current_url).split("?")[0] == "/"
    rows = grid_rows(driver)
    assert len(rows) == 22 and rows == national, f"after the header links the grid shows {len(rows)} rows: {rows}"
    # National has no TV3: search leaves its programmes out.
    open_page(driver, "/find?q=Pol%C3%B2nia")
    assert not driver.find_elements(CSS, "section.result"), "/find?q=Polònia shows TV3's programme though the line-up is national"

