"""Fixtures of the browser tests: one Chromium per language for the views (each page loaded once per
language and size and looked at by several tests), and the accessibility table printed at the end."""

import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import guide  # noqa: E402

# view, size, language → counts of axe violations by impact, filled by test_axe.py.
AXE_TABLE = {}
AXE_VERSION = []
# Lines for the end of the run (the crawler's figures).
SUMMARY = []


def pytest_configure(config):
    if not guide.BASE:
        raise pytest.UsageError("TVGUIDE_BASE is not set: run the browser tests with scripts/test-browser")


def fetch(path, language=None, cookie=None):
    """(status, headers, body) of a GET without following redirects; no browser involved."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    request = urllib.request.Request(guide.url(path))
    if language:
        request.add_header("Accept-Language", language)
    if cookie:
        request.add_header("Cookie", cookie)
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode("utf-8", "replace")


class Pages:
    """Each view loaded once per (language, size) in that language's browser, with what the tests
    look at: the DOM's facts, the console and axe's violations."""

    # Read in the page after it loaded (and guide.js ran).
    FACTS = r"""
      const header = document.querySelector('header.top');
      const links = Array.from(document.querySelectorAll('header.top nav.views a[data-view]'));
      const search = document.querySelector('header.top form.search');
      const input = search && search.querySelector('input[type=search][name=q]');
      return {
        lang: document.documentElement.getAttribute('lang'),
        header: header !== null,
        links: links.map(a => ({view: a.getAttribute('data-view'), href: a.getAttribute('href'),
                                current: a.getAttribute('aria-current'), text: a.textContent.trim()})),
        search: search && {role: search.getAttribute('role'), action: search.getAttribute('action'),
                           method: (search.getAttribute('method') || '').toLowerCase(), input: input !== null},
        langLinks: Array.from(document.querySelectorAll('footer a[data-lang]')).map(a =>
                    ({lang: a.getAttribute('data-lang'), href: a.getAttribute('href')})),
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
        ready: document.body !== null && document.body.getAttribute('data-js') === 'ready',
        // The outermost elements that stick out to the right of the viewport, outside any scrolling
        // box of their own (what makes a phone's page scroll sideways).
        wide: Array.from(document.body.querySelectorAll('*')).filter(e => {
            const r = e.getBoundingClientRect(), edge = document.documentElement.clientWidth + 1;
            if (!(r.width > 0 && r.right > edge)) return false;
            for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
              if (getComputedStyle(a).overflowX !== 'visible' || a.getBoundingClientRect().right > edge) return false;
            }
            return true;
          }).slice(0, 6).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
            (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '') +
            ' (right edge ' + Math.round(e.getBoundingClientRect().right) + ' px: "' +
            (e.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 40) + '")'),
      };
    """

    def __init__(self):
        self.drivers = {}
        self.reports = {}
        self.current = {}  # language → the key of the page its browser shows

    def driver(self, language):
        if language not in self.drivers:
            driver = guide.new_driver(language)
            # One saved programme, so that My calendar shows something to look at.
            driver.get(guide.url("/my-calendar/add?programme=" + guide.FILM))
            self.drivers[language] = driver
        return self.drivers[language]

    def report(self, language, size, path, axe=False):
        key = (language, size, path)
        driver = self.driver(language)
        report = self.reports.get(key)
        if report is None:
            self.load(driver, size, path)
            facts = driver.execute_script(self.FACTS)
            ready = facts.pop("ready")
            errors, blocked = guide.console_problems(driver.get_log("browser"))
            report = dict(facts, ready=ready, errors=errors, blocked=blocked,
                          address=driver.current_url, axe=None)
            self.reports[key] = report
            self.current[language] = key
        if axe and report["axe"] is None:
            if self.current.get(language) != key:
                self.load(driver, size, path)
                self.current[language] = key
            report["axe"] = run_axe(driver)
        return report

    @staticmethod
    def load(driver, size, path):
        guide.resize(driver, size)
        driver.get_log("browser")  # drop what earlier pages left
        driver.get(guide.url(path))
        # guide.wait_ready's answer is read again with the facts
        guide.wait_ready(driver)

    def close(self):
        for driver in self.drivers.values():
            driver.quit()


def run_axe(driver):
    """axe-core's violations on the page the driver shows, every rule axe runs by default."""
    from selenium_axe_python import Axe

    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    if not AXE_VERSION:
        AXE_VERSION.append(results.get("testEngine", {}).get("version", "?"))
    return [{"id": v["id"], "impact": v.get("impact") or "none", "help": v.get("help", ""),
             "targets": [", ".join(map(str, node.get("target", []))) for node in v.get("nodes", [])],
             "summaries": [node.get("failureSummary", "") for node in v.get("nodes", [])]}
            for v in results.get("violations", [])]


@pytest.fixture(scope="session")
def pages():
    pages = Pages()
    yield pages
    pages.close()


@pytest.fixture
def fresh_driver(request):
    """A browser with a fresh profile (no cookies), English, desktop; closed after the test."""
    drivers = []

    def make(language="en", size="desktop"):
        driver = guide.new_driver(language, size)
        drivers.append(driver)
        return driver

    yield make
    for driver in drivers:
        driver.quit()


def pytest_terminal_summary(terminalreporter):
    for line in SUMMARY:
        terminalreporter.write_line(line)
    if not AXE_TABLE:
        return
    impacts = ("critical", "serious", "moderate", "minor")
    write = terminalreporter.write_line
    write("")
    write(f"axe-core {AXE_VERSION[0] if AXE_VERSION else '?'} violations (rules violated; nodes in brackets) per view, size and language:")
    header = f"{'view':<12} {'size':<8} {'lang':<4} " + " ".join(f"{i:>10}" for i in impacts) + "  rules"
    write(header)
    write("-" * len(header))
    for (view, size, language), violations in sorted(AXE_TABLE.items(), key=lambda kv: (
            [v[0] for v in guide.VIEWS].index(kv[0][0]), kv[0][1], kv[0][2])):
        cells = []
        for impact in impacts:
            rules = [v for v in violations if v["impact"] == impact]
            nodes = sum(len(v["targets"]) for v in rules)
            cells.append(f"{len(rules)} ({nodes})".rjust(10) if rules else "0".rjust(10))
        names = ", ".join(sorted({v["id"] for v in violations})) or "-"
        write(f"{view:<12} {size:<8} {language:<4} " + " ".join(cells) + "  " + names)
