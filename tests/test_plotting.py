"""Tests of the figure helpers: house style, save location, reproducible bytes."""

import matplotlib

matplotlib.use("Agg")  # tests only; notebooks never force a backend
import matplotlib.pyplot as plt
import pytest

from dicelab import paths, plotting


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


@pytest.mark.parametrize("name", ["", "a/b", "../x", "x.png", 3])
def test_save_figure_rejects_paths(name):
    fig = plt.figure()
    with pytest.raises(ValueError, match="plain file stem"):
        plotting.save_figure(fig, name)
    plt.close(fig)


def test_default_output_is_the_repository_root(monkeypatch, root):
    monkeypatch.delenv("DICELAB_OUTPUT_DIR", raising=False)
    assert paths.repo_root() == root
    assert paths.output_dir("figures") == root / "figures"
    with pytest.raises(ValueError):
        paths.output_dir("elsewhere")
