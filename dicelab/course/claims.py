"""The claims ledger: every number a paper states, beside ours, with a computed status.

Each notebook keeps one :class:`Ledger`. A claim records where the paper states
a value (section, table, figure), the value as printed, our value (exact where
possible) and the tolerance the printed precision implies. Its status is
*computed*, never typed:

``reproduced``
    ours equals the paper's value exactly;
``rounding``
    ours agrees within the printed precision (the paper rounded);
``erratum``
    ours disagrees, and the claim carries a one-line reason saying why the
    paper is wrong (typo, arithmetic slip, misread rule, wrong claim).

Adding a claim that disagrees *without* a reason raises :class:`ClaimMismatch`
(an ``AssertionError``): so every ``ledger.add`` in a notebook is an assertion
of the paper's number against the computed one. Giving a reason for a claim
that agrees raises ``ValueError``: an erratum must be real.

Paper values
------------
* ``int`` or ``Fraction``: exact, unless ``tol`` is given.
* ``str``: a number as printed, e.g. ``"0.9898"`` or ``"115,000"``; the
  tolerance defaults to half a unit in the last printed digit.
* ``float``: needs an explicit ``tol``.
* anything else (tuples, sets, text): compared with ``==``.

``python -m dicelab.course.claims`` prints the summary of every ``results/*.csv`` and,
with ``--readme README.md``, rewrites the summary block of the README.
"""

from __future__ import annotations

import argparse
import math
import numbers
import re
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd

from dicelab.core.checks import check_digits, check_str
from dicelab.core.exact import to_fraction
from dicelab.course.paths import atomic_write, output_dir

__all__ = [
    "STATUSES",
    "ClaimMismatch",
    "Claim",
    "Ledger",
    "read_ledger",
    "check_ledger",
    "summarize",
    "summary_markdown",
    "printed_number",
    "agrees_as_printed",
    "power_of_ten_slip",
    "compare",
]

STATUSES = ("reproduced", "rounding", "erratum")
COLUMNS = ["where", "what", "paper", "ours", "ours_decimal", "tolerance", "status", "note"]


class ClaimMismatch(AssertionError):
    """A computed value disagrees with the paper and no erratum explains why.

    >>> Ledger("example").add("Table 1", "a count", paper=5, ours=6)
    Traceback (most recent call last):
    ...
    dicelab.course.claims.ClaimMismatch: Table 1: a count: paper says 5, we compute 6; fix the computation ...
    """


def printed_number(text: str) -> tuple[Fraction, Fraction] | None:
    """A number as printed, and the tolerance its printed precision implies.

    Returns ``(value, half a unit in the last printed digit)``, or ``None`` when the
    text is not a plain decimal number.

    >>> printed_number("0.9898")
    (Fraction(4949, 5000), Fraction(1, 20000))
    >>> printed_number("115,000")
    (Fraction(115000, 1), Fraction(1, 2))
    """
    check_str("text", text, nonempty=False)
    return _printed(text, "text")


def _printed(text: str, name: str) -> tuple[Fraction, Fraction] | None:
    """:func:`printed_number`, with errors naming the argument ``name``."""
    cleaned = text.strip().replace(",", "").replace("\u2212", "-")
    if not re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", cleaned):
        return None
    dec = Decimal(cleaned)
    check_digits(name, text, len(dec.as_tuple().digits), dec.as_tuple().exponent)
    exponent = dec.as_tuple().exponent
    return Fraction(dec), Fraction(1, 2) * Fraction(10) ** exponent


def agrees_as_printed(printed: str, ours) -> bool:
    """Does ``ours`` agree with the decimal ``printed`` within its printed precision?

    >>> agrees_as_printed("0.667", Fraction(2, 3))
    True
    """
    parsed = printed_number(check_str("printed", printed))
    if parsed is None:
        raise ValueError(f"printed must be a decimal number as text, got {printed!r}")
    value, tol = parsed
    return abs(value - to_fraction(ours, "ours", allow_float=True)) <= tol


def _approx(x: Fraction) -> str:
    """``x`` to 4 significant figures, also beyond the range of a float."""
    try:
        return f"{float(x):.4g}"
    except OverflowError:
        return f"about 10^{math.log10(abs(x.numerator)) - math.log10(x.denominator):.0f}"


