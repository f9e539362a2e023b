"""How fast the widget answers a click, and how big its messages are (printed, never asserted).

    python benchmarks/widget.py                # kernel side, then the browser if Chromium exists
    python benchmarks/widget.py --no-browser   # kernel side only (about 10 s)
    python benchmarks/widget.py --games 5 --rounds 3 --seed 3

Kernel side, no browser: whole games are played through
``LangfingerWidget.handle_message({"kind": "act", ...})`` with ``autoplay=False``,
exactly what the comm calls for a click. The time per intent runs until every
trait is updated and the messages are packed as JSON (the widget's comm is
wrapped so that it serialises what it would send, as the kernel's session does).
Two boards: the open board (``seat=None``, every seat human, the biggest views)
and one player's board (``seat=0`` against random bots; only seat 0's intents
are timed, but every update the page receives is measured, bot moves included).

Browser side: JupyterLab started by the e2e harness (``tests/e2e/lab.py``),
headless Debian Chromium, a notebook showing the open board; whole rounds are
played by clicking. The time runs, inside the page, from the click that sends
the intent to the first DOM mutation showing the kernel's answer (the decision
line or the log changed), and to the next animation frame after it.

Issue 3 aims at a median under 50 ms from click to board and under 10 KB per view update.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

REPO = Path(__file__).resolve().parents[1]
# Benchmark the checkout this file lives in; the e2e harness is imported as the package `e2e`
# (not `tests.e2e`, which an unrelated installed `tests` package could shadow).
sys.path[:0] = [str(REPO), str(REPO / "tests")]
from langfinger_widget.kernel.game import Game  # noqa: E402
from langfinger_widget.ui.widget import LangfingerWidget  # noqa: E402

if TYPE_CHECKING:
    from e2e.lab import LabNotebook

TARGET_MS = 50.0
TARGET_UPDATE_BYTES = 10_000
PER_MOVE_TRAITS = ("view", "legal", "events")


def packed_size(data: Any) -> int:
    """Bytes of ``data`` as jupyter_client's session packs a message (UTF-8 JSON)."""
    return len(json.dumps(data, ensure_ascii=False, allow_nan=False).encode())


def spread(values: list[float]) -> tuple[float, float, float]:
    """(median, p90, max) of a non-empty sample."""
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return statistics.median(ordered), p90, ordered[-1]


# --- kernel side ------------------------------------------------------------------------------
@dataclass
class KernelFigures:
    """What one board configuration measured over its games."""

    intent_ms: list[float] = field(default_factory=list)
    # Bytes of the comm's state-update messages for one move (a move sends two: the highlight,
    # then view/legal/log/move_number together), summed per move.
    update_bytes: list[int] = field(default_factory=list)
    pending_update: int = 0
    trait_bytes: dict[str, list[int]] = field(default_factory=dict)  # per trait, after each move
    state_bytes: int = 0  # the largest whole-state message (what the page gets on display)
    state_code_bytes: int = 0  # of which the front-end bundle (_esm, _css)


