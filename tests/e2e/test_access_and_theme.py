"""The board without a mouse, and in JupyterLab's dark theme.

Issue 3 asks for a board that is keyboard operable, with ARIA labels, and that
looks right in light and dark JupyterLab themes. Here a real Chromium proves it:

* every choice the board offers is a native button (or role=button with a
  tabindex) with an accessible name, and a token is placed with Tab, Enter and
  Space alone; the kernel's game (``w.game.history``) is the judge that it worked;
* switching JupyterLab to "JupyterLab Dark" changes the board's colours, and the
  main text keeps a WCAG contrast ratio of at least 4.5:1 (level AA for normal
  text) against the board's background in both themes.

The Crooks board (issue 37) the same way: a turn by Tab and Enter alone, axe-core's WCAG 2.1
A/AA rules clean in light and dark at four steps of a turn, and a phone's 390 px with touch.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from .lab import ARTIFACTS, REPO, LabNotebook, LabServer
from .test_crooks_e2e import assert_a_grid

LIGHT, DARK = "JupyterLab Light", "JupyterLab Dark"
AA_NORMAL_TEXT = 4.5  # WCAG 2.x success criterion 1.4.3

OPEN_BOARD = (
    "import langfinger_widget as lf\n"
    "w = lf.LangfingerWidget(players=2, seed=3, seat=None, bots={}, pace=0)\n"
    "w"
)

# For each clickable choice: is it operable by keyboard, and what would a screen reader call it?
_JS_CONTROLS = """(root) => Array.from(
  root.querySelectorAll('[data-legal="true"], button')).map(el => {
    const labelledBy = (el.getAttribute('aria-labelledby') || '').split(/\\s+/)
        .map(id => document.getElementById(id)).filter(Boolean).map(n => n.textContent).join(' ');
    const tabindex = el.getAttribute('tabindex');
    return {
        html: el.outerHTML.slice(0, 160),
        name: (el.getAttribute('aria-label') || labelledBy || el.textContent || '').trim(),
        native: el.tagName === 'BUTTON',
        role: el.getAttribute('role'),
        tabbable: tabindex === null ? el.tabIndex >= 0 : Number(tabindex) >= 0,
        disabled: el.disabled === true,
    };
})"""

_JS_FOCUSED = """(root) => {
    const el = document.activeElement;
    if (!el || !root.contains(el)) return null;
    const style = getComputedStyle(el);
    return {
        place: el.getAttribute('data-place'),
        legal: el.getAttribute('data-legal'),
        outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
    };
}"""

# The colour the eye sees behind an element: the first opaque-enough background up the tree.
_JS_COLOURS = """(root) => {
    // 'rgb(r, g, b)' / 'rgba(r, g, b, a)' in 0-255, or 'color(srgb r g b / a)' (color-mix) in 0-1.
    const rgba = (s) => {
        const n = (s.match(/[\\d.]+/g) || []).map(Number);
        return s.startsWith('color(') ? n.map((v, i) => (i < 3 ? v * 255 : v)) : n;
    };
    let bg = null;
    for (let el = root; el; el = el.parentElement) {
        const c = rgba(getComputedStyle(el).backgroundColor);
        if (c.length >= 3 && (c.length === 3 || c[3] > 0.5)) { bg = c.slice(0, 3); break; }
    }
    const style = getComputedStyle(root);
    return { fg: rgba(style.color), bg: bg || [255, 255, 255], bgRaw: style.backgroundColor };
}"""

_JS_SET_THEME = """async (theme) => {
    await window.jupyterapp.commands.execute('apputils:change-theme', { theme });
}"""

# JupyterLab covers the page with its splash (the Jupyter logo) while it swaps the theme's CSS.
_JS_THEME_APPLIED = """(light) => document.body.dataset.jpThemeLight === String(light)
    && getComputedStyle(document.body).getPropertyValue('--jp-layout-color0').trim() !== ''
    && !document.getElementById('jupyterlab-splash')"""


def board(nb: LabNotebook) -> Locator:
    return nb.output(0).get_by_test_id("langfinger")


def wait_for_history(nb: LabNotebook, length: int, timeout: float = 20.0) -> list[dict[str, Any]]:
    """Poll the kernel (ipywidgets throttles comm messages) until ``length`` moves were played."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        history: list[dict[str, Any]] = nb.kernel_json("w.game.history")
        if len(history) >= length:
            return history
        time.sleep(0.05)
    raise AssertionError(f"no move {length} in the kernel; error: {nb.kernel_json('w.error')!r}")