def power_of_ten_slip(printed: str, ours) -> str | None:
    """A printing slip's diagnosis when ``printed`` is ``ours`` times a power of ten (not 1), else None.

    >>> power_of_ten_slip("0.02822", Fraction(2822, 1000000))
    'printed 0.02822, exactly 0.002822: 10 times the true value (a decimal slip)'
    """
    value = printed_number(check_str("printed", printed))
    ours = to_fraction(ours, "ours", allow_float=True)
    if value is None or ours == 0 or value[0] == 0:
        return None
    ratio = abs(value[0] / ours)  # exact: its logarithm from the integers, whatever their size
    exponent = math.log10(ratio.numerator) - math.log10(ratio.denominator)
    k = round(exponent)
    if k == 0 or abs(exponent - k) > 0.01:
        return None
    factor = f"{10**k}" if k > 0 else f"1/{10**-k}"
    return f"printed {printed}, exactly {_approx(ours)}: {factor} times the true value (a decimal slip)"


def _as_fraction(x) -> Fraction | None:
    """``x`` as a Fraction when it is a finite number, else None (text, tuples, NaN)."""
    if isinstance(x, str):
        return None
    try:
        return to_fraction(x, allow_float=True)
    except ValueError:
        return None


def _show(x) -> str:
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, tuple | list):
        return "(" + ", ".join(_show(v) for v in x) + ("," if len(x) == 1 else "") + ")"
    return str(x)


def compare(paper, ours, tol=None, where: str = "claim") -> tuple[bool, bool, Fraction | None]:
    """How ``ours`` compares with the printed ``paper``: ``(agrees, agrees exactly, tolerance used)``.

    See the module docstring for how paper values are read.

    >>> compare("0.667", Fraction(2, 3))
    (True, False, Fraction(1, 2000))
    """
    check_str("where", where)
    for name, value in (("paper", paper), ("ours", ours)):
        inexact = isinstance(value, numbers.Real | Decimal) and not isinstance(value, numbers.Rational)
        if inexact and not math.isfinite(float(value)):  # float, numpy's floats, Decimal
            raise ValueError(f"{where}: {name} must be finite, got {value!r}")
    tolerance = None if tol is None else _as_fraction(tol)
    if tol is not None and (tolerance is None or tolerance < 0):
        raise ValueError(f"tol must be a non-negative number, got {tol!r}")
    if isinstance(paper, str):
        printed = _printed(paper, "paper")
        if printed is not None:
            paper, implied = printed
            tolerance = implied if tolerance is None else tolerance
    elif isinstance(paper, float) and tolerance is None:
        raise ValueError(f"{where}: a float paper value needs tol (or give paper as printed, a str)")
    p, o = _as_fraction(paper), _as_fraction(ours)
    if p is not None and o is None and not isinstance(ours, str | tuple | list):
        raise ValueError(
            f"{where}: ours must be a number like the paper's {_show(paper)}, got {ours!r}"[:300]
        )
    if p is None or o is None:
        if isinstance(paper, str) and o is not None:
            raise ValueError(f"{where}: paper value {paper!r} is not a number but ours is")
        same = paper == ours
        return same, same, None
    if p == o:
        return True, True, tolerance
    return (tolerance is not None and abs(p - o) <= tolerance), False, tolerance


@dataclass(frozen=True)
class Claim:
    """One number (or statement) of the paper beside ours; ``status`` is computed.

    >>> Claim("Table 3", "E[X]", paper="26.544893", ours=Fraction(103180, 3887)).status
    'rounding'
    """

    where: str
    what: str
    paper: Any
    ours: Any
    tol: Any = None
    erratum: str | None = None
    note: str | None = None
    status: str = field(init=False)
    tolerance: Fraction | None = field(init=False)

    def __post_init__(self):
        check_str("where", self.where)  # the section, table or figure
        check_str("what", self.what)
        for name in ("erratum", "note"):
            if getattr(self, name) is not None:
                check_str(name, getattr(self, name))
        agree, exact, tolerance = compare(self.paper, self.ours, self.tol, self.where)
        object.__setattr__(self, "tolerance", tolerance)
        if agree:
            if self.erratum:
                raise ValueError(
                    f"{self.where}: {self.what}: ours ({_show(self.ours)}) agrees with the paper "
                    f"({_show(self.paper)}), so it is not an erratum: drop the reason"
                )
            object.__setattr__(self, "status", "reproduced" if exact else "rounding")
        elif self.erratum:
            object.__setattr__(self, "status", "erratum")
        else:
            tol = f" within {tolerance}" if tolerance else ""
            raise ClaimMismatch(
                f"{self.where}: {self.what}: paper says {_show(self.paper)}, we compute "
                f"{_show(self.ours)}{tol}; fix the computation or record an erratum with a reason"
            )

    def row(self) -> dict:
        ours = _as_fraction(self.ours)
        decimal = "" if ours is None or ours.denominator == 1 else f"{float(ours):.10g}"
        return {
            "where": self.where,
            "what": self.what,
            "paper": _show(self.paper),
            "ours": _show(self.ours),
            "ours_decimal": decimal,
            "tolerance": "" if self.tolerance is None else str(self.tolerance),
            "status": self.status,
            "note": self.erratum or self.note or "",
        }


