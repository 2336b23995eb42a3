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


def _refusal(err: Exception) -> str:
    return f'<p style="color:#b00020"><b>Cannot compute this:</b> {html.escape(str(err))}</p>'


def _guarded(pane, compute, message=None, stale=()) -> bool:
    """Set ``pane.value`` to ``compute()``; if the input is refused, show why instead.

    The refusal replaces ``pane``'s value, or, when a ``message`` pane is given, shows there while
    ``pane`` keeps what it had (a record that is still true); every widget of ``stale`` (results
    computed from the refused input's predecessor) is emptied and hidden. Returns whether
    ``compute`` succeeded.
    """
    try:
        value = compute()
    except (ValueError, TypeError, pig.NotConverged) as err:
        if message is None:
            pane.value = _refusal(err)
        else:
            message.value = _refusal(err)
        for widget in stale:
            widget.value = "" if isinstance(widget.value, str) else b""
            widget.layout.display = "none"
        return False
    pane.value = value
    if message is not None:
        message.value = ""
    for widget in stale:
        widget.layout.display = None
    return True


def _table(header, rows) -> str:
    pad = ' style="padding: 1px 12px 1px 4px; text-align: left"'
    cells = lambda tag, row: "".join(f"<{tag}{pad}>{c}</{tag}>" for c in row)  # noqa: E731
    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f"<table><thead><tr>{cells('th', header)}</tr></thead><tbody>{body}</tbody></table>"


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    return buffer.getvalue()
