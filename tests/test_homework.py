"""Homework: the exact-answer checks, the student notebooks and the autograders.

The build is ``make homework`` for every chapter, made once and kept (``tests/conftest.py``,
shared with ``tests/test_grading.py``), keyed on the hash of everything it is made from (the
specs, the chapters and their solutions, the homework scripts, the whole ``dicelab`` package, the
pinned requirements, the Makefile), in ``homework/_build/tests-<hash>/``: a later session with the
same inputs reuses it, any change builds it afresh. The grading tests grade, per chapter, the
worked solutions (full marks on every autograded exercise), the blank student notebook (zero) and
a student notebook answered with literal values in which one answer is wrong (exactly that
exercise's points lost).
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import shutil
import sys
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
import sympy as sp

from dicelab.course.homework import AnswerError, check_answer, check_form, decode, encode, form_of

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    path = ROOT / "homework" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"dicelab_homework_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # the build's worker processes find it by name
    spec.loader.exec_module(module)
    return module


hw_build = _load("build")
hw_grade = _load("grade")

CHAPTERS = hw_build.chapters()


# --------------------------------------------------------------------------- the checks
@pytest.mark.parametrize("answer", [sp.Rational(4, 9), Fraction(4, 9), sp.Integer(4) / 9, sp.S(4) / 9])
def test_exact_answers_pass_in_every_exact_form(answer):
    check_form("P(A > C)", answer, "exact")
    check_answer("P(A > C)", answer, {"exact": "4/9"})
    check_answer("P(A > C)", answer, sp.Rational(4, 9))


@pytest.mark.parametrize("answer", [0.4444, 4 / 9, sp.Float(4 / 9), sp.Rational(4, 9) * 1.0])
def test_a_float_never_passes_for_an_exact_answer(answer):
    with pytest.raises(AnswerError) as err:
        check_answer("P(A > C)", answer, {"exact": "4/9"})
    message = str(err.value)
    assert message.startswith("P(A > C) should be an exact fraction; you gave a float")
    assert "Traceback" not in message and "Error" not in message


def test_messages_speak_in_words():
    cases = [
        (..., "exact", "P(B > C): no answer yet"),
        (None, "exact", "P(B > C): no answer yet"),
        ("2/3", "exact", "P(B > C) should be an exact number; you gave the text '2/3'"),
        (sp.Symbol("x") / 3, "exact", "P(B > C) should be a number; your answer still contains x"),
        ([1, 2], {"list": ["exact"] * 3}, "P(B > C) should have 3 items; yours has 2"),
        ({"A": 1}, {"dict": [["A", "exact"], ["B", "exact"]]},
         "P(B > C) should be a dict with the keys 'A', 'B'"),
        (3, "text", "P(B > C) should be a text (a str); you gave 3"),
    ]
    for value, form, start in cases:
        with pytest.raises(AnswerError) as err:
            check_form("P(B > C)", value, form)
        assert str(err.value).startswith(start), str(err.value)
    with pytest.raises(AnswerError, match=r"^P\(B > C\) is not right: check your computation$"):
        check_answer("P(B > C)", Fraction(1, 3), {"exact": "2/3"})


def test_structures_are_checked_item_by_item():
    means = {"A": Fraction(8, 3), "B": 3, "C": sp.Rational(10, 3), "D": sp.Integer(3)}
    key = encode(means)
    check_answer("the means", {"A": sp.Rational(8, 3), "B": 3, "C": Fraction(10, 3), "D": 3}, key)
    with pytest.raises(AnswerError, match=r"the means\['C'\] should be an exact fraction; you gave a float"):
        check_answer("the means", {**means, "C": 3.3333}, key)
    check_answer("the pair", (20, 27), encode((20, 27)))
    check_answer("the overlap", {20, 25, 30}, encode({20, 25, 30}))
    check_answer("the verdict", " Reverse", encode("reverse"))
    check_answer("a float", 0.5 + 1e-13, encode(0.5))
    with pytest.raises(AnswerError, match="is not right"):
        check_answer("the overlap", {20, 25}, encode({20, 25, 30}))


def test_the_key_round_trips_through_json():
    values = [Fraction(2, 3), sp.sqrt(2) / 3, 0.25, 7, True, "down", None, [1, Fraction(1, 2)],
              (6, 13), {6: 6, 8: 8}, {20, 25}, {"again": sp.Rational(1, 6)}]
    for value in values:
        back = decode(json.loads(json.dumps(encode(value))))
        check_answer("x", value, back) if value is not None else None
        assert back == value or sp.simplify(back - value) == 0
    assert form_of({"A": Fraction(1, 2)}) == {"dict": [["A", "exact"]]}


def test_bad_arguments_are_refused_by_name():
    with pytest.raises(ValueError, match="what"):
        check_answer("", 1, 1)
    with pytest.raises(ValueError, match="form"):
        check_form("x", 1, "nonsense")
    with pytest.raises(ValueError, match="value"):
        encode(object())
    with pytest.raises(ValueError, match="data"):
        decode({"nonsense": 1})


# --------------------------------------------------------------------------- the specs
@pytest.mark.parametrize("name", CHAPTERS)
def test_every_exercise_is_graded_once(name):
    _, exercises = hw_build.read_exercises(name)
    spec = hw_build.read_spec(name, exercises)
    assert set(spec["exercises"]) == set(exercises)
    assert any("manual" in e for e in spec["exercises"].values())
    assert any("answers" in e for e in spec["exercises"].values())


def test_every_chapter_has_a_spec():
    assert CHAPTERS == sorted(p.stem for p in (ROOT / "notebooks").glob("0[1-9]_*.ipynb"))


# --------------------------------------------------------------------------- the build
@pytest.fixture(scope="session")
def built(homework_build) -> Path:
    return homework_build  # tests/conftest.py: every chapter, built once with `make homework`


# The tests that read the build or the grades (under --dist loadscope this module runs on one
# worker: one build, one grading).
BUILT = pytest.mark.homework


def student(built: Path, name: str) -> nbformat.NotebookNode:
    return nbformat.read(built / name / "dist" / "student" / f"{name}_homework.ipynb", as_version=4)


def distinctive_lines(code: str) -> list[str]:
    """The lines of a worked solution that only it would have: long, not a comment or an import."""
    return [
        ln.strip() for ln in code.splitlines()
        if len(ln.strip()) >= 30 and not ln.strip().startswith(("#", "import ", "from "))
    ]


@BUILT
@pytest.mark.parametrize("name", CHAPTERS)
def test_student_notebook_holds_no_solution(built, name):
    nb = student(built, name)
    text = "\n".join(hw_build.source(c) for c in nb.cells)
    setup, exercises = hw_build.read_exercises(name)
    shared = {ln for s in setup for ln in distinctive_lines(s)}
    checked = 0
    for ex in exercises.values():
        assert ex.box in text, f"{name}: exercise {ex.number}'s box (statement and hint) is missing"
        for code in ex.code:
            for line in distinctive_lines(code):
                if line not in shared:
                    assert line not in text, f"{name}: solution {ex.number} shows {line!r}"
                    checked += 1
        for prose in ex.prose:
            for para in prose.split("\n\n"):
                if len(para) > 80:
                    assert para not in text, f"{name}: solution {ex.number}'s prose shows"
    assert checked >= 20
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
    assert "import otter" in text and "from dicelab import" in text


@BUILT
@pytest.mark.parametrize("name", CHAPTERS)
def test_manual_exercises_have_a_cell_marked_for_the_teacher(built, name):
    nb = student(built, name)
    spec = hw_build.read_spec(name, hw_build.read_exercises(name)[1])
    manual = [n for n, e in spec["exercises"].items() if "manual" in e or e.get("written")]
    answer_cells = [c for c in nb.cells if c.cell_type == "markdown"
                    and "_Type your answer here, replacing this text._" in hw_build.source(c)]
    assert len(answer_cells) == len(manual)
    text = "\n".join(hw_build.source(c) for c in nb.cells)
    assert text.count("graded by hand") + text.count("Graded by hand") >= len(manual)


# --------------------------------------------------------------------------- grading
def literal(value, k: int = 0) -> str:
    """Python source for an answer: exact numbers in turn as Fraction, sp.Rational and a SymPy quotient."""
    if isinstance(value, bool) or value is None or isinstance(value, str | float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, sp.Rational):
        p, q = value.p, value.q
        return [f"Fraction({p}, {q})", f"sp.Rational({p}, {q})", f"sp.Integer({p}) / {q}"][k % 3]
    if isinstance(value, sp.Basic):
        return f"sp.sympify({sp.srepr(value)!r})"
    if isinstance(value, dict):
        items = (f"{literal(a)}: {literal(b, k + i)}" for i, (a, b) in enumerate(value.items()))
        return "{" + ", ".join(items) + "}"
    if isinstance(value, tuple):
        return "(" + ", ".join(literal(v, k + i) for i, v in enumerate(value)) + ",)"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v, k + i) for i, v in enumerate(value)) + "]"
    if isinstance(value, set):
        return "{" + ", ".join(literal(v) for v in sorted(value)) + "}"
    raise TypeError(value)


def wrong(value):
    """A wrong answer of the same shape: a float for an exact number, else a changed value."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return value + "?"
    if isinstance(value, float):
        return value * 1.01 + 1
    if isinstance(value, sp.Basic | int):
        return float(value)  # the right value, as a float: refused where the answer is exact
    if isinstance(value, dict):
        first = next(iter(value))
        return {**value, first: wrong(value[first])}
    if isinstance(value, list | tuple):
        return type(value)([wrong(value[0]), *value[1:]])
    if isinstance(value, set):
        return value | {10**6}
    raise TypeError(value)


