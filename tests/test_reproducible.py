"""A chapter re-executed in full mode, then normalised as `make` does, is byte-identical to the
committed notebook: no machine-dependent number, address or timing in committed outputs."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "04_cosmic_wimpout.ipynb"


@pytest.mark.notebook
def test_a_full_rerun_is_byte_identical(tmp_path):
    work = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks" / "data", work / "data")
    copy = work / CHAPTER.name
    shutil.copy(CHAPTER, copy)
    env = os.environ | {"DICELAB_FAST": "0", "DICELAB_OUTPUT_DIR": str(tmp_path / "out")}
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [
            bin_dir / "jupyter",
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--inplace",
            "--ExecutePreprocessor.kernel_name=python3",
            "--ExecutePreprocessor.timeout=1200",
            str(copy),
        ],
        check=True,
        env=env,
        capture_output=True,
    )
    subprocess.run([bin_dir / "nbstripout", "--keep-output", "--keep-count", str(copy)], check=True)
    subprocess.run([sys.executable, "-m", "dicelab.course.notebook", "normalise", str(copy)], check=True)
    assert copy.read_bytes() == CHAPTER.read_bytes(), "re-running the chapter changed its committed outputs"
