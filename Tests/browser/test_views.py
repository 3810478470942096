"""Every view in both languages at a desktop's and a phone's size: the language the page says it is
in, the five header links, the search form, the footer's language switch, guide.js having run, and
no error in the browser's console."""

import re
import urllib.parse

import pytest

import guide
from conftest import fetch

CASES = [pytest.param(language, size, name, path, current, id=f"{name}-{size}-{language}")
         for language in guide.LANGUAGES for size in guide.SIZES for name, path, current in guide.VIEWS]


@pytest.mark.parametrize("language, size, name, path, current", CASES)
def test_language(pages, language, size, name, path, current):
    # The server's own answer (no script involved) and the page in a browser asking for the language.
    status, _, body = fetch(path, language=language)
    assert status == 200, f"GET {path} (Accept-Language: {language}) answered {status}"
    served = re.search(r"<html\b[^>]*\blang=\"([^\"]*)\"", body)
    assert served and served.group(1) == language, \
        f"GET {path} with Accept-Language: {language} served <html lang={served and served.group(1)!r}>"
    report = pages.report(language, size, path)
    assert report["lang"] == language, f"{path} in a browser asking for {language}: <html lang={report['lang']!r}>"


@pytest.mark.parametrize("language, size, name, path, current", CASES)
def test_header_and_footer(pages, language, size, name, path, current):
    report = pages.report(language, size, path)
    assert report["header"], f"{path}: no <header class=\"top\">"
    links = {link["view"]: link for link in report["links"]}
    assert [link["view"] for link in report["links"]] == list(guide.HEADER_LINKS), \
        f"{path}: header links {[link['view'] for link in report['links']]}, expected {list(guide.HEADER_LINKS)}"
    for view, href in guide.HEADER_LINKS.items():
        got = urllib.parse.urlsplit(links[view]["href"] or "").path
        assert got == href, f"{path}: header link {view} goes to {links[view]['href']!r}, expected {href}"
        assert links[view]["text"], f"{path}: header link {view} has no text"
    marked = [link["view"] for link in report["links"] if link["current"] == "page"]
    if current:
        assert marked == [current], f"{path}: aria-current=\"page\" on {marked}, expected [{current!r}]"
    else:
        assert len(marked) <= 1, f"{path}: aria-current=\"page\" on several links: {marked}"
    search = report["search"]
    assert search, f"{path}: no <form class=\"search\"> in the header"
    assert search["role"] == "search" and search["action"] == "/find" and search["method"] == "get" \
        and search["input"], f"{path}: the header's search form is {search}"
    switch = {link["lang"]: link["href"] for link in report["langLinks"]}
    assert set(switch) == {"es", "en"}, f"{path}: footer language links {report['langLinks']}"
    for code, href in switch.items():
        parts = urllib.parse.urlsplit(href or "")
        query = urllib.parse.parse_qs(parts.query)
        assert parts.path == "/language" and query.get("set") == [code], \
            f"{path}: footer link for {code} is {href!r}, expected /language?set={code}&back=…"


@pytest.mark.parametrize("language, size, name, path, current", CASES)
def test_script_runs_without_console_errors(pages, language, size, name, path, current):
    report = pages.report(language, size, path)
    assert report["ready"], f"{path}: guide.js did not set <body data-js=\"ready\">"
    assert not report["errors"], f"{path}: console errors:\n  " + "\n  ".join(report["errors"])


@pytest.mark.parametrize("language, name, path", [
    pytest.param(language, name, path, id=f"{name}-{language}")
    for language in guide.LANGUAGES for name, path, _ in guide.VIEWS])
def test_phone_page_does_not_scroll_sideways(pages, language, name, path):
    report = pages.report(language, "phone", path)
    assert report["scrollWidth"] <= report["clientWidth"], \
        f"{path} on a 390 px phone is {report['scrollWidth']} px wide: the whole page scrolls sideways; " \
        f"sticking out: {'; '.join(report['wide'])}"


