"""The crawler (crawl.py) as a test: every page reachable from / answers 200 and stays inside the
guide's window. Its figures are printed at the end of the run."""

import crawl
import guide
from conftest import SUMMARY


def test_every_link_answers_and_stays_in_the_window():
    lines = []
    result = crawl.main([guide.BASE, "--snapshot", str(guide.SNAPSHOT)], say=lines.append)
    SUMMARY.extend(lines)
    assert result.kinds["page"] > 1, "the crawl found no link on /"
    assert not result.errors, f"{len(result.errors)} failures:\n" + "\n".join(result.errors[:40])