def record_comm(w: LangfingerWidget, figures: KernelFigures) -> None:
    """Make the widget's comm pack every message it sends and add up the state updates' sizes."""
    send = w.comm.send

    def recording_send(data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        size = packed_size(data)
        if isinstance(data, dict) and data.get("method") == "update":
            figures.pending_update += size
        send(data=data, metadata=metadata, buffers=buffers)

    w.comm.send = recording_send


def note_state(w: LangfingerWidget, figures: KernelFigures, moved: bool) -> None:
    """After a move: its update messages, the per-move traits' sizes, and the whole state."""
    if moved:
        figures.update_bytes.append(figures.pending_update)
    figures.pending_update = 0
    per_move = {k: getattr(w, k) for k in PER_MOVE_TRAITS}
    for name, size in [("v+l+l", packed_size(per_move))] + [
        (k, packed_size(v)) for k, v in per_move.items()
    ]:
        figures.trait_bytes.setdefault(name, []).append(size)
    state = w.get_state()
    whole = packed_size({"state": state, "buffer_paths": []})
    if whole > figures.state_bytes:
        figures.state_bytes = whole
        figures.state_code_bytes = packed_size(state["_esm"]) + packed_size(state["_css"])


def timed_intent(w: LangfingerWidget, action: dict[str, Any]) -> float:
    """Milliseconds for the widget to answer one click's intent (all traits updated and sent)."""
    start = time.perf_counter()
    reply = w.handle_message({"kind": "act", "action": action, "move": w.move_number,
                              "version": w.version})
    elapsed = (time.perf_counter() - start) * 1000
    if not reply["ok"]:
        raise RuntimeError(f"the widget refused a legal action {action}: {reply['error']}")
    return elapsed


def kernel_game(players: int, variant: str, board: str, seed: int, figures: KernelFigures) -> None:
    """Play one whole game through the comm's entry point, choosing uniformly among `legal`."""
    game = Game.new(players=players, seed=seed, variant=variant)
    if board == "open":
        w = LangfingerWidget(game=game, seat=None, bots={}, autoplay=False)
    else:
        bots: dict[int | str, str] = {s: "random" for s in range(1, players)}
        w = LangfingerWidget(game=game, seat=0, bots=bots, autoplay=False)
    record_comm(w, figures)
    choose = random.Random(seed).choice
    note_state(w, figures, moved=False)
    while not w.game.is_over:
        if w.legal:
            figures.intent_ms.append(timed_intent(w, choose(w.legal)))
        elif w.step_bots(limit=1) == 0:
            raise RuntimeError(f"nobody moves: error {w.error!r}")
        note_state(w, figures, moved=True)
    w.close()


def kernel_side(games: int, seed: int) -> None:
    print(
        "Kernel side: whole games through handle_message(act), autoplay=False "
        f"({games} game(s) per row, random legal choices). Boards: 'open' is seat=None with "
        "every seat human;\n'seat 0' is seat 0 against random bots (only its intents are "
        "timed; every move's update is measured).\n"
    )
    rows = []
    for players in (3, 5):
        for variant in ("standard", "open_info"):
            for board in ("open", "seat 0"):
                figures = KernelFigures()
                for k in range(games):
                    kernel_game(players, variant, board, seed + k, figures)
                rows.append((f"{players:>7} {variant:<9} {board:<6}", figures))
    print(
        f"{'players':>7} {'variant':<9} {'board':<6} {'intents':>7} {'median ms':>9} "
        f"{'p90 ms':>7} {'max ms':>7}   {'moves':>5} {'update/move median':>18} {'max':>7}"
    )
    for label, f in rows:
        med, p90, top = spread(f.intent_ms)
        upd_med, _, upd_max = spread([float(b) for b in f.update_bytes])
        print(
            f"{label} {len(f.intent_ms):>7} {med:>9.2f} {p90:>7.2f} {top:>7.2f}   "
            f"{len(f.update_bytes):>5} {upd_med:>12,.0f} bytes {upd_max:>7,.0f}"
        )
    print(
        f"\n{'bytes (JSON)':<24} {'view+legal+log':>16} {'view':>15} {'legal':>15} "
        f"{'events':>15} {'whole state':>11} {'w/o code':>8}"
    )
    print(f"{'':<24} {'median':>8} {'max':>7} " + f"{'median':>7} {'max':>7} " * 3)
    for label, f in rows:
        cells = " ".join(
            f"{statistics.median(f.trait_bytes[k]):>{8 if k == 'v+l+l' else 7},.0f} "
            f"{max(f.trait_bytes[k]):>7,}"
            for k in ("v+l+l", *PER_MOVE_TRAITS)
        )
        print(f"{label} {cells} {f.state_bytes:>11,} {f.state_bytes - f.state_code_bytes:>8,}")
    print(
        f"\ntargets: median < {TARGET_MS:.0f} ms per intent; one view update < "
        f"{TARGET_UPDATE_BYTES // 1000} KB. 'update/move' is what the comm sends for one move "
        "(state-update messages, packed);\n'whole state' is the largest state the page would "
        "receive on display during the game, 'w/o code' without the JS/CSS bundle "
        "(_esm, _css).\n"
    )


# --- browser side -----------------------------------------------------------------------------
# The notebook's only cell: the open board, every seat human, and a wrapped comm that notes the
# packed size of every state update the kernel sends to the page.
_CELL = """\
import json
import langfinger_widget as lf
w = lf.LangfingerWidget(players={players}, seed={seed}, seat=None, bots={{}}, pace=0)
_bench_updates = []
_bench_send = w.comm.send
def _bench_record(data=None, metadata=None, buffers=None):
    if isinstance(data, dict) and data.get("method") == "update":
        _bench_updates.append(len(json.dumps(data, ensure_ascii=False).encode()))
    _bench_send(data=data, metadata=metadata, buffers=buffers)
w.comm.send = _bench_record
w
"""

# Armed before the click that sends an intent. `t0`: that click (capture phase, before the
# board's own handler); `t1`: the first DOM mutation after which the decision line or the
# log (its length or newest entry) differs, i.e. the kernel's answer is on the board;
# `t2`: the next animation frame after `t1`.
_JS_ARM = """(el) => {
    const sig = () => {
        const d = el.querySelector('[data-testid=decision]');
        const items = el.querySelectorAll('[data-testid=log] li');
        return [d ? d.textContent : '', items.length, items.length ? items[0].textContent : '']
            .join('|');
    };
    const before = sig();
    const t = (window.__lfBench = {});
    el.addEventListener('click', () => { t.t0 = performance.now(); },
                        { capture: true, once: true });
    const obs = new MutationObserver(() => {
        if (t.t0 === undefined || t.t1 !== undefined || sig() === before) return;
        t.t1 = performance.now();
        obs.disconnect();
        requestAnimationFrame(() => { t.t2 = performance.now(); });
    });
    obs.observe(el, { childList: true, subtree: true, characterData: true, attributes: true });
}"""

# Placements go round the places in this order, so that every place gets tokens.
_PLACES = ("city", "villa", "museum", "ruin", "harbor")


def choose_click(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    turn: int,
    pick: Callable[[list[dict[str, Any]]], dict[str, Any]],
) -> dict[str, Any]:
    """The next action to click: placements round-robin, then the e2e test's preference."""
    if view["decision"]["kind"] == "place":
        free = [a for a in legal if a["type"] == "place"]
        order = _PLACES[turn % len(_PLACES) :] + _PLACES[: turn % len(_PLACES)]
        return next(a for p in order for a in free if a["place"] == p)
    return pick(legal)


def browser_side(rounds: int, players: int, seed: int) -> None:
    # Imported here so that the kernel side runs without Playwright or JupyterLab installed.
    from e2e.lab import CHROMIUM, CHROMIUM_ARGS, LabNotebook, start_lab, stop_lab
    from playwright.sync_api import sync_playwright

    print(
        f"Browser side: JupyterLab + headless {CHROMIUM}, open board, {players} players, "
        f"seed {seed}, {rounds} whole round(s) by clicking"
    )
    with tempfile.TemporaryDirectory(prefix="lf-bench-") as base:
        server = start_lab(Path(base))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
                )
                try:
                    page = browser.new_page(viewport={"width": 1400, "height": 1000})
                    page.set_default_timeout(30_000)
                    path = "bench.ipynb"
                    server.write_notebook(path, [_CELL.format(players=players, seed=seed)])
                    page.goto(server.notebook_url(path))
                    nb = LabNotebook(page, path)
                    nb.wait_ready()
                    nb.run_all()
                    print(
                        f"(lab up in {server.started_in:.1f} s, kernel ready in "
                        f"{nb.timings['kernel_ready']:.1f} s, cell ran in "
                        f"{nb.timings['run_all']:.1f} s)"
                    )
                    click_rounds(nb, rounds)
                    nb.shutdown_kernel()
                finally:
                    browser.close()
        finally:
            stop_lab(server)


