"""Where the package runs: the one place that tells a normal kernel from JupyterLite.

>>> from langfinger_widget.platform import in_pyodide
>>> in_pyodide()  # in a JupyterLite site (Pyodide, in the browser) this is True
False
"""

from __future__ import annotations

import sys


def in_pyodide() -> bool:
    """True inside Pyodide (JupyterLite's Python kernel, compiled to WebAssembly).

    There the kernel is the browser's single thread: no ``threading.Thread`` can start and
    blocking waits stall the page, so the little code that must behave differently asks this.
    """
    return sys.platform == "emscripten"
