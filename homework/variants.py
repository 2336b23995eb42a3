"""A variant per student: an exercise's numbers drawn from the student's identifier, its key computed.

An autograded exercise of a spec ``homework/NN_name.yml`` may say how it varies::

    "2.1":
      points: 1
      answers:
        expected_max_two: {what: "E_max(<<s>>, 2)", value: "closed"}
      variant:
        params: {s: [20, 12, 16, 24, 30]}     # the first choice is the chapter's own number
        derived: {pairs: "s * s"}             # further numbers, from the parameters
        text: [["a d20", "a d<<s>>"], ["400 ordered", "<<pairs>> ordered"]]
        key: {expected_max_two: "stopping.expected_max(s, 2)"}

A student's parameters are drawn from the other choices (the chapter's own answers are published
in its worked solutions) with a seed made from the chapter, the exercise
and the student's identifier (:func:`params_for`): the same student always gets the same numbers,
and anyone who knows the identifier can recompute them (the teacher: ``python homework/variants.py
ID``). ``text`` rewrites the exercise as the student sees it (``<<name>>`` is a parameter or a
derived number), including the ``what`` of each answer; ``key`` gives each answer that varies for any
parameters, computed here by ``dicelab`` (:func:`key_for`) when the homework is built and graded,
never typed (an answer it does not give keeps the worked solution's key). The build checks that the
chapter's own parameters give the key the worked solution computes, and that every text to rewrite
is in the exercise.

Usage: ``python homework/variants.py STUDENT_ID [NN_name ...]``: that student's numbers and answers.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import math
import random
import re
import sys
from fractions import Fraction
from pathlib import Path

import sympy as sp
import yaml

ROOT = Path(__file__).resolve().parents[1]
HOMEWORK = ROOT / "homework"
PLACEHOLDER = re.compile(r"<<([a-z_][a-z0-9_]*)>>", re.I)
DEFAULT = None  # the student of the chapter's own numbers (no identifier)


def _namespace() -> dict:
    import numpy as np

    from dicelab import badg, efron, pig, wimpout
    from dicelab.badg import reference as badg_reference
    from dicelab.badg import stopping
    from dicelab.core import markov
    from dicelab.pig import reference

    return {"badg": badg, "efron": efron, "pig": pig, "wimpout": wimpout, "stopping": stopping,
            "markov": markov, "reference": reference, "badg_reference": badg_reference,
            "Fraction": Fraction, "sp": sp, "np": np, "math": math}


def _evaluate(expression: str, values: dict):
    """A spec's expression (trusted: it is the course's own file), with the parameters as names."""
    return eval(expression, {**_namespace(), **values})  # noqa: S307 - the course's spec, not a student's


def check_variant(where: str, variant, answers: dict) -> None:
    """Refuse a ``variant`` block that is not of the documented shape."""
    if not isinstance(variant, dict) or set(variant) - {"params", "derived", "text", "key"}:
        raise ValueError(f"{where}: variant holds params, derived, text and key")
    params = variant.get("params")
    if not isinstance(params, dict) or not params or not all(
        isinstance(v, list) and v for v in params.values()
    ):
        raise ValueError(f"{where}: variant.params maps each parameter to a non-empty list of choices")
    key = variant.get("key")
    if not isinstance(key, dict) or not key or set(key) - set(answers):
        raise ValueError(f"{where}: variant.key gives the answers that vary, among {sorted(answers)}")
    for pair in variant.get("text") or []:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(t, str) for t in pair)):
            raise ValueError(f"{where}: variant.text is a list of [text, replacement] pairs")


def _seed(chapter: str, number: str, student: str) -> int:
    digest = hashlib.sha256(f"dicelab homework|{chapter}|{number}|{student}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def params_for(chapter: str, number: str, variant: dict, student: str | None) -> dict:
    """The parameters and derived numbers of one student's variant (the first choices if ``student``
    is None: the chapter's own numbers)."""
    params = variant["params"]
    if student is None:
        values = {name: choices[0] for name, choices in params.items()}
    else:
        draw = random.Random(_seed(chapter, number, student))  # never the chapter's own: it is published
        values = {name: draw.choice(params[name][1:] or params[name]) for name in sorted(params)}
    return _derive(variant, values)


