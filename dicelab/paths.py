"""Where dicelab writes: ``figures/`` and ``results/`` under the repository root.

Notebooks run with their own directory as the working directory (JupyterLab,
nbconvert, nbval, papermill all differ), so paths are resolved from the
package's location, never from the working directory. Setting the environment
variable ``DICELAB_OUTPUT_DIR`` redirects both folders elsewhere; the test suite
does so, so that test runs of the notebooks never overwrite committed outputs.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["repo_root", "output_dir"]


def repo_root() -> Path:
    """The repository root: the folder holding ``pyproject.toml`` above this package.

    >>> (repo_root() / "dicelab").is_dir()
    True
    """
    root = Path(__file__).resolve().parents[1]
    if not (root / "pyproject.toml").is_file():
        raise RuntimeError(
            f"dicelab is not running from its repository checkout ({root}); "
            "install it with `pip install -e .` or set DICELAB_OUTPUT_DIR"
        )
    return root


def output_dir(kind: str) -> Path:
    """The folder for ``kind`` (``"figures"`` or ``"results"``), created if missing.

    >>> output_dir("tables")
    Traceback (most recent call last):
    ...
    ValueError: kind must be 'figures' or 'results', got 'tables'
    """
    if kind not in ("figures", "results"):
        raise ValueError(f"kind must be 'figures' or 'results', got {kind!r}")
    base = os.environ.get("DICELAB_OUTPUT_DIR")
    folder = (Path(base) if base else repo_root()) / kind
    folder.mkdir(parents=True, exist_ok=True)
    return folder
