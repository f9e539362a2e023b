"""``python -m langfinger_widget.study``: the balance study (see :mod:`.balance`)."""

from .balance import main

raise SystemExit(main())
