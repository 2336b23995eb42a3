"""Static checks of the project: environment files agree, ledgers are sound, notebooks are clean."""

import json
import re
import tomllib

import pytest
import yaml

from dicelab.course.claims import (
    README_END,
    README_START,
    check_ledger,
    read_ledger,
    summarize,
    summary_markdown,
)
from dicelab.course.notebook import DECLARED, ROLES, fold_cells

DESIGN_PACKAGES = {"jupyterlab", "numpy", "sympy", "matplotlib", "pandas", "nbval", "papermill"}


def requirement_lines(root):
    lines = (root / "requirements.txt").read_text().splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


def notebooks(root):
    """The chapters: ``notebooks/0N_*.ipynb`` for N >= 1 (the course guide, 00, has no ledger)."""
    return sorted(p for p in (root / "notebooks").glob("0[1-9]_*.ipynb"))


def test_requirements_are_pinned_and_complete(root):
    lines = requirement_lines(root)
    assert "-e ." in lines, "requirements.txt must install the package itself"
    pins = {}
    for ln in lines:
        if ln == "-e .":
            continue
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)==([0-9][A-Za-z0-9.]*)", ln)
        assert m, f"requirements.txt: {ln!r} is not an exact pin"
        pins[m.group(1).lower()] = m.group(2)
    assert DESIGN_PACKAGES <= pins.keys()
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    for dep in project["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.-]+", dep).group(0).lower()
        assert name in pins, f"pyproject dependency {name} is not pinned in requirements.txt"


def test_environment_yml_installs_the_same_list(root):
    env = yaml.safe_load((root / "environment.yml").read_text())
    assert env["name"] == "dicelab"
    assert env["channels"] == ["conda-forge"]
    deps = env["dependencies"]
    pythons = [d for d in deps if isinstance(d, str) and d.startswith("python")]
    assert pythons == ["python=3.11"]
    requires = tomllib.loads((root / "pyproject.toml").read_text())["project"]["requires-python"]
    assert requires == ">=3.11"
    assert "pip" in deps
    pip_sections = [d["pip"] for d in deps if isinstance(d, dict) and "pip" in d]
    assert pip_sections == [["-r requirements.txt"]], "environment.yml must pip-install requirements.txt only"
    strings = [d for d in deps if isinstance(d, str)]
    assert set(strings) == {"python=3.11", "pip"}, "conda packages would drift from requirements.txt"


def test_ci_runs_the_readme_test_command(root):
    assert "make test" in (root / ".ci" / "run").read_text()
    assert "make test" in (root / "README.md").read_text()


def test_every_notebook_has_a_sound_committed_ledger(root):
    for nb in notebooks(root):
        path = root / "results" / f"{nb.stem}.csv"
        assert path.is_file(), f"{nb.name} has no ledger {path.name}: run `make`"
        assert check_ledger(read_ledger(path)) == []


def test_readme_summary_is_current(root):
    text = (root / "README.md").read_text()
    block = text.split(README_START, 1)[1].split(README_END, 1)[0]
    assert block.strip() == summary_markdown(summarize(root / "results")).strip(), "run `make summary`"


def test_readme_figures_exist(root):
    for target in re.findall(r"\]\((figures/[^)]+)\)", (root / "README.md").read_text()):
        assert (root / target).is_file(), f"README shows {target}, which does not exist"


@pytest.mark.parametrize(
    "nb_path", notebooks(__import__("pathlib").Path(__file__).resolve().parents[1]), ids=lambda p: p.name
)
def test_committed_notebook_hygiene(nb_path):
    nb = json.loads(nb_path.read_text())
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    cells = nb["cells"]
    assert cells[0]["cell_type"] == "markdown"
    code = [c for c in cells if c["cell_type"] == "code"]
    tagged = [c for c in code if "parameters" in c["metadata"].get("tags", [])]
    assert len(tagged) == 1, "exactly one cell tagged `parameters`"
    assert "".join(tagged[0]["source"]).startswith(DECLARED), f"the parameters cell begins {DECLARED!r}"
    preamble = code[code.index(tagged[0]) + 1 : code.index(tagged[0]) + 3]  # imports, then the start
    assert any("start_chapter(" in "".join(c["source"]) for c in preamble), "the preamble starts the chapter"
    counts = [c["execution_count"] for c in code if "".join(c["source"]).strip()]
    assert None not in counts, "commit the notebook executed (`make`)"
    assert counts == list(range(1, len(counts) + 1)), "executed top to bottom in one run"
    assert not [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
    text = nb_path.read_text()
    assert not re.search(r"/(work|tmp|root|home|Users)/", text), "absolute path in the notebook"
    assert ".write()" in "".join(code[-1]["source"]), "the ledger is written by the last cell"
    for cell in cells:
        assert "execution" not in cell.get("metadata", {}), "normalise with nbstripout"
    shown = [o["data"]["text/plain"] for c in code for o in c["outputs"] if "text/plain" in o.get("data", {})]
    leaked = [t for t in shown if "".join(t).startswith("Claim(")]
    assert not leaked, "a cell ends with ledger.add: end it with a result"


@pytest.mark.parametrize("name", ["00_course_guide", "explorers"])
def test_other_notebooks_refuse_unknown_parameters(root, name):
    code = [
        c
        for c in json.loads((root / "notebooks" / f"{name}.ipynb").read_text())["cells"]
        if c["cell_type"] == "code"
    ]
    assert "parameters" in code[0]["metadata"].get("tags", [])
    assert "".join(code[0]["source"]).startswith(DECLARED)
    assert "check_parameters()" in "".join(code[1]["source"])


# --------------------------------------------------------------------------- the chapter frame
# Chapters written in the frame of CONTRIBUTING.md; the frame's machine-checkable parts.
FRAMED = ["01_efron_dice", "02_badg", "03_simultaneous_pig", "04_cosmic_wimpout", "05_playing_to_win"]
ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def cells(name):
    return json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())["cells"]