def relative_luminance(rgb: list[float]) -> float:
    """WCAG 2.x relative luminance of an sRGB colour given as 0-255 channels."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else float(((c + 0.055) / 1.055) ** 2.4)

    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(fg: list[float], bg: list[float]) -> float:
    """(L1 + 0.05) / (L2 + 0.05), lighter over darker: 1 (none) to 21 (black on white)."""
    if len(fg) == 4 and fg[3] < 1:  # a translucent text colour shows blended with what is behind
        fg = [fg[3] * f + (1 - fg[3]) * b for f, b in zip(fg[:3], bg, strict=True)]
    hi, lo = sorted((relative_luminance(fg), relative_luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula() -> None:
    assert round(contrast_ratio([0, 0, 0], [255, 255, 255]), 1) == 21.0
    assert (
        contrast_ratio([119, 119, 119], [255, 255, 255])
        < AA_NORMAL_TEXT
        < contrast_ratio([118, 118, 118], [255, 255, 255])
    )  # #767676 is the lightest grey that passes AA on white


def focused(page: Page, root: Locator) -> dict[str, Any] | None:
    result: dict[str, Any] | None = page.evaluate(_JS_FOCUSED, root.element_handle())
    return result


def test_keyboard_only_placement(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("keyboard.ipynb", [OPEN_BOARD])
    nb.run_all()
    root = board(nb)
    legal = root.locator('[data-legal="true"]')
    expect(legal.first).to_be_visible()
    page = nb.page

    # Every choice: a real button (or role=button in the tab order) with a name.
    controls = page.evaluate(_JS_CONTROLS, root.element_handle())
    assert len(controls) >= 5, controls  # at least the 5 places
    for c in controls:
        assert c["name"], f"no accessible name: {c['html']}"
        assert c["native"] or (c["role"] == "button" and c["tabbable"]), c["html"]
        assert c["tabbable"] or c["disabled"], f"not reachable by Tab: {c['html']}"

    # Focus the first choice, then walk the choices with Tab / Shift+Tab: no mouse on the board.
    legal.first.focus()
    first = focused(page, root)
    assert first is not None and first["legal"] == "true" and first["place"]
    page.keyboard.press("Tab")
    second = focused(page, root)
    assert second is not None and second["place"] and second["place"] != first["place"]
    assert second["outline"], "keyboard focus must be visible (outline on :focus-visible)"
    page.keyboard.press("Shift+Tab")
    assert focused(page, root) == first
    page.keyboard.press("Tab")

    # Enter places a token on the focused place: the kernel plays exactly that move.
    page.keyboard.press("Enter")
    history = wait_for_history(nb, 1)
    assert history == [{"type": "place", "place": second["place"]}]

    # Focus survives the move (the same places stay legal for the next player),
    # so Space can place the next token without reaching for the mouse.
    expect(root.locator('[data-legal="true"]').first).to_be_visible()
    # The last move glows for a moment; focus must outlive the glow, not only the click.
    expect(root.locator(".lf-flash")).to_have_count(0, timeout=10_000)
    after = focused(page, root)
    assert after is not None and after["legal"] == "true", (
        f"focus left the board after a keyboard move: {after}"
    )
    page.keyboard.press("Space")
    history = wait_for_history(nb, 2)
    assert history[1] == {"type": "place", "place": after["place"]}
    assert nb.kernel_json("w.error") == ""


def colours(page: Page, root: Locator) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(_JS_COLOURS, root.element_handle())
    return result


def set_theme(page: Page, theme: str) -> None:
    page.evaluate(_JS_SET_THEME, theme)
    page.wait_for_function(_JS_THEME_APPLIED, arg=theme == LIGHT, timeout=30_000, polling=100)


def test_light_and_dark_theme(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("theme.ipynb", [OPEN_BOARD])
    nb.run_all()
    root = board(nb)
    expect(root.locator('[data-legal="true"]').first).to_be_visible()
    page = nb.page
    set_theme(page, LIGHT)  # explicit: the server's settings are shared by the whole session
    try:
        light = colours(page, root)
        nb.screenshot("board-light", root)
        set_theme(page, DARK)
        # The theme's CSS is swapped asynchronously: wait until the board's colour follows.
        page.wait_for_function(
            "([root, before]) => getComputedStyle(root).backgroundColor !== before",
            arg=[root.element_handle(), light["bgRaw"]],
            timeout=15_000,
            polling=100,
        )
        dark = colours(page, root)
        nb.screenshot("board-dark", root)
    finally:
        set_theme(page, LIGHT)  # later tests in this session expect the default theme

    assert dark["bg"] != light["bg"] and dark["fg"][:3] != light["fg"][:3], (light, dark)
    assert relative_luminance(dark["bg"]) < relative_luminance(light["bg"])
    ratios = {
        name: contrast_ratio(c["fg"], c["bg"]) for name, c in (("light", light), ("dark", dark))
    }
    print(
        f"\n[e2e] board text contrast: light {ratios['light']:.2f}:1, dark {ratios['dark']:.2f}:1"
        f" (light fg {light['fg']} on {light['bg']}, dark fg {dark['fg']} on {dark['bg']})"
    )
    for name, ratio in ratios.items():
        assert ratio >= AA_NORMAL_TEXT, f"{name} theme: text contrast {ratio:.2f}:1 < 4.5:1"


# --- the Crooks board (issue 37): keyboard, axe-core, themes ---------------------------------

CROOKS_BOARD = (
    "import langfinger_widget as lf\n"
    "w = lf.LangfingerWidget(game='crooks', players=3, seed=4, seat=0,"
    " bots={1: 'easy', 2: 'easy'}, pace=0)\n"
    "w"
)
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"  # package.json's devDependency
# WCAG 2.1 A and AA, as axe-core tags them.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

_JS_AXE = """async ([root, tags]) => {
    const result = await axe.run(root, { runOnly: { type: 'tag', values: tags } });
    return {
        passed: result.passes.map((p) => p.id),
        violations: result.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => n.html.slice(0, 160) + ' :: ' + n.failureSummary),
        })),
    };
}"""

_JS_CROOKS_FOCUSED = """(root) => {
    const el = document.activeElement;
    if (!el || !root.contains(el)) return null;
    const style = getComputedStyle(el);
    return {
        testid: el.getAttribute('data-testid'), legal: el.getAttribute('data-legal'),
        hangout: el.getAttribute('data-hangout'), crook: el.getAttribute('data-crook'),
        target: el.getAttribute('data-target'),
        outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
    };
}"""


def open_crooks(
    open_notebook: Callable[[str, list[str]], LabNotebook], path: str
) -> tuple[LabNotebook, Locator, Locator]:
    """A notebook whose one cell is the Crooks board, run; the notebook, widget root and board,
    once it is seat 0's turn."""
    nb = open_notebook(path, [CROOKS_BOARD])
    nb.run_all()
    root = board(nb)
    crooks = root.get_by_test_id("crooks-board")
    expect(crooks).to_have_attribute("data-state", "mine", timeout=30_000)
    return nb, root, crooks


