"""Every game's solvers answer in the same words: each public ``solve_*`` of a game returns a result
that follows :class:`dicelab.core.solution.Solved`, checked here on the small example the solver
declares (``@validated(..., example=...)``)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import dicelab
from dicelab.core.solution import Solved

GAMES = ("efron", "badg", "pig", "wimpout")


def _solvers():
    found = {}
    for game in GAMES:
        package = importlib.import_module(f"dicelab.{game}")
        names = [package.__name__] + [
            m.name for m in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
            if not any(part.startswith("_") for part in m.name.split("."))
        ]
        for module in map(importlib.import_module, names):
            for name, obj in vars(module).items():
                if (name == "solve" or name.startswith("solve_")) and inspect.isfunction(obj) \
                        and obj.__module__ == module.__name__:
                    found[f"{obj.__module__}.{name}"] = obj
    return found


SOLVERS = _solvers()


def test_every_game_with_decisions_has_solvers():
    games = {name.split(".")[1] for name in SOLVERS}
    assert games >= {"badg", "pig", "wimpout"}, sorted(SOLVERS)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_solver_result_follows_the_protocol(name):
    solver = SOLVERS[name]
    assert hasattr(solver, "__example__"), f"{name} declares no example (dicelab.core.spec.validated)"
    result = solver(**solver.__example__)
    assert isinstance(result, Solved), f"{name} returns {type(result).__name__}, missing members of Solved"
    assert result.value_at(result.start) == result.value
    assert result.values is not None and result.policy is not None and callable(result.best_action)
    # where the game decides (a state, or a state and a roll), best_action agrees with the policy: each
    # game's own tests check it on every state of its example



def test_protocol_names_are_the_documented_ones():
    members = {name for name in dir(Solved) if not name.startswith("_")}
    assert members == {"start", "value", "values", "policy", "value_at", "best_action"}
    assert all(f"``{m}" in dicelab.core.solution.__doc__ for m in members)
