"""Static pictures of a position: SVG/HTML without JavaScript, and plain text.

The live widget needs a running kernel. These renderings do not: a notebook
saved with a board in its outputs shows that board on GitHub or nbviewer,
and :func:`text` serves terminals, doctests and text-only outputs.

Everything here draws a *view* (``Game.view(seat)``, docs/view-format.md),
never the position itself, so a picture for a seat shows exactly what that
seat may see and no more. No rule is decided here: whose turn it is, which
squares are taken, what a fence pays all come from the view.

>>> import langfinger_widget as lf
>>> g = lf.Game.new(players=2, seed=1)
>>> print(text(g.view(0)).splitlines()[0])
Langfinger · round 1 · placing tokens · start player Pascal · to move: Pascal (place a token)
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from . import words
from .cards import PLACES, SCOUNDRELS

View = dict[str, Any]

PLACE_TITLES = {p: f"{i}. {p.capitalize()}" for i, p in enumerate(PLACES, 1)}
PHASE_TEXT = {"place": "placing tokens", "act": "actions", "over": "game over"}
# R0.5: each scoundrel's colour, always drawn together with its shape.
COLOURS = {"blue": "#2b6cb0", "brown": "#8b5a2b", "green": "#2f855a",
           "yellow": "#c99a06", "red": "#c53030"}
SHAPE_SYMBOL = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆", "star": "★"}

# --- text ---------------------------------------------------------------------------------


def _name(view: View, seat: int | None) -> str:
    return "-" if seat is None else str(view["players"][seat]["name"])


def _counts(counts: dict[str, int] | None) -> str:
    if counts is None:
        return "?"
    return ", ".join(f"{n} {t}" for t, n in counts.items() if n) or "none"


def loot_text(card: dict[str, Any]) -> str:
    """One loot card: its back always, its front (id, kind, value) only if the view shows it."""
    back = f"{card['protection']}: {'+'.join(card['tools'])}"
    if "id" in card:
        return f"{card['id']} {card['kind']} {card['value']} ({back})"
    return f"face down ({back})"


def fence_text(fence: dict[str, Any]) -> str:
    """A fence: each kind it buys, how many in one sale, and its bonus."""
    parts = []
    for kind, (count, bonus) in fence["buys"].items():
        parts.append(kind + (f" x{count}" if count > 1 else "") + (f" +{bonus}" if bonus else ""))
    return f"{fence['id']} buys {', '.join(parts)}"


def _decision_text(view: View) -> str:
    decision = view["decision"]
    if decision is None:
        winners = [_name(view, s) for s in view["winners"]]
        return f"{'winner' if len(winners) == 1 else 'winners'}: {words.listing(winners)}"
    who = _name(view, decision["seat"])
    if decision["kind"] == "place":
        return f"to move: {who} (place a token)"
    return (f"to move: {who} (token on square {decision['square'] + 1} "
            f"of the {str(decision['place']).capitalize()})")


def _place_line(view: View, place: str) -> str:
    squares = " ".join(f"[{i + 1} {_name(view, s)}]" for i, s in enumerate(view["squares"][place]))
    if place == "city":
        cards = ", ".join(view["city"]) or "empty"
    elif place == "ruin":
        cards = "exchange " + " ".join(f"{r}:{_name(view, s)}" for r, s in
                                       view["ruin_rates"].items())
    elif place == "harbor":
        cards = "; ".join(f"#{i} {fence_text(f)}" for i, f in enumerate(view["harbor"])) or "empty"
    else:
        cards = "; ".join(f"#{i} {loot_text(c)}" for i, c in enumerate(view[place])) or "empty"
    return f"{place.capitalize():<7}{squares}  {cards}"


def _player_line(view: View, p: dict[str, Any]) -> str:
    marks = ("*" if p["seat"] == view["start_player"] else " ") + (
        ">" if p["seat"] == view["to_move"] else " ")
    used = [pl for pl, u in p["scoundrel_used"].items() if u]
    hand = _counts(p["hand"]) if p["hand"] is not None else f"{p['hand_size']} cards"
    if p["known"]:
        hand += f" (known: {_counts(p['known'])})"
    loot = "; ".join(loot_text(c) for c in p["loot"]) or "none"
    return (f"{marks}{p['name']} ({p['tool']}): money {p['money']}, tokens {p['tokens']}, "
            f"hand {hand}, loot {loot}"
            + (f", scoundrel used at {'+'.join(used)}" if used else ""))


def _piles_line(view: View) -> str:
    piles = view["piles"]
    tool_discard = sum(piles["tools"]["discard"].values())
    return (f"Piles: tools {piles['tools']['draw']} (discard {tool_discard})"
            f" · loot {piles['loot']['draw']} (discard {len(piles['loot']['discard'])})"
            f" · fences {piles['fences']['draw']} (discard {len(piles['fences']['discard'])})")


def text(view: View) -> str:
    """The whole view as plain text: a header, one line per place, one per player.

    ``*`` marks the start player and ``>`` the seat to move.
    """
    header = (f"Langfinger · round {view['round']} · {PHASE_TEXT[view['phase']]} · "
              f"start player {_name(view, view['start_player'])} · {_decision_text(view)}")
    lines = [header, *(_place_line(view, p) for p in PLACES)]
    lines += [_player_line(view, p) for p in view["players"]]
    lines.append(_piles_line(view))
    return "\n".join(lines)


# --- SVG ------------------------------------------------------------------------------------

COLUMN_W, GAP, MARGIN = 188, 8, 10
PAPER = "#fffdf8"  # the picture's own background, whatever the page's theme
WIDTH = MARGIN * 2 + COLUMN_W * 5 + GAP * 4
ROW = 18  # one line of small text


def _t(x: float, y: float, content: str, size: int = 12, weight: str = "normal",
       anchor: str = "start", fill: str = "#222") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}">{escape(content)}</text>')


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "#8a7f6d",
          extra: str = "") -> str:
    return (f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="4" '
            f'fill="{fill}" stroke="{stroke}"{extra}/>')


def _token(view: View, seat: int, cx: float, cy: float, r: float = 11) -> str:
    """A scoundrel token: its colour AND its shape (R0.5), with the player's initial."""
    player = view["players"][seat]
    sc = SCOUNDRELS[player["scoundrel"]]
    fill = COLOURS[sc.colour]
    label = escape(f"{player['name']}'s token")
    if sc.shape == "circle":
        body = f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="{r}" fill="{fill}"/>'
    else:
        body = f'<polygon points="{_shape_points(sc.shape, cx, cy, r)}" fill="{fill}"/>'
    initial = _t(cx, cy + 4, player["name"][:1], size=11, weight="bold", anchor="middle",
                 fill="#fff" if sc.colour != "yellow" else "#222")
    return (f'<g class="token" role="img" aria-label="{label}" data-seat="{seat}">'
            f"{body}{initial}</g>")


