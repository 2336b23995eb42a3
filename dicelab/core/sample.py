"""What every simulation returns: :class:`Sample`, one array per measured quantity, one entry per play.

Every game simulates with one signature, ``simulate(<what is played>, n, *, seed)``: ``n`` plays,
reproducible from ``seed`` (the same seed plays the same games). The result is a :class:`Sample`
whose columns are named for what they measure (``"points"``, ``"won"``, ``"steps"`` ...), so a
mean, its standard error and a histogram are asked for the same way in every chapter.

>>> import numpy as np
>>> s = Sample(n=4, seed=1, columns={"points": np.array([0, 2, 2, 4])})
>>> s.mean("points"), s.share("points", 2), s.counts("points").tolist()
(2.0, 0.5, [1, 0, 2, 0, 1])
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Sample:
    """``n`` simulated plays from ``seed``: ``columns[name]`` holds one value per play."""

    n: int
    seed: int | None
    columns: Mapping[str, np.ndarray]

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.columns:
            raise KeyError(f"this sample measured {sorted(self.columns)}, not {name!r}")
        return self.columns[name]

    def mean(self, name: str) -> float:
        """The sample mean of ``name``."""
        return float(np.mean(self[name]))

    def stderr(self, name: str) -> float:
        """The standard error of :meth:`mean`: the sample standard deviation (n - 1) over sqrt(n)."""
        return float(np.std(self[name], ddof=1)) / math.sqrt(self.n) if self.n > 1 else math.nan

    def share(self, name: str, value) -> float:
        """The fraction of plays whose ``name`` equals ``value``."""
        return float(np.mean(self[name] == value))

    def counts(self, name: str) -> np.ndarray:
        """How many plays gave each value 0, 1, 2, ... of an integer column (``np.bincount``)."""
        return np.bincount(np.asarray(self[name], dtype=np.int64))
