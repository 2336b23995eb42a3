"""Bad input, refused clearly: every invalid argument raises ValueError or TypeError, before any
work, with a message that names the argument; and no public argument is left out of the table."""

import importlib
import pkgutil

import pytest

import bad_input
from bad_input import case_id, declared_rows, public_arguments, qualified

MODULES = [
    importlib.import_module(f"bad_input.{m.name}")
    for m in pkgutil.iter_modules(bad_input.__path__)
    if m.name.startswith("rows_")
]
ROWS = [row for module in MODULES for row in module.ROWS] + declared_rows()
EXEMPT = {key: why for module in MODULES for key, why in module.EXEMPT.items()}
CASES = [(row, value) for row in ROWS for value in row.values]


@pytest.mark.parametrize(
    ("row", "value"),
    CASES,
    ids=[case_id(row, value) for row, value in CASES],
)
def test_bad_input_is_refused_by_name(row, value):
    with pytest.raises((ValueError, TypeError)) as err:
        row.call(value)
    message = str(err.value)
    assert row.arg in message, (
        f"{row.target.__qualname__}({row.arg}={value!r}) raised {type(err.value).__name__}: "
        f"{message!r}, not naming {row.arg!r}"
    )


def test_every_public_argument_has_a_row():
    covered = {(qualified(row.target), row.arg) for row in ROWS}
    missing = [
        f"{name}:{arg}"
        for name, args in public_arguments().items()
        if name not in EXEMPT
        for arg in args
        if (name, arg) not in covered and f"{name}:{arg}" not in EXEMPT
    ]
    assert not missing, f"{len(missing)} public arguments have no bad-input row: {missing}"


def test_rows_and_exemptions_name_real_arguments():
    api = public_arguments()
    for row in ROWS:
        name = qualified(row.target)
        assert row.arg in api.get(name, []), f"row for {name}:{row.arg}: no such public argument"
    for key in EXEMPT:
        name, _, arg = key.partition(":")
        assert name in api and (not arg or arg in api[name]), f"exemption {key}: no such callable"

