"""The explorers' common parts: the :class:`Explorer` record and small HTML helpers."""

from __future__ import annotations

import html
import io
from dataclasses import dataclass

from dicelab import pig


@dataclass
class Explorer:
    """A widget with its input ``controls`` and output ``panes`` by name; displays as the widget."""

    widget: object
    controls: dict
    panes: dict

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        bundle = bundle[0] if isinstance(bundle, tuple) else bundle
        # what a reader sees where widgets cannot run (GitHub, the course site)
        bundle["text/plain"] = "[an interactive explorer: run this notebook in JupyterLab to use it]"
        return bundle


def _guarded(pane, compute):
    """Set ``pane.value`` to ``compute()``, or to the message of the error that refused the input."""
    try:
        pane.value = compute()
    except (ValueError, TypeError, pig.NotConverged) as err:
        pane.value = f'<p style="color:#b00020"><b>Cannot compute this:</b> {html.escape(str(err))}</p>'


def _table(header, rows) -> str:
    pad = ' style="padding: 1px 12px 1px 4px; text-align: left"'
    cells = lambda tag, row: "".join(f"<{tag}{pad}>{c}</{tag}>" for c in row)  # noqa: E731
    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f"<table><thead><tr>{cells('th', header)}</tr></thead><tbody>{body}</tbody></table>"


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    return buffer.getvalue()
