"""A full disk: refused up front when the chapter's outputs do not fit, and, when the disk fills
during a write, a clear error naming the folder with nothing half-written left behind."""

import errno
import re
import shutil
from collections import namedtuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from dicelab.course import claims, notebook, paths, plotting  # noqa: E402

Usage = namedtuple("Usage", "total used free")


def _fill_then_fail(tmp_path):
    """A write that puts half a file down, then finds the disk full."""
    with open(tmp_path, "w") as f:
        f.write("half a file")
    raise OSError(errno.ENOSPC, "No space left on device")


def _only(folder):
    return sorted(p.name for p in folder.iterdir())


def test_a_full_disk_during_a_write_names_the_folder_and_leaves_the_old_file(tmp_path):
    target = tmp_path / "ledger.csv"
    target.write_text("the previous version")
    message = f"the disk holding {re.escape(str(tmp_path))} is full: ledger.csv was not written"
    with pytest.raises(OSError, match=message) as err:
        paths.atomic_write(target, _fill_then_fail)
    assert err.value.errno == errno.ENOSPC
    assert _only(tmp_path) == ["ledger.csv"] and target.read_text() == "the previous version"


def test_a_full_disk_before_the_temporary_file_is_made(tmp_path, monkeypatch):
    def no_inode(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(paths.tempfile, "mkstemp", no_inode)
    with pytest.raises(OSError, match=f"{re.escape(str(tmp_path))} is full: a.txt was not written"):
        paths.atomic_write(tmp_path / "a.txt", lambda p: p.write_text("x"))
    assert _only(tmp_path) == []


def test_a_figure_on_a_full_disk(monkeypatch):
    fig, _ = plt.subplots()
    monkeypatch.setattr(fig, "savefig", lambda tmp, **kw: _fill_then_fail(tmp))
    folder = paths.output_dir("figures")
    before = _only(folder)
    with pytest.raises(OSError, match=f"{re.escape(str(folder))} is full: full_disk_probe.png"):
        plotting.save_figure(fig, "full_disk_probe")
    plt.close(fig)
    assert _only(folder) == before


def test_a_ledger_on_a_full_disk(monkeypatch):
    monkeypatch.setattr(pd.DataFrame, "to_csv", lambda self, tmp, **kw: _fill_then_fail(tmp))
    ledger = claims.Ledger("full_disk_probe")
    ledger.add("§1", "a count", paper=6, ours=6)
    folder = paths.output_dir("results")
    before = _only(folder)
    with pytest.raises(OSError, match=f"{re.escape(str(folder))} is full: full_disk_probe.csv"):
        ledger.write()
    assert _only(folder) == before


def test_what_a_chapter_writes_is_known():
    root = paths.repo_root()
    committed = [*(root / "figures").glob("02_*.png"), root / "results" / "02_badg.csv"]
    assert paths.chapter_output_bytes("02_badg") == sum(f.stat().st_size for f in committed)
    assert 100_000 < paths.chapter_output_bytes("02_badg") < 2_000_000  # figures and a ledger
    assert paths.chapter_output_bytes("99_not_written_yet") == paths.UNKNOWN_CHAPTER_BYTES


def test_a_chapter_is_refused_up_front_when_its_outputs_do_not_fit(monkeypatch):
    monkeypatch.setattr(paths.shutil, "disk_usage", lambda folder: Usage(10**9, 10**9 - 300_000, 300_000))
    with pytest.raises(OSError, match=r"not enough free space in .*: this run writes about 0\.\d+ MB") as err:
        notebook.start_chapter("02_badg", True)
    assert err.value.errno == errno.ENOSPC and str(paths.output_root()) in str(err.value)


def test_a_chapter_starts_when_its_outputs_fit(monkeypatch):
    real = shutil.disk_usage
    monkeypatch.setattr(paths.shutil, "disk_usage", lambda folder: real(folder)._replace(free=1_500_000))
    fast, ledger = notebook.start_chapter("02_badg", True)
    assert fast and len(ledger) == 0
