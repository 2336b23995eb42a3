"""The course around the games: the claims ledger (:mod:`~dicelab.course.claims`), notebook
folding and save form (:mod:`~dicelab.course.notebook`), paths (:mod:`~dicelab.course.paths`),
figure style and saving (:mod:`~dicelab.course.plotting`), homework answers
(:mod:`~dicelab.course.homework`) and the explorers (:mod:`~dicelab.course.explore`).

This layer imports the games and the core; neither of them imports it.
"""
