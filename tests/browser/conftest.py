"""The browser test's tally of the whole site, kept for the run and printed at its end."""

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

TALLY = pytest.StashKey["Tally"]()


@dataclass
class Tally:
    """Summed over the pages: counts, each page's ids (anchors) and every link it holds."""

    counts: Counter = field(default_factory=Counter)
    ids: dict[Path, set[str]] = field(default_factory=dict)
    links: list[tuple[Path, str]] = field(default_factory=list)


@pytest.fixture(scope="session")
def tally(request) -> Tally:
    return request.config.stash.setdefault(TALLY, Tally())


def pytest_terminal_summary(terminalreporter, config):
    t = config.stash.get(TALLY, None)
    if t is None:
        return
    c = t.counts
    terminalreporter.write_line(
        f"book site: {c['pages']} pages, {c['images']} images, {c['math']} math blocks, "
        f"{c['requests']} requests ({c['external']} external, {c['failed']} failed), "
        f"{c['links']} internal links checked; {c['phone_pages']} pages also at 390 px, "
        f"{c['scrolling_formulas']} display formulas wider than their column at 1280 px (they scroll); "
        f"{c['exercises']} exercise boxes in the chapters, {c['restated']} restated in the solutions"
    )
