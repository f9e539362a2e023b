"""``python -m langfinger_widget.puzzles mine|rate|check|stats`` (see :mod:`.cli`)."""

import sys

from .cli import main

sys.exit(main())
