"""The grid with a keyboard alone: Tab from the top of the page reaches the programme blocks, and
Enter on one opens that programme's page."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

import guide

# Enough for the header, the first-start section, the day picker and the toolbar before the first
# row; a page that needs more has lost the blocks from the tab order (or buried them).
MAX_TABS = 80

ACTIVE = """
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  return {tag: e.tagName.toLowerCase(), cls: e.getAttribute('class') || '', href: e.getAttribute('href'),
          inGrid: e.closest('.row[data-channel]') !== null, block: e.matches('a.block')};
"""


def test_tab_reaches_a_programme_block_and_enter_opens_it(fresh_driver):
    driver = fresh_driver("en", "desktop")
    driver.get(guide.url("/"))
    assert guide.wait_ready(driver), "guide.js did not run on /"
    driver.execute_script("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur();")
    visited = []
    block = None
    for _ in range(MAX_TABS):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        active = driver.execute_script(ACTIVE)
        visited.append(active and f"{active['tag']}.{active['cls']} {active['href']}")
        if active and active["block"] and active["inGrid"]:
            block = active
            break
    assert block, f"{MAX_TABS} tabs from the top of / never focused an a.block in a grid row; focus went to:\n  " \
        + "\n  ".join(map(str, visited[:40]))
    assert block["href"] and guide.path_of(block["href"]).startswith("/programme/"), \
        f"the focused block links to {block['href']!r}, not to a programme page"
    # The focus ring must be visible: the block is not clipped away (its box has a size on screen).
    shown = driver.execute_script(
        "const r = document.activeElement.getBoundingClientRect(); return r.width > 0 && r.height > 0;")
    assert shown, "the focused block has no box on screen"
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    guide.wait_ready(driver)
    assert guide.path_of(driver.current_url) == guide.path_of(guide.absolute(block["href"])), \
        f"Enter on the block {block['href']} led to {driver.current_url}"
    assert driver.find_elements("css selector", "h1"), "the programme page has no heading"