def axe_violations(page: Page, root: Locator) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.1 A/AA violations inside ``root`` (the engine injected once a page)."""
    if not AXE.exists():
        pytest.fail(f"no {AXE}: npm ci installs axe-core (a devDependency)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: dict[str, Any] = page.evaluate(_JS_AXE, [root.element_handle(), AXE_TAGS])
    # A clean result must come from rules that looked at the board, not from none applying.
    assert {"button-name", "color-contrast", "aria-allowed-attr"} <= set(found["passed"]), found
    violations: list[dict[str, Any]] = found["violations"]
    return violations


def crooks_focused(page: Page, root: Locator) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate(_JS_CROOKS_FOCUSED, root.element_handle())
    return found


def test_crooks_turn_by_keyboard_alone(open_notebook) -> None:  # type: ignore[no-untyped-def]
    """A whole Crooks turn with Tab and Enter: each step hands the focus to the next choice
    (the pile after a recruit, the row after a keep, the ways to lay it after a cell)."""
    nb, _, crooks = open_crooks(open_notebook, "crooks-keyboard.ipynb")
    page = nb.page

    controls = page.evaluate(_JS_CONTROLS, crooks.element_handle())
    assert len(controls) >= 7 + 4, controls  # the 7 hangouts and the toolbar at least
    for c in controls:
        assert c["name"], f"no accessible name: {c['html']}"
        assert c["native"] or (c["role"] == "button" and c["tabbable"]), c["html"]
        assert c["tabbable"] or c["disabled"], f"not reachable by Tab: {c['html']}"

    crooks.locator('[data-testid="hangout"][data-legal="true"]').first.focus()
    first = crooks_focused(page, crooks)
    assert first is not None and first["testid"] == "hangout"
    page.keyboard.press("Tab")
    second = crooks_focused(page, crooks)
    assert second is not None and second["hangout"] not in (None, first["hangout"]), second
    assert second["outline"], "keyboard focus must be visible (outline on :focus-visible)"
    page.keyboard.press("Enter")  # recruit at the second hangout
    history = wait_for_history(nb, 1)
    assert history == [{"type": "recruit", "hangout": second["hangout"]}]

    steps = ["recruit"]
    # Seat 0 starts (seed 4): the turn is over once another seat has decided (pace 0: at once).
    while not any(nb.kernel_json("w.game.deciders")) and len(steps) < 6:
        expect(crooks).to_have_attribute("data-pending", "false")
        now = crooks_focused(page, crooks)
        assert now is not None and (now["legal"] == "true" or now["testid"] == "place-choice"), (
            f"after {steps[-1]} the focus is not on a choice: {now}"
        )
        length = len(nb.kernel_json("w.game.history"))
        page.keyboard.press("Enter")
        if now["testid"] == "target-cell":  # one way to lay it plays; several show the ways
            choices = crooks.get_by_test_id("place-choice")
            deadline = time.monotonic() + 10
            while len(nb.kernel_json("w.game.history")) == length and not choices.count():
                assert time.monotonic() < deadline, "Enter on a lit cell did nothing"
                time.sleep(0.05)
            if len(nb.kernel_json("w.game.history")) == length:
                continue
        history = wait_for_history(nb, length + 1)
        steps.append(history[length]["type"])
    assert steps[:3] == ["recruit", "keep", "place"], steps
    assert nb.kernel_json("w.error") == ""


def test_crooks_board_in_light_and_dark_is_axe_clean(open_notebook) -> None:  # type: ignore[no-untyped-def]
    """The Crooks board follows JupyterLab's theme (its colours change, its text keeps 4.5:1)
    and axe-core finds no WCAG 2.1 A/AA violation in either theme, contrast included: at a
    turn's start (the hangouts), with the pile shown, with the ways to lay a crook offered,
    with the legend open, and at the end screen's scoring. One board, the theme switched at
    each step."""
    nb, root, crooks = open_crooks(open_notebook, "crooks-themes.ipynb")
    page = nb.page
    found: dict[str, list[dict[str, Any]]] = {}
    seen: dict[str, dict[str, Any]] = {}

    def both_themes(step: str) -> None:
        for theme in (LIGHT, DARK):
            set_theme(page, theme)
            name = theme.split()[-1].lower()
            if theme == DARK:  # the theme's CSS comes asynchronously: wait for the board's
                page.wait_for_function(
                    "([root, before]) => getComputedStyle(root).backgroundColor !== before",
                    arg=[root.element_handle(), seen["light"]["bgRaw"]], timeout=15_000,
                    polling=100)
            seen[name] = colours(page, root)
            found[f"{step}, {name}"] = axe_violations(page, root)
            nb.screenshot(f"crooks-{step}-{name}", root)
        set_theme(page, LIGHT)

    try:
        assert_a_grid(crooks)
        both_themes("start")
        crooks.locator('[data-testid="hangout"][data-legal="true"]').last.click()
        expect(crooks.get_by_test_id("pile")).to_be_visible()
        both_themes("pile")
        crooks.locator('[data-testid="pile-card"][data-legal="true"]').first.click()
        expect(crooks).to_have_attribute("data-step", "place")
        for cell in crooks.locator('[data-testid="target-cell"][data-legal="true"]').all():
            cell.click()
            if crooks.get_by_test_id("place-choice").count():
                break
        assert_a_grid(crooks)  # your row lit: its cells still side by side
        both_themes("place")
        crooks.get_by_test_id("legend").click()
        expect(crooks.get_by_test_id("legend-panel")).to_be_visible()
        both_themes("legend")
        crooks.get_by_test_id("legend").click()  # closed again
        # The end screen: the same board given a game played to its end by random moves.
        nb.kernel(
            "import random as _random\n"
            "_over = lf.crooks.Game.new(players=3, seed=4)\n"
            "_moves = _random.Random(1)\n"
            "while not _over.is_over:\n"
            "    _over.play(_moves.choice(_over.legal_actions()))\n"
            "w.game = _over"
        )
        expect(root.get_by_test_id("standings")).to_be_visible()
        both_themes("end")
    finally:
        set_theme(page, LIGHT)  # later tests in this session expect the default theme
    light, dark = seen["light"], seen["dark"]
    assert dark["bg"] != light["bg"] and dark["fg"][:3] != light["fg"][:3], (light, dark)
    assert relative_luminance(dark["bg"]) < relative_luminance(light["bg"])
    for name, c in (("light", light), ("dark", dark)):
        ratio = contrast_ratio(c["fg"], c["bg"])
        assert ratio >= AA_NORMAL_TEXT, f"{name} theme: text contrast {ratio:.2f}:1 < 4.5:1"
    bad = {step: v for step, v in found.items() if v}
    assert not bad, json.dumps(bad, indent=1)


PHONE = {"width": 390, "height": 844}

# For each part: its box, and whether a finger at its centre (once scrolled to) touches it.
_JS_PARTS = """(els) => els.map((el) => {
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
        what: el.getAttribute('data-testid') || el.getAttribute('aria-label') || el.className,
        left: r.left, right: r.right, w: r.width, h: r.height,
        reachable: !!hit && (el === hit || el.contains(hit) || hit.contains(el)),
    };
})"""


def test_crooks_board_on_a_phone(lab_server: LabServer, browser: Browser) -> None:
    """On a phone (390 px, touch; JupyterLab's side panels folded) the Crooks board fits the
    width: it turns its targets a quarter (a row a target, a column a seat), nothing sticks
    out sideways, and every hangout, pile card, cell of your row, way to lay a crook and
    toolbar button can be reached and is at least 44 px to a finger, through a turn by taps."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    lab_server.write_notebook("crooks-phone.ipynb", [CROOKS_BOARD])
    page.goto(lab_server.notebook_url("crooks-phone.ipynb"))
    nb = LabNotebook(page, "crooks-phone.ipynb")
    try:
        nb.wait_ready()
        page.evaluate("() => { const shell = window.jupyterapp.shell; shell.collapseLeft(); "
                      "shell.collapseRight(); }")
        nb.run_all()
        root = board(nb)
        crooks = root.get_by_test_id("crooks-board")
        expect(crooks).to_have_attribute("data-state", "mine", timeout=30_000)
        targets = crooks.get_by_test_id("targets")
        expect(targets.locator("tbody tr")).to_have_count(8)  # a row a target
        expect(targets.locator("thead th")).to_have_count(1 + 3)  # a column a seat
        assert_a_grid(crooks)
        width = crooks.evaluate("(el) => el.getBoundingClientRect().width")
        assert width <= PHONE["width"], f"the board is {width} px wide"
        overflow = crooks.evaluate("(el) => el.scrollWidth - el.clientWidth")
        assert overflow <= 0, f"the board scrolls sideways by {overflow} px"
        for step in ("start", "keep", "place"):
            parts = crooks.locator(
                '[data-testid="hangout"], [data-testid="pile-card"], [data-testid="target-cell"],'
                ' [data-testid="place-choice"], .lf-toolbar button, [data-testid="pass"]'
            ).element_handles()
            assert parts, step
            for part in page.evaluate(_JS_PARTS, parts):
                assert part["left"] >= 0 and part["right"] <= PHONE["width"] + 0.5, (step, part)
                assert part["reachable"], f"{step}: {part['what']} is not reachable: {part}"
                assert part["w"] >= 44 - 0.5 and part["h"] >= 44 - 0.5, (step, part)
            nb.screenshot(f"crooks-phone-{step}", root)
            if step == "start":
                crooks.locator('[data-testid="hangout"][data-legal="true"]').last.tap()
                expect(crooks).to_have_attribute("data-step", "keep")
            elif step == "keep":
                crooks.locator('[data-testid="pile-card"][data-legal="true"]').first.tap()
                expect(crooks).to_have_attribute("data-step", "place")
            else:
                crooks.locator('[data-testid="target-cell"][data-legal="true"]').first.tap()
                choices = crooks.get_by_test_id("place-choice")
                expect(choices.first.or_(crooks.locator('[data-testid="pass"]'))).to_be_visible()
                if crooks.get_attribute("data-step") == "place":  # the ways to lay it
                    for part in page.evaluate(_JS_PARTS, choices.element_handles()):
                        assert part["right"] <= PHONE["width"] + 0.5 and part["reachable"], part
                        assert part["w"] >= 44 - 0.5 and part["h"] >= 44 - 0.5, part
                    choices.first.tap()
                expect(crooks).not_to_have_attribute("data-step", "place")
        assert nb.kernel_json("[a['type'] for a in w.game.history[:3]]") == [
            "recruit", "keep", "place"]
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "FAILED-crooks-phone.png"))
        raise
    finally:
        nb.shutdown_kernel()
        context.close()
