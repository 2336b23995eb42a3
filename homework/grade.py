"""Grade a folder of student homework notebooks: one CSV of scores, no student code trusted.

Each notebook (``*.ipynb`` anywhere under the folder) is matched to its chapter by its name (the
file's name, or a folder's, starts with ``NN_name``) or, failing that, by its content (the homework
notebook names its chapter's ``notebooks/NN_name.ipynb``). Then, per notebook:

1. its code cells are copied, in order, into a fresh notebook (Otter's set-up and check cells are
   left out: they are the grader's, not the student's), and one last cell is added that writes each
   answer the chapter asks for (the variables the exercises name, wherever they were assigned) to
   ``answers.json`` as data;
2. that notebook runs in a sandbox (``homework/sandbox.py``: bubblewrap namespaces, an unprivileged
   user, memory/process/file limits, a time limit per cell and per notebook), which sees none of the
   keys, autograders, other submissions or the repository;
3. here, in the grader's own process, ``answers.json`` is read back as plain data
   (:func:`dicelab.course.homework.decode_untrusted`) and each answer compared with the chapter's key
   (``homework/_build/NN_name/key.json``, written by ``make homework``) by
   :func:`dicelab.course.homework.check_answer`. An exercise scores its points when all its answers are right.

The CSV has one row per submission and exercise: ``submission, chapter, question, exercise, score,
max_score, graded, note``; ``graded`` is ``auto`` for a score computed here and ``by hand`` for the
proofs and explanations, whose score is left empty for the teacher; ``note`` says why an answer
scored 0 (missing, wrong form, not right) or what stopped the notebook (a time limit, a crash).

Usage: ``python homework/grade.py SUBMISSIONS [--out grades.csv] [--build homework/_build] [--jobs 2]
[--cell-seconds 120] [--notebook-seconds 600]``
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sandbox  # noqa: E402  (homework/sandbox.py, beside this file)
import variants  # noqa: E402  (homework/variants.py)

from dicelab.course.homework import AnswerError, check_answer, decode, decode_untrusted  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HOMEWORK = ROOT / "homework"
BUILD = HOMEWORK / "_build"
FIELDS = ["submission", "student", "chapter", "question", "exercise", "score", "max_score", "graded", "note"]
MAX_ANSWERS_BYTES = 4 * 2**20


def chapters() -> list[str]:
    """The chapters with a homework spec, in course-file order."""
    return sorted(p.stem for p in HOMEWORK.glob("[0-9][0-9]_*.yml"))


def spec_of(name: str) -> dict:
    spec = yaml.safe_load((HOMEWORK / f"{name}.yml").read_text())
    return {str(k): v for k, v in spec["exercises"].items()}


def questions(name: str) -> list[tuple[str, str, int, str]]:
    """``(question, exercise, max_score, graded)`` of a chapter, in order, from its spec."""
    rows = []
    for number, entry in spec_of(name).items():
        q = "q" + number.replace(".", "_")
        if "manual" in entry:
            rows.append((q, number, entry["manual"], "by hand"))
            continue
        rows.append((q, number, entry["points"], "auto"))
        if entry.get("written"):
            rows.append((q + "_written", f"{number} (in words)", entry["written"], "by hand"))
    return rows


def chapter_of(path: Path, names: list[str], notebook_text: str = "") -> str | None:
    """The chapter of a submission: by its file or folder name, else by what the notebook says."""
    for part in (path.name, *(p.name for p in path.parents)):
        found = [n for n in names if part.startswith(n)]
        if found:
            return max(found, key=len)
    found = [n for n in names if f"notebooks/{n}.ipynb" in notebook_text]
    return found[0] if len(found) == 1 else None


EXPORT = '''import json as _json
from dicelab.course.homework import encode as _encode
_answers = {{}}
for _name in {names!r}:
    try:
        _answers[_name] = _encode(globals()[_name])
    except Exception as _err:
        _answers[_name] = {{"missing": type(_err).__name__}}
with open("/grading/answers.json", "w") as _file:
    _json.dump(_answers, _file)
'''


def is_grader_cell(text: str) -> bool:
    """Otter's set-up and check cells: the grader's, not the student's work."""
    lines = [line.strip() for line in text.strip().splitlines()
             if line.strip() and not line.strip().startswith("#")]
    return bool(lines) and all(
        line.startswith("grader.check") or line == "import otter" or "otter.Notebook(" in line
        for line in lines
    )


