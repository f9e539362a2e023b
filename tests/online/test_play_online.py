"""The New game panel's "Play online": a local board moves to a new table on a game server
with the panel's choices; the other people's invites are on the board."""

from __future__ import annotations

import json

import pytest
from wire import ServerThread

import langfinger_widget as lf
from langfinger_widget.net.seat import OnlineSeat


def test_play_online_moves_the_board_to_a_server_table(server: ServerThread) -> None:
    w = lf.LangfingerWidget(players=3, seed=1, seat=0, autoplay=False)
    w.online_server = server.base
    assert w.setup["allow_online"] is True and w.online == {}
    local = w.table
    # The panel's message as the page sends it, with the game it names (issue 37).
    reply = w.handle_message({"kind": "new_game", "game": "langfinger", "players": 2, "seat": 1,
                              "bots": {}, "variant": "standard", "seed": None,
                              "online": True})
    friend = None
    try:
        assert reply["ok"], reply
        assert isinstance(w.table, OnlineSeat) and local.closed
        assert w.online["table"] == w.table.link.table and w.seat == 1
        assert list(w.online["invites"]) == ["0"] and "/join/" in w.online["invites"]["0"]
        # Issue 40: the widget's state (saved with the notebook) holds no secret; the board
        # gets the whole invite by message when the person shows or copies it.
        invite = w.table.invites[0]
        secret = invite.split("#", 1)[1]
        assert w.online["invites"]["0"] == invite.split("#")[0] + "#…"
        assert secret not in json.dumps(w.get_state()) and secret not in repr(w)
        assert w.online["watch"].endswith("#…") and w.table.watch_link not in json.dumps(
            w.get_state())
        shown = w.handle_message({"kind": "online_link", "which": "0"})
        assert shown == {"kind": "online_link", "which": "0", "link": invite}
        assert w.handle_message({"kind": "online_link", "which": "watch"})["link"] == \
            w.table.watch_link
        assert not w.handle_message({"kind": "online_link", "which": "1"})["ok"]  # mine: none
        friend = OnlineSeat(shown["link"])  # the friend opens the invite
        assert w.table.wait_for(lambda s: s.table.get("status") == "playing", 10)
        mover = friend if friend.wait_for(lambda s: s.to_move is not None, 10) and \
            friend.to_move == 0 else w.table
        assert mover.wait_for_turn(10)
        mover.play(mover.legal[0])
        assert w.table.wait_for(lambda s: s.move_number == 1, 10)
        w.table.drain()
        assert w.move_number == 1 and w.online["status"] == "playing"
        assert w.view["players"][0]["hand"] is None  # the friend's hand stays theirs
    finally:
        if friend is not None:
            friend.close()
        w.close()


def test_a_local_board_has_no_link_to_give() -> None:
    w = lf.LangfingerWidget(players=2, seed=1, seat=0, autoplay=False)
    try:
        reply = w.handle_message({"kind": "online_link", "which": "watch"})
        assert not reply["ok"] and "no link 'watch'" in reply["error"]
    finally:
        w.close()


def test_a_mistyped_link_keeps_its_secret_out_of_the_error() -> None:
    with pytest.raises(lf.online.LinkError) as refused:
        lf.online.join("http://127.0.0.1:8000/plai/T1#my-seat-token-0123456789")
    assert "my-seat-token" not in str(refused.value) and "/plai/T1#…" in str(refused.value)


def test_play_online_refuses_a_seed_and_the_open_board() -> None:
    w = lf.LangfingerWidget(players=2, seed=1, seat=0, autoplay=False)
    w.online_server = "http://127.0.0.1:9"
    try:
        seeded = w.handle_message({"kind": "new_game", "seed": 5, "online": True})
        assert not seeded["ok"] and "secret seed" in seeded["error"]
        open_board = w.handle_message({"kind": "new_game", "seat": None, "online": True})
        assert not open_board["ok"] and "one seat" in open_board["error"]
        away = w.handle_message({"kind": "new_game", "online": True})
        assert not away["ok"] and "cannot be reached" in away["error"]
        assert not isinstance(w.table, OnlineSeat) and w.error  # the local game goes on
    finally:
        w.close()


@pytest.mark.parametrize(("forged", "says"), [
    ({"bots": 5}, "bots must map seats to levels"),
    ({"bots": ["a"]}, "bots must map seats to levels"),
    ({"bots": {"x": "easy"}}, "bot seat must be a seat number"),
    ({"players": "x"}, "R1.1"),
    ({"seat": 7}, "seat must be None or 0..1"),
    ({"server": "http://127.0.0.1:9/elsewhere"}, "the page does not choose the server"),
    ({"game": "chess"}, "no game 'chess'; the games are langfinger, crooks"),
    ({"game": ["langfinger"]}, "no game ['langfinger']"),
    ({"game": "crooks", "variant": "open_info"}, "unknown option(s) ['variant'] for Crooks"),
    ({"game": "crooks", "players": 5}, "C1.1"),
])
def test_a_forged_play_online_is_refused_and_changes_nothing(forged: dict, says: str) -> None:  # type: ignore[type-arg]
    w = lf.LangfingerWidget(players=2, seed=1, seat=0, autoplay=False)
    w.online_server = "http://127.0.0.1:9"  # nothing listens: a check that passed would say so
    try:
        before = w.game.to_dict()
        reply = w.handle_message({"kind": "new_game", "online": True, **forged})
        assert not reply["ok"] and says in reply["error"], reply
        assert not isinstance(w.table, OnlineSeat) and w.game.to_dict() == before
    finally:
        w.close()
