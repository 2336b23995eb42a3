"""Test-session set-up: notebook runs write figures and ledgers to a scratch folder.

nbval and papermill start their kernels from this process, so the variable set
here reaches every notebook executed by the test run; committed ``figures/``
and ``results/`` are never touched by ``make test``.
"""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

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