ANSWER = re.compile(r"^([A-Za-z_]\w*) = \.\.\.$", re.M)


def answered(built: Path, name: str, wrong_question: str) -> nbformat.NotebookNode:
    """The student notebook with every answer typed in as a literal, one of them wrong."""
    key = json.loads((built / name / "key.json").read_text())
    nb = student(built, name)
    spec = hw_build.read_spec(name, hw_build.read_exercises(name)[1])
    owner = {v: "q" + n.replace(".", "_") for n, e in spec["exercises"].items() for v in e.get("answers", {})}
    first_of_wrong = next(v for v, q in owner.items() if q == wrong_question)
    for cell in nb.cells:
        if cell.cell_type == "code" and ANSWER.search(hw_build.source(cell)):
            def fill(m):
                value = decode(key[m[1]])
                return f"{m[1]} = {literal(wrong(value) if m[1] == first_of_wrong else value)}"
            cell.source = ANSWER.sub(fill, hw_build.source(cell))
    nb.cells.insert(1, nbformat.v4.new_code_cell("from fractions import Fraction\nimport sympy as sp"))
    return nb


def wrong_question(name: str) -> str:
    """The exercise answered wrongly: the second autograded one of the chapter."""
    spec = hw_build.read_spec(name, hw_build.read_exercises(name)[1])
    return ["q" + n.replace(".", "_") for n, e in spec["exercises"].items() if "answers" in e][1]


