"""Homework from the worked solutions: student notebooks and an Otter-Grader autograder per chapter.

For each chapter with a spec ``homework/NN_name.yml`` (see ``homework/README.md``):

1. read the exercise boxes (statement and hint) from ``notebooks/NN_name.ipynb`` and the worked
   solutions from ``solutions/NN_name_solutions.ipynb``, unchanged;
2. compute the answer key: run the solutions' set-up cells and, for each autograded exercise, its
   worked solution and the spec's expression for each answer (``dicelab.course.homework.encode``);
3. compose Otter Assign's master notebook (``_build/NN_name/master.ipynb``): per exercise, the box,
   the worked solution as the solution (code and prose), the answer cells, a public test of the
   answer's form and a hidden test of its value against the key;
4. run ``otter assign``: ``_build/NN_name/dist/student/`` is the notebook to hand out,
   ``_build/NN_name/dist/autograder/`` the autograder zip and the solutions notebook.

Usage: ``python homework/build.py [NN_name ...] [--out DIR] [--jobs N]`` (all chapters by default).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import yaml
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sandbox  # noqa: E402  (homework/sandbox.py, beside this file)
import variants  # noqa: E402  (homework/variants.py)

ROOT = Path(__file__).resolve().parents[1]
HOMEWORK = ROOT / "homework"
BUILD = HOMEWORK / "_build"
OTTER = Path(sys.executable).with_name("otter")

# The chapter's exercise box: ":::::{admonition} Exercise N.M ★ Title", the statement, the hint.
BOX = re.compile(
    r"^:::::\{admonition\} Exercise (\d+\.\d+) (★+) ([^\n]+)\n\n(.*?)\n\n"
    r"::::\{dropdown\} Hint\n\n(.*?)\n\n::::\n:::::$",
    re.M | re.S,
)
# The solution's restatement under its heading "## N.M ★ Title".
RESTATED = re.compile(r"^:::\{admonition\} Exercise (\S+)\n\n(.*?)\n:::$", re.M | re.S)
IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$", re.I)


@dataclass
class Exercise:
    number: str  # "1.1"
    stars: str
    title: str
    box: str  # the chapter's box, statement and hint, as MyST markdown
    prose: list[str] = field(default_factory=list)  # the worked solution's markdown
    code: list[str] = field(default_factory=list)  # the worked solution's code cells
    cells: list = field(default_factory=list)  # the worked solution's cells, in order

    @property
    def question(self) -> str:
        return "q" + self.number.replace(".", "_")


def chapters() -> list[str]:
    """The chapters with a homework spec, in course-file order."""
    return sorted(p.stem for p in HOMEWORK.glob("[0-9][0-9]_*.yml"))


def source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def read_exercises(name: str) -> tuple[list[str], dict[str, Exercise]]:
    """The solutions' set-up code and, by number, each exercise with its box and worked solution."""
    chapter = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    text = "\n\n".join(source(c) for c in chapter.cells if c.cell_type == "markdown")
    boxes = {m[1]: m for m in BOX.finditer(text)}
    solutions = nbformat.read(ROOT / "solutions" / f"{name}_solutions.ipynb", as_version=4)
    setup, found, current = [], {}, None
    for cell in solutions.cells[1:]:
        text = source(cell)
        if cell.cell_type == "markdown" and text.startswith("## "):
            number = text.split()[1]
            if number not in boxes:
                raise ValueError(f"{name}: solution {number} has no exercise box in the chapter")
            restated = RESTATED.search(text)
            if not restated or " ".join(restated[2].split()) != " ".join(boxes[number][4].split()):
                raise ValueError(f"{name}: solution {number} does not restate its exercise")
            m = boxes[number]
            current = found[number] = Exercise(number, m[2], m[3], m[0])
            after = text[restated.end():].strip()
            if after:
                current.prose.append(after)
                current.cells.append(("markdown", after))
        elif current is None:
            if cell.cell_type == "code":
                setup.append(text)
        else:
            kind = "code" if cell.cell_type == "code" else "markdown"
            (current.code if kind == "code" else current.prose).append(text)
            current.cells.append((kind, text))
    if set(found) != set(boxes):
        raise ValueError(f"{name}: exercises without a worked solution: {sorted(set(boxes) - set(found))}")
    return setup, found


