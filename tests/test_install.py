"""The package as a user installs it: every runtime import declared, every module importable
from a plain (non-editable) install."""

import ast
import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dicelab"


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def third_party_imports():
    names = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "dicelab"}


def test_every_runtime_import_is_declared():
    declared = {
        re.match(r"[A-Za-z0-9_.-]+", d).group(0).lower().replace("_", "-")
        for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    }
    dists = importlib.metadata.packages_distributions()
    for name in sorted(third_party_imports()):
        providers = {d.lower().replace("_", "-") for d in dists.get(name, [])}
        assert providers, f"dicelab imports {name}, which no installed distribution provides"
        assert providers & declared, (
            f"dicelab imports {name} ({providers}) but pyproject.toml does not declare it"
        )


@pytest.mark.install
def test_a_plain_install_imports_every_module(tmp_path):
    target = tmp_path / "site"
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert build.returncode == 0, build.stderr
    names = list(modules())
    code = (
        f"import importlib, sys\nsys.path.insert(0, {str(target)!r})\n"
        "for m in sys.argv[1:]:\n    importlib.import_module(m)\n"
        "import dicelab\nprint(dicelab.__file__)"
    )
    run = subprocess.run([sys.executable, "-c", code, *names], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().startswith(str(target)), (
        f"imported {run.stdout.strip()}, not the installed copy"
    )


def test_every_public_function_has_a_runnable_example():
    import importlib
    import inspect

    missing = []
    for name in modules():
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr)
            doc = inspect.getdoc(obj) or ""
            if inspect.isfunction(obj) and ">>>" not in doc:
                missing.append(f"{name}.{attr}: no example")
            elif inspect.isclass(obj) and not doc:
                missing.append(f"{name}.{attr}: no docstring")
    assert not missing, "\n".join(missing)
