"""Where the package runs: the one place that tells a normal kernel from JupyterLite.

>>> from langfinger_widget.tables.runtime import in_pyodide, from_page
>>> in_pyodide()  # in a JupyterLite site (Pyodide, in the browser) this is True
False
>>> from_page({"kind": "new_game", "seed": None})
{'kind': 'new_game', 'seed': None}
"""

from __future__ import annotations

import sys
from typing import Any


def in_pyodide() -> bool:
    """True inside Pyodide (JupyterLite's Python kernel, compiled to WebAssembly).

    There the kernel is the browser's single thread: no ``threading.Thread`` can start and
    blocking waits stall the page, so the little code that must behave differently asks this.
    """
    return sys.platform == "emscripten"


def from_page(content: Any) -> Any:
    """A message from the page as the JSON data it is, wherever the kernel runs.

    Pyodide's kernel hands a comm message over converted from JavaScript, where ``null``
    becomes ``pyodide.ffi.jsnull``, not ``None``: a New game with ``"seed": null`` would be
    refused as a bad seed. Elsewhere the message is JSON already and comes back unchanged.
    """
    if not in_pyodide():
        return content
    from pyodide.ffi import jsnull  # type: ignore[import-not-found]  # Pyodide only

    return _replace_null(content, jsnull)


def _replace_null(value: Any, null: object) -> Any:
    if value is null:
        return None
    if isinstance(value, dict):
        return {key: _replace_null(item, null) for key, item in value.items()}
    if isinstance(value, list):
        return [_replace_null(item, null) for item in value]
    return value
