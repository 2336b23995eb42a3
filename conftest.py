"""nbval's notebooks under the test tiers and pytest-xdist (this file applies to every path: a
``tests/conftest.py`` hook would not reach the cells of ``notebooks/`` and ``solutions/``).

* Every nbval cell carries the ``notebook`` marker.
* A chapter's cells are followed by one more item, ``notebooks/NN_name.ipynb::ledger``: the
  ledger that nbval's run of the chapter just wrote (to the test session's scratch folder) is
  sound and checks the same claims as the committed full run. The chapter runs once per session.
* ``make test`` runs ``--dist loadscope``: a notebook's items (its file) go to one worker, in
  order, in one kernel; so do a test module's. The longest scopes are handed out first (the
  homework module, then the slowest notebooks), the many short ones last, to fill the ends.
* A run that selects no test passes: pytest's exit code 5 becomes 0.
"""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
CHAPTERS = {p.stem for p in (ROOT / "notebooks").glob("0[1-9]_*.ipynb")}


def pytest_configure(config):
    config._dicelab_nbval_ran = {}  # notebook stem -> whether every cell nbval ran passed


def pytest_sessionfinish(session, exitstatus):
    """A run that selected no test (``-k`` or ``-m`` matching nothing) is not a failure: pytest's
    exit code 5 becomes 0 (its summary still says that no test ran)."""
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.OK


def _notebook(node) -> str | None:
    """The notebook a collected node belongs to, or None."""
    path = Path(str(node.path))
    return path.stem if path.suffix == ".ipynb" else None


class LedgerCheck(pytest.Item):
    """The chapter's ledger from the nbval run that just executed it (fast mode)."""

    def runtest(self):
        from dicelab.course import paths
        from dicelab.course.claims import check_ledger, read_ledger

        stem = self.path.stem
        ran = self.config._dicelab_nbval_ran.get(stem)
        assert ran is not None, f"nbval did not run {self.path.name} before its ledger check"
        assert ran, f"nbval's run of {self.path.name} failed (see its cells): its ledger is not checked"
        ledger = paths.output_dir("results") / f"{stem}.csv"
        assert ledger.is_file(), f"nbval ran {self.path.name} but it wrote no ledger"
        frame = read_ledger(ledger)
        assert check_ledger(frame) == []
        committed = read_ledger(ROOT / "results" / f"{stem}.csv")
        key = lambda f: sorted(zip(f["where"], f["what"], strict=True))  # noqa: E731
        assert key(frame) == key(committed), "the fast run must check the same claims as the full run"

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: the fast run's ledger"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if (
        report.passed
        and isinstance(collector, pytest.File)
        and _notebook(collector) in CHAPTERS
        and Path(str(collector.path)).parent.name == "notebooks"
        and report.result
    ):
        report.result.append(LedgerCheck.from_parent(collector, name="ledger"))


def pytest_itemcollected(item):
    if _notebook(item):
        item.add_marker(pytest.mark.notebook)


# The longest scopes first (``--dist loadscope --no-loadscope-reorder`` hands them out in this
# order): the homework build and grading, then the notebooks from the slowest in fast mode.
FIRST = ["test_homework", "test_grading", "05_playing_to_win_solutions", "05_playing_to_win", "01_efron_dice",
         "03_simultaneous_pig", "02_badg", "04_cosmic_wimpout"]


def _first(item) -> int:
    stem = Path(str(item.path)).stem
    if stem in FIRST:
        return FIRST.index(stem)
    return len(FIRST) if _notebook(item) else len(FIRST) + 1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    if any(_notebook(item) for item in items):
        items.sort(key=_first)  # stable: each file's order is kept


def pytest_runtest_logreport(report):
    """Record, per notebook, that nbval ran its cells in this process and whether all passed."""
    path, _, name = report.nodeid.partition("::")
    if path.endswith(".ipynb") and name.startswith("Cell ") and (report.when == "call" or report.failed):
        ran = _CONFIG._dicelab_nbval_ran
        stem = Path(path).stem
        ran[stem] = ran.get(stem, True) and not report.failed


_CONFIG = None


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    global _CONFIG
    _CONFIG = session.config


def nbval_collected(config, stem: str) -> bool:
    """Whether this session collected nbval's cells of ``notebooks/<stem>.ipynb``."""
    return stem in getattr(config, "_dicelab_nbval_collected", set())


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    session.config._dicelab_nbval_collected = {
        _notebook(item) for item in session.items if isinstance(item, LedgerCheck)
    }
