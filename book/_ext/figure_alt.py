"""The course site's figures keep their text alternative.

A figure shown in a notebook by a described figure (``dicelab.course.plotting.describe``, which
``save_figure(fig, name, alt=...)`` calls) carries its alt in the output's metadata,
``{"image/png": {"alt": "..."}}``. myst-nb writes each image output to a file named by the
SHA-256 of its bytes and reads no alt from the output, so the page would fall back to the file's
path. This extension reads the notebook, maps each image's hash to its alt, and sets ``alt`` on
the image nodes of the page; the browser test refuses a page whose image has no alt, an empty
one or a file name.
"""

from __future__ import annotations

import hashlib
import json
from binascii import a2b_base64
from pathlib import Path, PurePosixPath

from docutils import nodes

IMAGES = ("image/png", "image/jpeg", "image/gif")


def alts(notebook: dict) -> dict[str, str]:
    """The alt of every described image output of a notebook, by the SHA-256 of its bytes."""
    found = {}
    for cell in notebook.get("cells", []):
        for out in cell.get("outputs", []):
            for mime in IMAGES:
                data, meta = out.get("data", {}).get(mime), out.get("metadata", {}).get(mime, {})
                alt = meta.get("alt") if isinstance(meta, dict) else None
                if data and isinstance(alt, str) and alt.strip():
                    data = "".join(data) if isinstance(data, list) else data
                    found[hashlib.sha256(a2b_base64(data)).hexdigest()] = alt.strip()
    return found


def add_alts(app, doctree) -> None:
    source = Path(app.env.doc2path(app.env.docname))
    if source.suffix != ".ipynb":
        return
    known = alts(json.loads(source.read_text(encoding="utf-8")))
    for image in doctree.findall(nodes.image):
        stem = PurePosixPath(image.get("uri", "")).stem
        if stem in known and not image.get("alt"):
            image["alt"] = known[stem]


def setup(app):
    app.connect("doctree-read", add_alts)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
