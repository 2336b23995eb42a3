"""Run one student notebook where it can reach nothing but its own throwaway folder.

The grader (``homework/grade.py``) never runs student code in its own process and never trusts
what the student's kernel says about itself. For each submission it makes a fresh folder holding
only a copy of the notebook's code, with one cell added at the end that writes the named answers
as data (``answers.json``: exact numbers as ``"p/q"`` strings, see :func:`dicelab.course.homework.encode`),
and runs it with :func:`run` inside a sandbox:

* **bubblewrap** (``bwrap``): new mount, PID, network, IPC and UTS namespaces. The sandbox sees the
  system's programs and libraries, the Python environment and the ``dicelab`` package read-only,
  and one writable folder (the copy). Not the repository, not the answer keys or the autograders,
  not the other submissions, not the grades. No network (only its own loopback).
* **an unprivileged user** (``nobody``) inside it, with ``setrlimit`` limits: address space
  (memory), processes, file size, CPU seconds.
* **time limits**: one per cell (the kernel's execution timeout) and one for the whole notebook,
  after which the sandbox is killed. Everything the notebook started dies with it: the sandbox is
  its own PID namespace and dies with the grader (``--die-with-parent``).
* **a copy of the compiled kernels**: the build's numba cache (written when the worked solutions
  ran, :data:`NUMBA_CACHE`) is copied for each notebook and mounted writable at ``/numba``, so the
  ``dicelab`` kernels load instead of compiling again (tens of seconds a notebook). A notebook can
  change its own copy only.

What the sandbox produces is read back as data only (:func:`dicelab.course.homework.decode_untrusted`):
a patched checker, a lying object or a forged file can at most claim answers, which the grader
then compares with a key the sandbox never saw.

What is not isolated: the sandbox shares the machine's kernel (a kernel exploit is out of scope;
use containers or a VM for hostile classes), reads the system's files that every user may read
(``/usr``, ``/etc``), and can use its CPU and memory limits in full while it runs.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOBODY = 65534
CELL_SECONDS = 120  # one cell
NOTEBOOK_SECONDS = 600  # the whole notebook, start-up included
MEMORY_BYTES = 4 * 2**30  # address space per process
PROCESSES = 256  # processes of the sandbox's user
FILE_BYTES = 64 * 2**20  # largest file it may write
NUMBA_CACHE = ".numba-cache"  # in the build folder: the kernels the worked solutions compiled


@dataclass(frozen=True)
class Limits:
    cell_seconds: int = CELL_SECONDS
    notebook_seconds: int = NOTEBOOK_SECONDS
    memory_bytes: int = MEMORY_BYTES
    processes: int = PROCESSES
    file_bytes: int = FILE_BYTES


@dataclass(frozen=True)
class Outcome:
    """How the sandboxed run ended: ``status`` is ``ok``, ``timeout`` or ``failed`` (with ``detail``)."""

    status: str
    detail: str = ""


def bwrap() -> str:
    """The bubblewrap executable, or a clear error saying how to install it."""
    found = shutil.which("bwrap")
    if not found:
        raise RuntimeError(
            "grading needs bubblewrap (bwrap) to isolate each notebook: "
            "`sudo apt-get install bubblewrap` (make grade installs it when run as root)"
        )
    return found


def _read_only_roots() -> list[Path]:
    """What the sandbox may read: the interpreter, the environment, the package, its data and the
    file that marks the repository's root (``dicelab.course.paths.repo_root``) — no solutions, no keys."""
    import dicelab

    package = Path(dicelab.__file__).resolve().parent
    roots = [Path(sys.prefix), Path(sys.base_prefix), package, ROOT / "notebooks" / "data",
             ROOT / "pyproject.toml"]
    real = Path(os.path.realpath(sys.executable)).parents[1]
    roots.append(real)
    return sorted({r for r in roots if r.exists()}, key=str)


