"""Every code block in README.md and docs/*.md runs as written.

How each fenced block is checked, by its language tag:

- ``python``: run in document order, one fresh namespace per file (a later block may use
  what an earlier one made), in a temporary working directory.
- ``>>>`` lines (in a ``pycon`` block or an untagged one): run in that same namespace;
  the lines after each one are what it prints: its ``repr``, or ``Name: message`` of
  the exception it raises.
- ``bash`` / ``sh`` / ``shell``: run from the checkout with this environment's Python
  first on ``PATH``, unless an HTML comment right before the fence says why not::

      <!-- not-run: starts a server -->
      ```bash
      ./scripts/play
      ```

  (GitHub does not show the comment.) Only shell blocks may be left out: Python must run.
- ``json`` must parse; ``jsonc`` must parse once its ``//`` comments are gone and its
  elisions ``[...]`` and ``{...}`` read as empty.
- Untagged, ``text``, ``ebnf``, ``markdown`` blocks are illustrations (output, grammar,
  file trees) and are not run. Any other tag fails here until it is given a check.

And every file a page points at (a link, or a ``*.md`` name) is in the checkout.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

PYTHON = {"python", "py", "pycon"}
SHELL = {"bash", "sh", "shell"}
DATA = {"json", "jsonc"}
ILLUSTRATION = {"", "text", "ebnf", "markdown", "md"}
NOT_RUN = re.compile(r"<!--\s*not-run:\s*(.*?)\s*-->")
SHELL_TIMEOUT = 300  # seconds; a block that needs longer is no quick example: mark it


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    lang: str
    body: str
    not_run: str | None  # the reason given in a not-run comment, if any

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, in order."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)", lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, lang = opening.groups()
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        body = "\n".join(line[len(indent):] for line in lines[i + 1:end]) + "\n"
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        mark = NOT_RUN.search(before)
        found.append(Block(page, i + 1, lang.lower(), body, mark.group(1) if mark else None))
        i = end + 1
    return found


ALL = [b for page in PAGES for b in blocks(page)]


def _id(b: Block) -> str:
    return b.where


# --- the parser itself ----------------------------------------------------------------------


def test_blocks_finds_fences_languages_and_marks(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# t\n\n```python\nx = 1\n```\n\n<!-- not-run: starts a server -->\n\n"
                    "```bash\n./scripts/play\n```\n\n- item:\n\n  ```\n  out\n  ```\n")
    found = blocks(page)
    assert [(b.line, b.lang, b.body, b.not_run) for b in found] == [
        (3, "python", "x = 1\n", None),
        (9, "bash", "./scripts/play\n", "starts a server"),
        (15, "", "out\n", None),
    ]


def test_pages_have_code() -> None:
    assert any(b.lang == "python" for b in ALL), "no Python block found: the parser is broken"


# --- every block has a check -----------------------------------------------------------------


@pytest.mark.parametrize("block", ALL, ids=_id)
def test_every_block_has_a_check(block: Block) -> None:
    known = PYTHON | SHELL | DATA | ILLUSTRATION
    assert block.lang in known, (
        f"{block.where}: no check for ```{block.lang} blocks; use one of {sorted(known - {''})}")
    if block.not_run is not None:
        assert block.lang in SHELL, f"{block.where}: only shell blocks may be marked not-run"
        assert block.not_run, f"{block.where}: a not-run mark needs a reason"


# --- Python, per page -------------------------------------------------------------------------


def _prompts(body: str) -> Iterator[tuple[str, str]]:
    """``(source, expected output)`` for each ``>>>`` statement of a console block."""
    source: list[str] = []
    expected: list[str] = []
    for line in body.splitlines():
        if line.startswith(">>> "):
            if source:
                yield "\n".join(source), "\n".join(expected)
            source, expected = [line[4:]], []
        elif line.startswith("... ") and source and not expected:
            source.append(line[4:])
        elif source:
            expected.append(line.rstrip())
    if source:
        yield "\n".join(source), "\n".join(expected).rstrip("\n")


def _console(block: Block, namespace: dict[str, Any]) -> None:
    for source, expected in _prompts(block.body):
        shown = io.StringIO()
        try:
            with contextlib.redirect_stdout(shown):
                try:
                    code = compile(source, block.where, "eval")
                except SyntaxError:
                    exec(compile(source, block.where, "exec"), namespace)
                else:
                    value = eval(code, namespace)
                    if value is not None:
                        print(repr(value))
        except Exception as exc:
            print(f"{type(exc).__name__}: {exc}", file=shown)
        got = "\n".join(line.rstrip() for line in shown.getvalue().splitlines())
        assert got == expected, f"{block.where}: >>> {source}\nshows\n{got}\nnot\n{expected}"


def _python_pages() -> list[Path]:
    return [p for p in PAGES if any(b.lang in PYTHON or ">>> " in b.body
                                    for b in blocks(p))]




@pytest.mark.parametrize("page", _python_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_blocks_run_in_order(page: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch, restore_deck: None) -> None:
    monkeypatch.chdir(tmp_path)  # files a page writes land here, not in the checkout
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    try:
        for block in blocks(page):
            if block.lang in {"python", "py"}:
                try:
                    exec(compile(block.body, block.where, "exec"), namespace)
                except Exception as exc:
                    raise AssertionError(f"{block.where} fails: {type(exc).__name__}: {exc}") \
                        from exc
            elif block.lang == "pycon" or (block.lang == "" and ">>> " in block.body):
                _console(block, namespace)
    finally:
        for value in namespace.values():  # widgets a page made stop their bots
            close = getattr(value, "close", None)
            if type(value).__name__ == "LangfingerWidget" and callable(close):
                close()


# --- shell -----------------------------------------------------------------------------------


@pytest.mark.parametrize("block", [b for b in ALL if b.lang in SHELL], ids=_id)
def test_shell_block_runs(block: Block) -> None:
    if block.not_run is not None:
        pytest.skip(f"{block.where} not run: {block.not_run}")
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block.body], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=SHELL_TIMEOUT)
    assert done.returncode == 0, f"{block.where} exits {done.returncode}:\n{done.stderr[-3000:]}"


# --- data ------------------------------------------------------------------------------------

_JSONC_COMMENT = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*')


@pytest.mark.parametrize("block", [b for b in ALL if b.lang in DATA], ids=_id)
def test_data_block_parses(block: Block) -> None:
    text = block.body
    if block.lang == "jsonc":
        text = _JSONC_COMMENT.sub(lambda m: m.group(1) or "", text)
        text = text.replace("[...]", "[]").replace("{...}", "{}")
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"{block.where}: not {block.lang}: {exc}") from exc


# --- what the pages point at ---------------------------------------------------------------

_LINK = re.compile(r"\]\(([^)\s#?]+)")
_MD_NAME = re.compile(r"(?<![\w/.-])((?:\.\./)*[\w/-]+(?:\.[\w-]+)*\.md)\b")


def _targets(text: str) -> set[str]:
    found = set(_LINK.findall(text)) | set(_MD_NAME.findall(text))
    return {t for t in found if "://" not in t and not t.startswith("mailto:")}


def test_targets_finds_links_and_md_names() -> None:
    text = "see [the cards](docs/cards.md), `DESIGN.md`, [site](https://x.org/a.md) and docs/"
    assert _targets(text) == {"docs/cards.md", "DESIGN.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_a_page_points_at_exists(page: Path) -> None:
    missing = [t for t in sorted(_targets(page.read_text(encoding="utf-8")))
               if not any((base / t).exists() for base in (page.parent, ROOT, ROOT / "docs"))]
    assert not missing, f"{page.relative_to(ROOT)} points at files the project does not have: " \
                        f"{missing}"
