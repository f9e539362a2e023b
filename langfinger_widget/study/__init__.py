"""Measuring play: the arena, the ladder and its Elo ratings, the balance study, analysis.

``python -m langfinger_widget.study`` runs the balance study (:mod:`.balance`);
``python -m langfinger_widget.arena`` (or ``langfinger-arena``) the arena (:mod:`.arena`).
"""
