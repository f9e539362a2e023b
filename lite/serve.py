"""Serve the built site on localhost (``./scripts/lite``; the browser tests use it too).

A plain static server with the MIME types JupyterLite needs: WebAssembly must come as
``application/wasm`` and ES modules as JavaScript, or the browser refuses them.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import threading
from pathlib import Path

QUICKSTART = "lab/index.html?path=00_quickstart.ipynb"
TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".ipynb": "application/json",
    ".whl": "application/zip",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format: str, *args: object) -> None:
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


def make_server(
    root: Path, port: int = 0, verbose: bool = False
) -> http.server.ThreadingHTTPServer:
    """A server for ``root`` on 127.0.0.1 (``port=0``: any free port); call serve_forever()."""
    if not (root / "index.html").is_file():
        raise SystemExit(f"{root} holds no built site: run ./scripts/lite build")
    handler = functools.partial(SiteHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    server.verbose = verbose  # type: ignore[attr-defined]
    return server


def serve_in_thread(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``root`` from a daemon thread; return the server (``shutdown()`` it) and its URL."""
    server = make_server(root)
    threading.Thread(target=server.serve_forever, name="lite-site", daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default="_site", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    try:
        server = make_server(args.root, args.port, verbose=True)
    except OSError:  # the port is taken: any free one will do
        server = make_server(args.root, 0, verbose=True)
    host, port = server.server_address[:2]
    print(f"Langfinger in your browser: http://{host}:{port}/{QUICKSTART}", flush=True)
    print("(Ctrl+C stops the server)", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