def _derive(variant: dict, values: dict) -> dict:
    values = {name: tuple(v) if isinstance(v, list) else v for name, v in values.items()}
    for name, expression in (variant.get("derived") or {}).items():
        values[name] = _evaluate(expression, values)
    return values


def every_choice(variant: dict):
    """The parameters and derived numbers of every combination of choices (the chapter's first)."""
    params = variant["params"]
    names = sorted(params)
    for combination in itertools.product(*(params[name] for name in names)):
        yield _derive(variant, dict(zip(names, combination, strict=True)))


def rewrite(text: str, variant: dict, values: dict) -> str:
    """``text`` with the variant's rewrites applied, all at once (a rewrite's result is never rewritten
    again: "G^5" -> "G^6" and "G^6" -> "G^7" swap cleanly), and its placeholders filled."""
    pairs = dict(variant.get("text") or [])
    if pairs:
        pattern = re.compile("|".join(re.escape(old) for old in sorted(pairs, key=len, reverse=True)))
        text = pattern.sub(lambda m: pairs[m[0]], text)
    return fill(text, values)


def fill(text: str, values: dict) -> str:
    return PLACEHOLDER.sub(lambda m: str(values[m[1]]), text)


_KEYS: dict[str, dict] = {}  # the keys computed in this process, by variant and parameters


def key_for(variant: dict, values: dict) -> dict:
    """Each answer of the variant for these parameters, computed by ``dicelab`` (cached)."""
    cache = repr((sorted(variant["key"].items()), sorted(values.items(), key=lambda kv: kv[0])))
    if cache not in _KEYS:
        _KEYS[cache] = {name: _evaluate(expr, values) for name, expr in variant["key"].items()}
    return dict(_KEYS[cache])


STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def read_roster(path: Path) -> list[str]:
    """The students' identifiers, one a line (blank lines and ``#`` comments skipped)."""
    ids = [line.split("#")[0].strip() for line in path.read_text().splitlines()]
    ids = [i for i in ids if i]
    bad = [i for i in ids if not STUDENT_ID.match(i)]
    if bad:
        raise ValueError(f"{path}: identifiers are letters, digits, '_', '.' and '-' (at most 64): {bad[:3]}")
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: an identifier is listed twice")
    return ids


def spec(chapter: str) -> dict:
    entries = yaml.safe_load((HOMEWORK / f"{chapter}.yml").read_text())["exercises"]
    return {str(k): v for k, v in entries.items()}


def show(student: str, chapters: list[str]) -> str:
    """One student's parameters and answers, chapter by chapter, for the teacher."""
    lines = []
    for chapter in chapters:
        for number, entry in spec(chapter).items():
            if "variant" not in entry:
                continue
            values = params_for(chapter, number, entry["variant"], student)
            shown = {k: v for k, v in values.items() if len(repr(v)) <= 80}  # not the tables behind them
            lines.append(f"{chapter} {number}: " + ", ".join(f"{k} = {v}" for k, v in shown.items()))
            for name, value in key_for(entry["variant"], values).items():
                lines.append(f"    {name} = {value}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("student", help="the student's identifier, as in the roster")
    parser.add_argument("chapters", nargs="*", help="NN_name of the chapters (default: every spec)")
    args = parser.parse_args(argv)
    known = sorted(p.stem for p in HOMEWORK.glob("[0-9][0-9]_*.yml"))
    unknown = sorted(set(args.chapters) - set(known))
    if unknown:
        parser.error(f"no spec homework/<name>.yml for {unknown}")
    if not args.student.strip():
        parser.error("the student's identifier must not be empty")
    print(show(args.student.strip(), args.chapters or known))
    return 0


if __name__ == "__main__":
    sys.exit(main())