def _shape_points(shape: str, cx: float, cy: float, r: float) -> str:
    if shape == "square":
        pts = [(-r, -r), (r, -r), (r, r), (-r, r)]
    elif shape == "triangle":
        pts = [(0, -r * 1.2), (r * 1.15, r * 0.85), (-r * 1.15, r * 0.85)]
    elif shape == "diamond":
        pts = [(0, -r * 1.25), (r * 1.25, 0), (0, r * 1.25), (-r * 1.25, 0)]
    else:  # star: ten points alternating outer and inner radius
        pts = [((r * 1.3 if k % 2 == 0 else r * 0.6) * math.sin(k * math.pi / 5),
                -(r * 1.3 if k % 2 == 0 else r * 0.6) * math.cos(k * math.pi / 5))
               for k in range(10)]
    return " ".join(f"{cx + dx:.1f},{cy + dy:.1f}" for dx, dy in pts)


def _squares_svg(view: View, place: str, x: float, y: float) -> list[str]:
    out = []
    decision = view["decision"] or {}
    for i, seat in enumerate(view["squares"][place]):
        cx = x + 20 + i * 36
        acting = decision.get("place") == place and decision.get("square") == i
        label = escape(f"{place} square {i + 1}: " + ("free" if seat is None else
                                                      _name(view, seat)))
        out.append(f'<g data-place="{place}" data-square="{i}" aria-label="{label}">')
        out.append(f'<circle cx="{cx}" cy="{y}" r="15" fill="#fffaf0" '
                   f'stroke="{"#d00" if acting else "#8a7f6d"}" '
                   f'stroke-width="{3 if acting else 1}"/>')
        if seat is None:
            out.append(_t(cx, y + 4, str(i + 1), size=10, anchor="middle", fill="#999"))
        else:
            out.append(_token(view, seat, cx, y))
        out.append("</g>")
    return out


def _card_lines(view: View, place: str) -> list[tuple[list[str], str, dict[str, str]]]:
    """(lines of text, fill colour, data attributes) for each card shown at ``place``."""
    if place == "city":
        return [([tool], "#eef3f8", {"data-tool": tool, "data-slot": str(i)})
                for i, tool in enumerate(view["city"])]
    if place == "ruin":
        return [([f"{rate}  " + ("taken by " + _name(view, s) if s is not None else "open")],
                 "#eee" if s is not None else "#f4efe3",
                 {"data-rate": rate, **({"data-taken-by": str(s)} if s is not None else {})})
                for rate, s in view["ruin_rates"].items()]
    if place == "harbor":
        cards = []
        for f in view["harbor"]:
            buys = [k + (f" x{c}" if c > 1 else "") + (f" +{b}" if b else "")
                    for k, (c, b) in f["buys"].items()]
            cards.append(([f"fence {f['id']}", *buys], "#f3ecf8", {"data-fence": f["id"]}))
        return cards
    cards = []
    for i, c in enumerate(view[place]):
        lines = [f"{c['protection']}", "+".join(c["tools"])]
        attrs = {"data-slot": str(i)}
        if "id" in c:
            lines.append(f"{c['id']}: {c['kind']} {c['value']}")
            attrs["data-loot"] = c["id"]
        cards.append((lines, "#f8f0dc", attrs))
    return cards


