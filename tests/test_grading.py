"""Grading as a teacher runs it: `make homework` and `make grade` in a subprocess, on a folder of
honest, blank, careless and cheating submissions of Chapter 1's homework.

Each attack is one notebook; each must score 0 on what it touched, with a note in the CSV, and
change nobody else's grade, nor the compiled kernels every sandbox starts a copy of. A notebook
that loops forever is stopped by the cell time limit (graded with a short limit of its own, so the
test does not wait out the honest work's). With a roster, each student's notebook shows
their own numbers where an exercise varies, and is graded against them: the chapter's published
answer scores nothing there.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
import yaml

pytestmark = pytest.mark.homework  # builds and grades homework: make test, not make test-fast

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "01_efron_dice"
CELL_SECONDS = 60  # the worked solutions need a few seconds a cell; a busy machine more
# The first and the last autograded exercise of the chapter's spec, and one variable each.
_AUTO = [(str(n), e) for n, e in yaml.safe_load((ROOT / "homework" / f"{CHAPTER}.yml").read_text())
         ["exercises"].items() if "answers" in e]
FIRST_Q, LAST_Q = ("q" + _AUTO[i][0].replace(".", "_") for i in (0, -1))
FIRST_ANSWER, LAST_ANSWER = (next(iter(_AUTO[i][1]["answers"])) for i in (0, -1))
FIRST_POINTS = _AUTO[0][1]["points"]
MAKE = ["make", "-s", "--no-print-directory", "-C", str(ROOT)]
ROSTER = ["ada", "bob.smith"]  # the roster the shared build is made with (tests/conftest.py)


@pytest.fixture(scope="module")
def build(homework_build) -> Path:
    return homework_build  # `make homework ROSTER=...` of every chapter, once (tests/conftest.py)


def _student(build: Path):
    return nbformat.read(build / CHAPTER / "dist" / "student" / f"{CHAPTER}_homework.ipynb", as_version=4)


def _teacher(build: Path):
    return nbformat.read(build / CHAPTER / "dist" / "autograder" / f"{CHAPTER}_homework.ipynb", as_version=4)


def _first_answer_cell(nb) -> int:
    return next(k for k, c in enumerate(nb.cells)
                if c.cell_type == "code" and c.source.startswith(FIRST_ANSWER))


def _with_cell(nb, code: str, at: int | None = None):
    at = _first_answer_cell(nb) if at is None else at
    nb.cells.insert(at, nbformat.v4.new_code_cell(code))
    return nb


def _submissions(build: Path, folder: Path, victim: Path, grades: Path) -> dict[str, Path]:
    key = json.loads((build / CHAPTER / "key.json").read_text())
    teacher = _teacher(build)
    careless = _teacher(build)
    k = next(k for k, c in enumerate(careless.cells) if c.source.startswith(f"{FIRST_ANSWER} ="))
    careless.cells[k].source = f"{FIRST_ANSWER} = 2 / 3  # a float for an exact answer"
    moved = next(k for k, c in enumerate(careless.cells) if c.source.startswith(f"{LAST_ANSWER} ="))
    cell = careless.cells.pop(moved)
    careless.cells.append(cell)  # the answer assigned at the very end, below its check cell
    attacks = {
        "patch": "import dicelab.course.homework as h\nh.check_answer = h.check_form = lambda *a, **k: None\n"
                 "import otter\notter.Notebook.check = lambda *a, **k: None",
        "reader": "import dicelab, json, pathlib\n"
                  f"for p in [pathlib.Path({str(build)!r}), "
                  "pathlib.Path(dicelab.__file__).parents[1] / 'homework']:\n"
                  "    for f in p.rglob('key.json'):\n"
                  "        globals().update({k: v for k, v in json.loads(f.read_text()).items()})",
        "liar": "import sympy as sp\nclass Liar(sp.Rational):\n"
                "    def __eq__(self, other): return True\n"
                "    def __ne__(self, other): return False\n"
                f"for name in {list(key)!r}:\n    globals()[name] = Liar(1, 3)",
        "writer": f"import subprocess, pathlib\ntry:\n    pathlib.Path({str(victim)!r}).write_text('{{}}')\n"
                  "except OSError:\n    pass\n"
                  f"subprocess.Popen(['sh', '-c', 'sleep 5; echo forged > {grades}'], "
                  "start_new_session=True)",
        "hog": "memory = bytearray(64 * 2**30)",
        "crash": "import os\nos._exit(1)",
        "poison": "import pathlib\nfor f in pathlib.Path('/numba').rglob('*'):\n"  # its copy of the kernels
                  "    if f.is_file():\n        f.write_bytes(b'junk')",
    }
    found = {"honest": teacher, "blank": _student(build), "careless": careless}
    for name, code in attacks.items():
        found[name] = _with_cell(_student(build), code)  # the answers left as `...` after it
    paths = {}
    for name, nb in found.items():
        path = folder / name / f"{CHAPTER}_homework.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(nb, path)
        paths[name] = path
    return paths


def _compiled(build: Path) -> list:
    """The build's numba cache, file by file."""
    files = (build / ".numba-cache").rglob("*")
    return sorted((p.relative_to(build), p.read_bytes()) for p in files if p.is_file())


