"""Static checks of the project: environment files agree, ledgers are sound, notebooks are clean."""

import json
import re
import tomllib

import pytest
import yaml

from dicelab.claims import README_END, README_START, check_ledger, read_ledger, summarize, summary_markdown

DESIGN_PACKAGES = {"jupyterlab", "numpy", "sympy", "matplotlib", "pandas", "nbval", "papermill"}


def requirement_lines(root):
    lines = (root / "requirements.txt").read_text().splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


def notebooks(root):
    return sorted((root / "notebooks").glob("*.ipynb"))


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
    assert "start_chapter(" in "".join(code[code.index(tagged[0]) + 1]["source"]), "the preamble starts the chapter"
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
