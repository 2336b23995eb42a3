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

import errno
import os
import re
import shutil
import tempfile
from pathlib import Path

__all__ = [
    "repo_root",
    "data_dir",
    "output_dir",
    "output_root",
    "is_canonical",
    "check_writable",
    "chapter_output_bytes",
    "check_free_space",
    "atomic_write",
]

KINDS = ("figures", "results")


def repo_root() -> Path:
    """The repository root: the folder holding ``pyproject.toml`` above this package.

    >>> (repo_root() / "dicelab").is_dir()
    True
    """
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        raise RuntimeError(
            f"dicelab is not running from its repository checkout ({root}); "
            "install it with `pip install -e .` or set DICELAB_OUTPUT_DIR"
        )
    return root


def data_dir(name: str) -> Path:
    """The folder of chapter ``name``'s data files (the paper's printed tables): ``notebooks/data/NAME``.

    Found from the package's location, so a chapter reads its data wherever it runs from (JupyterLab,
    papermill, Colab after the chapter's first cell has cloned and installed the repository).

    Parameters
    ----------
    name : str
        The chapter's name, e.g. ``"01_efron_dice"``: a folder of ``notebooks/data/``.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> (data_dir("01_efron_dice") / "efron_dice.csv").is_file()
    True
    """
    root = repo_root() / "notebooks" / "data"
    plain = isinstance(name, str) and name not in ("", ".", "..") and not set(name) & {"/", "\\"}
    if not plain or not (root / name).is_dir():
        chapters = sorted(p.name for p in root.iterdir() if p.is_dir())
        raise ValueError(f"name must be a chapter with data files, one of {chapters}, got {name!r}")
    return root / name


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
    try:
        known = isinstance(kind, str) and kind in KINDS
    except Exception:  # noqa: BLE001 - a value whose comparison fails is no kind
        known = False
    if not known:
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


UNKNOWN_CHAPTER_BYTES = 2 * 2**20  # a chapter with no committed outputs to go by: 2 MiB


def chapter_output_bytes(name: str) -> int:
    """The bytes chapter ``name`` writes: the size of its committed figures (``figures/NN_*.png``)
    and ledger (``results/<name>.csv``), or 2 MiB for a chapter that has none yet.

    >>> 100_000 < chapter_output_bytes("02_badg") < 2_000_000  # its figures and the ledger
    True
    """
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ValueError(f"name must be a chapter's file stem such as '02_badg', got {name!r}")
    try:
        root = repo_root()
    except RuntimeError:  # installed outside a checkout: no committed outputs to go by
        return UNKNOWN_CHAPTER_BYTES
    prefix = name.split("_", 1)[0]
    files = [*(root / "figures").glob(f"{prefix}_*.png"), root / "results" / f"{name}.csv"]
    written = sum(f.stat().st_size for f in files if f.is_file())
    return written or UNKNOWN_CHAPTER_BYTES


def _megabytes(n: float) -> str:
    return f"{n / 1e6:.2g} MB" if n < 1e9 else f"{n / 1e9:.3g} GB"


def check_free_space(nbytes: int) -> Path:
    """Raise a clear error now, before any work, if the output folder's disk has less than twice
    ``nbytes`` free (room for every file and for the temporary copy each is written through).

    Returns the output root.

    >>> check_free_space(1000) == output_root()
    True
    """
    if isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes < 0:
        raise ValueError(f"nbytes must be a number of bytes (an integer >= 0), got {nbytes!r}")
    root = output_root()
    free = shutil.disk_usage(root).free
    if free < 2 * nbytes:
        raise OSError(
            errno.ENOSPC,
            f"not enough free space in {root}: this run writes about {_megabytes(nbytes)} of figures "
            f"and ledger and needs twice that free, but only {_megabytes(free)} is; free some space "
            "or set DICELAB_OUTPUT_DIR to a folder on another disk",
        )
    return root


def _disk_full(err: OSError) -> bool:
    return err.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


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
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=path.suffix)
        os.close(fd)
        write(Path(tmp))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as an ordinary file would be, not mkstemp's private 0600
        os.replace(tmp, path)
    except BaseException as err:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError) and _disk_full(err):
            raise OSError(
                err.errno,
                f"the disk holding {path.parent} is full: {path.name} was not written (no part of it "
                "is left behind); free some space or set DICELAB_OUTPUT_DIR to a folder on another disk",
            ) from None
        raise
    return path
