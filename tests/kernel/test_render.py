"""The static renderings (render.py) show the whole view, and nothing a seat may not see."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from html import escape
from typing import Any

import pytest

import langfinger_widget as lf
from langfinger_widget.kernel import render
from langfinger_widget.kernel.cards import PLACES, RUIN_RATES


def _play_until(g: lf.Game, stop: Any) -> lf.Game:
    """Play seeded random actions, never passing when anything else is legal, until ``stop(g)``."""
    rng = random.Random(g.seed)
    for _ in range(3000):
        if stop(g):
            return g
        legal = g.legal_actions()
        g.play(rng.choice([a for a in legal if a["type"] != "pass"] or legal))
    raise AssertionError("position never reached")


@pytest.fixture
def busy() -> lf.Game:
    """Round 2 or later with face-down loot before some player and tokens on the board."""
    g = lf.Game.new(players=4, seed=11)

    def ready(g: lf.Game) -> bool:
        return (g.phase == "act" and any(p.loot for p in g.state.players)
                and any(s is not None for row in g.state.squares.values() for s in row))

    return _play_until(g, ready)


def _hidden_ids(g: lf.Game, seat: int) -> set[str]:
    """Loot ids whose front ``seat`` may not know: others' face-down loot, Villa, Museum."""
    st = g.state
    hidden = set(st.villa) | set(st.museum)
    for i, p in enumerate(st.players):
        if i != seat:
            hidden |= set(p.loot)
    return hidden


def test_svg_is_well_formed_and_has_no_script(busy: lf.Game) -> None:
    for seat in (None, 0, 1):
        picture = render.svg(busy.view(seat))
        root = ET.fromstring(picture)  # raises on malformed XML
        assert root.tag.endswith("svg")
        assert "<script" not in picture and "onclick" not in picture.lower()


def test_every_place_square_rate_and_fence_is_drawn(busy: lf.Game) -> None:
    view = busy.view(0)
    picture = render.svg(view)
    for place in PLACES:
        assert f'data-place="{place}"' in picture
        for i in range(5):
            assert f'data-place="{place}" data-square="{i}"' in picture
    for rate in RUIN_RATES:
        assert f'data-rate="{escape(rate)}"' in picture
    for fence in view["harbor"]:
        assert f'data-fence="{fence["id"]}"' in picture
    assert picture.count("data-tool=") == len(view["city"])


def test_tokens_and_money_are_shown(busy: lf.Game) -> None:
    view = busy.view(None)
    picture, words = render.svg(view), render.text(view)
    on_board = sum(s is not None for row in view["squares"].values() for s in row)
    on_rates = sum(s is not None for s in view["ruin_rates"].values())
    # One drawn token per token on a square or exchange square, plus one badge per player band.
    assert picture.count('class="token"') == on_board + on_rates + len(view["players"])
    for p in view["players"]:
        assert f"money {p['money']}" in picture
        assert f"money {p['money']}, tokens {p['tokens']}" in words
        assert f"tokens in front: {p['tokens']}" in picture


def test_seat_view_hides_what_the_seat_may_not_know(busy: lf.Game) -> None:
    for seat in range(busy.num_players):
        hidden = _hidden_ids(busy, seat)
        assert hidden, "the fixture should hide some loot"
        view = busy.view(seat)
        for out in (render.svg(view), render.text(view), render.html(view)):
            leaked = sorted(i for i in hidden if re.search(rf"\b{i}\b", out))
            assert not leaked, f"seat {seat} sees the fronts of {leaked}"
        own = busy.state.players[seat]
        for loot_id in own.loot:  # its own loot it does see, front and all
            assert loot_id in render.text(view)
        others = [p for i, p in enumerate(view["players"]) if i != seat]
        for p in others:  # other hands: their size, never their tools
            assert f"{p['hand_size']} cards" in render.text(view)


def test_open_board_shows_every_front(busy: lf.Game) -> None:
    view = busy.view(None)
    words = render.text(view)
    for loot_id in [*busy.state.villa, *busy.state.museum,
                    *(i for p in busy.state.players for i in p.loot)]:
        card = lf.LOOT_CARDS[loot_id]
        assert f"{loot_id} {card.kind} {card.value}" in words


def test_text_names_the_decision_and_marks() -> None:
    g = lf.Game.new(players=3, seed=5, start_player=1)
    first = render.text(g.view(None)).splitlines()
    assert first[0].endswith(f"to move: {g.state.players[1].name} (place a token)")
    assert first[1 + len(PLACES) + 1].startswith("*>")  # seat 1: start player and to move
    assert len(first) == 1 + len(PLACES) + 3 + 1


def test_game_over_names_the_winners() -> None:
    g = _play_until(lf.Game.new(players=2, seed=3), lambda g: g.is_over)
    names = " and ".join(g.state.players[s].name for s in g.winners)
    label = "winner" if len(g.winners) == 1 else "winners"
    assert f"{label}: {names}" in render.text(g.view(0))
    assert "winner" in render.svg(g.view(0))


def test_game_repr_html_is_the_open_board(busy: lf.Game) -> None:
    out = busy._repr_html_()
    assert out == render.html(busy.view(None))
    assert out.startswith("<div") and "<svg" in out and "<pre>" in out


def test_a_token_on_an_exchange_square_is_drawn_there() -> None:
    g = _play_until(lf.Game.new(players=3, seed=2),
                    lambda g: any(s is not None for s in g.state.ruin_rates.values()))
    rate, seat = next((r, s) for r, s in g.state.ruin_rates.items() if s is not None)
    picture = render.svg(g.view(None))
    assert f'data-rate="{escape(rate)}" data-taken-by="{seat}"' in picture
    assert f"{rate}:{g.state.players[seat].name}" in render.text(g.view(None))


def test_text_only_outputs_show_the_board(busy: lf.Game) -> None:
    from IPython.lib.pretty import pretty

    assert pretty(busy) == render.text(busy.view(None))
    assert "Ruin" in pretty(busy) or "ruin" in pretty(busy)


def _luminance(colour: str) -> float:
    """WCAG relative luminance of #rgb or #rrggbb."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    digits = colour[1:] if len(colour) == 7 else "".join(d * 2 for d in colour[1:])
    r, g, b = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def test_the_picture_brings_its_own_paper_for_a_dark_theme(busy: lf.Game) -> None:
    """Issue 40: on JupyterLab's dark theme the text drawn straight on the page (the title,
    the round, the piles) was dark on near-black. The picture now lies on its own light
    paper, under everything, so its dark text reads on any theme."""
    root = ET.fromstring(render.svg(busy.view(None)))
    ns = "{http://www.w3.org/2000/svg}"
    drawn = [el for el in root if el.tag != f"{ns}title"]
    paper = drawn[0]
    assert paper.tag == f"{ns}rect"
    assert (paper.get("x"), paper.get("y")) == ("0", "0")
    assert (paper.get("width"), paper.get("height")) == (root.get("width"), root.get("height"))
    assert _luminance(paper.get("fill", "#000000")) > 0.9
    title = next(el for el in root.iter(f"{ns}text") if el.text == "Langfinger")
    ratio = (_luminance(paper.get("fill", "#000000")) + 0.05) / (
        _luminance(title.get("fill", "#ffffff")) + 0.05)
    assert ratio >= 4.5  # WCAG AA for the title on its paper