@pytest.fixture(scope="session")
def grades(built, tmp_path_factory) -> list[dict]:
    folder = tmp_path_factory.mktemp("submissions")
    for name in CHAPTERS:
        shutil.copy(built / name / "dist" / "autograder" / f"{name}_homework.ipynb",
                    folder / f"{name}_homework_solutions.ipynb")
        shutil.copy(built / name / "dist" / "student" / f"{name}_homework.ipynb",
                    folder / f"{name}_homework_blank.ipynb")
        nbformat.write(answered(built, name, wrong_question(name)),
                       folder / f"{name}_homework_one_wrong.ipynb")
    out = folder / "grades.csv"
    hw_grade.grade(folder, out, build=built, jobs=2)
    with out.open() as f:
        return list(csv.DictReader(f))


def rows(grades, name, kind):
    found = [r for r in grades if r["submission"] == f"{name}_homework_{kind}.ipynb"]
    assert found, f"{name} {kind} was not graded"
    return found


@BUILT
@pytest.mark.parametrize("name", CHAPTERS)
def test_worked_solutions_get_full_marks(grades, name):
    for r in rows(grades, name, "solutions"):
        if r["graded"] == "auto":
            assert float(r["score"]) == float(r["max_score"]), r
        else:
            assert r["score"] == ""


