"""``lf.runtime.in_pyodide()``: the one test of where the package runs (issue 10)."""

from __future__ import annotations

import sys
import types

import pytest

import langfinger_widget as lf


def test_not_in_pyodide_here() -> None:
    assert lf.runtime.in_pyodide() is False


def test_in_pyodide_when_the_platform_is_emscripten(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")  # what Pyodide's sys.platform says
    assert lf.runtime.in_pyodide() is True


def test_from_page_is_the_message_itself_outside_pyodide() -> None:
    content = {"kind": "new_game", "seed": None, "bots": {"1": "medium"}}
    assert lf.runtime.from_page(content) is content


def test_from_page_turns_pyodides_jsnull_into_none(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pyodide converts a message from JavaScript with null as pyodide.ffi.jsnull, not None.
    jsnull = object()
    ffi = types.ModuleType("pyodide.ffi")
    ffi.jsnull = jsnull  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    monkeypatch.setattr(sys, "platform", "emscripten")
    sent = {"kind": "new_game", "seed": jsnull, "seat": 0, "bots": {"1": jsnull}, "x": [jsnull, 1]}
    assert lf.runtime.from_page(sent) == {
        "kind": "new_game", "seed": None, "seat": 0, "bots": {"1": None}, "x": [None, 1]
    }  # fmt: skip
