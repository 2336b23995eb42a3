"""Copy the course's public address from its one setting to every place that needs it.

The setting is ``repository: url:`` in ``book/_config.yml`` (e.g. ``https://github.com/OWNER/dicelab``).
This script turns the site's Binder and Colab buttons on when it is set (``launch_buttons:`` in the
same file; the theme cannot build them without an address, so they are off while it is empty)
and writes the address into

* README.md's launch links (between ``<!-- launch:start -->`` and ``<!-- launch:end -->``), and
* the first code cell of every chapter and solutions notebook, which clones and installs dicelab
  when it is missing (in Colab, say): its line ``REPOSITORY = "..."``.

Run from the repository root after changing the setting: ``python book/repository.py``;
``--check`` only reports what is out of date (``make book`` and the tests run it).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- launch:start -->", "<!-- launch:end -->"
LAUNCHERS = {"binderhub_url": "https://mybinder.org", "colab_url": "https://colab.research.google.com"}
GUARD = re.compile(r'^REPOSITORY = "[^"\n]*"', re.M)


def setting() -> tuple[str, str]:
    """The repository's address (``""`` while unset) and branch, from book/_config.yml."""
    repo = yaml.safe_load((ROOT / "book" / "_config.yml").read_text()).get("repository") or {}
    url = (repo.get("url") or "").strip().rstrip("/").removesuffix(".git")
    if url and not re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", url):
        raise SystemExit(f"book/_config.yml: repository.url must be https://github.com/OWNER/NAME,"
                         f" got {url!r}")
    return url, repo.get("branch") or "main"


def readme_block(url: str, branch: str) -> str:
    """README.md's launch links: Binder and Colab for each chapter, or how to get them."""
    if not url:
        return (f"{START}\nRun the chapters online (Binder, Colab): set `repository: url:` in\n"
                f"`book/_config.yml` to the course's public address and run `python book/repository.py`;\n"
                f"the links appear here and on the site.\n{END}")
    owner_name = url.removeprefix("https://github.com/")
    binder = f"https://mybinder.org/v2/gh/{owner_name}/{branch}?urlpath=lab/tree/notebooks/00_course_guide.ipynb"
    lines = [START, f"Run the course online: [Binder]({binder}) (the whole course in JupyterLab), or one"
                    " chapter in Colab (its first cell installs dicelab):", ""]
    for nb in sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb")):
        lines.append(f"- [{nb.stem} in Colab](https://colab.research.google.com/github/{owner_name}/blob/"
                     f"{branch}/notebooks/{nb.name})")
    return "\n".join(lines + [END])


def notebooks() -> list[Path]:
    return sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))


def launch_buttons(config: str, url: str) -> str:
    """book/_config.yml with its Binder and Colab addresses on (the repository is set) or off."""
    for key, address in LAUNCHERS.items():
        config = re.sub(rf'^(  {key}: )"[^"\n]*"', rf'\g<1>"{address if url else ""}"', config, flags=re.M)
    return config


def main(argv: list[str]) -> int:
    check = "--check" in argv
    url, branch = setting()
    stale = []
    config = (ROOT / "book" / "_config.yml").read_text()
    if launch_buttons(config, url) != config:
        stale.append("book/_config.yml (launch_buttons)")
        if not check:
            (ROOT / "book" / "_config.yml").write_text(launch_buttons(config, url))
    readme = (ROOT / "README.md").read_text()
    block = re.search(re.escape(START) + ".*?" + re.escape(END), readme, re.S)
    if not block:
        print(f"README.md: no {START} ... {END} block for the launch links", file=sys.stderr)
        return 1
    if block.group(0) != readme_block(url, branch):
        stale.append("README.md")
        if not check:
            (ROOT / "README.md").write_text(readme.replace(block.group(0), readme_block(url, branch)))
    for path in notebooks():
        nb = json.loads(path.read_text())
        first = next((c for c in nb["cells"] if c["cell_type"] == "code"), None)
        source = "".join(first["source"]) if first else ""
        if not GUARD.search(source):
            continue
        fixed = GUARD.sub(f'REPOSITORY = "{url}"', source)
        if fixed != source:
            stale.append(str(path.relative_to(ROOT)))
            if not check:
                first["source"] = fixed.splitlines(keepends=True)
                path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    for name in stale:
        print(f"{name}: {'out of date with' if check else 'updated from'} book/_config.yml's repository.url",
              file=sys.stderr)
    return 1 if check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
