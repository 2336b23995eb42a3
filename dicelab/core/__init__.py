"""The mathematics every game uses: absorbing Markov chains (:mod:`~dicelab.core.markov`),
two-player zero-sum matrix games (:mod:`~dicelab.core.games`), exact numbers and their display
(:mod:`~dicelab.core.exact`), and argument checks with cost budgets (:mod:`~dicelab.core.checks`).

Nothing here knows a game: the game subpackages (``efron``, ``badg``, ``pig``, ``wimpout``) stand
on this layer, and the course layer (:mod:`dicelab.course`) stands on both.
"""
