"""Bad-input rows: dicelab.core.exact, claims, notebook, paths and plotting."""

from fractions import Fraction

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from bad_input import BOOLS, FLOATS, Row  # noqa: E402
from dicelab.core import checks, exact  # noqa: E402
from dicelab.course import claims, notebook, paths, plotting  # noqa: E402
from dicelab.course.claims import Claim, Ledger  # noqa: E402

FIG, AX = plt.subplots()
plt.close(FIG)
GRAPH = {"A": (0, 0), "B": (1, 0)}
SUMMARY = claims.summarize(paths.repo_root() / "results")
NB = {"cells": []}
NOT_TEXT = [None, 3, ["a"]]
NOT_POSITIVE = [0, -1.0, *FLOATS]
NOT_COLOUR = ["not-a-colour", None, True, 3]


def claim(**kw):
    args = {"where": "T", "what": "w", "paper": 1, "ours": 1} | kw
    return Claim(**args)


def table(**kw):
    args = {"where": "T", "what": "P({key})", "paper": {1: "0.5"}, "ours": {1: Fraction(1, 2)}} | kw
    return Ledger("x").add_table(**args)


ROWS = [
    # exact
    Row(
        exact.to_fraction,
        "x",
        [None, "abc", "1/0", 0.5, float("nan"), True, [1]],
        lambda v: exact.to_fraction(v, "x"),
    ),
    Row(exact.to_fraction, "name", NOT_TEXT + [""], lambda v: exact.to_fraction(1, v)),
    Row(exact.to_fraction, "allow_float", BOOLS, lambda v: exact.to_fraction(0.5, allow_float=v)),
    Row(
        exact.to_sympy, "x", [None, float("nan"), float("inf"), [None], object()], lambda v: exact.to_sympy(v)
    ),
    Row(exact.latex_table, "rows", [None, 3, "ab", [], [3]], lambda v: exact.latex_table(v)),
    Row(exact.latex_table, "header", [3, "ab", []], lambda v: exact.latex_table([[1]], header=v)),
    Row(exact.latex_table, "align", ["cc", "x", 3, ""], lambda v: exact.latex_table([[1]], align=v)),
    Row(exact.Math, "latex", NOT_TEXT + [""], lambda v: exact.Math(v)),
    Row(
        exact.show_exact, "digits", [0, -1, 2.5, "3", True, 10**6], lambda v: exact.show_exact(digits=v, p=1)
    ),
    # claims
    Row(claims.printed_number, "text", NOT_TEXT + [0.5], lambda v: claims.printed_number(v)),
    Row(
        claims.agrees_as_printed,
        "printed",
        NOT_TEXT + ["abc", 0.667],
        lambda v: claims.agrees_as_printed(v, 1),
    ),
    Row(
        claims.agrees_as_printed,
        "ours",
        [None, "abc", float("nan"), True],
        lambda v: claims.agrees_as_printed("1", v),
    ),
    Row(claims.power_of_ten_slip, "printed", NOT_TEXT, lambda v: claims.power_of_ten_slip(v, 1)),
    Row(
        claims.power_of_ten_slip,
        "ours",
        [None, "abc", float("inf")],
        lambda v: claims.power_of_ten_slip("1", v),
    ),
    Row(claims.compare, "paper", [float("nan"), 0.5], lambda v: claims.compare(v, 1)),
    Row(claims.compare, "ours", [float("nan"), float("inf")], lambda v: claims.compare(1, v)),
    Row(claims.compare, "tol", [-1, "x", float("nan")], lambda v: claims.compare(1, 1, tol=v)),
    Row(claims.compare, "where", NOT_TEXT + [""], lambda v: claims.compare(1, 1, where=v)),
    Row(Claim, "where", NOT_TEXT + [""], lambda v: claim(where=v)),
    Row(Claim, "what", NOT_TEXT + [""], lambda v: claim(what=v)),
    Row(Claim, "paper", [float("nan"), 0.5], lambda v: claim(paper=v)),
    Row(Claim, "ours", [float("nan"), float("-inf")], lambda v: claim(ours=v)),
    Row(Claim, "tol", [-1, "x"], lambda v: claim(tol=v)),
    Row(Claim, "erratum", [3, "", ["a"]], lambda v: claim(erratum=v)),
    Row(Claim, "note", [3, "", ["a"]], lambda v: claim(note=v)),
    Row(Ledger, "name", ["", "a/b", None, 3], lambda v: Ledger(v)),
    Row(Ledger.add, "where", NOT_TEXT + [""], lambda v: Ledger("x").add(v, "w", paper=1, ours=1)),
    Row(Ledger.add, "what", NOT_TEXT + [""], lambda v: Ledger("x").add("T", v, paper=1, ours=1)),
    Row(Ledger.add, "paper", [float("nan"), 0.5], lambda v: Ledger("x").add("T", "w", paper=v, ours=1)),
    Row(Ledger.add, "ours", [float("nan")], lambda v: Ledger("x").add("T", "w", paper=1, ours=v)),
    Row(Ledger.add, "tol", [-1, "x"], lambda v: Ledger("x").add("T", "w", paper=1, ours=1, tol=v)),
    Row(Ledger.add, "erratum", [3, ""], lambda v: Ledger("x").add("T", "w", paper=1, ours=2, erratum=v)),
    Row(Ledger.add, "note", [3, ""], lambda v: Ledger("x").add("T", "w", paper=1, ours=1, note=v)),
    Row(Ledger.add_table, "where", NOT_TEXT + [""], lambda v: table(where=v)),
    Row(Ledger.add_table, "what", NOT_TEXT + [""], lambda v: table(what=v)),
    Row(Ledger.add_table, "paper", [None, 3, [1, 2]], lambda v: table(paper=v)),
    Row(Ledger.add_table, "ours", [None, 3, [1, 2]], lambda v: table(ours=v)),
    Row(Ledger.add_table, "tol", [-1, "x"], lambda v: table(tol=v)),
    Row(Ledger.add_table, "errata", ["typo", 3], lambda v: table(errata=v)),
    Row(Ledger.add_table, "note", [3, ""], lambda v: table(note=v)),
    Row(claims.read_ledger, "path", [None, 3, ["a.csv"]], lambda v: claims.read_ledger(v)),
    Row(claims.check_ledger, "frame", [None, "a.csv", [1]], lambda v: claims.check_ledger(v)),
    Row(claims.summarize, "results_dir", [3, ["results"], "/no/such/folder"], lambda v: claims.summarize(v)),
    Row(
        claims.summary_markdown, "summary", [None, "x", pd.DataFrame()], lambda v: claims.summary_markdown(v)
    ),
    Row(
        claims.readme_with_summary, "readme_text", NOT_TEXT, lambda v: claims.readme_with_summary(v, SUMMARY)
    ),
    Row(
        claims.readme_with_summary,
        "summary",
        [None, pd.DataFrame()],
        lambda v: claims.readme_with_summary("", v),
    ),
    # notebook
    Row(notebook.fast_mode, "fast", [b for b in BOOLS if b is not None], lambda v: notebook.fast_mode(v)),
    Row(notebook.check_parameters, "history", [3, "text", [3]], lambda v: notebook.check_parameters(v)),
    Row(notebook.check_parameter, "name", NOT_TEXT + [""], lambda v: notebook.check_parameter(v, 1, 0)),
    Row(
        notebook.check_parameter,
        "value",
        [True, 2.0, "3", None, -1],
        lambda v: notebook.check_parameter("value", v, 0),
    ),
    Row(notebook.start_chapter, "name", ["", "a/b", None, 3], lambda v: notebook.start_chapter(v, True)),
    Row(notebook.start_chapter, "fast", ["False", 1, 2.5], lambda v: notebook.start_chapter("x", v)),
    Row(
        notebook.merge_streams,
        "notebook",
        [None, [], {"cells": 3}, "nb"],
        lambda v: notebook.merge_streams(v),
    ),
    Row(notebook.drop_widget_state, "notebook", [None, [], {}], lambda v: notebook.drop_widget_state(v)),
    Row(
        notebook.fold_cells,
        "notebook",
        [None, [], {}, {"cells": [1]}, {"cells": [{"cell_type": "code", "metadata": {"tags": "audit"}}]},
         {"cells": [{"cell_type": "code", "metadata": {"tags": ["audit", "prose"]}}]}],
        lambda v: notebook.fold_cells(v),
    ),
    Row(notebook.jupyterlab_form, "notebook", [None, [], {}, {"cells": [3]}], lambda v: notebook.jupyterlab_form(v)),  # fmt: skip  # noqa: E501
    Row(notebook.normalise, "notebook", [None, [], {}, {"cells": [3]}], lambda v: notebook.normalise(v)),
    Row(notebook.notebook_text, "notebook", [None, [], {}, {"cells": [3]}], lambda v: notebook.notebook_text(v)),  # fmt: skip  # noqa: E501
    # paths
    Row(paths.output_dir, "kind", ["tables", None, 3], lambda v: paths.output_dir(v)),
    Row(paths.atomic_write, "path", [None, 3], lambda v: paths.atomic_write(v, print)),
    Row(
        paths.atomic_write,
        "write",
        [None, "text"],
        lambda v: paths.atomic_write(paths.output_root() / "x", v),
    ),
    # plotting
    Row(plotting.save_figure, "fig", [None, AX, "fig"], lambda v: plotting.save_figure(v, "x")),
    Row(
        plotting.save_figure,
        "name",
        ["", "a/b.png", "a.png", None, 3],
        lambda v: plotting.save_figure(FIG, v),
    ),
    Row(
        plotting.save_figure,
        "alt",
        [3, "", "too short", "figures/01_efron_dice.png"],
        lambda v: plotting.save_figure(FIG, "x", alt=v),
    ),
    Row(plotting.show_figure, "fig", [None, AX, "fig"],
        lambda v: plotting.show_figure(v, "x", alt="A figure of nothing in particular.")),
    Row(plotting.show_figure, "name", ["", "a/b.png", "a.png", None, 3],
        lambda v: plotting.show_figure(FIG, v, alt="A figure of nothing in particular.")),
    Row(plotting.show_figure, "alt", [None, 3, "", "too short", "figures/01_efron_dice.png"],
        lambda v: plotting.show_figure(FIG, "x", alt=v)),
    Row(plotting.describe, "fig", [None, AX, "fig"], lambda v: plotting.describe(v, "A figure of nothing in particular.")),  # fmt: skip  # noqa: E501
    Row(
        plotting.describe,
        "alt",
        [None, 3, "", "   ", "too short", "figures/01_efron_dice.png", "a figure named 01_efron.PNG"],
        lambda v: plotting.describe(FIG, v),
    ),
    Row(plotting.draw_die_face, "ax", [None, FIG, "ax"], lambda v: plotting.draw_die_face(v, 1)),
    Row(plotting.draw_die_face, "value", [None, True, 2.5, [1]], lambda v: plotting.draw_die_face(AX, v)),
    Row(
        plotting.draw_die_face,
        "xy",
        [None, 0, (1,), (1, 2, 3), ("a", 1), (float("nan"), 0)],
        lambda v: plotting.draw_die_face(AX, 1, v),
    ),
    Row(plotting.draw_die_face, "size", NOT_POSITIVE, lambda v: plotting.draw_die_face(AX, 1, size=v)),
    Row(plotting.draw_die_face, "color", NOT_COLOUR, lambda v: plotting.draw_die_face(AX, 1, color=v)),
    Row(
        plotting.draw_die_face, "pip_color", NOT_COLOUR, lambda v: plotting.draw_die_face(AX, 1, pip_color=v)
    ),
    Row(plotting.draw_die_face, "text", [3, ["a"]], lambda v: plotting.draw_die_face(AX, 1, text=v)),
    Row(plotting.draw_digraph, "ax", [None, FIG], lambda v: plotting.draw_digraph(v, GRAPH, [])),
    Row(
        plotting.draw_digraph,
        "pos",
        [None, {}, [(0, 0)], {"A": 0}, {"A": (0, "y")}],
        lambda v: plotting.draw_digraph(AX, v, []),
    ),
    Row(
        plotting.draw_digraph,
        "edges",
        [None, 3, "AB", [("A",)], [("A", "C", "")], [("A", "B", "", 3)]],
        lambda v: plotting.draw_digraph(AX, GRAPH, v),
    ),
    Row(
        plotting.draw_digraph,
        "node_color",
        NOT_COLOUR,
        lambda v: plotting.draw_digraph(AX, GRAPH, [], node_color=v),
    ),
    Row(
        plotting.draw_digraph,
        "radius",
        NOT_POSITIVE,
        lambda v: plotting.draw_digraph(AX, GRAPH, [], radius=v),
    ),
    Row(plotting.draw_digraph, "curved", FLOATS, lambda v: plotting.draw_digraph(AX, GRAPH, [], curved=v)),
    Row(
        plotting.draw_digraph,
        "fontsize",
        NOT_POSITIVE,
        lambda v: plotting.draw_digraph(AX, GRAPH, [], fontsize=v),
    ),
    Row(
        plotting.draw_digraph,
        "labels",
        [["A"], {"A": 1}, {"C": "c"}],
        lambda v: plotting.draw_digraph(AX, GRAPH, [], labels=v),
    ),
]