def test_phone_shows_now_and_next_instead_of_the_grid(fresh_driver):
    driver = fresh_driver("en", "phone")
    shown = """
      const shown = e => e !== null && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
      return {list: shown(document.querySelector('ol.now-next')),
              grid: shown(document.querySelector('.row[data-channel]'))};"""
    driver.get(guide.url("/"))
    guide.wait_ready(driver)
    state = driver.execute_script(shown)
    assert state == {"list": True, "grid": False}, f"/ on a phone: now-next list shown {state['list']}, grid rows shown {state['grid']}"
    driver.get(guide.url("/?view=grid"))
    guide.wait_ready(driver)
    state = driver.execute_script(shown)
    assert state["grid"], "/?view=grid on a phone does not show the grid's rows"
    guide.resize(driver, "desktop")
    driver.get(guide.url("/"))
    guide.wait_ready(driver)
    state = driver.execute_script(shown)
    assert state == {"list": False, "grid": True}, f"/ on a desktop: now-next list shown {state['list']}, grid rows shown {state['grid']}"


def test_footer_switch_changes_language_and_keeps_the_page(fresh_driver):
    from selenium.webdriver.common.by import By

    driver = fresh_driver("en")  # the browser asks for English: the cookie must win over it
    driver.get(guide.url("/coming-up"))
    guide.wait_ready(driver)
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    driver.find_element(By.CSS_SELECTOR, "footer a[data-lang=es]").click()
    guide.wait_ready(driver)
    assert guide.path_of(driver.current_url) == "/coming-up", \
        f"the footer's Español link from /coming-up led to {driver.current_url}"
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es"
    assert driver.get_cookie("tvguide_lang") and driver.get_cookie("tvguide_lang")["value"] == "es", \
        f"tvguide_lang cookie: {driver.get_cookie('tvguide_lang')}"
    # The choice sticks on the next page though the browser still asks for English.
    driver.find_element(By.CSS_SELECTOR, "header.top a[data-view=audiences]").click()
    guide.wait_ready(driver)
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es", \
        "the language chosen in the footer was lost on the next page"
    driver.find_element(By.CSS_SELECTOR, "footer a[data-lang=en]").click()
    guide.wait_ready(driver)
    assert guide.path_of(driver.current_url) == "/ratings"
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"


@pytest.mark.parametrize("accept, cookie, expected", [
    ("es-ES,es;q=0.9,en;q=0.8", None, "es"),
    ("en-GB,en;q=0.9", None, "en"),
    ("fr-FR,fr;q=0.9", None, "en"),          # neither: English
    (None, None, "en"),
    ("fr;q=0.9, es;q=0.5", None, "es"),      # the first language the guide has
    ("es", "tvguide_lang=en", "en"),         # the cookie over the header
    ("en", "tvguide_lang=es", "es"),
])
def test_language_negotiation(accept, cookie, expected):
    status, _, body = fetch("/coming-up", language=accept, cookie=cookie)
    served = re.search(r"<html\b[^>]*\blang=\"([^\"]*)\"", body)
    assert status == 200 and served and served.group(1) == expected, \
        f"Accept-Language {accept!r}, cookie {cookie!r}: status {status}, <html lang={served and served.group(1)!r}>, expected {expected}"


def test_language_link_sets_the_cookie_and_goes_back():
    status, headers, _ = fetch("/language?set=es&back=/ratings")
    assert status == 303, f"/language?set=es&back=/ratings answered {status}, expected 303"
    assert headers.get("Location") in ("/ratings", guide.url("/ratings")), f"Location: {headers.get('Location')}"
    cookies = headers.get_all("Set-Cookie") or []
    assert any(c.startswith("tvguide_lang=es") for c in cookies), f"Set-Cookie: {cookies}"
    # back= is a local path only: never a redirect to another site.
    for back in ("https://example.org/", "//example.org/"):
        status, headers, _ = fetch("/language?set=es&back=" + urllib.parse.quote(back, safe=""))
        location = headers.get("Location") or ""
        assert "example.org" not in location, f"/language?back={back} redirects off the site: {location}"
