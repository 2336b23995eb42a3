"""The browser test's tally of the whole site, kept for the run and printed at its end.

``make test-browser`` spreads the tests over several workers (pytest-xdist): each worker writes
its own tally to ``browser-tally-WORKER.json`` beside the site, and the summary adds them up.
"""

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

TALLY = pytest.StashKey["Tally"]()
TALLY_DIR = Path(__file__).resolve().parents[2] / "book" / "_build"


@dataclass
class Tally:
    """Summed over the pages a worker checked."""

    counts: Counter = field(default_factory=Counter)


@pytest.fixture(scope="session")
def tally(request) -> Tally:
    return request.config.stash.setdefault(TALLY, Tally())


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput"):  # the controller (or a run without xdist)
        for old in TALLY_DIR.glob("browser-tally*.json"):
            old.unlink()


def pytest_sessionfinish(session):
    t = session.config.stash.get(TALLY, None)
    if t is not None and t.counts:
        worker = getattr(session.config, "workerinput", {}).get("workerid", "main")
        TALLY_DIR.mkdir(parents=True, exist_ok=True)
        (TALLY_DIR / f"browser-tally-{worker}.json").write_text(json.dumps(t.counts))


def pytest_terminal_summary(terminalreporter, config):
    files = sorted(TALLY_DIR.glob("browser-tally*.json"))
    if not files:
        return
    c = sum((Counter(json.loads(f.read_text())) for f in files), Counter())
    terminalreporter.write_line(
        f"book site: {c['pages']} pages, {c['images']} images, {c['math']} math blocks, "
        f"{c['requests']} requests ({c['external']} external, {c['failed']} failed), "
        f"{c['links']} internal links checked; {c['phone_pages']} pages also at 390 px, "
        f"{c['scrolling_formulas']} display formulas wider than their column at 1280 px (they scroll); "
        f"{c['exercises']} exercise boxes in the chapters, {c['restated']} restated in the solutions"
    )
