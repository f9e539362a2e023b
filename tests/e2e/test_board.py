"""The Langfinger board in a real JupyterLab: a full round by clicking, and a hot-seat handover.

The page is driven only by clicks on the elements of the DOM contract
(``data-place``, ``data-slot``, ``data-tool``, ``data-rate``, ``data-fence``,
``data-loot``, ``data-testid="pass"``/``"confirm"``). Which move to click is
picked from the kernel's ``w.legal`` (the test plays the part of a person who
knows what they want); whether the click did it is read back from the kernel
(``w.game.history``) and from the page.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator, expect

from .lab import LabNotebook

# Prefer real actions to passing, so that every kind of click gets exercised when legal.
PREFERENCE = ("steal", "sell", "exchange", "take_tools")
# Every place gets tokens; the seed gives a round with a steal, an exchange and a sale
# (with the shipped deck), but the test accepts whatever the rules allow.
PLAN = ["city", "villa", "museum", "ruin", "harbor", "city", "museum", "villa", "harbor"]
SEED = 3


def board(nb: LabNotebook) -> Locator:
    return nb.output(0).get_by_test_id("langfinger")


def wait_for_move(nb: LabNotebook, number: int, timeout: float = 20.0) -> None:
    """Wait until the kernel has played ``number`` actions (the click reached Python)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if nb.kernel_json("w.move_number") >= number:
            return
        time.sleep(0.05)
    error = nb.kernel_json("w.error")
    raise AssertionError(f"the kernel did not reach move {number}; error: {error!r}")