ROWS += [
    Row(paths.data_dir, "name", ["", "..", "a/b", 3, None, "99_none"], lambda v: paths.data_dir(v)),
]

EXEMPT = {
    **{
        f"dicelab.core.checks.{name}": "an argument check itself: dicelab calls it with names and ranges "
        "it states (tested in test_valid_core)"
        for name in dir(checks)
        if name.startswith("check_") and callable(getattr(checks, name))
    },
    **{
        f"dicelab.core.spec.{name}": "a declaration of what an argument may be, written by dicelab's own "
        "modules; its checks are the ones tried here on every declared argument"
        for name in ("Spec", "Int", "Real", "Bool", "OneOf", "Text", "Items", "Check", "validated")
    },
    "dicelab.core.sample.Sample": "a result record built by a simulate(); its methods read a column by "
    "name, and a name it did not measure is a KeyError listing the columns",
    "dicelab.core.sample.Sample.mean": "reads a column by name (see Sample)",
    "dicelab.core.sample.Sample.stderr": "reads a column by name (see Sample)",
    "dicelab.core.sample.Sample.share": "reads a column by name (see Sample)",
    "dicelab.core.sample.Sample.counts": "reads a column by name (see Sample)",
    "dicelab.core.solution.Solved.value_at": "a protocol: each solver's result checks its own states",
    "dicelab.core.solution.Solved.best_action": "a protocol: each solver's result checks its own states",
    "dicelab.core.markov.simulation_cost": "a cost estimate dicelab computes from sizes it has checked",
    "dicelab.course.claims.main": "the command line (python -m dicelab.course.claims): argparse reports "
    "bad arguments",
    "dicelab.course.notebook.main": "the command line (python -m dicelab.course.notebook): argparse "
    "reports bad arguments",
    "dicelab.course.notebook.pre_save_hook": "called by Jupyter on every save: anything but a notebook "
    "model is saved unchanged, never refused",
}
ROWS += [
    Row(notebook.check_parameter, "low", [None, 1.5, "0"], lambda v: notebook.check_parameter("n", 1, v)),
    Row(notebook.check_parameter, "high", [1.5, "9"], lambda v: notebook.check_parameter("n", 1, 0, v)),
]