def _column_svg(view: View, place: str, x: float, y: float, height: float) -> list[str]:
    out = [f'<g data-place="{place}" aria-label="{escape(PLACE_TITLES[place])}">',
           _rect(x, y, COLUMN_W, height, "#fbf7ee"),
           _t(x + COLUMN_W / 2, y + 18, PLACE_TITLES[place], size=14, weight="bold",
              anchor="middle")]
    out += _squares_svg(view, place, x, y + 42)
    cy = y + 66
    for lines, fill, attrs in _card_lines(view, place):
        h = ROW * len(lines) + 4
        data = "".join(f' {k}="{escape(v)}"' for k, v in attrs.items())
        out.append(f"<g{data}>")
        out.append(_rect(x + 8, cy, COLUMN_W - 16, h, fill))
        for k, line in enumerate(lines):
            out.append(_t(x + 14, cy + 15 + k * ROW, line, size=11,
                          weight="bold" if k == 0 and place != "city" else "normal"))
        if "data-taken-by" in attrs:  # R6.2: the token waits on its exchange square
            out.append(_token(view, int(attrs["data-taken-by"]), x + COLUMN_W - 26, cy + h / 2, 8))
        out.append("</g>")
        cy += h + 4
    out.append("</g>")
    return out


def _column_height(view: View, place: str) -> float:
    return 72 + sum(ROW * len(lines) + 8 for lines, _, _ in _card_lines(view, place))


def _player_svg(view: View, p: dict[str, Any], x: float, y: float) -> list[str]:
    seat = p["seat"]
    marks = []
    if seat == view["start_player"]:
        marks.append("start player")
    if seat == view["to_move"]:
        marks.append("to move")
    if seat in view["winners"]:
        marks.append("winner")
    if view["seat"] == seat:
        marks.append("you")
    hand = _counts(p["hand"]) if p["hand"] is not None else f"{p['hand_size']} cards (hidden)"
    if p["known"]:
        hand += f"; known: {_counts(p['known'])}"
    used = [pl for pl, u in p["scoundrel_used"].items() if u]
    lines = [f"hand: {hand}",
             "loot: " + ("; ".join(loot_text(c) for c in p["loot"]) or "none")]
    out = [f'<g data-seat="{seat}" aria-label="{escape(p["name"])}">',
           _rect(x, y, WIDTH - 2 * MARGIN, 64, "#fff" if seat != view["to_move"] else "#fff4e0"),
           _token(view, seat, x + 20, y + 20),
           _t(x + 40, y + 24, f"{p['name']} ({p['tool']})", size=13, weight="bold"),
           _t(x + 210, y + 24, f"money {p['money']}", size=13, weight="bold"),
           _t(x + 320, y + 24, f"tokens in front: {p['tokens']}", size=12),
           _t(x + 470, y + 24, ("scoundrel used at " + ", ".join(used)) if used else "", size=11),
           _t(WIDTH - 2 * MARGIN + x - 10, y + 24, " · ".join(marks), size=12, anchor="end",
              fill="#b00"),
           *(_t(x + 40, y + 42 + k * 16, line, size=11) for k, line in enumerate(lines)),
           "</g>"]
    return out


def svg(view: View) -> str:
    """The view as one self-contained SVG: the five places, then one band per player."""
    header = (f"Round {view['round']} · {PHASE_TEXT[view['phase']]} · "
              f"{_decision_text(view)}")
    if view["seat"] is not None:
        header += f" · seen by {_name(view, view['seat'])}"
    col_h = max(_column_height(view, p) for p in PLACES)
    body = [_t(MARGIN, 22, "Langfinger", size=16, weight="bold"), _t(MARGIN + 100, 22, header)]
    top = 34
    for i, place in enumerate(PLACES):
        body += _column_svg(view, place, MARGIN + i * (COLUMN_W + GAP), top, col_h)
    y = top + col_h + 10
    for p in view["players"]:
        body += _player_svg(view, p, MARGIN, y)
        y += 70
    body.append(_t(MARGIN, y + 14, _piles_line(view), size=11, fill="#555"))
    height = y + 24
    title = escape(f"Langfinger board: {header}")
    # The picture brings its own paper: its dark text stays readable on a dark theme's page
    # (JupyterLab's dark theme drew it straight on near-black).
    paper = (f'<rect class="langfinger-paper" x="0" y="0" width="{WIDTH}" '
             f'height="{height:.0f}" rx="6" fill="{PAPER}"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" '
            f'viewBox="0 0 {WIDTH} {height:.0f}" role="img" aria-label="{title}" '
            f'font-family="sans-serif" class="langfinger-static" style="color-scheme: light">'
            f"<title>{title}</title>" + paper + "".join(body) + "</svg>")


def html(view: View) -> str:
    """The SVG board wrapped for HTML outputs, with the text rendering as a fallback."""
    return (f'<div class="langfinger-static-board" style="overflow-x:auto">{svg(view)}'
            f"<details><summary>as text</summary><pre>{escape(text(view))}</pre></details></div>")


__all__ = ["fence_text", "html", "loot_text", "svg", "text"]