def test_make_grade_scores_honest_work_and_nothing_else(build, tmp_path):
    folder = tmp_path / "submissions"
    grades = tmp_path / "grades.csv"
    victim = folder / "honest" / f"{CHAPTER}_homework.ipynb"
    paths = _submissions(build, folder, victim, grades)
    before = victim.read_bytes()
    cache = _compiled(build)
    assert cache  # the kernels the worked solutions compiled, from which every sandbox starts
    start = time.monotonic()
    run = subprocess.run(
        [*MAKE, "grade", f"SUBMISSIONS={folder}", f"GRADES={grades}", f"HOMEWORK_BUILD={build}",
         f"GRADE_FLAGS=--cell-seconds {CELL_SECONDS} --notebook-seconds 240 --jobs 2"],
        capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    elapsed = time.monotonic() - start
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    time.sleep(6)  # longer than the detached process would have waited
    assert victim.read_bytes() == before
    with grades.open() as f:
        rows = list(csv.DictReader(f))
    assert {r["submission"].split("/")[0] for r in rows} == set(paths)
    auto = [r for r in rows if r["graded"] == "auto"]
    total = {name: sum(int(r["score"]) for r in auto if r["submission"].startswith(name + "/"))
             for name in paths}
    full = sum(int(r["max_score"]) for r in auto if r["submission"].startswith("honest/"))
    assert total["honest"] == full > 0
    careless = {r["question"]: int(r["score"]) for r in auto if r["submission"].startswith("careless/")}
    assert careless[FIRST_Q] == 0 and careless[LAST_Q] > 0  # the float loses; the moved answer counts
    assert sum(careless.values()) == full - FIRST_POINTS, [r for r in auto
                                                           if r["submission"].startswith("careless/")]
    assert _compiled(build) == cache  # each sandbox changed only its own copy
    for name in ("blank", "patch", "reader", "liar", "writer", "hog", "crash", "poison"):
        assert total[name] == 0, (name, [r for r in auto if r["submission"].startswith(name + "/")])
    notes = {name: " ".join(r["note"] for r in auto if r["submission"].startswith(name + "/"))
             for name in paths}
    assert "float" in notes["careless"]
    assert elapsed < 600, elapsed
    assert "forged" not in grades.read_text()


def test_an_endless_loop_is_stopped_at_the_cell_limit(build, tmp_path):
    folder, grades = tmp_path / "submissions", tmp_path / "grades.csv"
    path = folder / "looper" / f"{CHAPTER}_homework.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(_with_cell(_student(build), "while True:\n    pass"), path)
    start = time.monotonic()
    run = subprocess.run(
        [*MAKE, "grade", f"SUBMISSIONS={folder}", f"GRADES={grades}", f"HOMEWORK_BUILD={build}",
         "GRADE_FLAGS=--cell-seconds 5 --notebook-seconds 300"],
        capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert time.monotonic() - start < 120  # stopped at the cell limit, long before the notebook's
    with grades.open() as f:
        auto = [r for r in csv.DictReader(f) if r["graded"] == "auto"]
    assert auto and all(int(r["score"]) == 0 for r in auto)
    notes = " ".join(r["note"] for r in auto)
    assert "stopped" in notes or "Timeout" in notes or "timed out" in notes, notes


def test_grading_refuses_without_a_build(tmp_path):
    (tmp_path / "subs").mkdir()
    run = subprocess.run([*MAKE, "grade", f"SUBMISSIONS={tmp_path / 'subs'}",
                          f"HOMEWORK_BUILD={tmp_path / 'nothing'}"], capture_output=True, text=True)
    assert run.returncode != 0 and "make homework" in run.stdout + run.stderr


def test_a_notebook_is_found_by_its_content(build, tmp_path):
    sys.path.insert(0, str(ROOT / "homework"))
    try:
        import grade
    finally:
        sys.path.remove(str(ROOT / "homework"))
    folder = tmp_path / "subs"
    folder.mkdir()
    shutil.copy(build / CHAPTER / "dist" / "student" / f"{CHAPTER}_homework.ipynb", folder / "mine.ipynb")
    (folder / "other.ipynb").write_text(json.dumps(nbformat.v4.new_notebook()))
    found = grade.find(folder, grade.chapters())
    assert found == [(folder / "mine.ipynb", CHAPTER)]


def _traces(powers) -> list[int]:
    """tr(G^m) for Efron's four dice, from their faces alone (numpy; no dicelab)."""
    import numpy as np

    dice = [(0, 0, 4, 4, 4, 4), (3,) * 6, (2, 2, 2, 2, 6, 6), (1, 1, 1, 5, 5, 5)]
    G = np.array([[int(sum(a > b for a in x for b in y) * 2 > 36) for y in dice] for x in dice], dtype=object)
    out = []
    for m in powers:
        P = np.identity(4, dtype=object)
        for _ in range(m):
            P = P.dot(G)
        out.append(int(np.trace(P)))
    return out


def _sum_law(faces, n: int) -> dict:
    """The law of the sum of n rolls of a fair die with these faces (exact; no dicelab)."""
    from collections import Counter
    from fractions import Fraction

    law = {0: Fraction(1)}
    for _ in range(n):
        step = Counter()
        for total, p in law.items():
            for f in faces:
                step[total + f] += p / len(faces)
        law = dict(step)
    return law


def _p_above(x, y, n: int):
    return sum(p * q for a, p in _sum_law(x, n).items() for b, q in _sum_law(y, n).items() if a > b)


def _n_rolls(n: int) -> dict:
    """1.4 with n rolls each, by the hint's binomials: A_n = 4K, B_n = 3n, C_n = 2n + 4J."""
    from fractions import Fraction
    from math import comb

    def binomial(p, wins):
        return sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1) if wins(k))

    return {"p_An_beats_Bn": binomial(Fraction(2, 3), lambda k: 4 * k > 3 * n),
            "p_Bn_beats_Cn": binomial(Fraction(1, 3), lambda j: 3 * n > 2 * n + 4 * j)}


