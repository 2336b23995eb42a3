"""The browser test's tally of the whole site, kept for the run and printed at its end.

``make test-browser`` runs the two test files side by side (pytest-xdist, ``--dist loadfile``): the
site's tests all run in one worker, which writes the tally to ``TALLY_FILE`` for the summary.
"""

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

TALLY = pytest.StashKey["Tally"]()
TALLY_FILE = Path(__file__).resolve().parents[2] / "book" / "_build" / "browser-tally.json"


@dataclass
class Tally:
    """Summed over the pages: counts, each page's ids (anchors) and every link it holds."""

    counts: Counter = field(default_factory=Counter)
    ids: dict[Path, set[str]] = field(default_factory=dict)
    links: list[tuple[Path, str]] = field(default_factory=list)


@pytest.fixture(scope="session")
def tally(request) -> Tally:
    return request.config.stash.setdefault(TALLY, Tally())


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput"):  # the controller (or a run without xdist)
        TALLY_FILE.unlink(missing_ok=True)


def pytest_sessionfinish(session):
    t = session.config.stash.get(TALLY, None)
    if t is not None and t.counts:
        TALLY_FILE.parent.mkdir(parents=True, exist_ok=True)
        TALLY_FILE.write_text(json.dumps(t.counts))


def pytest_terminal_summary(terminalreporter, config):
    if not TALLY_FILE.exists():
        return
    c = Counter(json.loads(TALLY_FILE.read_text()))
    terminalreporter.write_line(
        f"book site: {c['pages']} pages, {c['images']} images, {c['math']} math blocks, "
        f"{c['requests']} requests ({c['external']} external, {c['failed']} failed), "
        f"{c['links']} internal links checked; {c['phone_pages']} pages also at 390 px, "
        f"{c['scrolling_formulas']} display formulas wider than their column at 1280 px (they scroll); "
        f"{c['exercises']} exercise boxes in the chapters, {c['restated']} restated in the solutions"
    )
