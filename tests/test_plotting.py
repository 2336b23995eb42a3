"""Tests of the figure helpers: house style, save location, reproducible bytes."""

import matplotlib

matplotlib.use("Agg")  # tests only; notebooks never force a backend
import matplotlib.pyplot as plt
import pytest

from dicelab.course import paths, plotting


def test_save_figure_writes_reproducible_png(tmp_path, monkeypatch):
    monkeypatch.setenv("DICELAB_OUTPUT_DIR", str(tmp_path))
    plotting.use_style()
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    first = plotting.save_figure(fig, "00_demo").read_bytes()
    second = plotting.save_figure(fig, "00_demo").read_bytes()
    plt.close(fig)
    assert (tmp_path / "figures" / "00_demo.png").is_file()
    assert first == second and first.startswith(b"\x89PNG")


def test_show_figure_saves_shows_and_closes(tmp_path, monkeypatch):
    monkeypatch.setenv("DICELAB_OUTPUT_DIR", str(tmp_path))
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, **kw: shown.append((obj, kw)))
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    alt = "A falling line from the top left to the bottom right."
    assert plotting.show_figure(fig, "00_shown", alt=alt) is None  # nothing echoed after a cell
    assert (tmp_path / "figures" / "00_shown.png").is_file()
    assert shown == [(fig, {"metadata": {"image/png": {"alt": alt}}})]
    assert not plt.fignum_exists(fig.number)  # closed: shown once


@pytest.mark.parametrize("name", ["", "a/b", "../x", "x.png", 3])
def test_save_figure_rejects_paths(name):
    fig = plt.figure()
    with pytest.raises(ValueError, match="plain file stem"):
        plotting.save_figure(fig, name)
    plt.close(fig)


def test_only_a_canonical_run_writes_the_committed_folders(monkeypatch, root):
    monkeypatch.delenv("DICELAB_OUTPUT_DIR", raising=False)
    monkeypatch.delenv("DICELAB_CANONICAL", raising=False)
    assert paths.repo_root() == root
    assert paths.output_dir("figures") == root / "scratch" / "figures"  # a reader's run
    monkeypatch.setenv("DICELAB_CANONICAL", "1")
    assert paths.output_dir("figures") == root / "figures"  # `make`
    monkeypatch.setenv("DICELAB_OUTPUT_DIR", "/tmp/elsewhere")
    assert (
        not paths.is_canonical()
        and paths.output_root() == __import__("pathlib").Path("/tmp/elsewhere").resolve()
    )
    with pytest.raises(ValueError):
        paths.output_dir("elsewhere")


def test_an_unwritable_output_folder_fails_before_any_work(tmp_path, monkeypatch):
    (tmp_path / "results").write_text("a file where the folder should be")
    monkeypatch.setenv("DICELAB_OUTPUT_DIR", str(tmp_path))
    with pytest.raises(PermissionError, match="cannot write to .*results.*DICELAB_OUTPUT_DIR"):
        paths.check_writable()


def test_draw_digraph_labels_nodes_that_share_a_label():
    fig, ax = plt.subplots()
    pos = {(0, "a"): (0, 0), (0, "b"): (1, 0), "c": (2, 0)}
    plotting.draw_digraph(ax, pos, [((0, "a"), (0, "b"), "")], labels={(0, "a"): "0", (0, "b"): "0"})
    assert sorted(t.get_text() for t in ax.texts) == ["0", "0", "c"]
    plt.close(fig)
