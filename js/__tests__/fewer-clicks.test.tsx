/** Issue 28, item 4: fewer clicks (forced passes, one click where one choice fits) and a
 *  board that stays where it is while messages come and go. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { act } from "preact/test-utils";
import { city5, harbor5, loot, museum5, ruin5, stateOf, villa5 } from "../__fixtures__/views";
import { passReason } from "../forced";
import { AUTO_PASS_MS } from "../board/composer";
import type { Action, PlayerView } from "../types";
import { click, mountPerTest, q } from "./fake-model";

const setup = mountPerTest();
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

const acts = (sent: unknown[]): unknown[] => sent.filter((m) => (m as { kind: string }).kind === "act");
const PASS: Action[] = [{ type: "pass" }];

describe("when Pass is the only legal move", () => {
  it("says why in one line, never asks for a click that cannot be made, and passes in one click", () => {
    const f = villa5();
    localStorage.setItem("langfinger.board.prefs", JSON.stringify({ autoPass: false }));
    const { el, model } = setup(stateOf({ ...f, legal: PASS }));
    expect(q(el, '[data-testid="pass-reason"]').textContent).toBe(
      "You cannot pay for any loot card at the Villa, even with your scoundrel (R5.1, R5.2).",
    );
    expect(el.textContent).not.toContain("Click a loot card");
    expect(el.querySelector('[data-testid="confirm"]')).toBeNull();
    expect(el.querySelector('[data-testid="auto-pass"]')).toBeNull();
    click(el, '[data-testid="pass"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "pass" } }]);
  });

  it("passes by itself after a visible moment, unless asked to wait", () => {
    vi.useFakeTimers();
    const f = harbor5();
    const { el, model } = setup(stateOf({ ...f, legal: PASS }));
    expect(q(el, '[data-testid="auto-pass"]').textContent).toContain("Passing");
    act(() => {
      vi.advanceTimersByTime(AUTO_PASS_MS - 100);
    });
    expect(acts(model.sent)).toEqual([]);
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "pass" } }]);

    const again = setup(stateOf({ ...f, legal: PASS }));
    click(again.el, '[data-testid="auto-pass-stop"]');
    act(() => {
      vi.advanceTimersByTime(AUTO_PASS_MS * 3);
    });
    expect(acts(again.model.sent)).toEqual([]);
    expect(again.el.querySelector('[data-testid="auto-pass"]')).toBeNull();
    expect(q<HTMLButtonElement>(again.el, '[data-testid="pass"]').disabled).toBe(false);
  });

  it("names the reason that fits what the seat sees at each place", () => {
    const seat = 0;
    const city = city5().view;
    expect(passReason({ ...city, city: [] }, PASS, seat, 6)).toBe("The City has no tools left (R4).");
    const villa = villa5().view;
    expect(passReason({ ...villa, villa: [] }, PASS, seat, 6)).toBe("No loot is left at the Villa (R5.1).");
    const ruin = ruin5().view;
    const full = { "1>2": 1, "2>3": 2, "3>4": 3, "2>2": 4, "1>1": 1 };
    expect(passReason({ ...ruin, ruin_rates: full }, PASS, seat, 6)).toContain("every exchange square of the Ruin is taken");
    expect(passReason({ ...ruin, ruin_rates: { ...full, "3>4": null } }, PASS, seat, 2)).toContain("as few tools as your hand holds (2) (R6.1)");
    const harbor = harbor5().view;
    const broke = { ...harbor, players: harbor.players.map((p, i) => (i === 0 ? { ...p, loot: [] } : p)) as PlayerView[] };
    expect(passReason(broke, PASS, seat, 6)).toBe("Nothing to sell: you have no loot to sell (R8.1).");
    const statues = { ...harbor, players: harbor.players.map((p, i) => (i === 0 ? { ...p, loot: [loot("L19", true)] } : p)) as PlayerView[] };
    expect(passReason({ ...statues, harbor: [{ id: "F01", buys: { painting: [1, 0] } }] }, PASS, seat, 6)).toBe(
      "Nothing to sell: no fence here buys a kind of loot you hold (R8.1).",
    );
    expect(passReason(harbor, harbor5().legal, seat, 6)).toBe(""); // other moves: no reason
  });
});

describe("one click where one choice fits", () => {
  it("takes the City's last tool with one click", () => {
    const f = city5();
    f.view.city = ["map"];
    const { el, model } = setup(stateOf({ ...f, legal: [{ type: "take_tools", tools: ["map"] }, { type: "pass" }] }));
    click(el, '[data-area="city"] [data-index="0"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "take_tools", tools: ["map"] } }]);
  });

  it("sends two City tools with the second click, no Confirm", () => {
    const { el, model } = setup(stateOf(city5()));
    click(el, '[data-area="city"] [data-index="1"]');
    expect(acts(model.sent)).toEqual([]);
    click(el, '[data-area="city"] [data-index="7"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "take_tools", tools: ["hammer", "map"] } }]);
    expect(q(el, "[data-pending]").getAttribute("data-pending")).toBe("true");
  });

  it("never takes a second City tool the player did not click, and says how many to pick (issue 40)", () => {
    // notebooks/03_city: a lockpick and two maps. The lockpick goes only with a map, yet the
    // click on it picks one tool, as the lesson says; the click on the map sends the pair.
    const f = city5();
    f.view.city = ["lockpick", "map", "map"];
    const legal: Action[] = [{ type: "take_tools", tools: ["lockpick", "map"] }, { type: "take_tools", tools: ["map", "map"] }, { type: "pass" }];
    const { el, model } = setup(stateOf({ ...f, legal }));
    expect(q(el, '[data-testid="prompt"]').textContent).toBe("Pick 2 tools to take from the City.");
    click(el, '[data-area="city"] [data-index="0"]');
    expect(acts(model.sent)).toEqual([]);
    click(el, '[data-area="city"] [data-index="2"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "take_tools", tools: ["lockpick", "map"] } }]);
  });

  it("sells with one click on a fence that buys a single card of yours", () => {
    const { el, model } = setup(stateOf(harbor5()));
    click(el, '[data-area="harbor"] [data-fence="F01"]'); // buys only the painting L14
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "sell", fence: "F01", loot: ["L14"] } }]);
  });

  it("steals with one click when the card has one way to pay, and asks when it has two", () => {
    const museum = setup(stateOf(museum5()));
    click(museum.el, '[data-area="museum"] [data-slot="1"]');
    expect(acts(museum.model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "steal", slot: 1, pay: ["map", "map"], scoundrel: false } }]);
    const villa = setup(stateOf(villa5()));
    click(villa.el, '[data-area="villa"] [data-slot="0"]'); // with or without the scoundrel (R5.2)
    expect(acts(villa.model.sent)).toEqual([]);
    expect(q(villa.el, '[data-testid="scoundrel"]')).toBeTruthy();
    click(villa.el, '[data-testid="confirm"]');
    expect(acts(villa.model.sent)).toHaveLength(1);
  });

  it("waits for Confirm when the player asks for it in the settings", () => {
    localStorage.setItem("langfinger.board.prefs", JSON.stringify({ confirmMoves: true }));
    const { el, model } = setup(stateOf(harbor5()));
    click(el, '[data-area="harbor"] [data-fence="F01"]');
    expect(acts(model.sent)).toEqual([]);
    click(el, '[data-area="my-loot"] [data-loot="L14"]');
    expect(acts(model.sent)).toEqual([]);
    click(el, '[data-testid="confirm"]');
    expect(acts(model.sent)).toHaveLength(1);
  });

  it("turns the setting on from the board's settings, and keeps it in the browser", () => {
    const { el } = setup(stateOf(city5()));
    click(el, '[data-testid="options"]');
    const box = q<HTMLInputElement>(el, '[data-testid="opt-confirm"]');
    expect(box.checked).toBe(false);
    click(el, '[data-testid="opt-confirm"]');
    expect(JSON.parse(localStorage.getItem("langfinger.board.prefs") ?? "{}").confirmMoves).toBe(true);
  });
});

describe("a steady board", () => {
  it("puts every banner in the message strip, over the board, not above it", () => {
    const { el, model } = setup(stateOf(villa5()));
    const strip = q(el, '[data-testid="messages"]');
    model.set("error", "R5.1: you lack a hammer");
    model.set("hint", { action: { type: "pass" }, value: 0.3, move: 12 });
    model.emit({ kind: "why", action: { type: "pass" }, reason: "R3.1: it is legal" });
    for (const id of ["error", "hint-text", "why-reason"]) expect(strip.contains(q(el, `[data-testid="${id}"]`))).toBe(true);
    // The strip's inner box lies over what follows (CSS: position absolute), so nothing moves.
    expect(strip.firstElementChild?.classList.contains("lf-messages-inner")).toBe(true);
  });

  it("keeps a row for loot in every player's panel, full or empty", () => {
    const { el } = setup(stateOf(city5()));
    const rows = [...el.querySelectorAll(".lf-player")].map((p) => p.querySelector(".lf-player-loot"));
    expect(rows.every((r) => r !== null)).toBe(true);
    expect(q(el, '.lf-player[data-seat="2"] .lf-player-loot').textContent).toBe("no loot");
  });
});