@pytest.mark.parametrize("name", FRAMED)
def test_chapter_opening(name):
    opening = "".join(cells(name)[0]["source"])
    assert opening.startswith(f"# Chapter {int(name[:2])} · ")
    for part in (
        "**Paper.**",
        "### What you will learn",
        "**Prerequisites.**",
        "00_course_guide.ipynb",
        f"solutions/{name}_solutions.ipynb",
    ):
        assert part in opening, f"the opening lacks {part!r}"
    objectives = re.findall(
        r"^\d\. ", opening.split("### What you will learn")[1].split("**Prerequisites.**")[0], re.M
    )
    assert 3 <= len(objectives) <= 6
    links = re.findall(r"\((0[1-9]_[a-z_]+\.ipynb)\)", opening)
    assert len(links) >= 1 and all((ROOT / "notebooks" / link).is_file() for link in links)


@pytest.mark.parametrize("name", FRAMED)
def test_chapter_cells_are_short_and_public(name):
    for cell in cells(name):
        source = "".join(cell["source"])
        if cell["cell_type"] != "code":
            continue
        assert source.count("\n") + 1 <= 25, (
            f"a code cell of {source.count(chr(10)) + 1} lines:\n{source[:120]}"
        )
        assert not re.search(
            r"\b(wimpout|efron|badg|pig|markov|claims|exact|stopping|games)\._[a-z]", source
        ), source[:120]
        for out in cell.get("outputs", []):
            for kind, data in out.get("data", {}).items():
                if kind.startswith("text/"):
                    assert len("".join(data)) <= 10_000, f"a {kind} output of {len(''.join(data))} bytes"
            if out["output_type"] == "stream":
                assert len("".join(out["text"])) <= 10_000


# An exercise is a box (a MyST admonition) holding its statement and its hint as a dropdown:
# ":::::{admonition} Exercise N.M ★ Title", a blank line, the statement, "::::{dropdown} Hint", the hint.
EXERCISE = re.compile(
    r"^:::::\{admonition\} Exercise (\d+\.\d+) (★+) ([^\n]+)\n\n(.*?)\n\n"
    r"::::\{dropdown\} Hint\n\n(.*?)\n\n::::\n:::::$",
    re.M | re.S,
)


def exercise_boxes(text: str) -> dict[str, tuple[str, str]]:
    """``{"N.M": (stars, statement)}`` of the exercise boxes in markdown ``text``."""
    return {m[1]: (m[2], " ".join(m[4].split())) for m in EXERCISE.finditer(text)}


@pytest.mark.parametrize("name", FRAMED)
def test_chapter_exercises_and_solutions(name):
    text = "".join("".join(c["source"]) for c in cells(name) if c["cell_type"] == "markdown")
    section = text.split("## Exercises", 1)[1].split("## Appendix", 1)[0]
    found = exercise_boxes(section)
    assert len(found) >= 8, f"{len(found)} exercises"
    boxes = section.count("{admonition} Exercise ")
    assert len(found) == boxes, "each exercise a box, its hint a dropdown"
    assert {"★", "★★", "★★★"} <= {stars for stars, _ in found.values()}, "graded: warm-up, practice, project"
    assert "<details" not in section and "<summary" not in section, "hints are dropdowns, not raw HTML"
    assert section.count("Predict") >= 2, "at least two ask to predict the effect of a changed parameter"
    solutions = json.loads((ROOT / "solutions" / f"{name}_solutions.ipynb").read_text())["cells"]
    headings = [
        "".join(c["source"]) for c in solutions
        if c["cell_type"] == "markdown" and "".join(c["source"]).startswith("## ")
    ]
    assert len(headings) == len(found), "one solution per exercise"
    for heading in headings:  # each solution restates its exercise, word for word, above the answer
        number = heading.split()[1]
        restated = re.search(r"^:::\{admonition\} Exercise (\S+)\n\n(.*?)\n:::$", heading, re.M | re.S)
        assert restated and restated[1] == number, f"solution {number}: restate the exercise in a box"
        assert " ".join(restated[2].split()) == found[number][1], f"solution {number}: not the chapter's text"
    code = [c for c in solutions if c["cell_type"] == "code"]
    assert all(c["execution_count"] for c in code), "commit the solutions executed"
    assert sum("assert " in "".join(c["source"]) for c in code) >= len(found), (
        "solutions are checked by asserts"
    )