def _favourite(n: int) -> dict:
    """1.8 with n rolls each of the favourite set, by convolving the laws of the sums."""
    from fractions import Fraction

    fav = [(2, 2, 2), (1, 1, 4), (0, 3, 3)]
    forward = [_p_above(fav[k], fav[(k + 1) % 3], n) for k in range(3)]
    backward = [_p_above(fav[(k + 1) % 3], fav[k], n) for k in range(3)]
    half = Fraction(1, 2)
    verdict = ("reverse" if all(p > half for p in backward) else
               "survive" if all(p > half for p in forward) else "break")
    return {"sums_forward": forward, "cycle_verdict": verdict}


# Per varying exercise checked end to end: its parameter, the answers from it (computed here, not by
# dicelab), and a text the student's box shows for it.
VARIED = {
    "1.4": ("n", _n_rolls, lambda n: f"rolls={n})"),
    "1.6": ("M", lambda M: {"traces": _traces(M)}, lambda M: f"G^{{{M[0]}}}"),
    "1.8": ("n", _favourite, lambda n: f"rolls={n})"),
}


def _literal(value) -> str:
    from fractions import Fraction

    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, list):
        return "[" + ", ".join(map(_literal, value)) + "]"
    return repr(value)


def test_each_student_is_graded_on_their_own_numbers(build, tmp_path):
    spec = {str(n): e for n, e in yaml.safe_load((ROOT / "homework" / f"{CHAPTER}.yml").read_text())
            ["exercises"].items()}
    sys.path.insert(0, str(ROOT / "homework"))
    import variants

    published = {number: make(variants.params_for(CHAPTER, number, spec[number]["variant"], None)[param])
                 for number, (param, make, _) in VARIED.items()}
    folder = tmp_path / "submissions"
    drawn = {}
    for student, answer in (("ada", "own"), ("bob.smith", "published"), ("eve", "own")):
        source = (build / CHAPTER / "students" / (student if student in ROSTER else "ada")
                  / f"{CHAPTER}_homework.ipynb")
        nb = nbformat.read(source, as_version=4)
        assert nb.metadata["dicelab"]["student"] in ROSTER
        for number, (param, make, shown) in VARIED.items():
            value = variants.params_for(CHAPTER, number, spec[number]["variant"],
                                        student if student in ROSTER else "ada")[param]
            drawn[student, number] = value
            answers = make(value) if answer == "own" else published[number]
            for variable, given in answers.items():
                line = re.compile(rf"^{variable} = \.\.\.$", re.M)
                cell = next(c for c in nb.cells if c.cell_type == "code" and line.search(c.source))
                cell.source = line.sub(f"{variable} = {_literal(given)}", cell.source)
            box = next(c.source for c in nb.cells
                       if c.cell_type == "markdown" and f"Exercise {number} (your numbers)" in c.source)
            assert shown(value) in box, (number, value)
        nb.cells.insert(1, nbformat.v4.new_code_cell("from fractions import Fraction"))
        path = folder / student / f"{CHAPTER}_homework.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(nb, path)
    for number, (param, make, shown) in VARIED.items():  # never the published numbers, nor their answers
        own = variants.params_for(CHAPTER, number, spec[number]["variant"], None)[param]
        assert drawn["ada", number] != own and drawn["bob.smith", number] != own
        assert make(drawn["bob.smith", number]) != published[number]
        assert shown(own) not in shown(drawn["ada", number])
    grades, roster = tmp_path / "grades.csv", build / "roster.txt"
    run = subprocess.run(
        [*MAKE, "grade", f"SUBMISSIONS={folder}", f"GRADES={grades}", f"HOMEWORK_BUILD={build}",
         f"ROSTER={roster}",
         f"GRADE_FLAGS=--cell-seconds {CELL_SECONDS} --notebook-seconds 240 --jobs 2"],
        capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    with grades.open() as f:
        rows = {(r["submission"].split("/")[0], r["exercise"]): r for r in csv.DictReader(f)}
    for number in VARIED:
        ada, bob, eve = (rows[student, number] for student in ("ada", "bob.smith", "eve"))
        assert ada["student"] == "ada" and ada["score"] == str(spec[number]["points"]), ada
        assert bob["score"] == "0" and "not right" in bob["note"], bob  # the chapter's answer, not bob's
        assert eve["student"] == "" and "no roster identifier" in eve["note"]