def click_rounds(nb: LabNotebook, rounds: int) -> None:
    """Click through ``rounds`` whole rounds, timing each intent in the page; print the table."""
    # How to click an action, and which one a person would pick, as the e2e test does it.
    from e2e.test_board import compose_action, pick, wait_for_move

    root = nb.output(0).get_by_test_id("langfinger")
    root.get_by_test_id("round").wait_for()
    mutation: list[float] = []
    frame: list[float] = []
    kinds: list[str] = []
    first_update: list[int] = []  # index into the kernel's `_bench_updates` where a move starts
    last_round = nb.kernel_json("w.game.round") + rounds - 1
    turn = 0
    while nb.kernel_json("w.game.round") <= last_round and not nb.kernel_json("w.game.is_over"):
        view, legal, number, sent = nb.kernel_json(
            "[w.view, w.legal, w.move_number, len(_bench_updates)]"
        )
        first_update.append(sent)
        action = choose_click(view, legal, turn, pick)
        # Where the action happens: the place clicked while placing, else the place resolving.
        place = str(action["place"] if action["type"] == "place" else view["decision"]["place"])
        send = compose_action(root, place, action)
        root.page.evaluate(_JS_ARM, root.element_handle())
        send.click()
        root.page.wait_for_function("() => window.__lfBench.t2 !== undefined", timeout=20_000)
        t = root.page.evaluate("window.__lfBench")
        mutation.append(t["t1"] - t["t0"])
        frame.append(t["t2"] - t["t0"])
        kinds.append(action["type"])
        wait_for_move(nb, number + 1)
        turn += 1
    sizes = nb.kernel_json(
        "{'updates': _bench_updates, 'error': w.error,"
        " 'state': len(json.dumps({'state': w.get_state(), 'buffer_paths': []},"
        " ensure_ascii=False).encode()),"
        " 'code': sum(len(json.dumps(w.get_state()[k]).encode()) for k in ('_esm', '_css')),"
        " 'traits': len(json.dumps({k: getattr(w, k) for k in ('view', 'legal', 'events')}))}"
    )
    counts = ", ".join(f"{k} x{kinds.count(k)}" for k in sorted(set(kinds)))
    print(f"{len(mutation)} clicks ({counts}); kernel error after: {sizes['error']!r}")
    print(f"{'click ->':<26} {'median':>8} {'p90':>8} {'max':>8}   target")
    for label, values in (("board updated (DOM), ms", mutation), ("next frame, ms", frame)):
        med, p90, top = spread(values)
        print(f"{label:<26} {med:>8.1f} {p90:>8.1f} {top:>8.1f}   median < {TARGET_MS:.0f} ms")
    bounds = [*first_update, len(sizes["updates"])]
    updates = [float(sum(sizes["updates"][a:b])) for a, b in itertools.pairwise(bounds)]
    if updates:
        med, p90, top = spread(updates)
        print(
            f"{'update/move, bytes':<26} {med:>8,.0f} {p90:>8,.0f} {top:>8,.0f}   "
            f"< {TARGET_UPDATE_BYTES:,} bytes (per move, {len(sizes['updates'])} messages)"
        )
    print(
        f"whole state message (in the kernel, end of the run): {sizes['state']:,} bytes, "
        f"{sizes['state'] - sizes['code']:,} without the JS/CSS bundle; "
        f"view+legal+log now {sizes['traits']:,} bytes"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="kernel-side games per row")
    parser.add_argument("--seed", type=int, default=3, help="base seed (games and the browser)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds clicked in the browser")
    parser.add_argument("--players", type=int, default=3, help="players in the browser game")
    parser.add_argument(
        "--browser",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also time clicks in JupyterLab (default: on when /usr/bin/chromium exists)",
    )
    args = parser.parse_args(argv)
    print(
        "$ "
        + " ".join(["python", "benchmarks/widget.py", *(sys.argv[1:] if argv is None else argv)])
        + "\n"
    )
    kernel_side(args.games, args.seed)
    browser = Path("/usr/bin/chromium").exists() if args.browser is None else args.browser
    if browser:
        browser_side(args.rounds, args.players, args.seed)
    else:
        print("Browser side skipped (--browser, or install /usr/bin/chromium).")


if __name__ == "__main__":
    main()