def program(submission: dict, variables: list[str]):
    """The notebook that runs in the sandbox: the student's code cells, then the export cell."""
    cells = []
    for cell in submission.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        text = cell.get("source", "")
        text = "".join(text) if isinstance(text, list) else str(text)
        if text.strip() and not is_grader_cell(text):
            cells.append(nbformat.v4.new_code_cell(text))
    cells.append(nbformat.v4.new_code_cell(EXPORT.format(names=variables)))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    return nb


def read_answers(path: Path) -> tuple[dict, str]:
    """The exported answers as untrusted data, or ``({}, why not)``."""
    if not path.is_file():
        return {}, "no answers were written (the notebook stopped before its end)"
    if path.stat().st_size > MAX_ANSWERS_BYTES:
        return {}, "the answers file is too large"
    try:
        data = json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError):
        return {}, "the answers file is not JSON"
    return (data, "") if isinstance(data, dict) else ({}, "the answers file is not a dict")


def student_of(path: Path, submission: dict | None, roster: list[str] | None) -> tuple[str | None, str]:
    """Whose variant a submission is, and a note when that is not certain.

    With a roster, the identifier is the one in the submission's file or folder name (the longest
    that matches): the teacher's collection names it, the student cannot change it. Without one, it is
    the identifier the notebook was built for (its metadata, which a student could edit)."""
    meta = (submission or {}).get("metadata", {}).get("dicelab", {}) if isinstance(submission, dict) else {}
    claimed = meta.get("student") if isinstance(meta, dict) and isinstance(meta.get("student"), str) else None
    if roster is None:
        return claimed, ""
    names = [path.name, *(p.name for p in path.parents)]
    found = [i for i in roster
             if any(re.search(rf"(?<![A-Za-z0-9]){re.escape(i)}(?![A-Za-z0-9])", n) for n in names)]
    if not found:
        return None, "no roster identifier in its name: graded against the chapter's own numbers"
    student = max(found, key=len)
    if claimed is not None and claimed != student:
        return student, f"the notebook was built for {claimed}; graded as {student}'s"
    return student, ""


def expected(name: str, spec: dict, key: dict, student: str | None) -> tuple[dict, dict]:
    """Per exercise, each answer's expected value and its name in messages: the student's variant
    where the exercise varies (the chapter's own numbers for ``student=None``)."""
    keys, whats = {}, {}
    for number, entry in spec.items():
        if "answers" not in entry:
            continue
        keys[number] = {v: decode(key[v]) for v in entry["answers"]}
        whats[number] = {v: a["what"] for v, a in entry["answers"].items()}
        if "variant" in entry:
            values = variants.params_for(name, number, entry["variant"], student)
            whats[number] = {v: variants.fill(w, values) for v, w in whats[number].items()}
            if student is not None:
                keys[number].update(variants.key_for(entry["variant"], values))
    return keys, whats


def score(entry: dict, key: dict, answers: dict, whats: dict | None = None) -> tuple[int, str]:
    """The points of one autograded exercise (``key``: each answer's expected value; ``whats``: its
    name in messages, by default the spec's), and a note on what is not right."""
    for variable, answer in entry["answers"].items():
        what = (whats or {}).get(variable, answer["what"])
        given = answers.get(variable)
        if not isinstance(given, dict) and given is not None and not isinstance(given, int | str | bool):
            return 0, f"{variable}: not an answer"
        if isinstance(given, dict) and "missing" in given:
            why = "never assigned" if given["missing"] == "KeyError" else "no plain value (still `...`?)"
            return 0, f"{variable}: {why}"
        try:
            value = decode_untrusted(given)
        except (ValueError, TypeError, RecursionError) as err:
            return 0, f"{variable}: not a plain answer ({str(err)[:80]})"
        if value is None:
            return 0, f"{variable}: no answer"
        try:
            check_answer(what, value, key[variable])
        except AnswerError as err:
            return 0, str(err)[:200]
        except Exception as err:  # an answer whose comparison fails is not right, whatever it is
            return 0, f"{what}: could not be compared ({type(err).__name__})"
    return entry["points"], ""


