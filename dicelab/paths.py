"""Where dicelab writes figures and ledgers, and how it writes them.

Three places, in this order:

1. ``$DICELAB_OUTPUT_DIR/figures`` and ``…/results`` when the environment variable
   ``DICELAB_OUTPUT_DIR`` is set (the test suite sets it to a scratch folder);
2. the committed ``figures/`` and ``results/`` of the repository, only in a *canonical* run:
   ``make`` sets ``DICELAB_CANONICAL=1`` when it re-executes the chapters;
3. otherwise a scratch folder, ``scratch/`` in the repository (ignored by git), or
   ``~/dicelab-output`` when dicelab is installed outside a checkout. So a reader who runs a
   chapter in JupyterLab, or with other parameters, never overwrites the committed outputs.

Notebooks run with their own directory as the working directory (JupyterLab, nbconvert,
nbval, papermill all differ), so paths are resolved from the package's location, never
from the working directory. Files are written atomically: to a temporary file in the same
folder, then renamed over the target, so a reader never sees half a file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["repo_root", "output_dir", "output_root", "is_canonical", "check_writable", "atomic_write"]

KINDS = ("figures", "results")


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


def is_canonical() -> bool:
    """Is this the canonical run (``make``), the only one that writes the committed outputs?

    >>> isinstance(is_canonical(), bool)
    True
    """
    return os.environ.get("DICELAB_CANONICAL", "").strip() == "1" and not os.environ.get("DICELAB_OUTPUT_DIR")


def output_root() -> Path:
    """The folder that holds ``figures/`` and ``results/`` for this run (see the module docstring).

    >>> output_root().is_absolute()
    True
    """
    base = os.environ.get("DICELAB_OUTPUT_DIR")
    if base:
        return Path(base).resolve()
    try:
        root = repo_root()
    except RuntimeError:
        return Path.home() / "dicelab-output"
    return root if is_canonical() else root / "scratch"


def output_dir(kind: str) -> Path:
    """The folder for ``kind`` (``"figures"`` or ``"results"``), created if missing.

    >>> output_dir("tables")
    Traceback (most recent call last):
    ...
    ValueError: kind must be 'figures' or 'results', got 'tables'
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be 'figures' or 'results', got {kind!r}")
    folder = output_root() / kind
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def check_writable() -> Path:
    """Raise a clear error now, before any work, if the output folders cannot be written.

    Returns the output root.

    >>> check_writable() == output_root()
    True
    """
    root = output_root()
    for kind in KINDS:
        try:
            folder = output_dir(kind)
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
                pass
        except OSError as err:
            raise PermissionError(
                f"cannot write to {root / kind} ({err.strerror}); set DICELAB_OUTPUT_DIR to a writable folder"
            ) from None
    return root


def atomic_write(path: Path, write) -> Path:
    """Write ``path`` through ``write(temporary_path)``, then rename it into place.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "a.txt"
    >>> atomic_write(target, lambda p: p.write_text("done")).read_text()
    'done'
    """
    if not isinstance(path, str | Path):
        raise ValueError(f"path must be a file's path, got {path!r}")
    if not callable(write):
        raise ValueError(
            f"write must be a function that writes the file at the path it is given, got {write!r}"
        )
    path = Path(path)
    if not path.parent.is_dir():
        raise ValueError(
            f"path: the folder {str(path.parent)[:200]} does not exist; create it first "
            "(output_dir() creates the output folders)"
        )
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=path.suffix)
    os.close(fd)
    try:
        write(Path(tmp))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as an ordinary file would be, not mkstemp's private 0600
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