def read_spec(name: str, exercises: dict[str, Exercise]) -> dict:
    """The chapter's spec, checked against its exercises: every exercise graded, once."""
    spec = yaml.safe_load((HOMEWORK / f"{name}.yml").read_text())
    entries = spec.get("exercises") or {}
    entries = {str(k): v for k, v in entries.items()}
    if set(entries) != set(exercises):
        raise ValueError(
            f"homework/{name}.yml: exercises {sorted(set(exercises) - set(entries))} missing, "
            f"{sorted(set(entries) - set(exercises))} unknown"
        )
    for number, entry in entries.items():
        if "manual" in entry:
            if set(entry) != {"manual"} or not isinstance(entry["manual"], int) or entry["manual"] < 1:
                raise ValueError(f"homework/{name}.yml: {number}: a manual exercise is `manual: <points>`")
            continue
        if not isinstance(entry.get("points"), int) or entry["points"] < 1:
            raise ValueError(f"homework/{name}.yml: {number}: points must be a positive integer")
        answers = entry.get("answers") or {}
        if not answers or not all(IDENTIFIER.match(a) for a in answers):
            raise ValueError(f"homework/{name}.yml: {number}: answers must name Python variables")
        for variable, answer in answers.items():
            fields = ("what", "value")
            if set(answer) - set(fields) or not all(isinstance(answer.get(k), str) for k in fields):
                raise ValueError(f"homework/{name}.yml: {number}: answer {variable} needs `what` and `value`")
        extra = set(entry) - {"points", "answers", "written", "variant"}
        if extra:
            raise ValueError(f"homework/{name}.yml: {number}: unknown keys {sorted(extra)}")
        if "variant" in entry:
            variants.check_variant(f"homework/{name}.yml: {number}", entry["variant"], answers)
            values = variants.params_for(name, number, entry["variant"], variants.DEFAULT)
            for answer in answers.values():  # the chapter's own numbers in the prompts
                answer["template"], answer["what"] = answer["what"], variants.fill(answer["what"], values)
    return {**spec, "exercises": entries}


def _names(code: str) -> tuple[set[str], set[str]]:
    """The names a piece of code defines and the names it reads."""
    defined, read = set(), set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name):
            (defined if isinstance(node.ctx, ast.Store) else read).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.alias):
            defined.add((node.asname or node.name).split(".")[0])
    return defined, read


def runs(exercises: dict[str, Exercise], spec: dict) -> dict[str, bool]:
    """Whether each exercise's worked code runs in the key and in the teacher's notebook: always for
    an autograded exercise; for one graded by hand, only where a later solution reads a name it
    defines (its code is in ``solutions/``; the homework keeps its prose as the model answer)."""
    keep, later = {}, set()
    for number in reversed(list(spec["exercises"])):
        defined, read = set(), set()
        for text in exercises[number].code:
            d, r = _names(text)
            defined, read = defined | d, read | r
        keep[number] = "manual" not in spec["exercises"][number] or bool(defined & later)
        if keep[number]:
            later |= read
    return keep


# --------------------------------------------------------------------------- the answer key
def compute_key(name: str, setup: list[str], exercises: dict[str, Exercise], spec: dict,
                numba_cache: Path | None = None) -> dict:
    """Run the worked solutions, in order, and read each autograded answer's value. The ``dicelab``
    kernels they compile are cached in ``numba_cache``, from which the grader's sandboxes start."""
    cells = [nbformat.v4.new_code_cell("__key__ = {}")] + [nbformat.v4.new_code_cell(s) for s in setup]
    keep = runs(exercises, spec)
    for number, entry in spec["exercises"].items():  # in order: a solution may use an earlier one's
        if keep[number]:
            cells += [nbformat.v4.new_code_cell(c) for c in exercises[number].code]
        if "manual" in entry:
            continue
        bind = "\n".join(f"__key__[{v!r}] = {a['value']}" for v, a in entry["answers"].items())
        cells.append(nbformat.v4.new_code_cell(bind))
    cells.append(nbformat.v4.new_code_cell(
        "import json\nfrom dicelab.course.homework import encode\nprint(json.dumps(encode(__key__)))"
    ))
    nb = nbformat.v4.new_notebook(cells=cells)
    env = {**os.environ, **({"NUMBA_CACHE_DIR": str(numba_cache)} if numba_cache else {})}
    NotebookClient(nb, timeout=3600, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "solutions")}}).execute(env=env)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
    return dict(json.loads(text)["dict"])


# --------------------------------------------------------------------------- the master notebook
def raw(text: str):
    return nbformat.v4.new_raw_cell(text)


def markdown(text: str, **meta):
    return nbformat.v4.new_markdown_cell(text, metadata=meta)


def code(text: str):
    return nbformat.v4.new_code_cell(text)


