"""The widget's comm, driven as the front end would drive it, including as an adversary.

Every intent goes through ``LangfingerWidget.handle_message`` (what the comm
calls for a custom message) or ``_handle_msg`` (the raw ipywidgets message for
a state update). The tests forge and garble them, and check two promises:
a refused intent leaves the game exactly as it was and says why (naming the
ruling where a rule refuses it); and no trait or message ever carries what the
shown seat may not see, judged against the full state.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from rules_kit import act

import langfinger_widget as lf
from langfinger_widget.kernel import rules
from langfinger_widget.tables import table as table_module
from langfinger_widget.tables.scheduler import ManualScheduler
from langfinger_widget.ui import widget as widget_module
from langfinger_widget.ui.widget import LangfingerWidget

PLACE_MUSEUM = {"type": "place", "place": "museum"}


class Spy:
    """Records the custom messages a widget sends (its `send`), as the page would receive them."""

    def __init__(self, w: LangfingerWidget) -> None:
        self.sent: list[Any] = []
        w.send = self.sent.append


def make(**kw: Any) -> tuple[LangfingerWidget, Spy]:
    kw.setdefault("players", 3)
    kw.setdefault("seed", 7)
    kw.setdefault("bots", {1: "random", 2: "random"})
    kw.setdefault("autoplay", False)
    w = LangfingerWidget(**kw)
    return w, Spy(w)


def snapshot(w: LangfingerWidget) -> str:
    return json.dumps([w.game.to_dict(), w.game.history], sort_keys=True)


# --- construction and the Python API ----------------------------------------------------------


def test_traits_mirror_the_seats_redacted_picture() -> None:
    w, _ = make(seat=0)
    g = w.game
    assert w.view == g.view(0)
    assert w.events == g.log(0)
    assert w.legal == g.legal_actions()  # seat 0 starts (start_player 0)
    assert w.human_seats == [0]
    assert w.bots == {"1": "random", "2": "random"}
    assert w.seat == 0 and w.pace == 0.6 and w.error == "" and w.move_number == 0


def test_default_bots_and_api_contract() -> None:
    w = LangfingerWidget(players=3, seed=3, autoplay=False)
    # A seat's board plays against bots at every other seat (a middle level of the ladder).
    assert w.bots == {"1": "medium", "2": "medium"} and w.human_seats == [0]
    teacher = LangfingerWidget(players=4, seed=3, seat=None, autoplay=False)
    assert teacher.bots == {} and teacher.human_seats == [0, 1, 2, 3]  # the open board: all human
    with pytest.raises(ValueError):
        LangfingerWidget(players=3, seed=3, seat=3, autoplay=False)
    with pytest.raises(lf.IllegalAction):
        w.play({"type": "pass"})  # R2.1: no passing while placing
    assert w.game.history == []


def test_python_play_moves_the_board_and_highlights() -> None:
    w, _ = make(seat=0)
    w.play(PLACE_MUSEUM)
    assert w.game.history == [PLACE_MUSEUM]
    assert w.move_number == 1
    assert w.view["squares"]["museum"][0] == 0
    assert w.highlight == {
        "seat": 0,
        "action": PLACE_MUSEUM,
        "by": "python",
        "place": "museum",
        "square": 0,
        "move": 1,
    }
    assert w.legal == []  # seat 1 (a bot) decides now: its legal actions would reveal its hand


def test_step_bots_plays_until_a_human_decides() -> None:
    w, _ = make(seat=0)
    w.play(PLACE_MUSEUM)
    assert w.step_bots() == 2
    assert w.game.to_move == 0 and w.legal == w.game.legal_actions()
    assert w.highlight["by"] == "bot" and w.highlight["seat"] == 2


def test_save_and_load_continue_the_position() -> None:
    w, _ = make(seat=0)
    w.play(PLACE_MUSEUM)
    w.step_bots()
    position = w.save()
    twin = LangfingerWidget.load(position, seat=0, bots={1: "random", 2: "random"}, autoplay=False)
    assert twin.view == w.view
    assert twin.legal == w.legal
    with pytest.raises(lf.InvalidState):
        LangfingerWidget.load({"format": "langfinger/1"}, autoplay=False)


def test_undo_takes_back_the_bots_moves_after_the_humans() -> None:
    w, spy = make(seat=0)
    w.play(PLACE_MUSEUM)
    w.step_bots()
    before = snapshot(w)
    w.play({"type": "place", "place": "city"})
    w.step_bots()
    reply = w.handle_message({"kind": "undo"})
    assert reply == {"kind": "result", "ok": True, "error": ""} and spy.sent == [reply]
    assert snapshot(w) == before and w.game.to_move == 0
    fresh, _ = make(seat=0)
    assert fresh.handle_message({"kind": "undo"})["ok"] is False


def test_new_game_message_deals_again() -> None:
    w, _ = make(seat=0)
    w.play(PLACE_MUSEUM)
    w.step_bots()
    assert w.handle_message({"kind": "new_game"})["ok"] is True
    assert w.move_number == 0 and w.game.history == [] and w.view["round"] == 1
    assert w.game.num_players == 3


def test_bots_changed_from_python() -> None:
    w, _ = make(seat=0)
    w.bots = {}
    assert w.human_seats == [0, 1, 2]
    w.bots = {2: "random"}
    assert w.bots == {"2": "random"} and w.human_seats == [0, 1]


# --- intents from the page --------------------------------------------------------------------


def test_legal_act_is_played_and_answered() -> None:
    w, spy = make(seat=0)
    reply = w.handle_message({"kind": "act", "action": PLACE_MUSEUM, "move": 0, "version": 0})
    assert reply == {"kind": "result", "ok": True, "error": ""}
    assert spy.sent == [reply]
    assert w.game.history == [PLACE_MUSEUM] and w.highlight["by"] == "human"


Q = {"move": 0, "version": 0}  # a fresh board's position, as the page quotes it
FORGED: list[tuple[str, Any, str]] = [
    ("a string", "act", r"^not a message"),
    ("a list", [{"kind": "act", "action": PLACE_MUSEUM}], r"^not a message"),
    ("null", None, r"^not a message"),
    ("no kind", {"action": PLACE_MUSEUM}, r"^unknown message kind"),
    ("unknown kind", {"kind": "cheat", "action": PLACE_MUSEUM}, r"^unknown message kind"),
    ("kind not a string", {"kind": ["act"], "action": PLACE_MUSEUM}, r"^unknown message kind"),
    ("no action", {"kind": "act", **Q}, r"not an action"),
    ("action not a dict", {"kind": "act", "action": "museum", **Q}, r"not an action"),
    ("action of unknown type", {"kind": "act", "action": {"type": "teleport"}, **Q},
     r"not an action"),
    ("unknown place", {"kind": "act", "action": {"type": "place", "place": "bank"}, **Q}, r""),
    ("passing while placing", {"kind": "act", "action": {"type": "pass"}, **Q}, r"^R2\.1"),
    ("wrong phase", {"kind": "act", "action": {"type": "take_tools", "tools": []}, **Q}, r"^R"),
    ("claims another seat", {"kind": "act", "action": PLACE_MUSEUM, "seat": 1, **Q},
     r"^wrong seat"),
    ("stale", {"kind": "act", "action": PLACE_MUSEUM, "move": 5, "version": 0}, r"^stale"),
    ("extra junk in the action", {"kind": "act", "action": {**PLACE_MUSEUM, "x": 1}, **Q}, r""),
    ("no move or version", {"kind": "act", "action": PLACE_MUSEUM}, r"^stale or forged.*'move'"),
    ("no version", {"kind": "act", "action": PLACE_MUSEUM, "move": 0}, r"version=None"),
    ("move a bool", {"kind": "act", "action": PLACE_MUSEUM, "move": False, "version": 0},
     r"move=False"),
    ("version a string", {"kind": "act", "action": PLACE_MUSEUM, "move": 0, "version": "0"},
     r"version='0'"),
]


@pytest.mark.parametrize(("label", "message", "pattern"), FORGED, ids=[f[0] for f in FORGED])
def test_forged_or_malformed_intent_changes_nothing(label: str, message: Any, pattern: str) -> None:
    w, spy = make(seat=0)
    before, traits = snapshot(w), json.dumps(w.get_state(["view", "legal", "events"]))
    reply = w.handle_message(message)
    if label == "extra junk in the action" and reply["ok"]:
        # Tolerating unknown keys is a valid reading of an action; then it must be the same move.
        assert w.game.history == [PLACE_MUSEUM]
        return
    assert reply["kind"] == "result" and reply["ok"] is False, reply
    assert reply["error"] and re.search(pattern, reply["error"]), reply["error"]
    assert w.error == reply["error"]
    assert spy.sent == [reply]
    assert snapshot(w) == before
    assert json.dumps(w.get_state(["view", "legal", "events"])) == traits


def test_acting_out_of_turn_is_refused_naming_the_ruling() -> None:
    w, _ = make(seat=0)
    w.play(PLACE_MUSEUM)  # seat 1 (a bot) is to move now
    before = snapshot(w)
    reply = act(w, {"type": "place", "place": "city"})
    assert reply["ok"] is False and reply["error"].startswith("R2.1/R3.1")
    assert "seat 1" in reply["error"]
    assert snapshot(w) == before


def test_stale_intent_after_the_board_moved_on() -> None:
    w, _ = make(seat=0)
    w.play(PLACE_MUSEUM)
    w.step_bots()
    before = snapshot(w)
    city = {"type": "place", "place": "city"}
    reply = act(w, city, move=0)
    assert reply["ok"] is False and reply["error"].startswith("stale")
    assert snapshot(w) == before
    # The same intent quoting the current move goes through, and clears the error.
    ok = act(w, city, move=3)
    assert ok["ok"] is True and w.error == ""


def test_game_over_refuses_every_act() -> None:
    w, _ = make(seat=0, seed=11)
    rng = random.Random(0)
    while not w.game.is_over:
        if w.legal:
            act(w, rng.choice(w.legal))
        w.step_bots()
    before = snapshot(w)
    reply = act(w, {"type": "pass"})
    assert reply["ok"] is False and reply["error"].startswith("R10.1")
    assert snapshot(w) == before and w.legal == []


def test_why_explains_without_playing() -> None:
    w, spy = make(seat=0)
    before = snapshot(w)
    why = w.handle_message({"kind": "why", "action": {"type": "pass"}})
    assert why["kind"] == "why" and why["action"] == {"type": "pass"}
    assert why["reason"].startswith("R2.1")
    assert w.handle_message({"kind": "why", "action": PLACE_MUSEUM})["reason"] is None
    assert snapshot(w) == before and len(spy.sent) == 2
    assert w.error == ""  # asking is not an error


# --- what a page may pin or overflow (issue 29) --------------------------------------------------


def test_tool_lists_a_page_sends_never_pile_up_in_the_kernel() -> None:
    w, _ = make(seat=0)
    rng = random.Random(29)
    tools = list(lf.cards.TOOLS)
    for n in range(600):  # every one a list no action could take: 4 to 60 tools
        forged = [rng.choice(tools) for _ in range(4 + n % 57)]
        for kind in ("why", "act"):
            w.handle_message({"kind": kind, "action": {"type": "take_tools", "tools": forged},
                              "move": w.move_number, "version": w.version})
        w.game.why_illegal({"type": "steal", "slot": 0, "pay": forged})
    longest = rules.most_tools()
    assert longest == 3  # the City's 2, a loot card's 2 or 3, the 3>4 square's 3 (R4-R6.1)
    assert all(len(given) <= longest for given in rules._TOOL_LISTS)
    assert len(rules._TOOL_LISTS) <= sum(5**k for k in range(longest + 1))
    # A list too long to be legal is still answered by the rules, only never kept.
    assert w.game.why_illegal({"type": "take_tools", "tools": ["map"] * 4}).startswith("R2.1")


@pytest.mark.parametrize(("label", "action", "problem"), [
    ("33 MiB of tools", {"type": "take_tools", "tools": ["map"] * 7_000_000}, "larger than"),
    ("a long name", {"type": "place", "place": "x" * 70_000}, "larger than"),
    ("a huge number", {"type": "steal", "slot": 10**100_000, "pay": []}, "larger than"),
    ("nested 500 deep", "nest", "nested deeper than 8"),
    ("nested 100,000 deep", "nest-deep", "nested deeper than 8"),
])
def test_a_message_too_large_or_too_deep_is_refused_before_it_is_read(
        label: str, action: Any, problem: str) -> None:
    w, spy = make(seat=0)
    if isinstance(action, str):
        depth = 500 if action == "nest" else 100_000
        action = []
        for _ in range(depth):
            action = [action]
        action = {"type": "take_tools", "tools": action}
    cached, before = len(rules._TOOL_LISTS), snapshot(w)
    for kind in ("why", "act", "new_game"):
        reply = w.handle_message({"kind": kind, "action": action, "move": 0, "version": 0})
        assert reply == {"kind": "result", "ok": False, "error": reply["error"]}
        assert reply["error"].startswith("message refused: " + problem), reply["error"]
        assert f"{widget_module.MAX_MESSAGE_BYTES} bytes" in reply["error"]
        json.dumps(reply, allow_nan=False)  # the answer went out: nothing escaped
    assert spy.sent[-1] == reply and w.error == reply["error"]
    assert snapshot(w) == before and len(rules._TOOL_LISTS) == cached


def test_front_end_may_set_pace_but_nothing_else() -> None:
    w, _ = make(seat=0)
    resent: list[Any] = []
    w.send_state = lambda key=None: resent.append(key)
    view_before = dict(w.view)
    state = {"seat": 1, "view": {}, "legal": [{"type": "pass"}], "pace": 99}
    update = {"method": "update", "state": state, "buffer_paths": []}
    w._handle_msg({"content": {"data": update}, "buffers": []})
    assert w.seat == 0 and w.view == view_before and w.legal == w.game.legal_actions()
    assert w.pace == 0.6  # out of range: refused, not clamped
    assert "may not change" in w.error and "pace must be between 0 and 10" in w.error
    assert ["legal", "pace", "seat", "view"] in resent


# --- hot seat --------------------------------------------------------------------------------


def test_hot_seat_handover_only_to_the_player_to_move() -> None:
    w, spy = make(seat=0, bots={2: "random"})
    assert w.human_seats == [0, 1]
    act(w, PLACE_MUSEUM)
    assert w.game.to_move == 1
    assert w.legal == [] and w.view["players"][1]["hand"] is None  # seat 0 still sees only its own
    for bad in ({"kind": "reveal", "seat": 2}, {"kind": "reveal", "seat": 0},
                {"kind": "reveal", "seat": "1"}, {"kind": "reveal", "seat": True},
                {"kind": "reveal"}):  # fmt: skip
        reply = w.handle_message(bad)
        assert reply["ok"] is False, bad
        assert w.seat == 0
    reply = w.handle_message({"kind": "reveal", "seat": 1})
    assert reply["ok"] is True and w.seat == 1
    assert w.view == w.game.view(1) and w.legal == w.game.legal_actions()
    assert w.view["players"][0]["hand"] is None
    assert spy.sent[-1] == reply


def test_open_board_acts_for_humans_only() -> None:
    w, _ = make(seat=None, bots={1: "random"})
    assert w.view == w.game.view(None) and w.legal == w.game.legal_actions()
    act(w, PLACE_MUSEUM)
    assert w.game.to_move == 1 and w.legal == []  # a bot's decision is not clickable
    w.step_bots()
    assert w.game.to_move == 2 and w.legal == w.game.legal_actions()


# --- hints -----------------------------------------------------------------------------------


class _Recorder:
    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []

    def evaluate(
        self, view: dict[str, Any], legal: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], float]:
        self.views.append(view)
        return legal[-1], 0.25


def test_hint_asks_a_bot_that_sees_only_the_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(table_module, "make_hint_bot", lambda seed: recorder)
    w, spy = make(seat=0)
    before = snapshot(w)
    reply = w.handle_message({"kind": "hint"})
    assert reply == {"kind": "hint", "action": w.game.legal_actions()[-1], "value": 0.25,
                     "error": ""}
    assert recorder.views == [w.game.view(0)]
    assert w.hint["action"] == reply["action"] and w.hint["seat"] == 0
    assert w.hint["value"] == 0.25
    assert snapshot(w) == before and spy.sent == [reply]
    w.play(PLACE_MUSEUM)  # now a bot decides: no hint for seat 0, and the old one is gone
    assert w.hint == {}
    assert w.handle_message({"kind": "hint"})["action"] is None


def test_hint_thinks_on_the_event_loop_not_in_this_call(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(table_module, "make_hint_bot", lambda seed: recorder)
    clock = ManualScheduler()
    w, spy = make(seat=0, bots={}, autoplay=True, scheduler=clock)
    first = w.handle_message({"kind": "hint"})
    assert first["pending"] is True and first["action"] is None and recorder.views == []
    clock.run_all()
    assert spy.sent[1] == {"kind": "hint", "action": w.game.legal_actions()[-1], "value": 0.25,
                           "error": ""}
    assert w.hint["action"] == spy.sent[1]["action"]


def test_real_ismcts_hint_is_a_legal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "HINT_ITERATIONS", 50)
    w, _ = make(seat=0)
    reply = w.handle_message({"kind": "hint"})
    assert reply["action"] in w.game.legal_actions(), reply
    assert 0.0 <= reply["value"] <= 1.0 and w.hint["value"] == reply["value"]


# --- bots that misbehave, and the bot thread ---------------------------------------------------


class _Broken:
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        raise RuntimeError("boom")


class _Cheat:
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": "pass"}


@pytest.mark.parametrize(("bot", "pattern"), [(_Broken(), "failed"), (_Cheat(), "illegal action")])
def test_a_misbehaving_bot_is_stood_in_for_and_the_game_goes_on(bot: Any, pattern: str) -> None:
    w, _ = make(seat=0)
    w.play(PLACE_MUSEUM)
    w.table._bots[1] = bot
    assert w.step_bots() == 2 and w.game.to_move == 0  # seat 1 moved randomly, then seat 2
    assert pattern in w.error and "random legal move" in w.error
    assert w.game.deciders == [0, 1, 2]


def test_bot_thread_plays_until_a_human_decides() -> None:
    game = lf.Game.new(players=3, seed=5, start_player=0)  # seat 0 places first (R1.0: given)
    w = LangfingerWidget(game, seat=0, bots={1: "random", 2: "random"}, pace=0)
    try:
        w.play(PLACE_MUSEUM)
        assert w.wait_for_bots(timeout=30)
        assert w.game.to_move == 0 and w.move_number == 3
        assert w.legal == w.game.legal_actions()
    finally:
        w.close()


def test_real_bots_from_lf_bots_fill_bot_seats() -> None:
    w, _ = make(seat=0, bots={1: "greedy", 2: "ismcts"})
    assert w.bots == {"1": "greedy", "2": "ismcts"}
    assert type(w.table._bots[1]).__name__ == "GreedyBot"
    w.table._bots[2] = lf.bots.make("ismcts", seed=0, iterations=20)  # keep the test quick
    w.play(PLACE_MUSEUM)
    assert w.step_bots() == 2 and w.game.to_move == 0
    with pytest.raises(ValueError, match="unknown bot"):
        LangfingerWidget(players=3, seed=1, bots={1: "oracle"}, autoplay=False)


# --- nothing hidden ever leaves ----------------------------------------------------------------


def hidden_ids(g: lf.Game, seat: int) -> set[str]:
    """Card ids whose front `seat` may not know right now, from the full state."""
    s = g.state
    hidden = set(s.villa) | set(s.museum) | set(s.piles["loot"].draw)
    # A fence is always face up: one in the draw pile that the seat saw (sold, then reshuffled
    # back, R9.2) hides only its place in the pile, not its id.
    seen = set(ID.findall(json.dumps(g.log(seat))))
    hidden |= set(s.piles["fences"].draw) - seen
    for k, p in enumerate(s.players):
        if k != seat:
            hidden |= set(p.loot)
    return hidden


def never_shown_in_log(g: lf.Game, seat: int) -> set[str]:
    """Ids the seat's log may never contain: cards on the Villa/Museum displays and opponents'
    non-chest loot (R5.3, R11.1), as long as no loot pile was reshuffled (R9.2: a reshuffled
    card may have been seen before)."""
    if any(e["type"] == "reshuffle" and e.get("pile") == "loot" for e in g.log(None)):
        return set()
    s = g.state
    ids = set(s.villa) | set(s.museum)
    for k, p in enumerate(s.players):
        if k != seat:
            ids |= {i for i in p.loot if lf.LOOT_CARDS[i].protection != "chest"}
    return ids


ID = re.compile(r'"([LF]\d\d)"')


def assert_nothing_hidden(w: LangfingerWidget, spy: Spy) -> None:
    seat = w.seat
    assert seat is not None
    g = w.game
    state = w.get_state()  # every synced trait, exactly as it would go over the wire
    public = {k: v for k, v in state.items() if k != "events"}
    text = json.dumps(public) + json.dumps(spy.sent)
    leaked = set(ID.findall(text)) & hidden_ids(g, seat)
    assert not leaked, f"seat {seat} was sent hidden card ids {leaked}"
    leaked_log = set(ID.findall(json.dumps(state["events"]))) & never_shown_in_log(g, seat)
    assert not leaked_log, f"seat {seat}'s log carries hidden ids {leaked_log}"
    assert state["events"] == g.log(seat)[-widget_module.LOG_LIMIT :]
    for k, p in enumerate(state["view"]["players"]):
        if k != seat:
            assert p["hand"] is None, f"seat {seat} sees the hand of seat {k}"
    if g.to_move != seat:
        assert state["legal"] == [], "another seat's legal actions reveal its hand"
    assert '"seed"' not in json.dumps(state), "the seed reveals every shuffle"
    assert state["view"]["piles"]["loot"]["draw"] == len(g.state.piles["loot"].draw)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_trait_or_message_ever_carries_what_the_seat_may_not_see(seed: int) -> None:
    rng = random.Random(seed)
    w, spy = make(seat=0, seed=seed, bots={2: "random"})  # hot seat 0 and 1, a bot at 2
    steps = 0
    while not w.game.is_over and steps < 3000:
        seat = w.game.to_move
        if seat in w.human_seats and seat != w.seat:
            w.handle_message({"kind": "reveal", "seat": seat})
        elif w.legal:
            action = rng.choice(w.legal)
            w.handle_message({"kind": "why", "action": action})
            act(w, action)
        else:
            w.step_bots(limit=1)
        # Probe with an intent for the wrong seat now and then: refusals must not leak either.
        if steps % 7 == 0:
            act(w, {"type": "steal", "slot": 0, "pay": []})
        assert_nothing_hidden(w, spy)
        spy.sent.clear()
        steps += 1
    assert w.game.is_over, "a game between random players should end within 3000 steps"
    assert w.view["winners"] == w.game.winners


def test_open_info_variant_shows_tools_taken_from_the_city() -> None:
    w = widget_module.LangfingerWidget(players=2, seed=4, seat=1, bots={0: "greedy"},
                                       variant="open_info", autoplay=False)
    assert w.game.state.variant == "open_info" and w.view["variant"] == "open_info"
    while not any(e["type"] == "take_tools" and e["seat"] == 0 for e in w.game.log(None)):
        if w.game.to_move == 0:
            w.step_bots(limit=1)
        else:
            w.play(w.game.legal_actions()[0])
    taken = next(e["tools"] for e in w.game.log(None)
                 if e["type"] == "take_tools" and e["seat"] == 0)
    assert sum(w.view["players"][0]["known"].values()) >= 1
    assert set(w.view["players"][0]["known"]) <= set(taken)
    assert w.view["players"][0]["hand"] is None  # R11.2: the rest of the hand stays hidden


# --- hardening (issue 12) ----------------------------------------------------------------------


def _page_writes(w: LangfingerWidget, state: dict[str, Any]) -> None:
    update = {"method": "update", "state": state, "buffer_paths": []}
    w._handle_msg({"content": {"data": update}, "buffers": []})


@pytest.mark.parametrize("pace", [float("nan"), float("inf"), -0.5, 11, "fast", None, [1]])
def test_a_bad_pace_from_the_page_is_answered_once_and_changes_nothing(pace: Any) -> None:
    w, _ = make(seat=0)
    resent: list[Any] = []
    w.send_state = lambda key=None: resent.append(key)
    _page_writes(w, {"pace": pace})
    assert w.pace == 0.6 and w.table.pace == 0.6
    assert w.error.startswith("pace must be") and resent.count(["pace"]) == 1


@pytest.mark.parametrize("pace", [float("nan"), float("inf"), -1.0, 10.5])
def test_a_bad_pace_from_python_raises_a_clear_error(pace: float) -> None:
    w, _ = make(seat=0)
    with pytest.raises(ValueError, match="pace must be between 0 and 10"):
        w.pace = pace
    assert w.pace == 0.6 and w.table.pace == 0.6


def test_a_page_write_to_a_name_that_is_no_trait_is_refused_without_raising() -> None:
    w, _ = make(seat=0)
    sent_states: list[Any] = []
    original = w.send_state
    w.send_state = lambda key=None: (sent_states.append(key), original(key))  # type: ignore[func-returns-value]
    _page_writes(w, {"_game": 1, "comm": None})
    assert "may not change _game, comm" in w.error and not any(sent_states)  # no synced trait


def test_a_comm_message_with_an_unknown_method_reaches_the_ipywidgets_logger() -> None:
    # The `events` trait used to be `log`, which hid ipywidgets' logger: this raised
    # AttributeError: 'list' object has no attribute 'error'.
    w, _ = make(seat=0)
    w._handle_msg({"content": {"data": {"method": "no-such-method"}}, "buffers": []})
    assert hasattr(w.log, "error") and isinstance(w.events, list)


def test_why_replies_are_strict_json_even_for_a_nan_in_the_request() -> None:
    w, spy = make(seat=0)
    for action in ({"type": "place", "place": float("nan")},
                   {"type": "steal", "slot": float("inf"), "pay": [], "scoundrel": False}):
        reply = w.handle_message({"kind": "why", "action": action})
        json.dumps(reply, allow_nan=False)
        assert reply["reason"]
    json.dumps(spy.sent, allow_nan=False)


def test_an_act_quoting_an_older_version_of_the_same_move_number_is_stale() -> None:
    w, _ = make(seat=None, bots={})
    w.play(PLACE_MUSEUM)
    old_version = w.version
    w.undo()
    w.play({"type": "place", "place": "city"})
    assert w.move_number == 1 and w.version != old_version
    before = snapshot(w)
    reply = w.handle_message({"kind": "act", "action": {"type": "place", "place": "ruin"},
                              "move": 1, "version": old_version})
    assert reply["ok"] is False and reply["error"].startswith("stale")
    assert snapshot(w) == before


def test_the_board_greys_out_undo_with_the_ruling_after_a_ruin_draw() -> None:
    w, _ = make(players=2, seed=5, seat=0, bots={1: "easy"})
    while w.game.to_move is not None:
        legal = w.game.legal_actions()
        exchange = [a for a in legal if a["type"] == "exchange"]
        if w.game.to_move == 0:
            if exchange:
                assert w.undo_status["allowed"] is True
                w.play(exchange[0])
                w.step_bots()
                assert w.undo_status["allowed"] is False
                assert w.undo_status["reason"].startswith("R12.1")
                reply = w.handle_message({"kind": "undo"})
                assert reply["ok"] is False and reply["error"].startswith("R12.1")
                return
            ruin = {"type": "place", "place": "ruin"}
            w.play(ruin if ruin in legal else legal[0])
        w.step_bots()
    pytest.fail("seat 0 never exchanged at the Ruin")


def test_new_game_intent_changes_the_table_as_the_panel_asks() -> None:
    w, _ = make(seat=0)
    reply = w.handle_message({"kind": "new_game", "players": 4, "seat": 1,
                              "bots": {"0": "easy", "2": "hard", "3": "expert"},
                              "variant": "open_info", "seed": 12})
    assert reply["ok"] is True
    assert w.game.num_players == 4 and w.seat == 1 and w.game.state.variant == "open_info"
    assert w.bots == {"0": "easy", "2": "hard", "3": "expert"} and w.human_seats == [1]
    assert w.setup["players"] == 4 and w.setup["levels"] == ["easy", "medium", "hard", "expert"]
    assert w.view == w.game.view(1)
    bad = w.handle_message({"kind": "new_game", "players": 9})
    assert bad["ok"] is False and bad["error"].startswith("R1.1") and w.game.num_players == 4


def test_python_sets_seat_bots_and_pace_and_the_table_follows() -> None:
    w, _ = make(seat=0, bots={2: "easy"})
    w.seat = 1
    assert w.table.seat == 1 and w.view == w.game.view(1)
    w.seat = None  # None skips traitlets' validators: the observer must still hand it on
    assert w.table.seat is None and w.view == w.game.view(None)
    w.bots = {1: "hard"}
    assert w.table.bot_names == {1: "hard"} and w.human_seats == [0, 2]
    w.pace = 0
    assert w.table.pace == 0.0
    with pytest.raises(ValueError, match=r"seat must be None or 0\.\.2"):
        w.seat = 5
    assert w.seat is None and w.table.seat is None