@BUILT
@pytest.mark.parametrize("name", CHAPTERS)
def test_blank_notebook_gets_zero(grades, name):
    assert all(float(r["score"]) == 0 for r in rows(grades, name, "blank") if r["graded"] == "auto")


@BUILT
@pytest.mark.parametrize("name", CHAPTERS)
def test_one_wrong_answer_loses_exactly_its_points(grades, name):
    bad = wrong_question(name)
    for r in rows(grades, name, "one_wrong"):
        if r["graded"] != "auto":
            continue
        expected = 0.0 if r["question"] == bad else float(r["max_score"])
        assert float(r["score"]) == expected, r


# --------------------------------------------------------------------------- a variant per student
variants = hw_build.variants  # homework/variants.py, as the build and the grader import it


def _drawn_choices(variant: dict):
    """The values of every combination a student can draw: each parameter off the chapter's own."""
    own = {p: tuple(c[0]) if isinstance(c[0], list) else c[0] for p, c in variant["params"].items()}
    for values in variants.every_choice(variant):
        if all(values[p] != own[p] or len(variant["params"][p]) == 1 for p in own):
            yield values


@pytest.mark.homework  # computes every variant's key with dicelab (seconds, JIT compilation included)
@pytest.mark.parametrize("name", CHAPTERS)
def test_no_student_gets_the_published_answer(name):
    """Every combination a student can draw changes at least one answer of the exercise (an exercise
    scores all or nothing), so the worked solutions' answer never scores there."""
    for number, entry in variants.spec(name).items():
        if "variant" not in entry:
            continue
        variant = entry["variant"]
        own = {v: encode(x) for v, x in variants.key_for(
            variant, variants.params_for(name, number, variant, variants.DEFAULT)).items()}
        for values in _drawn_choices(variant):
            key = {v: encode(x) for v, x in variants.key_for(variant, values).items()}
            assert key != own, (name, number, {p: values[p] for p in variant["params"]})


def _matrix(text: str) -> list[list[Fraction]]:
    return [[Fraction(x.strip()) for x in row.split("&")] for row in text.split("\\\\")]


def _saddle(m) -> bool:
    return max(min(row) for row in m) == min(max(col) for col in zip(*m, strict=True))


def test_the_games_of_3_2_and_3_11_keep_their_shape():
    """3.2's and 3.11(b)'s games have no saddle point; 3.11(a)'s has one at row 2, column 2, with
    row 1 below row 2 and column 3 above column 2 in every entry, as the chapter's does."""
    spec = variants.spec("03_simultaneous_pig")
    games = [_matrix(g) for g in spec["3.2"]["variant"]["params"]["G"]]
    assert not any(_saddle(m) for m in games) and len(games) == len(set(map(str, games)))
    for a, b in ((_matrix(a), _matrix(b)) for a in spec["3.11"]["variant"]["params"]["A"]
                 for b in spec["3.11"]["variant"]["params"]["B"]):
        assert _saddle(a) and max(min(row) for row in a) == a[1][1]
        assert all(a[0][j] < a[1][j] for j in range(3)) and all(a[i][2] > a[i][1] for i in range(3))
        assert not _saddle(b)


