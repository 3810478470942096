"""axe-core (as selenium-axe-python bundles it) on every view, desktop and phone, both languages:
no violation of impact serious or critical, colour contrast included. The counts of every impact
are gathered for the table printed at the end of the run (conftest.py)."""

import pytest

import guide
from conftest import AXE_TABLE

FAILING = {"serious", "critical"}


@pytest.mark.parametrize("language, size, name, path", [
    pytest.param(language, size, name, path, id=f"{name}-{size}-{language}")
    for language in guide.LANGUAGES for size in guide.SIZES for name, path, _ in guide.VIEWS])
def test_no_serious_accessibility_violations(pages, language, size, name, path):
    violations = pages.report(language, size, path, axe=True)["axe"]
    AXE_TABLE[(name, size, language)] = violations
    bad = [v for v in violations if v["impact"] in FAILING]
    lines = []
    for v in bad:
        lines.append(f"{v['impact']}: {v['id']} ({v['help']}) on {len(v['targets'])} element(s):")
        for target, summary in list(zip(v["targets"], v["summaries"]))[:5]:
            lines.append(f"    {target}: {' '.join(summary.split())[:300]}")
    assert not bad, f"{path} ({size}, {language}):\n" + "\n".join(lines)
