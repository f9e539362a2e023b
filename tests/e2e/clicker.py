"""A player who knows the game only from the page: plays a seat by clicking, and counts clicks.

Nothing is read from the kernel: what may be clicked comes from the board's
DOM contract (``data-legal``, ``data-place``, ``data-slot``, ``data-fence``,
``data-loot``, ``data-testid``), what is being decided from the decision line,
and whether a move went through from the move number the board carries
(``data-move`` on the board's root). So a test driving it executes no code in
the kernel after the first cell: only clicks reach Python, as for a person.

The player's policy is fixed (it does not matter how well it plays, only that it
is the same before and after a change to the board): tokens go to the places in
:data:`PLACE_PLAN`'s order where legal; at the City it takes the first tools it
may; at the Villa and the Museum it steals the first card it can pay for; at the
Harbor it sells to the first fence that buys its loot, as much as that fence
takes; at the Ruin it passes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Locator

# Where the player puts its tokens, tried in this order at each placement.
PLACE_PLAN = ("villa", "city", "harbor", "museum", "city", "ruin")

DECISION_WORDS = {
    "places a token": "place",
    "takes tools at the City": "city",
    "at the Villa": "villa",
    "at the Museum": "museum",
    "at the Ruin": "ruin",
    "at the Harbor": "harbor",
}


# In the page: from the next click on the board to the moment its move number reaches
# `target` (our move, then the next player's), read from the board's data-move attribute.
_JS_ARM_ANSWER = """(el, target) => {
    const t = (window.__lfAnswer = {});
    const start = () => { t.t0 = performance.now(); };
    el.addEventListener('click', start, { capture: true, once: true });
    const obs = new MutationObserver(() => {
        if (t.t0 !== undefined && Number(el.getAttribute('data-move')) >= target) {
            t.ms = performance.now() - t.t0;
            obs.disconnect();
        }
    });
    obs.observe(el, { attributes: true, attributeFilter: ['data-move'] });
}"""


@dataclass
class Clicker:
    """Plays the board's own seat by clicks; ``clicks`` counts every click it made."""

    root: Locator
    clicks: int = 0
    decisions: int = 0
    auto_passes: int = 0
    placed: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    # Seconds from a click that completes a move to the board showing the next move (a bot's).
    answers: list[float] = field(default_factory=list)
    # Called before each decision, and right after the kernel has it (e.g. to take pictures).
    before: Callable[[Clicker], None] | None = None
    after: Callable[[Clicker], None] | None = None

    # --- reading the page -----------------------------------------------------------------------
    def move(self) -> int:
        value = self.root.get_attribute("data-move")
        return int(value) if value not in (None, "") else -1

    def over(self) -> bool:
        return self.root.get_by_test_id("game-over").count() > 0

    def my_turn(self) -> bool:
        return self.root.locator(".lf-your-turn").count() > 0

    def pending(self) -> bool:
        return self.root.locator("[data-pending=true]").count() > 0

    def decision(self) -> str:
        text = self.root.get_by_test_id("decision").inner_text()
        for words, kind in DECISION_WORDS.items():
            if words in text:
                return kind
        raise AssertionError(f"cannot read the decision from {text!r}")

    def wait_for_turn(self, timeout: float = 120.0) -> bool:
        """Wait until the board asks this seat to decide (True) or the game is over (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.over():
                return False
            if self.my_turn() and not self.pending():
                return True
            time.sleep(0.05)
        raise AssertionError(f"neither our turn nor game over within {timeout}s "
                             f"(move {self.move()})")

    def wait_past(self, move: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while self.move() <= move:
            if time.monotonic() > deadline:
                error = self.root.get_by_test_id("error")
                shown = error.inner_text() if error.count() else ""
                raise AssertionError(f"the board stayed at move {move}; error: {shown!r}")
            time.sleep(0.02)

    # --- clicking -------------------------------------------------------------------------------
    def click(self, target: Locator) -> None:
        target.click()
        self.clicks += 1

    def _candidate(self, kind: str) -> Locator | None:
        """The next element to click for this decision, by the policy, or None."""
        root = self.root
        free = ':not([aria-pressed="true"]):not(.lf-selected)'
        if kind == "place":
            for place in PLACE_PLAN[self.placed % len(PLACE_PLAN):] + PLACE_PLAN:
                found = root.locator(f'[data-place="{place}"][data-legal="true"]')
                if found.count():
                    return found.first
            return None
        if kind == "city":
            found = root.locator(f'[data-area="city"] [data-tool][data-legal="true"]{free}')
        elif kind in ("villa", "museum"):
            if root.locator(f'[data-area="{kind}"] [data-slot].lf-selected').count():
                return None  # chosen: what is left is to confirm
            found = root.locator(f'[data-area="{kind}"] [data-slot][data-legal="true"]')
        elif kind == "harbor":
            if root.locator('[data-area="harbor"] [data-fence].lf-selected').count():
                found = root.locator(f'[data-area="my-loot"] [data-loot][data-legal="true"]{free}')
            else:
                found = root.locator('[data-area="harbor"] [data-fence][data-legal="true"]')
        else:
            return None  # the Ruin: pass
        return found.first if found.count() else None

    def decide(self) -> None:
        """Make one decision by clicks, and wait until the kernel has it."""
        kind = self.decision()
        start = self.move()
        self.decisions += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
        for _ in range(40):
            if self.move() != start or self.pending():
                break
            if self.root.get_by_test_id("auto-pass").count():
                self.auto_passes += 1  # the board passes by itself: nothing to click
                break
            confirm = self.root.get_by_test_id("confirm")
            if confirm.count() and confirm.is_enabled():
                self._send(confirm, start)
                break
            target = self._candidate(kind)
            if target is not None:
                if kind == "place":
                    self._send(target, start)
                    self.placed += 1
                    break
                self.click(target)
                continue
            passing = self.root.get_by_test_id("pass")
            if passing.count() == 0 or not passing.is_enabled():
                continue  # the board passed by itself meanwhile, or is sending: look again
            self._send(passing, start)
            break
        else:
            raise AssertionError(f"could not complete a {kind} decision at move {start}")
        self.wait_past(start)

    def _send(self, target: Locator, start: int) -> None:
        """Click what sends the move; time, inside the page, how long until the board shows
        the next player's move after ours (no polling in the figure)."""
        self.root.evaluate(_JS_ARM_ANSWER, start + 2)
        self.click(target)
        self.wait_past(start)
        deadline = time.monotonic() + 30
        while self.move() <= start + 1 and not self.over() and time.monotonic() < deadline:
            if self.my_turn() and not self.pending():
                return  # our own decision again (e.g. our next token acts): no bot to time
            time.sleep(0.02)
        took = self.root.evaluate("() => window.__lfAnswer && window.__lfAnswer.ms")
        if isinstance(took, (int, float)):
            self.answers.append(took / 1000)

    def play_to_end(self, limit: int = 400) -> None:
        """Decide every time the board asks, until the game is over."""
        for _ in range(limit):
            if not self.wait_for_turn():
                return
            if self.before is not None:
                self.before(self)
                if not self.wait_for_turn():  # the board may have passed by itself meanwhile
                    return
            self.decide()
            if self.after is not None:
                self.after(self)
        raise AssertionError(f"the game did not end within {limit} decisions")