class Ledger:
    """The claims of one notebook, written to ``results/<name>.csv``.

    Parameters
    ----------
    name : str
        The notebook's file stem, e.g. ``"04_cosmic_wimpout"``.

    Examples
    --------
    >>> ledger = Ledger("example")
    >>> ledger.add("§3", "ordered rolls", paper=7776, ours=6**5).status
    'reproduced'
    >>> ledger.counts()
    {'claims': 1, 'reproduced': 1, 'rounding': 0, 'erratum': 0}
    """

    def __init__(self, name: str):
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise ValueError(f"name must be a plain file stem such as '01_efron_dice', got {name!r}")
        self.name = name
        self.claims: list[Claim] = []

    def add(self, where: str, what: str, *, paper, ours, tol=None, erratum=None, note=None) -> Claim:
        """Record a claim; raises :class:`ClaimMismatch` if it disagrees without an erratum."""
        claim = Claim(where, what, paper, ours, tol=tol, erratum=erratum, note=note)
        self.claims.append(claim)
        return claim

    def add_table(self, where: str, what: str, paper, ours, *, tol=None, errata=None, note=None) -> int:
        """Record one claim per entry of a printed table; returns how many were recorded.

        Parameters
        ----------
        where : str
            The table, e.g. ``"Table 2"``.
        what : str
            A format string for each entry's description; ``{key}`` is the entry's key.
        paper, ours : mapping (dict or pandas Series)
            The printed values and ours, by the same keys; every key of ``paper`` must be in ``ours``.
        tol : optional
            As for :meth:`add`, for every entry.
        errata : callable, optional
            ``errata(key, paper_value, our_value)`` returns the reason an entry is an erratum,
            or ``None``; called only for entries that disagree.

        Examples
        --------
        >>> ledger = Ledger("example")
        >>> ledger.add_table("Table 1", "P(X = {key})", {1: "0.333"}, {1: Fraction(1, 3)})
        1
        """
        check_str("where", where)
        check_str("what", what)
        for name, table in (("paper", paper), ("ours", ours)):
            if not hasattr(table, "keys") or not hasattr(table, "__getitem__"):
                raise ValueError(
                    f"{name} must be a mapping (dict or pandas Series) of values by key, got {table!r}"
                )
        if errata is not None and not callable(errata):
            raise ValueError(
                f"errata must be a function (key, paper, ours) -> reason or None, got {errata!r}"
            )
        if tol is not None and (_as_fraction(tol) is None or _as_fraction(tol) < 0):
            raise ValueError(f"tol must be a non-negative number, got {tol!r}")
        if note is not None:
            check_str("note", note)
        missing = [k for k in paper.keys() if k not in ours]
        if missing:
            raise KeyError(f"{where}: ours has no value for {missing[:5]}")
        try:
            whats = {key: what.format(key=key) for key in paper.keys()}
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            raise ValueError(
                f"what must be a format string whose only field is {{key}} (the entry's key), got {what!r}"
            ) from None
        for key in paper.keys():
            claim_what = whats[key]
            reason = None
            if errata is not None and not compare(paper[key], ours[key], tol, where)[0]:
                reason = errata(key, paper[key], ours[key])
            self.add(where, claim_what, paper=paper[key], ours=ours[key], tol=tol, erratum=reason, note=note)
        return len(paper)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([c.row() for c in self.claims], columns=COLUMNS)

    def counts(self) -> dict:
        statuses = [c.status for c in self.claims]
        return {"claims": len(statuses), **{s: statuses.count(s) for s in STATUSES}}

    def write(self) -> Path:
        """Write ``results/<name>.csv`` and return its path."""
        path = output_dir("results") / f"{self.name}.csv"
        frame = self.frame()
        return atomic_write(path, lambda tmp: frame.to_csv(tmp, index=False, lineterminator="\n"))

    def _repr_html_(self):
        return self.frame().to_html(index=False)

    def __len__(self):
        return len(self.claims)


