"""The lobby's REST calls (docs/server.md), synchronous, from a kernel or from Pyodide.

A normal kernel uses the standard library (``urllib``); Pyodide has no sockets, so there
the browser makes the request (a synchronous ``XMLHttpRequest``, which a web worker such as
JupyterLite's kernel may make). Either way an answer is JSON (or a record's text) and a
refusal becomes :class:`ServerError` with the server's own words and code.
"""

from __future__ import annotations

import json
from typing import Any

from ..kernel.errors import LangfingerError
from ..tables.runtime import in_pyodide

TIMEOUT = 10.0  # seconds: the lobby answers at once, or the server is not there


class ServerError(LangfingerError):
    """The server refused (``code`` is its code) or could not be reached (``code`` offline)."""

    def __init__(self, message: str, code: str = "server_error", status: int = 0) -> None:
        super().__init__(message)
        self.code, self.status = code, status


def call(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    """``method url`` with a JSON ``body``; the JSON answer (or the text, if not JSON)."""
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body)
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, text = (_browser if in_pyodide() else _urllib)(method, url, data, headers)
    try:
        answer: Any = json.loads(text)
    except ValueError:
        answer = text
    if status >= 400:
        error = answer.get("error") if isinstance(answer, dict) else None
        code = answer.get("code") if isinstance(answer, dict) else None
        raise ServerError(str(error or f"the server answered {status}"),
                          str(code or "server_error"), status)
    return answer


def offline(url: str, why: object) -> ServerError:
    return ServerError(f"the server at {url} cannot be reached ({why}); is it running, and "
                       "is the address right?", "offline")


def _urllib(method: str, url: str, data: str | None, headers: dict[str, str]
            ) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=None if data is None else data.encode(),
                                     headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return int(response.status), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return int(exc.code), exc.read().decode("utf-8", "replace")
    except (OSError, ValueError) as exc:  # refused, unreachable, timed out, bad address
        raise offline(url, getattr(exc, "reason", exc)) from None


def _browser(method: str, url: str, data: str | None, headers: dict[str, str]
             ) -> tuple[int, str]:  # pragma: no cover - Pyodide only
    import importlib

    js: Any = importlib.import_module("js")  # Pyodide's bridge to the browser

    xhr = js.XMLHttpRequest.new()
    try:
        xhr.open(method, url, False)
        for name, value in headers.items():
            if name != "Accept":
                xhr.setRequestHeader(name, value)
        xhr.send(data)
    except Exception as exc:  # a network error is thrown by a synchronous request
        raise offline(url, exc) from None
    if int(xhr.status) == 0:  # refused, or the server's origin allow-list said no
        raise offline(url, "no answer; if it runs, start it with --origin for this page's "
                           "origin")
    return int(xhr.status), str(xhr.responseText)
