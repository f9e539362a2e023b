"""``python -m langfinger_widget.arena`` and ``langfinger-arena``: bots play each other.

The arena itself lives in :mod:`langfinger_widget.study.arena`.
"""

from .study.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