def _bust(k: int) -> Fraction:
    """P(X_k = 0) from the roll sequences: from total t < k a 1 busts, 2..6 add (no dicelab)."""
    def f(t):
        return Fraction(0) if t >= k else Fraction(1, 6) + sum(f(t + r) for r in range(2, 7)) / 6
    return f(0)


def test_some_variant_keys_by_a_second_route():
    """The keys of 3.1, 3.12 and 4.12 for every choice, against a computation of their own: the
    roll sequences, val(a) = 9/28 of the chapter's game, and Delta g linear in the Flash's points."""
    spec3, spec4 = variants.spec("03_simultaneous_pig"), variants.spec("04_cosmic_wimpout")
    for values in variants.every_choice(spec3["3.1"]["variant"]):
        key = variants.key_for(spec3["3.1"]["variant"], values)
        assert key["p_bust"] == [_bust(values["a"]), _bust(values["b"])]
    for values in variants.every_choice(spec3["3.12"]["variant"]):
        key = variants.key_for(spec3["3.12"]["variant"], values)
        assert key["p_constant_loop"] == Fraction(9, 28) / (1 - Fraction(values["c0"]))
    for values in variants.every_choice(spec4["4.12"]["variant"]):
        key = variants.key_for(spec4["4.12"]["variant"], values)
        assert key["delta_g_S"] == Fraction(values["x"] - 40, 20) * Fraction(8500, 2209)
        assert key["delta_g_F"] == Fraction(values["x"] - 40, 20) * Fraction(2040, 2209)


VARIED = ["03_simultaneous_pig", "04_cosmic_wimpout"]  # graded with a roster (Chapter 1: test_grading.py)
CLASS = ["ada", "bob.smith"]  # ada answers with her own numbers, bob with the chapter's published ones


def _with_answers(path: Path, answers: dict) -> None:
    """The notebook at ``path`` with every answer typed in as a literal."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and ANSWER.search(hw_build.source(cell)):
            cell.source = ANSWER.sub(lambda m: f"{m[1]} = {literal(answers[m[1]])}", hw_build.source(cell))
    nb.cells.insert(1, nbformat.v4.new_code_cell("from fractions import Fraction\nimport sympy as sp"))
    nbformat.write(nb, path)


@pytest.fixture(scope="session")
def class_grades(built, tmp_path_factory) -> list[dict]:
    folder = tmp_path_factory.mktemp("class")
    for name in VARIED:
        spec = hw_build.read_spec(name, hw_build.read_exercises(name)[1])
        published = {k: decode(v) for k, v in json.loads((built / name / "key.json").read_text()).items()}
        default = built / name / "dist" / "student" / f"{name}_homework.ipynb"
        for student in CLASS:
            path = folder / student / f"{name}_homework.ipynb"
            hw_build.student_notebook(name, spec, default, path, student)
            answers = dict(published)
            for number, entry in spec["exercises"].items():
                if "variant" in entry and student == "ada":
                    values = variants.params_for(name, number, entry["variant"], student)
                    answers.update({v: decode(encode(x))
                                    for v, x in variants.key_for(entry["variant"], values).items()})
            _with_answers(path, answers)
    out = folder / "grades.csv"
    hw_grade.grade(folder, out, build=built, jobs=2, roster=CLASS)
    with out.open() as f:
        return list(csv.DictReader(f))


@BUILT
@pytest.mark.parametrize("name", VARIED)
def test_each_student_is_graded_on_their_numbers(class_grades, name):
    varied = {n for n, e in variants.spec(name).items() if "variant" in e}
    found = {(r["student"], r["exercise"]): r for r in class_grades
             if r["chapter"] == name and r["graded"] == "auto"}
    assert {s for s, _ in found} == set(CLASS) and varied <= {n for _, n in found}
    for (student, number), r in found.items():
        if student == "bob.smith" and number in varied:  # the published answer, not bob's numbers
            assert r["score"] == "0" and "not right" in r["note"], r
        else:
            assert r["score"] == r["max_score"], r