def command(folder: Path, limits: Limits, numba: Path | None = None) -> list[str]:
    """The command that runs ``folder/run.py`` in the sandbox (see the module docstring), with
    ``numba`` (a writable copy of the compiled kernels, or None) as its numba cache."""
    args = [bwrap(), "--die-with-parent", "--new-session",
            "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for system in ("/usr", "/bin", "/lib", "/lib64", "/sbin", "/etc"):
        if Path(system).exists():
            args += ["--ro-bind", system, system]
    roots = _read_only_roots()
    parents = sorted({p for r in roots for p in r.parents if str(p) != "/"} - set(roots), key=str)
    for parent in parents:  # every folder on the way traversable by the sandbox's user, and empty
        if not any(str(parent).startswith(system) for system in ("/usr", "/bin", "/lib", "/sbin", "/etc")):
            args += ["--perms", "0755", "--dir", str(parent)]
    for root in roots:
        args += ["--ro-bind", str(root), str(root)]
    if numba is not None:
        args += ["--bind", str(numba), "/numba"]
    args += ["--bind", str(folder), "/grading", "--chdir", "/grading", "--clearenv",
             "--setenv", "HOME", "/grading",
             "--setenv", "PATH", f"{Path(sys.executable).parent}:/usr/bin:/bin",
             "--setenv", "MPLCONFIGDIR", "/tmp", "--setenv", "MPLBACKEND", "Agg",
             "--setenv", "NUMBA_CACHE_DIR", "/numba" if numba is not None else "/tmp",
             "--setenv", "DICELAB_OUTPUT_DIR", "/tmp/dicelab",
             "--setenv", "JUPYTER_PLATFORM_DIRS", "1", "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
             *(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--inh-caps=-all"]
               if os.geteuid() == 0 else []),
             "prlimit", f"--as={limits.memory_bytes}", f"--nproc={limits.processes}",
             f"--fsize={limits.file_bytes}", f"--cpu={limits.notebook_seconds}", "--core=0",
             sys.executable, "-I", "/grading/run.py", str(limits.cell_seconds)]
    return args


RUNNER = '''"""Execute notebook.ipynb in a fresh kernel, every cell, errors allowed (inside the sandbox)."""
import sys
import nbformat
from nbclient import NotebookClient
nb = nbformat.read("notebook.ipynb", as_version=4)
client = NotebookClient(nb, timeout=int(sys.argv[1]), kernel_name="python3", allow_errors=True,
                        interrupt_on_timeout=True, resources={"metadata": {"path": "/grading"}})
try:
    client.execute()
except Exception as err:  # a dead kernel or a cell over its time: the answers so far still count
    print(f"dicelab-grade: {type(err).__name__}: {str(err).strip().splitlines()[0][:300]}", file=sys.stderr)
stopped = sum(o.get("ename") == "KeyboardInterrupt" for c in nb.cells for o in c.get("outputs", []))
if stopped:
    print(f"dicelab-grade: {stopped} cell(s) stopped at the {sys.argv[1]} s limit of a cell", file=sys.stderr)
nbformat.write(nb, "executed.ipynb")
'''


def run(notebook, folder: Path, limits: Limits = Limits(), numba_cache: Path | None = None) -> Outcome:
    """Run ``notebook`` (an ``nbformat`` notebook) in the sandbox, in ``folder`` (made writable for
    the sandbox's user); its files stay in ``folder`` for the grader to read as data.

    ``numba_cache`` (the build's, written by the worked solutions) is copied beside ``folder`` and the
    copy is the sandbox's numba cache: the ``dicelab`` kernels the course compiled load instead of
    compiling again in every notebook. The sandbox may change its copy, never the build's."""
    import nbformat

    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / "notebook.ipynb")
    (folder / "run.py").write_text(RUNNER)
    numba = None
    if numba_cache is not None and numba_cache.is_dir():
        numba = folder.with_name(folder.name + "-numba")
        shutil.copytree(numba_cache, numba, symlinks=False)
    if os.geteuid() == 0:  # the sandbox's user owns its folder and its cache, and nothing else
        for path in (folder, *folder.iterdir()):
            os.chown(path, NOBODY, NOBODY)
        for path in (numba, *numba.rglob("*")) if numba is not None else ():
            os.chown(path, NOBODY, NOBODY)
    proc = subprocess.Popen(command(folder, limits, numba), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=limits.notebook_seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return Outcome("timeout", f"stopped after {limits.notebook_seconds} s")
    said = [line.removeprefix("dicelab-grade: ") for line in err.splitlines()
            if line.startswith("dicelab-grade: ")]
    if said:
        return Outcome("failed", said[-1])
    if proc.returncode:
        return Outcome("failed", f"the sandbox ended with exit code {proc.returncode}")
    return Outcome("ok")