def test_cell(question: str, hidden: bool, body: list[str], variables: list[str], points: int | None = None):
    """An Otter exception-based test: a function of the answers, called with them."""
    config = ['""" # BEGIN TEST CONFIG', f"hidden: {str(hidden).lower()}"]
    if points is not None:
        config.append(f"points: {points}")
    config.append('""" # END TEST CONFIG')
    args = ", ".join(variables)
    fn = f"test_{question}_{'hidden' if hidden else 'public'}"
    lines = [*config, f"def {fn}({args}):",
             "    from dicelab.course.homework import check_answer, check_form",
             *(f"    {b}" for b in body), "", f"{fn}({args})"]
    return code("\n".join(lines))


def answer_prompt(entry: dict, key: dict) -> str:
    from dicelab.course.homework import decode, form_of

    lines = ["**Your answer.** Work in the code cell below, then assign:", ""]
    for variable, answer in entry["answers"].items():
        form = public_form(form_of(decode(key[variable])))
        lines.append(f"* `{variable}`: {answer['what']} ({describe_form(form)})")
    return "\n".join(lines)


def public_form(form):
    """The form a student is told: a list whose items share one form says so without its length, a
    set without its size (how many items there are is part of the answer)."""
    if isinstance(form, dict) and "list" in form:
        inner = {json.dumps(f) for f in form["list"]}
        if len(inner) == 1:
            return {"list_of": public_form(form["list"][0])}
        return {"list": [public_form(f) for f in form["list"]]}
    if isinstance(form, dict) and "set" in form:
        return {"set": None}
    if isinstance(form, dict) and "dict" in form:
        return {"dict": [[k, public_form(f)] for k, f in form["dict"]]}
    return form


def describe_form(form) -> str:
    if form == "exact":
        return "an exact number: an int, `Fraction` or SymPy value, never a float"
    if form == "number":
        return "a number"
    if form == "text":
        return "a text"
    if form == "truth":
        return "`True` or `False`"
    if "dict" in form:
        keys = ", ".join(repr(k if not isinstance(k, list) else tuple(k)) for k, _ in form["dict"])
        inner = {json.dumps(f) for _, f in form["dict"]}
        what = describe_form(json.loads(inner.pop())) if len(inner) == 1 else "its value"
        return f"a dict with the keys {keys}, each {what}"
    if "list" in form:
        inner = {json.dumps(f) for f in form["list"]}
        what = describe_form(json.loads(inner.pop())) if len(inner) == 1 else "its value"
        return f"a list, each item {what}"
    if "list_of" in form:
        return f"a list, each item {describe_form(form['list_of'])}"
    return "a set"


def master_notebook(name: str, setup: list[str], exercises: dict[str, Exercise], spec: dict, key: dict):
    """Otter Assign's master notebook for the chapter."""
    from dicelab.course.homework import decode, form_of

    chapter = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    title = source(chapter.cells[0]).splitlines()[0].lstrip("# ").strip()
    config = {
        "name": f"{name}_homework",
        "init_cell": True,
        "check_all_cell": False,
        "export_cell": False,
        "run_tests": False,
        "solutions_pdf": False,
        "template_pdf": False,
        "generate": {"pdf": False, "zips": False},
        "tests": {"ok_format": False, "files": False},
        "show_question_points": True,
    }
    auto = sum(e["points"] for e in spec["exercises"].values() if "points" in e)
    manual = sum(e.get("manual", 0) + e.get("written", 0) for e in spec["exercises"].values())
    intro = (
        f"# Homework · {title}\n\n"
        f"The exercises of {title} (`notebooks/{name}.ipynb` in the course), each in its box with its hint. "
        "Work in the code cells under each exercise; where an exercise asks for a value, assign it to "
        "the variable it names (exact answers as `sp.Rational(p, q)`, `Fraction(p, q)` or an exact "
        "SymPy result, never a float), then run the check cell under it: `grader.check(...)` tells you "
        "whether your answer has the right form. Your teacher's tests check the values. Proofs and "
        "explanations go in the text cells marked *Type your answer here*; they are graded by hand.\n\n"
        f"Points: {auto} checked by computation, {manual} graded by hand. Run the first code cells "
        "(they install and import what the exercises use) before the exercises."
    )
    cells = [raw("# ASSIGNMENT CONFIG\n" + yaml.safe_dump(config, sort_keys=False)), markdown(intro)]
    cells += [code(s) for s in setup]
    keep = runs(exercises, spec)
    for num, entry in spec["exercises"].items():
        ex = exercises[num]
        heading = f"## Exercise {ex.number}\n\n{ex.box}"
        if "manual" in entry:
            cells += question(ex.question, entry["manual"], manual_=True)
            cells.append(markdown(heading + "\n\n*Graded by hand:* write your proof or explanation "
                                  "in the text cell below; compute in the code cell under it."))
            cells += solution_block(ex, prose=True, run=keep[num])
            cells.append(raw("# END QUESTION"))
            continue
        variables = list(entry["answers"])
        cells += question(ex.question, entry["points"])
        cells.append(markdown(heading + "\n\n" + answer_prompt(entry, key)))
        binding = "\n".join(f"{v} = {a['value']}  # SOLUTION" for v, a in entry["answers"].items())
        cells += solution_block(ex, prose=not entry.get("written"), extra=code(binding))
        cells.append(raw("# BEGIN TESTS"))
        public = [f"check_form({a['what']!r}, {v}, {public_form(form_of(decode(key[v])))!r})"
                  for v, a in entry["answers"].items()]
        hidden = [f"check_answer({a['what']!r}, {v}, {key[v]!r})"
                  for v, a in entry["answers"].items()]
        cells.append(test_cell(ex.question, False, public, variables, points=0))
        cells.append(test_cell(ex.question, True, hidden, variables, points=entry["points"]))
        cells.append(raw("# END TESTS"))
        cells.append(raw("# END QUESTION"))
        if entry.get("written"):
            cells += question(ex.question + "_written", entry["written"], manual_=True)
            cells.append(markdown(f"**Exercise {ex.number}, in words** (graded by hand): the proof, "
                                  "prediction or explanation that the exercise asks for."))
            cells.append(raw("# BEGIN SOLUTION"))
            cells.append(markdown("\n\n".join(ex.prose)))
            cells.append(raw("# END SOLUTION"))
            cells.append(raw("# END QUESTION"))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                   "language_info": {"name": "python"}}
    return nb


