"""The house's floors (issue 30, docs/architecture.md): no import cycle, a headless import,
private names kept private, and the public API as it was.

``lint-imports`` (./scripts/test) checks which floor may import which; these tests check
what a contract cannot: cycles inside a floor, what ``import langfinger_widget`` loads,
and a snapshot of the names ``lf`` exports with their signatures.
"""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import langfinger_widget as lf

grimp = pytest.importorskip("grimp")

PACKAGE = Path(lf.__file__).parent
SNAPSHOT = Path(__file__).with_name("api_snapshot.json")

# The only upward imports: one-line lazy hooks, as python-chess's ``_repr_svg_`` (also listed
# in pyproject's import-linter contract).
HOOKS = {
    ("langfinger_widget.kernel.game", "langfinger_widget.records"),  # Game.record/from_record
    ("langfinger_widget.puzzles.model", "langfinger_widget.ui.widget"),  # Puzzle.widget
    ("langfinger_widget.ui.widget", "langfinger_widget.ui.replay"),  # LangfingerWidget.replay
}


def import_graph() -> dict[str, set[str]]:
    graph = grimp.build_graph("langfinger_widget")
    inside = {m for m in graph.modules if m.split(".")[0] == "langfinger_widget"}
    return {m: {n for n in graph.find_modules_directly_imported_by(m)
                if n in inside and (m, n) not in HOOKS} for m in inside}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_hook_is_still_an_import() -> None:
    graph = grimp.build_graph("langfinger_widget")
    for importer, imported in HOOKS:
        assert imported in graph.find_modules_directly_imported_by(importer), (importer, imported)


def test_import_loads_no_widget_library() -> None:
    code = ("import sys, langfinger_widget as lf\n"
            "g = lf.Game.new(players=3, seed=1); g.play(g.legal_actions()[0])\n"
            "lf.bots.make('greedy'); lf.records; lf.puzzles.PUZZLES\n"
            "print([m for m in ('anywidget', 'traitlets', 'ipywidgets') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]"


def private_imports() -> list[str]:
    """``from .x import _name`` across modules: a shared name should be public in one of them."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                found += [f"{path.relative_to(PACKAGE)}: {node.module}.{a.name}"
                          for a in node.names if a.name.startswith("_")
                          and not a.name.startswith("__")]
    return found


def test_private_names_stay_in_their_module() -> None:
    assert private_imports() == []


def signature(obj: object) -> str:
    try:
        return str(inspect.signature(obj))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return ""


def public_api() -> dict[str, str]:
    """Each name ``lf`` exports (and those of its public subpackages), with its signature."""
    api: dict[str, str] = {}
    spaces = {"lf": lf, "lf.bots": lf.bots, "lf.puzzles": lf.puzzles, "lf.records": lf.records,
              "lf.envs": lf.envs}
    for prefix, module in spaces.items():
        for name in sorted(module.__all__):
            obj = getattr(module, name)
            kind = ("module" if inspect.ismodule(obj) else "class" if inspect.isclass(obj)
                    else "function" if callable(obj) else type(obj).__name__)
            api[f"{prefix}.{name}"] = f"{kind}{signature(obj) if kind != 'module' else ''}"
    for name in ("Game", "LangfingerWidget"):
        cls = getattr(lf, name)
        for attr, value in sorted(vars(cls).items()):
            if not attr.startswith("_") or attr in ("__init__",):
                target = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
                api[f"lf.{name}.{attr}"] = (signature(target) if callable(target)
                                            else type(value).__name__)
    return api


def test_public_api_matches_the_snapshot() -> None:
    """A move that drops or changes a public name fails here; an intended change rewrites
    tests/api_snapshot.json (``python tests/test_architecture.py``) in the same commit."""
    assert public_api() == json.loads(SNAPSHOT.read_text(encoding="utf-8"))


def test_entry_points_run() -> None:
    for args in (["-m", "langfinger_widget.arena", "--help"],
                 ["-m", "langfinger_widget.study", "--help"]):
        out = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                             cwd=PACKAGE.parent)
        assert out.returncode == 0 and "usage" in out.stdout, out.stderr


def test_every_refusal_is_a_langfinger_error_and_a_value_error() -> None:
    """One hierarchy: the table's and the widget's errors join it, bad arguments too."""
    from langfinger_widget.tables.table import TableError

    for error in (lf.BadArgument, lf.IllegalAction, lf.InvalidState, lf.NotationError,
                  lf.RecordError, TableError):
        assert issubclass(error, lf.LangfingerError) and issubclass(error, ValueError)
    with pytest.raises(lf.BadArgument, match="unknown bot"):
        lf.bots.make("nobody")


def test_no_bare_value_error_is_raised() -> None:
    """A refusal the package makes on purpose is a LangfingerError (a BadArgument at least)."""
    bare = [f"{path.relative_to(PACKAGE)}:{node.lineno}"
            for path in sorted(PACKAGE.rglob("*.py"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
            and isinstance(node.exc.func, ast.Name) and node.exc.func.id == "ValueError"]
    assert bare == []


if __name__ == "__main__":
    SNAPSHOT.write_text(json.dumps(public_api(), indent=1, sort_keys=True) + "\n",
                        encoding="utf-8")
    print(f"wrote {SNAPSHOT}")