def grade_one(path: Path, name: str, build: Path, root: Path, limits: sandbox.Limits,
              roster: list[str] | None = None) -> list[dict]:
    """The rows of one submission (see the module docstring)."""
    spec = spec_of(name)
    key = json.loads((build / name / "key.json").read_text())
    variables = [v for e in spec.values() if "answers" in e for v in e["answers"]]
    note, answers = "", {}
    try:
        submission = json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError):
        submission, note = None, "not a readable notebook"
    if submission is not None:
        with tempfile.TemporaryDirectory(prefix="dicelab-grade-") as tmp:
            folder = Path(tmp) / "sandbox"
            outcome = sandbox.run(program(submission, variables), folder, limits,
                                  numba_cache=build / sandbox.NUMBA_CACHE)
            answers, why = read_answers(folder / "answers.json")
            note = {"ok": "", "timeout": f"the notebook was stopped: {outcome.detail}",
                    "failed": f"the notebook failed: {outcome.detail}"}[outcome.status]
            note = note or why
    student, whose = student_of(path.relative_to(root), submission, roster)
    keys, whats = expected(name, spec, key, student)
    note = "; ".join(n for n in (whose, note) if n)
    rows = []
    for q, exercise, max_score, graded in questions(name):
        points, why = ("", "") if graded == "by hand" else score(spec[exercise], keys[exercise], answers,
                                                                         whats[exercise])
        rows.append({"submission": str(path.relative_to(root)), "student": student or "", "chapter": name,
                     "question": q,
                     "exercise": exercise, "score": points, "max_score": max_score, "graded": graded,
                     "note": "; ".join(n for n in (note if graded == "auto" else "", why) if n)})
    return rows


def find(folder: Path, names: list[str]) -> list[tuple[Path, str]]:
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        try:
            text = path.read_text()
        except (OSError, UnicodeDecodeError):
            text = ""
        name = chapter_of(path.relative_to(folder), names, text)
        if name is None:
            print(f"NOT GRADED {path}: neither its name nor its content names a chapter "
                  f"({', '.join(names)}); rename it to start with its chapter", file=sys.stderr)
            continue
        found.append((path, name))
    return found


def grade(folder: Path, out: Path, build: Path = BUILD, jobs: int = 2,
          limits: sandbox.Limits | None = None, roster: list[str] | None = None) -> list[dict]:
    """Grade every notebook under ``folder``; write and return the rows of the CSV."""
    limits = limits or sandbox.Limits()
    sandbox.bwrap()
    names = chapters()
    if not any((build / n / "key.json").is_file() for n in names):
        raise FileNotFoundError(f"no answer key in {build}: run `make homework` first")
    found = []
    for path, name in find(folder, names):
        if (build / name / "key.json").is_file():
            found.append((path, name))
        else:
            print(f"NOT GRADED {path}: no answer key for {name} in {build}: run `make homework`",
                  file=sys.stderr)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        graded = list(pool.map(lambda pn: grade_one(pn[0], pn[1], build, folder, limits, roster), found))
    rows = [row for rows in graded for row in rows]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("submissions", type=Path, help="a folder of student notebooks")
    parser.add_argument("--out", type=Path, default=Path("grades.csv"), help="the CSV (grades.csv)")
    parser.add_argument("--build", type=Path, default=BUILD, help="the build folder (homework/_build)")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks graded at once")
    parser.add_argument("--cell-seconds", type=int, default=sandbox.CELL_SECONDS,
                        help="time limit of one cell")
    parser.add_argument("--notebook-seconds", type=int, default=sandbox.NOTEBOOK_SECONDS,
                        help="time limit of one notebook")
    parser.add_argument("--roster", type=Path, help="the students' identifiers, one a line: each "
                        "submission is graded against the variant of the identifier in its name")
    args = parser.parse_args(argv)
    if not args.submissions.is_dir():
        parser.error(f"SUBMISSIONS must be a folder of notebooks, got {args.submissions}")
    for flag in ("jobs", "cell_seconds", "notebook_seconds"):
        if getattr(args, flag) < 1:
            parser.error(f"--{flag.replace('_', '-')} must be at least 1")
    limits = sandbox.Limits(cell_seconds=args.cell_seconds, notebook_seconds=args.notebook_seconds)
    roster = variants.read_roster(args.roster) if args.roster else None
    rows = grade(args.submissions, args.out, args.build, args.jobs, limits, roster)
    for row in rows:
        if row["note"]:
            print(f"{row['submission']} {row['exercise']}: {row['note']}")
    print(f"graded {len({r['submission'] for r in rows})} notebooks: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
