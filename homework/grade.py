"""Grade a folder of student homework notebooks with the built autograders: one CSV of scores.

Each notebook (``*.ipynb`` anywhere under the folder) is matched to its chapter by the name Otter
Assign gave it (``NN_name_homework``: the notebook's file name, or the folder it sits in, starts with
``NN_name``) and graded by ``otter run`` with that chapter's autograder from ``homework/_build``
(run ``make homework`` first). No Docker: each notebook is executed in a local Jupyter kernel.

The CSV has one row per submission and exercise: ``submission, chapter, question, exercise,
score, max_score, graded``; ``graded`` is ``auto`` for a score from the tests and ``by hand`` for
the proofs and explanations, whose score is left empty for the teacher.

Usage: ``python homework/grade.py SUBMISSIONS [--out grades.csv] [--build homework/_build] [--jobs 2]``
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("dicelab_homework_build", ROOT / "homework" / "build.py")
_build = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _build  # its dataclasses (and worker processes) look the module up by name
_spec.loader.exec_module(_build)
BUILD, HOMEWORK, OTTER, chapters = _build.BUILD, _build.HOMEWORK, _build.OTTER, _build.chapters

FIELDS = ["submission", "chapter", "question", "exercise", "score", "max_score", "graded"]


def questions(name: str) -> list[tuple[str, str, int, str]]:
    """``(question, exercise, max_score, graded)`` of a chapter, in order, from its spec."""
    spec = yaml.safe_load((HOMEWORK / f"{name}.yml").read_text())
    rows = []
    for number, entry in spec["exercises"].items():
        q = "q" + str(number).replace(".", "_")
        if "manual" in entry:
            rows.append((q, str(number), entry["manual"], "by hand"))
            continue
        rows.append((q, str(number), entry["points"], "auto"))
        if entry.get("written"):
            rows.append((q + "_written", f"{number} (in words)", entry["written"], "by hand"))
    return rows


def chapter_of(path: Path, names: list[str]) -> str | None:
    for part in (path.name, *(p.name for p in path.parents)):
        found = [n for n in names if part.startswith(n)]
        if found:
            return max(found, key=len)
    return None


def autograder(name: str, build: Path) -> Path:
    zips = sorted((build / name / "dist" / "autograder").glob("*.zip"))
    if not zips:
        raise FileNotFoundError(f"no autograder for {name} in {build}: run `make homework` first")
    return zips[-1]


def grade_one(path: Path, name: str, build: Path, root: Path) -> list[dict]:
    """The rows of one submission: ``otter run`` with the chapter's autograder."""
    with tempfile.TemporaryDirectory(prefix="dicelab-grade-") as out:
        run = subprocess.run(
            [str(OTTER), "run", "--no-logo", "-a", str(autograder(name, build)), "-o", out, str(path)],
            capture_output=True, text=True,
        )
        results = Path(out) / "results.json"
        scores = {}
        if results.exists():
            scores = {t["name"]: t.get("score") for t in json.loads(results.read_text())["tests"]}
        elif run.returncode:
            print(f"{path}: otter run failed:\n{run.stderr[-2000:]}", file=sys.stderr)
    rows = []
    for q, exercise, max_score, graded in questions(name):
        score = scores.get(q, 0) if graded == "auto" else ""
        rows.append({"submission": str(path.relative_to(root)), "chapter": name, "question": q,
                     "exercise": exercise, "score": score, "max_score": max_score, "graded": graded})
    return rows


def grade(folder: Path, out: Path, build: Path = BUILD, jobs: int = 2) -> list[dict]:
    """Grade every notebook under ``folder``; write and return the rows of the CSV."""
    names = chapters()
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        name = chapter_of(path.relative_to(folder), names)
        if name is None:
            print(f"{path}: skipped (its name does not start with a chapter's NN_name)", file=sys.stderr)
            continue
        found.append((path, name))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        graded = list(pool.map(lambda pn: grade_one(pn[0], pn[1], build, folder), found))
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
    args = parser.parse_args(argv)
    if not args.submissions.is_dir():
        parser.error(f"SUBMISSIONS must be a folder of notebooks, got {args.submissions}")
    rows = grade(args.submissions, args.out, args.build, args.jobs)
    subs = len({r["submission"] for r in rows})
    print(f"graded {subs} notebooks: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
