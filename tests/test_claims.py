"""Tests of the claims ledger: statuses are computed, mismatches cannot be recorded silently."""

from fractions import Fraction

import pytest

from dicelab.course.claims import (
    ClaimMismatch,
    Ledger,
    check_ledger,
    read_ledger,
    readme_with_summary,
    summarize,
    summary_markdown,
)


def test_exact_claims():
    ledger = Ledger("t")
    assert ledger.add("§1", "p", paper=Fraction(2, 3), ours=Fraction(4, 6)).status == "reproduced"
    assert ledger.add("§2", "n", paper=924, ours=924).status == "reproduced"
    with pytest.raises(ClaimMismatch, match="paper says 925, we compute 924"):
        ledger.add("§2", "n", paper=925, ours=924)
    assert len(ledger) == 2  # a failed claim is not recorded


def test_printed_decimals_imply_their_tolerance():
    ledger = Ledger("t")
    c = ledger.add("T2", "P", paper="0.9898", ours=Fraction(98978, 100000))
    assert c.status == "rounding" and c.tolerance == Fraction(1, 20000)
    assert ledger.add("T2", "P", paper="0.5", ours=Fraction(1, 2)).status == "reproduced"
    with pytest.raises(ClaimMismatch):
        ledger.add("T2", "P", paper="0.9898", ours=Fraction(9896, 10000))
    assert ledger.add("§5", "lines", paper="115,000", ours=114592, tol=500).status == "rounding"


def test_erratum_needs_a_disagreement_and_a_reason():
    ledger = Ledger("t")
    c = ledger.add("eq. 4", "E", paper=Fraction(1, 3), ours=Fraction(1, 2), erratum="typo: 3 for 2")
    assert c.status == "erratum"
    with pytest.raises(ValueError, match="not an erratum"):
        ledger.add("eq. 4", "E", paper=Fraction(1, 2), ours=Fraction(1, 2), erratum="?")


def test_float_paper_values_need_a_tolerance():
    ledger = Ledger("t")
    with pytest.raises(ValueError, match="needs tol"):
        ledger.add("x", "y", paper=0.5231, ours=0.52312)
    assert ledger.add("x", "y", paper=0.5231, ours=0.52312, tol=5e-5).status == "rounding"


def test_non_numeric_claims_compare_by_equality():
    ledger = Ledger("t")
    assert ledger.add("x", "set", paper=((1, 2), (3,)), ours=((1, 2), (3,))).status == "reproduced"
    with pytest.raises(ClaimMismatch):
        ledger.add("x", "set", paper=((1, 2),), ours=((2, 1),))


def test_bad_arguments():
    with pytest.raises(ValueError):
        Ledger("no spaces allowed")
    with pytest.raises(ValueError, match="where must be a non-empty string"):
        Ledger("t").add("", "y", paper=1, ours=1)
    with pytest.raises(ValueError, match="tol must be"):
        Ledger("t").add("x", "y", paper=1, ours=1, tol=-1)


def test_write_read_check_and_summary(tmp_path, monkeypatch):
    monkeypatch.setenv("DICELAB_OUTPUT_DIR", str(tmp_path))
    ledger = Ledger("01_demo")
    ledger.add("§1", "p", paper=Fraction(2, 3), ours=Fraction(2, 3))
    ledger.add("§2", "q", paper="0.33", ours=Fraction(1, 3))
    ledger.add("§3", "r", paper=5, ours=6, erratum="arithmetic slip")
    path = ledger.write()
    assert path == tmp_path / "results" / "01_demo.csv"
    frame = read_ledger(path)
    assert check_ledger(frame) == []
    assert frame["ours_decimal"].tolist() == ["0.6666666667", "0.3333333333", ""]
    summary = summarize(tmp_path / "results")
    assert summary.to_dict("records") == [
        {"notebook": "01_demo", "claims": 3, "reproduced": 1, "rounding": 1, "errata": 1}
    ]
    readme = "intro\n<!-- claims-summary:start -->\nold\n<!-- claims-summary:end -->\nend\n"
    assert summary_markdown(summary) in readme_with_summary(readme, summary)
    assert "old" not in readme_with_summary(readme, summary)
    frame.loc[2, "note"] = ""
    assert check_ledger(frame) == ["row 2 (§3): erratum without a reason"]


def test_add_table_formats_each_key_and_refuses_a_bad_format_before_adding():
    ledger = Ledger("x")
    assert ledger.add_table("T", "E(s={key[0]}, r={key[1]})", {(6, 1): "3.5"}, {(6, 1): Fraction(7, 2)}) == 1
    assert ledger.claims[0].what == "E(s=6, r=1)"
    with pytest.raises(ValueError, match="what must be a format string"):
        ledger.add_table("T", "E({key[2]})", {(6, 1): "3.5"}, {(6, 1): Fraction(7, 2)})
    assert len(ledger) == 1
