"""The rulings the game cites (``R5.2``, ...), in words a player reads.

The texts are written in ``docs/rulings.md`` and shipped with the package as
``data/rulings.json`` (the board shows a ruling's text when an error's ``R5.2``
is clicked). ``python -m langfinger_widget.kernel.rulings [docs/rulings.md]`` writes the
JSON again from the page; ``tests/kernel/test_rulings.py`` checks that they agree.

>>> text("R5.2").startswith("Your scoundrel's own tool may stand in")
True
>>> cited("R6.1: exchange square 2>3 takes 2 tools from hand (R6.2 too)")
['R6.1', 'R6.2']
>>> [r for r, _ in explain("R11: variant is 'standard' or 'open_info'")]
['R11.1', 'R11.2']
"""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

from .errors import BadArgument

DATA = Path(__file__).with_name("data") / "rulings.json"
PAGE = Path(__file__).resolve().parents[2] / "docs" / "rulings.md"  # in a checkout only
CITATION = re.compile(r"\bR(\d+)(?:\.(\d+))?\b")
_ITEM = re.compile(r"^- \*\*(R\d+(?:\.\d+)?)\*\* (.*)$")
_HEADING = re.compile(r"^## (.+)$")


def parse(markdown: str) -> dict[str, dict[str, str]]:
    """The rulings of a page written like docs/rulings.md: ``{"R5.2": {"section", "text"}}``.

    A ruling is a list item that starts with its number in bold; its text goes on in the
    indented lines below. Markdown marks (backticks, bold) are dropped from the text.
    """
    out: dict[str, dict[str, str]] = {}
    section, current = "", None
    for line in markdown.splitlines():
        heading, item = _HEADING.match(line), _ITEM.match(line)
        if heading:
            section, current = heading.group(1).strip(), None
        elif item:
            current = item.group(1)
            if current in out:
                raise BadArgument(f"ruling {current} is written twice")
            out[current] = {"section": section, "text": item.group(2).strip()}
        elif current is not None and line.startswith("  ") and line.strip():
            out[current]["text"] += " " + line.strip()
        else:
            current = None
    for entry in out.values():
        entry["text"] = entry["text"].replace("`", "").replace("**", "")
    return out


@cache
def load() -> dict[str, dict[str, str]]:
    """Every ruling as shipped with the package."""
    data: dict[str, dict[str, str]] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def text(ruling: str) -> str:
    """The words of one ruling (``KeyError`` if there is none by that number)."""
    return load()[ruling]["text"]


def cited(message: str) -> list[str]:
    """The rulings a message cites, in order, each once: ``R5.2``, ``R11``..."""
    seen: list[str] = []
    for m in CITATION.finditer(message):
        if m.group(0) not in seen:
            seen.append(m.group(0))
    return seen


def explain(message: str) -> list[tuple[str, str]]:
    """Each ruling a message cites with its words; a whole rule (``R11``) brings its parts."""
    known = load()
    out: list[tuple[str, str]] = []
    for ruling in cited(message):
        parts = [ruling] if ruling in known else [k for k in known if k.startswith(ruling + ".")]
        out += [(k, known[k]["text"]) for k in parts if (k, known[k]["text"]) not in out]
    return out


def to_json(rulings: dict[str, Any]) -> str:
    return json.dumps(rulings, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    page = Path(argv[0]) if argv else PAGE
    rulings = parse(page.read_text(encoding="utf-8"))
    DATA.write_text(to_json(rulings), encoding="utf-8")
    print(f"{DATA}: {len(rulings)} rulings from {page}")
    return 0


__all__ = ["cited", "explain", "load", "parse", "text"]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
