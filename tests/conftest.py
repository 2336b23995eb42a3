"""Test-session set-up: notebook runs write figures and ledgers to a scratch folder.

nbval and papermill start their kernels from this process, so the variable set
here reaches every notebook executed by the test run; committed ``figures/``
and ``results/`` are never touched by ``make test``. Under pytest-xdist the workers
inherit the controller's scratch folder.
(nbval's cells are marked and grouped by the repository's top ``conftest.py``.)
"""

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# No wall-clock deadline on any property test: a busy machine slows an example down without
# making it wrong (timing is measured by `make benchmark`, not checked by the tests).
settings.register_profile("dicelab", deadline=None)
settings.load_profile("dicelab")

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config):
    if "DICELAB_OUTPUT_DIR" not in os.environ:
        scratch = tempfile.mkdtemp(prefix="dicelab-test-")
        os.environ["DICELAB_OUTPUT_DIR"] = scratch
        config._dicelab_scratch = scratch


def pytest_unconfigure(config):
    scratch = getattr(config, "_dicelab_scratch", None)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture
def nbval_checks_ledger(request):
    """``nbval_checks_ledger(stem)``: whether this session runs the chapter through nbval, whose
    ``::ledger`` item (the repository's ``conftest.py``) then checks its ledger."""
    return lambda stem: stem in getattr(request.config, "_dicelab_nbval_collected", set())


# --------------------------------------------------------------------------- the homework build
# Built once, as a teacher builds it (`make homework` with a roster, in a subprocess), for every
# chapter, and shared by tests/test_homework.py and tests/test_grading.py. It is kept in
# homework/_build/tests-<hash>/, keyed on everything it is made from: a later session with the same
# sources reuses it, any change builds it afresh; a lock lets one process build while others wait.
HOMEWORK_ROSTER = ["ada", "bob.smith"]


def _homework_sources() -> list[Path]:
    chapters = sorted(p.stem for p in (ROOT / "homework").glob("0[1-9]_*.yml"))
    return [ROOT / "Makefile", ROOT / "requirements.txt", *sorted((ROOT / "homework").glob("*.py")),
            *sorted((ROOT / "dicelab").rglob("*.py")),
            *(p for name in chapters for p in (ROOT / "homework" / f"{name}.yml",
                                               ROOT / "notebooks" / f"{name}.ipynb",
                                               ROOT / "solutions" / f"{name}_solutions.ipynb"))]


def cached_homework_build() -> Path:
    """The homework of every chapter, built with ``HOMEWORK_ROSTER`` from the current sources."""
    digest = hashlib.sha256("\n".join(HOMEWORK_ROSTER).encode())
    sources = _homework_sources()
    for path in sources:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    builds = ROOT / "homework" / "_build"
    builds.mkdir(parents=True, exist_ok=True)
    done = builds / f"tests-{digest.hexdigest()[:16]}"
    with open(builds / ".tests.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building the same: wait for it
        if not (done / "complete").is_file():
            for old in builds.glob("tests-*"):  # earlier sources' builds, and a half-made one
                shutil.rmtree(old, ignore_errors=True)
            done.mkdir()
            roster = done / "roster.txt"
            roster.write_text("# the class\n" + "\n".join(HOMEWORK_ROSTER) + "\n")
            run = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT), "homework",
                                  f"HOMEWORK_BUILD={done}", f"ROSTER={roster}"],
                                 capture_output=True, text=True)
            assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
            (done / "complete").write_text("\n".join(str(p.relative_to(ROOT)) for p in sources) + "\n")
    return done


@pytest.fixture(scope="session")
def homework_build() -> Path:
    return cached_homework_build()