# malformed notebooks, entries named by their argument, missing files and folders, unknown styles
ROWS += [
    Row(
        notebook.merge_streams,
        "notebook",
        [
            {"cells": [1, 2]},
            {"cells": [{"outputs": 5}]},
            {"cells": [{"outputs": [{"output_type": "stream", "text": 5}] * 2}]},
        ],
        lambda v: notebook.merge_streams(v),
    ),
    Row(
        notebook.drop_widget_state,
        "notebook",
        [
            {"cells": [1, 2]},
            {"cells": [{"outputs": 5}]},
            {"cells": [{"outputs": [{"data": 5}]}]},
            {"cells": [], "metadata": 3},
        ],
        lambda v: notebook.drop_widget_state(v),
    ),
    Row(
        exact.latex_table,
        "rows",
        [[[float("nan")]], [[object()]], [[{1: 2}]]],
        lambda v: exact.latex_table(v),
    ),
    Row(
        exact.latex_table,
        "header",
        [[float("nan")], [object()]],
        lambda v: exact.latex_table([[1]], header=v),
    ),
    Row(exact.to_sympy, "x", [{1: 2}, {1}], lambda v: exact.to_sympy(v)),
    Row(Ledger.add, "ours", [None, object()], lambda v: Ledger("x").add("T", "w", paper="1.0", ours=v)),
    Row(Claim, "ours", [None], lambda v: claim(paper="1.0", ours=v)),
    Row(Ledger.add_table, "what", ["{nokey}", "P({0})", "{key", "{key.real.x}"], lambda v: table(what=v)),
    Row(
        claims.read_ledger,
        "path",
        ["/no/such/ledger.csv", paths.repo_root()],
        lambda v: claims.read_ledger(v),
    ),
    Row(
        paths.atomic_write,
        "path",
        [paths.output_root() / "no-such-folder" / "x.txt"],
        lambda v: paths.atomic_write(v, lambda p: p.write_text("x")),
    ),
    Row(plotting.save_figure, "name", ["a" * 100_000, "a" * 256], lambda v: plotting.save_figure(FIG, v)),
    Row(
        plotting.draw_digraph,
        "edges",
        [[("A", "B", "", {"no_such_style": 1})], [("A", "B", "", {"arrowstyle": "wiggle"})]],
        lambda v: plotting.draw_digraph(AX, GRAPH, v),
    ),
]

ROWS += [  # exact numbers of ten million digits, refused before they are written out
    Row(exact.to_fraction, "x", ["1e10000000", "-1E-10000000"], lambda v: exact.to_fraction(v, "x")),
    Row(claims.printed_number, "text", ["1e10000000", "2.5e-9999999"], lambda v: claims.printed_number(v)),
    Row(
        Ledger.add, "paper", ["1e10000000"], lambda v: Ledger("x").add("T", "w", paper=v, ours=1, erratum="e")
    ),
]

ROWS += [
    Row(paths.chapter_output_bytes, "name", ["", "a/b", None, 3, ["02_badg"]], paths.chapter_output_bytes),
    Row(paths.check_free_space, "nbytes", [-1, 2.5, "3", True, None, [1]], paths.check_free_space),
]
