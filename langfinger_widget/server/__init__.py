"""The game server: tables that people at different machines share (docs/server.md).

Install with ``pip install 'langfinger-widget[server]'`` and run
``langfinger serve``. Each seat receives only what it may see (R13.1); every
accepted move is committed before anyone sees it; several processes can
share Postgres and Redis. This subpackage is optional: the rest of the
package never imports it, and it uses the rest only through the public API
(see :mod:`langfinger_widget.server.kernel`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["Settings", "create_app", "main"]


def __getattr__(name: str) -> Any:
    # The app needs Starlette; the CLI must be importable without it to say what is missing.
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .config import Settings

        return Settings
    if name == "main":
        from .cli import main

        return main
    raise AttributeError(f"module 'langfinger_widget.server' has no attribute {name!r}")
