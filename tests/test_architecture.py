"""The package's shape, read from its import statements (see CONTRIBUTING.md, "The layers").

- Three layers: ``dicelab.core`` imports no game and no course module; a game imports the core and
  its own modules only; ``dicelab.course`` sits on top.
- No import cycles between modules, counting imports inside functions.
- No private name (``_x``) imported from another module, except from a private module (``_x.py``)
  of the same subpackage: each game's documented internals (e.g. ``dicelab/pig/_common.py``).
- No production module imports a ``reference`` module (the slow, literal methods of the papers,
  which the tests and the chapters compare against).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dicelab"
GAMES = ("efron", "badg", "pig", "wimpout")


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path):
    """(imported module, imported name or None) for every import of a dicelab module in ``name``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    yield alias.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("dicelab"):
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                if submodule in MODULES:
                    yield submodule, None
                elif target in MODULES:
                    yield target, alias.name


def _layer(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "dicelab"


EDGES = {name: sorted(set(_imports(name, path)), key=str) for name, path in MODULES.items()}


def test_layers_point_down():
    allowed = {"dicelab": {"dicelab"}, "core": {"core"}, "course": {"core", "course", *GAMES}}
    allowed |= {game: {"core", game} for game in GAMES}
    wrong = [
        f"{name} imports {target}"
        for name, targets in EDGES.items()
        for target, _ in targets
        if _layer(target) not in allowed[_layer(name)]
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles():
    graph = {name: {t for t, _ in targets if t != name} for name, targets in EDGES.items()}
    # a package's __init__ re-exports its modules: an edge back to the package is no cycle of logic
    graph = {name: {t for t in ts if not name.startswith(t + ".")} for name, ts in graph.items()}
    cycles, state = [], {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "\n".join(cycles)


def _is_shared_internals(source: str, importer: str) -> bool:
    """A private module (``_x.py``) of the importer's own subpackage, with a docstring saying what it is."""
    same_package = source.rpartition(".")[0] == importer.rpartition(".")[0] or importer.startswith(
        source.rpartition(".")[0] + "."
    )
    return source.rpartition(".")[2].startswith("_") and same_package and bool(
        ast.get_docstring(ast.parse(MODULES[source].read_text()))
    )


def test_no_private_names_across_modules():
    found = [
        f"{name} imports {target}.{imported}"
        for name, targets in EDGES.items()
        for target, imported in targets
        if imported and imported.startswith("_") and target != name and not _is_shared_internals(target, name)
    ]
    assert not found, f"{len(found)} private imports:\n" + "\n".join(found)


@pytest.mark.parametrize("game", GAMES)
def test_production_code_never_imports_reference(game):
    found = [
        f"{name} imports {target}"
        for name, targets in EDGES.items()
        if _layer(name) == game and not name.endswith(".reference")
        for target, _ in targets
        if target.endswith(".reference")
    ]
    assert not found, "\n".join(found)