def pick(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for kind in PREFERENCE:
        options = [a for a in legal if a["type"] == kind]
        if options:
            # The largest sale or exchange shows the most clicking.
            return max(options, key=lambda a: len(a.get("loot", a.get("give", []))))
    return {"type": "pass"}


def nth_of_each(area: Locator, attr: str, values: list[str]) -> list[Locator]:
    """One element per value; repeated values take the next element with that value."""
    seen: Counter[str] = Counter()
    out = []
    for value in values:
        out.append(area.locator(f'[data-{attr}="{value}"]').nth(seen[value]))
        seen[value] += 1
    return out


def picks_of(root: Locator, place: str, action: dict[str, Any]) -> list[Locator]:
    """The board elements to click, in order, to compose ``action`` at ``place``."""
    kind = action["type"]
    if kind == "take_tools":
        return nth_of_each(root.locator('[data-area="city"]'), "tool", action["tools"])
    if kind == "steal":
        # The board pre-fills the payment (and offers the scoundrel) for the chosen card.
        return [root.locator(f'[data-area="{place}"] [data-slot="{action["slot"]}"]')]
    if kind == "exchange":
        rate = root.locator(f'[data-area="ruin"] [data-rate="{action["rate"]}"]')
        return [rate, *nth_of_each(root.locator('[data-area="hand"]'), "tool", action["give"])]
    fence = root.locator(f'[data-area="harbor"] [data-fence="{action["fence"]}"]')
    return [fence, *nth_of_each(root.locator('[data-area="my-loot"]'), "loot", action["loot"])]


def sent_since(root: Locator, move: str | None) -> bool:
    """Whether the board has sent a move since it was at ``move`` (its ``data-move``)."""
    pending = root.locator('[data-pending="true"]').count() > 0
    return pending or root.get_attribute("data-move") != move


def compose_action(root: Locator, place: str, action: dict[str, Any],
                   arm: Callable[[], None] | None = None) -> Locator | None:
    """Click the elements that compose ``action`` at ``place``; return the button that sends it,
    or None when the board sent it by itself: a pick that leaves one way to go completes the
    move (issue 28). ``arm`` is called before each click that may send."""
    kind = action["type"]
    if kind == "place":
        return root.locator(f'[data-place="{action["place"]}"][data-legal="true"]')
    if kind == "pass":
        return root.get_by_test_id("pass")
    move = root.get_attribute("data-move")
    for target in picks_of(root, place, action):
        if arm is not None:
            arm()
        target.click()
        if sent_since(root, move):
            return None
    confirm = root.get_by_test_id("confirm")
    expect(confirm).to_be_enabled()
    return confirm


def play_by_clicks(root: Locator, place: str, action: dict[str, Any]) -> None:
    """Compose ``action`` and send it, with Confirm only where the board asks for it."""
    send = compose_action(root, place, action)
    if send is not None:
        send.click()


# Times, inside the page, from the click that sends an intent to the moment the board shows
# the kernel's answer (the log grows): no Playwright or polling overhead in the figure.
_JS_ARM_TIMER = """([el, n]) => {
    const t = (window.__lfTimer = {});
    const start = () => { t.t0 = performance.now(); };
    el.addEventListener('click', start, { capture: true, once: true });
    const obs = new MutationObserver(() => {
        if (t.t0 !== undefined && el.querySelectorAll('[data-testid=log] li').length > n) {
            t.t1 = performance.now();
            obs.disconnect();
        }
    });
    obs.observe(el, { childList: true, subtree: true, characterData: true });
}"""


def same_move(played: dict[str, Any], wanted: dict[str, Any]) -> bool:
    if played["type"] != wanted["type"]:
        return False
    if wanted["type"] == "steal":
        return bool(played["slot"] == wanted["slot"])  # payment as the board composed it
    lists = ("tools", "give", "loot")
    return all(
        sorted(played[k]) == sorted(wanted[k]) if k in lists else played[k] == wanted[k]
        for k in wanted
    )


def log_length(root: Locator) -> int:
    return root.locator('[data-testid="log"] li').count()


def test_full_round_by_clicking(open_notebook) -> None:  # type: ignore[no-untyped-def]
    cell = (
        "import langfinger_widget as lf\n"
        f"w = lf.LangfingerWidget(players=3, seed={SEED}, seat=None, bots={{}}, pace=0)\n"
        "w"
    )
    nb: LabNotebook = open_notebook("round.ipynb", [cell])
    nb.run_all()
    root = board(nb)
    expect(root.get_by_test_id("round")).to_have_text("Round 1")
    latencies: list[float] = []
    played_kinds: dict[str, str] = {}

    def click_and_check(place: str, action: dict[str, Any]) -> None:
        number = nb.kernel_json("w.move_number")
        before = log_length(root)
        handle = root.element_handle()

        def arm() -> None:
            root.page.evaluate(_JS_ARM_TIMER, [handle, before])

        send = compose_action(root, place, action, arm)
        if send is not None:
            arm()
            send.click()
        root.page.wait_for_function("() => window.__lfTimer.t1 !== undefined")
        latencies.append(root.page.evaluate("window.__lfTimer.t1 - window.__lfTimer.t0") / 1000)
        wait_for_move(nb, number + 1)
        last = nb.kernel_json("w.game.history[-1]")
        assert same_move(last, action), f"clicked for {action}, the kernel played {last}"

    # Every placement, by clicking the place (the open board acts for whoever is to move).
    for place in PLAN:
        click_and_check(place, {"type": "place", "place": place})
    state = nb.kernel_json("{'phase': w.game.phase, 'squares': w.view['squares']}")
    assert state["phase"] == "act"
    tokens = Counter(p for p, row in state["squares"].items() for s in row if s is not None)
    assert tokens == Counter(PLAN)
    nb.screenshot("board-before-actions", root)

    # Then an action at each token, place by place, until the round is over.
    while nb.kernel_json("w.game.round") == 1:
        decision = nb.kernel_json("w.view['decision']")
        action = pick(nb.kernel_json("w.legal"))
        click_and_check(decision["place"], action)
        played_kinds.setdefault(decision["place"], action["type"])
        if action["type"] != "pass":
            played_kinds[decision["place"]] = action["type"]

    kernel = nb.kernel_json(
        "{'round': w.game.round, 'phase': w.game.phase, 'moves': len(w.game.history),"
        " 'money': w.game.money, 'names': [p['name'] for p in w.view['players']],"
        " 'error': w.error, 'view_bytes': len(_j.dumps(w.view))}"
    )
    assert kernel["round"] == 2 and kernel["phase"] == "place" and kernel["error"] == ""
    assert kernel["moves"] == len(PLAN) * 2  # one action per token
    assert set(played_kinds) == {"city", "villa", "ruin", "museum", "harbor"}
    assert played_kinds["city"] == "take_tools"
    # The page agrees with the kernel.
    expect(root.get_by_test_id("round")).to_have_text("Round 2")
    for seat, (name, money) in enumerate(zip(kernel["names"], kernel["money"], strict=True)):
        card = root.locator(f'article[data-seat="{seat}"]')
        expect(card).to_contain_text(name)
        expect(card.locator(".lf-money")).to_contain_text(str(money))
    expect(root.get_by_test_id("error")).to_have_count(0)

    shot = nb.screenshot("board", root)
    assert shot.stat().st_size > 10_000
    print(
        f"\n[e2e] full round: {len(latencies)} clicks; click -> updated board median "
        f"{statistics.median(latencies) * 1000:.0f} ms (max {max(latencies) * 1000:.0f} ms); "
        f"view {kernel['view_bytes']} bytes; actions {played_kinds}"
    )


def test_hot_seat_handover(open_notebook) -> None:  # type: ignore[no-untyped-def]
    cell = (
        "import langfinger_widget as lf\n"
        "g = lf.Game.new(players=2, seed=4, start_player=0)  # seat 0 first (R1.0: given)\n"
        "w = lf.LangfingerWidget(g, seat=0, bots={}, pace=0)\n"
        "w"
    )
    nb: LabNotebook = open_notebook("hotseat.ipynb", [cell])
    nb.run_all()
    root = board(nb)
    names = nb.kernel_json("[p['name'] for p in w.view['players']]")
    expect(root.get_by_test_id("my-area")).to_contain_text(names[0])

    root.locator('[data-place="museum"][data-legal="true"]').click()
    wait_for_move(nb, 1)
    # The screen waits for the next player, names them, and hides the last player's hand.
    privacy = root.get_by_test_id("privacy")
    expect(privacy).to_be_visible()
    expect(privacy).to_contain_text(names[1])
    expect(root.get_by_test_id("my-area")).to_have_count(0)
    assert nb.kernel_json("[w.seat, w.legal]") == [0, []]  # nothing of seat 1 sent yet

    root.get_by_test_id("reveal").click()
    expect(root.get_by_test_id("my-area")).to_contain_text(names[1])
    seat, legal, hand = nb.kernel_json("[w.seat, len(w.legal), w.view['players'][1]['hand_size']]")
    assert seat == 1 and legal > 0
    expect(root.get_by_test_id("my-area")).to_contain_text(f"{hand} tools")
    # Seat 1 plays on the same screen.
    root.locator('[data-place="city"][data-legal="true"]').click()
    wait_for_move(nb, 2)
    assert nb.kernel_json("w.game.history") == [
        {"type": "place", "place": "museum"},
        {"type": "place", "place": "city"},
    ]
    expect(root.get_by_test_id("privacy")).to_contain_text(names[0])
    nb.screenshot("hot-seat", root)