def question(name: str, points: int, manual_: bool = False):
    conf = {"name": name, "points": points, "manual": manual_}
    return [raw("# BEGIN QUESTION\n" + yaml.safe_dump(conf, sort_keys=False))]


WORK_MARK = "# BEGIN SOLUTION NO PROMPT"


def solution_block(ex: Exercise, prose: bool, extra=None, run: bool = True):
    """The worked solution as Otter's solution block: its code cells (if ``run``) are emptied in the
    student's notebook (each leaves an empty cell to work in), its prose (if kept) is removed."""
    cells = [raw("# BEGIN SOLUTION")]
    for kind, text in ex.cells:
        if kind == "code" and run:
            cells.append(code(f"{WORK_MARK}\n{text}\n# END SOLUTION"))
        elif kind == "markdown" and prose:
            cells.append(markdown(text))
    if not any(c.cell_type == "code" for c in cells):
        cells.append(code(f"{WORK_MARK}\n# END SOLUTION"))
    if extra is not None:
        cells.append(extra)
    return [*cells, raw("# END SOLUTION")]


# --------------------------------------------------------------------------- a variant per student
def check_variants(name: str, exercises: dict[str, Exercise], spec: dict, key: dict) -> None:
    """Each variant, at the chapter's own numbers, gives the key the worked solution computed; every
    text it rewrites is in its exercise; and every choice of its parameters fills its texts and gives
    answers of the form the public test checks (the same for every student)."""
    from dicelab.course.homework import AnswerError, check_answer, decode, form_of

    for number, entry in spec["exercises"].items():
        variant = entry.get("variant")
        if variant is None:
            continue
        where = f"homework/{name}.yml: {number}"
        for old, _ in variant.get("text") or []:
            if old not in exercises[number].box:
                raise ValueError(f"{where}: variant.text {old!r} is not in the exercise")
        own = variants.key_for(variant, variants.params_for(name, number, variant, variants.DEFAULT))
        for variable, value in own.items():
            try:
                check_answer(entry["answers"][variable]["what"], value, decode(key[variable]))
            except AnswerError as err:
                raise ValueError(f"{where}: variant.key {variable} at the chapter's numbers is not the "
                                 f"worked solution's answer: {err}") from None
        public = {v: public_form(form_of(decode(key[v]))) for v in variant["key"]}
        for values in variants.every_choice(variant):
            try:
                variants.rewrite(exercises[number].box, variant, values)
                for answer in entry["answers"].values():
                    variants.fill(answer["template"], values)
            except KeyError as err:
                raise ValueError(f"{where}: variant.text or what names {err}, neither a parameter nor "
                                 "a derived number") from None
            for variable, value in variants.key_for(variant, values).items():
                if public_form(form_of(value)) != public[variable]:
                    raise ValueError(f"{where}: variant.key {variable} for {values} is "
                                     f"{describe_form(public_form(form_of(value)))}, not "
                                     f"{describe_form(public[variable])} as the public test says")