def read_ledger(path) -> pd.DataFrame:
    """A written ledger as a table of strings (no value is parsed), as :func:`check_ledger` expects.

    >>> from dicelab.course.paths import repo_root
    >>> frame = read_ledger(repo_root() / "results" / "04_cosmic_wimpout.csv")
    >>> check_ledger(frame)
    []
    """
    if not isinstance(path, str | Path):
        raise ValueError(f"path must be the path of a ledger .csv file, got {path!r}")
    if not Path(path).is_file():
        raise ValueError(
            f"path: there is no ledger file at {str(path)[:200]}; a chapter writes its ledger "
            "when its last cell runs (or run `make`)"
        )
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def check_ledger(frame: pd.DataFrame) -> list[str]:
    """Problems with a written ledger: unknown columns or statuses, errata without a reason.

    >>> check_ledger(Ledger("example").frame())
    ['the ledger has no claims']
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a ledger as a pandas DataFrame (read_ledger), got {frame!r}")
    problems = []
    if list(frame.columns) != COLUMNS:
        problems.append(f"columns {list(frame.columns)} != {COLUMNS}")
        return problems
    if frame.empty:
        problems.append("the ledger has no claims")
    for i, row in frame.iterrows():
        if row["status"] not in STATUSES:
            problems.append(f"row {i} ({row['where']}): status {row['status']!r} not in {STATUSES}")
        if row["status"] == "erratum" and not row["note"].strip():
            problems.append(f"row {i} ({row['where']}): erratum without a reason")
    return problems


def summarize(results_dir=None) -> pd.DataFrame:
    """Per notebook: claims checked, reproduced, rounding, errata (one row per ``*.csv`` ledger).

    Parameters
    ----------
    results_dir : path, optional
        The folder of ledgers (default: ``results/``).

    Examples
    --------
    >>> from dicelab.course.paths import repo_root
    >>> table = summarize(repo_root() / "results")
    >>> list(table.columns)
    ['notebook', 'claims', 'reproduced', 'rounding', 'errata']
    """
    if results_dir is not None and not isinstance(results_dir, str | Path):
        raise ValueError(f"results_dir must be a folder's path, got {results_dir!r}")
    folder = Path(results_dir) if results_dir is not None else output_dir("results")
    if not folder.is_dir():
        raise ValueError(f"results_dir {str(folder)!r} is not a folder")
    rows = []
    for path in sorted(folder.glob("*.csv")):
        frame = read_ledger(path)
        counts = frame["status"].value_counts()
        rows.append(
            {"notebook": path.stem, "claims": len(frame)}
            | {s if s != "erratum" else "errata": int(counts.get(s, 0)) for s in STATUSES}
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def summary_markdown(summary: pd.DataFrame) -> str:
    """The summary of :func:`summarize` as a Markdown table (the README's claims block).

    >>> from dicelab.course.paths import repo_root
    >>> print(summary_markdown(summarize(repo_root() / "results")).splitlines()[0])
    | notebook | claims | reproduced | rounding | errata |
    """
    _check_summary(summary)
    header = "| notebook | claims | reproduced | rounding | errata |\n|---|---:|---:|---:|---:|\n"
    body = "".join(
        f"| {r.notebook} | {r.claims} | {r.reproduced} | {r.rounding} | {r.errata} |\n"
        for r in summary.itertuples()
    )
    return header + body


SUMMARY_COLUMNS = ["notebook", "claims", "reproduced", "rounding", "errata"]


def _check_summary(summary) -> None:
    if not isinstance(summary, pd.DataFrame) or list(summary.columns) != SUMMARY_COLUMNS:
        raise ValueError(f"summary must be the table summarize() returns, columns {SUMMARY_COLUMNS}")


README_START = "<!-- claims-summary:start -->"
README_END = "<!-- claims-summary:end -->"


def readme_with_summary(readme_text: str, summary: pd.DataFrame) -> str:
    """The README text with the block between the summary markers replaced."""
    check_str("readme_text", readme_text, nonempty=False)
    _check_summary(summary)
    pattern = re.compile(re.escape(README_START) + r".*?" + re.escape(README_END), re.S)
    if not pattern.search(readme_text):
        raise ValueError(f"README has no {README_START} ... {README_END} block")
    block = f"{README_START}\n{summary_markdown(summary)}{README_END}"
    return pattern.sub(lambda _: block, readme_text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Summarise the claims ledgers in results/.")
    parser.add_argument("--results", default=None, help="folder of ledgers (default: results/)")
    parser.add_argument("--readme", default=None, help="rewrite the summary block of this README")
    args = parser.parse_args(argv)
    summary = summarize(args.results)
    print(summary.to_string(index=False))
    problems = [
        f"{path.name}: {p}"
        for path in sorted((Path(args.results) if args.results else output_dir("results")).glob("*.csv"))
        for p in check_ledger(read_ledger(path))
    ]
    for p in problems:
        print("problem:", p, file=sys.stderr)
    if args.readme:
        readme = Path(args.readme)
        readme.write_text(readme_with_summary(readme.read_text(), summary))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
