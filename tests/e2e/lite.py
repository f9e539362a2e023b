"""The JupyterLite site for the browser tests: built once per session, served from localhost,
and opened in pages that may not reach anything else.

``./scripts/lite build`` does the building: it leaves a ``_site/`` that is already this
checkout's alone (its build stamp says so), so a session reuses a fresh site and rebuilds
a stale one. The site is served from a thread with the same static server the script uses.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Request, Route

from .lab import REPO

SITE = REPO / "_site"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}


def _load_serve() -> Any:
    # The site's own server (lite/serve.py, not a package), so that tests serve it as users do.
    spec = importlib.util.spec_from_file_location("lite_serve", REPO / "lite" / "serve.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


serve = _load_serve()


def build_site() -> float:
    """Run ``./scripts/lite build`` (a no-op when _site/ is this checkout's); its duration."""
    t0 = time.monotonic()
    proc = subprocess.run(
        [str(REPO / "scripts" / "lite"), "build"], cwd=REPO, capture_output=True, text=True
    )
    print(proc.stdout, end="")
    if proc.returncode != 0:
        raise RuntimeError(
            f"./scripts/lite build failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
        )
    return time.monotonic() - t0


@contextmanager
def served(root: Path = SITE) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 for the duration; yields the base URL."""
    server, url = serve.serve_in_thread(root)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("data", "blob") or parts.hostname in LOCAL_HOSTS


@dataclass
class OfflineGuard:
    """Aborts every request of a browser context that is not to localhost, and remembers it.

    Routing catches the page's and its workers' requests; the request listener also sees
    those a service worker makes, so nothing that left for the network goes unnoticed.
    """

    outside: list[str] = field(default_factory=list)

    def install(self, context: BrowserContext, *, block: bool = True) -> None:
        """Record every request off localhost; abort them too unless ``block=False`` (routing
        turns Chromium's HTTP cache off, which a warm-cache benchmark needs on)."""
        if block:
            context.route("**/*", self._route)
        context.on("request", self._seen)

    def _route(self, route: Route) -> None:
        if is_local(route.request.url):
            route.continue_()
        else:
            self._note(route.request.url)
            route.abort("blockedbyclient")

    def _seen(self, request: Request) -> None:
        if not is_local(request.url):
            self._note(request.url)

    def _note(self, url: str) -> None:
        if url not in self.outside:
            self.outside.append(url)


def site_lock() -> dict[str, object]:
    """The Pyodide lock file the site serves."""
    data: dict[str, object] = json.loads(
        (SITE / "static" / "pyodide" / "pyodide-lock.json").read_text()
    )
    return data
