"""``lf.platform.in_pyodide()``: the one test of where the package runs (issue 10)."""

from __future__ import annotations

import sys

import pytest

import langfinger_widget as lf


def test_not_in_pyodide_here() -> None:
    assert lf.platform.in_pyodide() is False


def test_in_pyodide_when_the_platform_is_emscripten(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")  # what Pyodide's sys.platform says
    assert lf.platform.in_pyodide() is True
