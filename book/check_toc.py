"""Refuse to build the course site while book/_toc.yml and the notebooks disagree.

Every notebook of ``notebooks/`` and ``solutions/`` must have its entry in the table of
contents, and every entry must name a notebook that exists. Run from the repository root
(``make book`` does): ``python book/check_toc.py``.
"""

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def entries(node) -> list[str]:
    """Every ``file:`` (and the ``root:``) of a jb-book table of contents, in order."""
    found = [node["root"]] if "root" in node else []
    found += [node["file"]] if "file" in node else []
    for key in ("parts", "chapters", "sections"):
        for child in node.get(key, []):
            found += entries(child)
    return found


def main() -> int:
    listed = entries(yaml.safe_load((ROOT / "book" / "_toc.yml").read_text()))
    present = {str(p.relative_to(ROOT).with_suffix("")) for d in ("notebooks", "solutions")
               for p in (ROOT / d).glob("*.ipynb")}
    missing, stale = sorted(present - set(listed)), sorted(set(listed) - present)
    for name in missing:
        print(f"book/_toc.yml: {name}.ipynb is not in the table of contents: add it", file=sys.stderr)
    for name in stale:
        print(f"book/_toc.yml: {name} is listed but {name}.ipynb does not exist", file=sys.stderr)
    return 1 if missing or stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