@pytest.mark.parametrize("name", FRAMED)
def test_chapter_appendix_is_collapsed(name):
    last = cells(name)[-1]
    assert "## Appendix" in "".join(cells(name)[-2]["source"])
    assert "audit" in last["metadata"].get("tags", []), "the ledger cell is audit"
    assert last["metadata"].get("jupyter", {}).get("outputs_hidden") is True


# --------------------------------------------------------------------------- lesson and audit
# A chapter's reader meets the lesson; the audit (claim checks, cross-checks, test markers, set-up)
# is folded by the role tags of dicelab.course.notebook.ROLES.
AUDIT_WORDS = re.compile(r"\bledger\b|NBVAL|noqa|\b(?:dicelab|[a-z]+)\._[a-z]|import _[a-z]")
LONG_INTEGER = re.compile(r"(?<![\d.])\d{20,}(?![\d.])")


def role(cell):
    return next((t for t in cell.get("metadata", {}).get("tags", []) if t in ROLES), None)


def notebook_paths():
    return [*notebooks(ROOT), *sorted((ROOT / "solutions").glob("*.ipynb")),
            ROOT / "notebooks" / "00_course_guide.ipynb", ROOT / "notebooks" / "explorers.ipynb"]


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.name)
def test_cells_are_folded_as_their_role_says(path):
    nb = json.loads(path.read_text())
    assert fold_cells(nb) == 0, "run `python -m dicelab.course.notebook normalise` (make notebooks does)"


@pytest.mark.parametrize("name", FRAMED)
def test_chapter_setup_is_folded(name):
    code = [c for c in cells(name) if c["cell_type"] == "code"]
    assert role(code[0]) == role(code[1]) == role(code[2]) == "setup", (
        "the first cell, the parameters cell and the imports are setup"
    )


RUNNABLE = [ROOT / "notebooks" / f"{n}.ipynb" for n in FRAMED] + [
    ROOT / "solutions" / f"{n}_solutions.ipynb" for n in FRAMED
]


@pytest.mark.parametrize("path", RUNNABLE, ids=lambda p: p.name)
def test_notebook_runs_anywhere(path):
    """The first code cell installs dicelab where it is missing; data is found from the package."""
    code = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    first = "".join(code[0]["source"])
    assert 'importlib.util.find_spec("dicelab") is None' in first
    assert re.search(r'^REPOSITORY = "', first, re.M)
    assert role(code[0]) == "setup"
    assert not any(re.search(r"""["']data/""", "".join(c["source"])) for c in code), "use data_dir(name)"


@pytest.mark.parametrize("name", FRAMED)
def test_chapter_lesson_shows_no_audit(name):
    chapter = cells(name)
    appendix = next(k for k, c in enumerate(chapter) if "## Appendix" in "".join(c["source"]))
    for k, cell in enumerate(chapter[:appendix]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if role(cell) is None:  # lesson code: what the student reads
            found = AUDIT_WORDS.search(source)
            assert not found, f"cell {k} shows audit code ({found.group()!r}): give it a role\n{source[:200]}"
            long = [ln for ln in source.splitlines() if len(ln) > 100]
            assert not long, f"cell {k} has a line of {len(long[0])} characters:\n{long[0]}"
        if cell["metadata"].get("jupyter", {}).get("outputs_hidden"):
            continue
        for out in cell.get("outputs", []):
            for kind, data in {**out.get("data", {}), "stream": out.get("text", "")}.items():
                if kind.startswith("text/") or kind == "stream":
                    found = LONG_INTEGER.search("".join(data))
                    assert not found, f"cell {k} shows a {len(found.group())}-digit integer: round it"


@pytest.mark.parametrize("name", FRAMED)
def test_chapter_tables_are_data_files(name):
    folder = ROOT / "notebooks" / "data" / name
    assert folder.is_dir() and any(folder.iterdir())
    for cell in cells(name):
        assert '"""' not in "".join(cell["source"]) or cell["cell_type"] == "markdown", (
            "no tables pasted into code"
        )


def test_course_guide_links_every_chapter(root):
    guide = "".join(
        "".join(c["source"])
        for c in json.loads((root / "notebooks" / "00_course_guide.ipynb").read_text())["cells"]
    )
    for nb in notebooks(root):
        assert f"({nb.name})" in guide, f"the course guide does not link {nb.name}"


def test_the_repository_setting_is_copied_everywhere(root):
    """book/_config.yml's repository.url is the one setting: README's launch links and every notebook's
    first cell agree with it (``python book/repository.py`` writes them)."""
    import subprocess
    import sys

    check = subprocess.run([sys.executable, "book/repository.py", "--check"], cwd=root,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
