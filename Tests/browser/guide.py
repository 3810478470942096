"""What the browser tests and the crawler share: where the server is, what the golden snapshot
holds, the contract's views (docs: /tmp/web-contract.md as the lead wrote it; the markup names
below are the contract's) and a Chromium driven by Selenium.

The server is started by scripts/test-browser, which passes its address in TVGUIDE_BASE and the
snapshot it serves in TVGUIDE_SNAPSHOT.
"""

import json
import os
import re
import urllib.parse
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[2]
BASE = os.environ.get("TVGUIDE_BASE", "").rstrip("/")
SNAPSHOT = Path(os.environ.get("TVGUIDE_SNAPSHOT", ROOT / "Fixtures/golden/offline-default.json"))
MADRID = ZoneInfo("Europe/Madrid")
# The server's fixed clock (scripts/test-browser passes it as --now): 21:20 in Madrid.
NOW = datetime(2026, 10, 21, 19, 20, tzinfo=timezone.utc)
# Gladiator on Antena 3, 22:50 in Madrid, a second airing on Saturday.
FILM = "Antena3.es@20261021T205000Z"

# (name, path, the header link marked aria-current="page" there, or None when the contract names none)
VIEWS = [
    ("grid", "/", "grid"),
    ("coming-up", "/coming-up", "coming-up"),
    ("find", "/find?q=gladiator", None),
    ("ratings", "/ratings", "audiences"),
    ("my-calendar", "/my-calendar", "calendar"),
    ("my-channels", "/my-channels", "channels"),
    ("channel", "/channel/La1.es", None),
    ("programme", "/programme/" + FILM, None),
]
# The five header links: data-view → href.
HEADER_LINKS = {
    "grid": "/",
    "coming-up": "/coming-up",
    "calendar": "/my-calendar",
    "audiences": "/ratings",
    "channels": "/my-channels",
}
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
LANGUAGES = ("es", "en")


def url(path):
    if not BASE:
        raise RuntimeError("TVGUIDE_BASE is not set: run the tests through scripts/test-browser")
    return BASE + path


def absolute(href):
    """An href as the browser resolves it against the server's root."""
    return urllib.parse.urljoin(BASE + "/", href)


def path_of(address):
    """The path and query of an address on the server, percent-decoded, for comparisons."""
    parts = urllib.parse.urlsplit(address)
    path = urllib.parse.unquote(parts.path)
    return path + ("?" + parts.query if parts.query else "")


def lineups():
    """providers.yaml's line-ups (a flow list per name, possibly over several lines)."""
    text = (ROOT / "providers.yaml").read_text()
    block = re.search(r"^lineups:\n((?:[ \t]+.*\n|\n)+?)(?=^\S)", text, re.M).group(1)
    found = {}
    for name, body in re.findall(r"^  ([\w-]+):\s*\[([^\]]*)\]", block, re.M):
        found[name] = [item.strip() for item in body.replace("\n", " ").split(",") if item.strip()]
    return found


def channel_map_order():
    text = (ROOT / "providers.yaml").read_text()
    return re.findall(r"^  - \{ id: ([^, ]+),", text, re.M)


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def snapshot():
    with open(SNAPSHOT) as file:
        return json.load(file)


def programme_start(programme_id):
    """A programme id is CHANNEL@YYYYMMDDTHHMMSSZ: its start."""
    stamp = programme_id.rsplit("@", 1)[1]
    return datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)


class Window:
    """The guide's window as the snapshot says it (the server says the same: "it covers Tuesday
    20 October 21:00 to Wednesday 28 October 20:00"), and the local days it touches."""

    def __init__(self, data):
        self.start = parse_time(data["window"]["from"])
        self.end = parse_time(data["window"]["to"])
        self.days = set()
        day = self.start.astimezone(MADRID).date()
        while day <= (self.end - timedelta(seconds=1)).astimezone(MADRID).date():
            self.days.add(day.isoformat())
            day += timedelta(days=1)
        self.audience_days = {entry["day"] for entry in data.get("audiences", [])}


# --- Chromium through Selenium -------------------------------------------------------------

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
# Every host but the server's fails to resolve: nothing leaves the machine.
OFFLINE_RULES = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def new_driver(language="en", size="desktop"):
    """A headless Chromium with a fresh profile, asking for `language` (Accept-Language)."""
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager: never look for a browser online
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    width, height = SIZES[size]
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--hide-scrollbars", f"--host-resolver-rules={OFFLINE_RULES}",
                     f"--lang={language}", f"--accept-lang={language}", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(90)
    resize(driver, size)
    return driver


def resize(driver, size):
    """The viewport of a desktop or a phone (a phone as a mobile device: the viewport meta applies)."""
    width, height = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})


def wait_ready(driver, timeout=10):
    """Waits for the page to load and guide.js to mark <body data-js="ready">; False if it never did."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(driver, timeout).until(
            lambda d: d.execute_script(
                "return document.readyState === 'complete' && document.body !== null"
                " && document.body.getAttribute('data-js') === 'ready'"))
        return True
    except TimeoutException:
        return False


def console_problems(entries):
    """The browser log's SEVERE entries that are the page's fault. A resource on another host is
    expected to fail (the tests resolve no host but the server's: posters are remote), so those are
    returned apart as `blocked`."""
    errors, blocked = [], []
    for entry in entries:
        if entry.get("level") != "SEVERE":
            continue
        message = entry.get("message", "")
        if entry.get("source") == "network" and not message.startswith(BASE + "/") \
                and "ERR_NAME_NOT_RESOLVED" in message:
            blocked.append(message)
        else:
            errors.append(message)
    return errors, blocked