HEADING = re.compile(r"^## Exercise (\S+)$", re.M)


PROMPT = "\n\n**Your answer.**"


def student_notebook(name: str, spec: dict, default: Path, out: Path, student: str) -> None:
    """The student notebook of one student: each varying exercise with that student's numbers, in its
    box (the variant's rewrites), in the answers it asks for and in its public test's messages."""
    nb = nbformat.read(default, as_version=4)
    tests = nb.metadata.get("otter", {}).get("tests", {})
    for cell in nb.cells:
        text = source(cell)
        heading = HEADING.search(text) if cell.cell_type == "markdown" else None
        entry = spec["exercises"].get(heading[1], {}) if heading else {}
        if "variant" not in entry:
            continue
        number = heading[1]
        values = variants.params_for(name, number, entry["variant"], student)
        box, prompt = text.split(PROMPT, 1)
        question = "q" + number.replace(".", "_")
        for variable, answer in entry["answers"].items():
            mine = variants.fill(answer["template"], values)
            asked = f"`{variable}`: {answer['what']}"
            if asked not in prompt:
                raise ValueError(f"{name} {number}: the answer {variable} is not asked for in the notebook")
            prompt = prompt.replace(asked, f"`{variable}`: {mine}")
            if isinstance(tests.get(question), str):  # the public test's messages name the answer
                tests[question] = tests[question].replace(f"check_form({answer['what']!r}, {variable},",
                                                          f"check_form({mine!r}, {variable},")
        box = box.replace(heading[0], f"{heading[0]} (your numbers)", 1)
        cell.source = variants.rewrite(box, entry["variant"], values) + PROMPT + prompt
    intro = next(c for c in nb.cells if c.cell_type == "markdown")
    intro.source += (f"\n\nThis notebook is **{student}**'s: exercises marked *your numbers* have numbers "
                     "drawn for you, and your answers are checked against them.")
    nb.metadata["dicelab"] = {"chapter": name, "student": student}
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out)


# --------------------------------------------------------------------------- otter assign and after
def tidy_student(path: Path) -> None:
    """One empty work cell per exercise (not one per solution cell), no outputs, python3 kernel."""
    nb = nbformat.read(path, as_version=4)
    cells, previous_empty = [], False
    for cell in nb.cells:
        empty = cell.cell_type == "code" and not source(cell).strip()
        if empty and previous_empty:
            continue
        previous_empty = empty
        cells.append(cell)
    nb.cells = cells
    nbformat.write(nb, path)


def build(name: str, out: Path = BUILD, roster: list[str] | None = None) -> Path:
    """Build one chapter's homework into ``out/name`` (and a notebook per student of ``roster``, in
    ``out/name/students/ID/``); return that folder."""
    setup, exercises = read_exercises(name)
    spec = read_spec(name, exercises)
    folder = out / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    key = compute_key(name, setup, exercises, spec, out / sandbox.NUMBA_CACHE)
    check_variants(name, exercises, spec, key)
    (folder / "key.json").write_text(json.dumps(key, indent=1) + "\n")
    master = folder / f"{name}_homework.ipynb"
    nbformat.write(master_notebook(name, setup, exercises, spec, key), master)
    run = subprocess.run([str(OTTER), "assign", "--no-run-tests", "--no-pdfs", master.name, "dist"],
                         cwd=folder, capture_output=True, text=True)
    if run.returncode:
        raise RuntimeError(f"otter assign failed for {name}:\n{run.stdout}\n{run.stderr}")
    tidy_student(folder / "dist" / "student" / master.name)
    for student in roster or []:
        student_notebook(name, spec, folder / "dist" / "student" / master.name,
                         folder / "students" / student / master.name, student)
    return folder


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="NN_name of the chapters (default: every spec)")
    parser.add_argument("--out", type=Path, default=BUILD, help="the build folder (homework/_build)")
    parser.add_argument("--jobs", type=int, default=2, help="chapters built at once")
    parser.add_argument("--roster", type=Path, help="a file of student identifiers, one a line: a "
                        "notebook per student, with that student's numbers")
    args = parser.parse_args(argv)
    roster = variants.read_roster(args.roster) if args.roster else None
    names = args.chapters or chapters()
    unknown = sorted(set(names) - set(chapters()))
    if unknown:
        parser.error(f"no spec homework/<name>.yml for {unknown}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for folder in pool.map(build, names, [args.out] * len(names), [roster] * len(names)):
            print(f"built {folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
