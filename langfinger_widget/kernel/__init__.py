"""The rules kernel: cards, positions, rules, views, notation and ``Game``.

The ground floor. It runs headless (bots, tests, a server, Pyodide) and imports
nothing else of the package; its one upward reach is ``Game.record`` /
``Game.from_record`` (a lazy import of :mod:`langfinger_widget.records`).
"""
