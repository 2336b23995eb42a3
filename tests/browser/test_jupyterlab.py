"""The course in a real JupyterLab, started as ``make lab`` starts it, driven in headless Chromium.

JupyterLab runs the command ``make -n lab`` prints (the repository's root, the course guide as
its first page, the pre-save hook), on a copy of ``notebooks/`` and ``solutions/`` in a temporary
folder, with a token and a free port. Then, as a student would:

- the lab opens on the course guide, and its links to a chapter, from the chapter to its worked
  solutions and the explorers, and from the solutions back, each open their notebook;
- every notebook, opened and its kernel started, is not marked changed; a chapter shows its
  exercises as boxes (jupyterlab-myst), each with one closed hint dropdown, and no MyST fence
  (``:::``) is left as text; a solutions notebook restates its exercises in boxes;
- saved then with JupyterLab's own save button without an edit, it is written back byte for byte
  (the committed form is JupyterLab's: ``dicelab.course.notebook normalise``).

A screenshot of a chapter's first exercises goes to ``BOOK_SHOTS`` (``lab-NAME-exercises.png``).
Run by ``make test-browser``; cells render in full (the notebook's windowing is off in the
test's own settings), and each notebook's kernel is shut down once it is checked.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="pip install -r requirements.txt")

from test_site import SHOTS, chromium  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "dicelab-browser-test"
NOTEBOOKS = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("solutions/*.ipynb"))
CHAPTERS = sorted(ROOT.glob("notebooks/0[1-9]_*.ipynb"))
SOLUTIONS = sorted(ROOT.glob("solutions/*.ipynb"))
# JupyterLab's settings for the test: every cell drawn (no windowing), no news pop-up.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false"},
}

WAIT_IDLE_JS = """async () => {
  // the kernel has started (JupyterLab then writes its spec into the notebook) and MyST is drawn
  for (let k = 0; k < 600; k++) {
    const status = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Toolbar-kernelStatus');
    const bar = document.querySelector('#jp-main-statusbar')?.textContent || '';
    if (/\\|\\s*Idle/.test(bar) || status?.getAttribute('data-status') === 'idle') return true;
    await new Promise(r => setTimeout(r, 250));
  }
  return false;
}"""

# Each markdown cell of the open notebook brought into view, so that it is drawn; then what it shows.
MARKDOWN_JS = """async () => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const cells = Array.from(panel.querySelectorAll('.jp-MarkdownCell'));
  for (const c of cells) { c.scrollIntoView(); await new Promise(r => setTimeout(r, 30)); }
  await new Promise(r => setTimeout(r, 1500));
  const drawn = cells.map(c => c.querySelector('.myst'));
  return {
    cells: cells.length,
    undrawn: drawn.filter(d => !d).length,
    text: drawn.filter(d => d).map(d => d.innerText).join('\\n'),
    boxes: Array.from(panel.querySelectorAll('aside.myst-admonition')).map(b => ({
      title: b.querySelector('.myst-admonition-header')?.innerText.trim() || '',
      hints: Array.from(b.querySelectorAll('details.myst-dropdown')).map(d => ({
        open: d.open, title: d.querySelector('summary')?.innerText.trim() || ''})),
    })),
  };
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lab_command() -> list[str]:
    """The command ``make lab`` runs, as ``make -n`` prints it."""
    lines = subprocess.run(["make", "-s", "-n", "lab"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.strip().splitlines()
    command = shlex.split(lines[-1])
    assert Path(command[0]).name == "jupyter" and command[1] == "lab", lines[-1]
    return command


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab as ``make lab`` starts it, on a copy of the notebooks: (base URL, its root)."""
    root = tmp_path_factory.mktemp("lab")
    for folder in ("notebooks", "solutions"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    settings = root.parent / f"{root.name}-settings"
    for name, value in SETTINGS.items():
        (settings / name).parent.mkdir(parents=True, exist_ok=True)
        (settings / name).write_text(json.dumps(value))
    command = lab_command()
    assert f"--ServerApp.root_dir={ROOT}" in command, "make lab serves the repository's root"
    assert "--LabApp.default_url=/lab/tree/notebooks/00_course_guide.ipynb" in command
    command = [c for c in command if not c.startswith("--ServerApp.root_dir=")]
    port = _free_port()
    command += [f"--ServerApp.root_dir={root}", f"--port={port}", "--no-browser",
                f"--IdentityProvider.token={TOKEN}", f"--LabApp.workspaces_dir={settings}-workspaces",
                "--LabApp.news_url=", "--ServerApp.port_retries=0"]
    env = os.environ | {"JUPYTERLAB_SETTINGS_DIR": str(settings), "DICELAB_OUTPUT_DIR": str(root / "out")}
    log = open(root.parent / f"{root.name}.log", "w")  # noqa: SIM115 - open for the server's life
    server = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={TOKEN}", timeout=5)
                break
            except OSError:
                if server.poll() is not None:
                    tail = (root.parent / f"{root.name}.log").read_text()[-2000:]
                    pytest.fail(f"JupyterLab stopped: {tail}")
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not answer within two minutes")
        yield base, root
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium(), headless=True)
        yield b
        b.close()


def _api(base: str, path: str, method: str = "GET"):
    """The server's REST API; a busy server's 500 or 404 (a file read while it is being saved: the
    server writes it anew) is asked again."""
    request = urllib.request.Request(f"{base}{path}?token={TOKEN}", method=method)
    for attempt in range(5):
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                body = answer.read()
            return json.loads(body) if body else None
        except urllib.error.HTTPError as err:
            if err.code < 500 or attempt == 4:
                raise
            time.sleep(1)


def shut_down_kernels(base: str) -> None:
    for session in _api(base, "/api/sessions"):
        _api(base, f"/api/sessions/{session['id']}", "DELETE")


def open_page(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(180_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    return page, errors


def current_tab(page) -> str:
    return page.evaluate("() => document.querySelector('.lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current "
                         ".lm-TabBar-tabLabel')?.textContent || ''")


def follow(page, target: str) -> list[str]:
    """Click the first drawn link of the open notebook to ``target`` (as written in the markdown, relative
    to the notebook); the notebook opens in its tab. jupyterlab-myst resolves the link to the server's
    ``/files/`` address of the file, which exists only when the lab serves the repository's root."""
    folder = Path(current_tab(page)).stem
    here = "solutions" if folder.endswith("_solutions") else "notebooks"
    resolved = os.path.normpath(f"{here}/{target}")
    link = page.locator(f".jp-NotebookPanel:not(.lm-mod-hidden) .myst a[href*='/files/{resolved}']").first
    if not link.count():
        return [f"no drawn link to {target} in {current_tab(page)}"]
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_timeout(500)
    name = target.rsplit("/", 1)[-1]
    try:
        page.wait_for_function("(name) => { const t = document.querySelector('.lm-DockPanel-tabBar "
                               ".lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel'); "
                               "return t && t.textContent === name; }", arg=name, timeout=60_000)
    except playwright_api.TimeoutError:
        return [f"the link to {target} did not open it (current tab: {current_tab(page)})"]
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    page.evaluate(WAIT_IDLE_JS)
    return []


def test_notebook_links_point_at_notebooks():
    """Every relative link to a notebook, in every notebook's markdown, names a file of the repository."""
    broken = []
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for target in re.findall(r"\]\(([^)#\s]+\.ipynb)", "".join(cell["source"])):
                if not (path.parent / target).resolve().is_file():
                    broken.append(f"{path.relative_to(ROOT)} -> {target}")
    assert not broken, "links to missing notebooks:\n  " + "\n  ".join(broken)


def test_lab_opens_on_the_guide_and_its_links_open_notebooks(lab, browser):
    base, _ = lab
    page, errors = open_page(browser, f"{base}/?token={TOKEN}")  # the server's front page: its default URL
    problems = []
    if current_tab(page) != "00_course_guide.ipynb":
        problems.append(f"make lab opens on {current_tab(page)!r}, not the course guide")
    page.evaluate(WAIT_IDLE_JS)
    for target in ("04_cosmic_wimpout.ipynb", "../solutions/04_cosmic_wimpout_solutions.ipynb",
                   "../notebooks/04_cosmic_wimpout.ipynb", "explorers.ipynb", "00_course_guide.ipynb"):
        problems += follow(page, target)
    page.close()
    shut_down_kernels(base)
    assert not problems and not errors, "\n  ".join(problems + errors)


def exercise_box_problems(page, path: Path) -> list[str]:
    """What is wrong with the exercise boxes of the open chapter or solutions notebook."""
    shown = page.evaluate(MARKDOWN_JS)
    for _ in range(120):  # MyST draws the cells some time after the notebook opens (later on a busy
        if not shown["undrawn"]:  # machine): wait for it, up to a minute
            break
        page.wait_for_timeout(500)
        shown = page.evaluate(MARKDOWN_JS)
    problems = []
    if shown["undrawn"]:
        problems.append(f"{shown['undrawn']} of {shown['cells']} markdown cells not drawn by MyST")
    fences = [line for line in shown["text"].splitlines() if re.match(r"\s*(:::|`{3,}\{)", line)
              or "{admonition}" in line or "{dropdown}" in line]
    problems += [f"MyST markup shown as text: {line.strip()[:80]!r}" for line in fences[:5]]
    exercises = [b for b in shown["boxes"] if b["title"].startswith("Exercise")]
    if path.parent.name == "notebooks":
        if len(exercises) < 8:
            problems.append(f"{len(exercises)} exercise boxes, at least 8 expected")
        problems += [f"{b['title']!r}: one closed hint dropdown expected, got {b['hints']}"
                     for b in exercises if len(b["hints"]) != 1 or b["hints"][0]["open"]
                     or not b["hints"][0]["title"].startswith("Hint")]
        box = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) aside.myst-admonition").first
        box.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        page.screenshot(path=str(SHOTS / f"lab-{path.stem}-exercises.png"))
    elif not exercises:
        problems.append("the solutions restate no exercise in a box")
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_in_jupyterlab(lab, browser, path):
    """Opened, its kernel started: not marked changed, its exercises drawn as boxes (chapters and
    solutions); then saved by JupyterLab's save button with no edit: the same bytes."""
    base, root = lab
    rel = path.relative_to(ROOT).as_posix()
    copy = root / rel
    page, errors = open_page(browser, f"{base}/lab/tree/{rel}?token={TOKEN}&reset")
    assert page.evaluate(WAIT_IDLE_JS), "the kernel did not start"
    page.wait_for_timeout(1000)
    dirty = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current.jp-mod-dirty").count()
    problems = exercise_box_problems(page, path) if path in CHAPTERS + SOLUTIONS else []
    save = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Toolbar [data-command='docmanager:save']"

    def is_save(response) -> bool:  # the server answers the save's PUT once the file is written
        return response.request.method == "PUT" and f"/api/contents/{rel}" in response.url

    with page.expect_response(is_save, timeout=120_000) as saved:
        page.locator(save).first.click()
    assert saved.value.ok, f"JupyterLab's save of {rel} was refused: HTTP {saved.value.status}"
    page.close()
    shut_down_kernels(base)
    assert not problems and not errors, f"{rel}:\n  " + "\n  ".join(problems + errors)
    assert not dirty, "opening the notebook marked it changed"
    if copy.read_bytes() != path.read_bytes():
        import difflib

        diff = difflib.unified_diff(path.read_text().splitlines(), copy.read_text().splitlines(),
                                    lineterm="", n=1)
        fix = "run `python -m dicelab.course.notebook normalise`"
        pytest.fail(f"{rel} saved by JupyterLab differs ({fix}):\n" + "\n".join(list(diff)[:30]))
