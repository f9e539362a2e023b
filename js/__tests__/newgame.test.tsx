import { describe, expect, it } from "vitest";
import userEvent from "@testing-library/user-event";
import { act } from "preact/test-utils";
import { city5, place2, stateOf } from "../__fixtures__/views";
import { initialChoices, newGameIntent, parseSeed, seatName, setupOrDefault, withPlayer, withPlayers, withSeat } from "../newgame";
import type { Setup } from "../types";
import { click, mount as mountOther, mountPerTest, q } from "./fake-model";

const mount = mountPerTest();

const LEVELS = ["easy", "medium", "hard", "expert"];
const NOTES = { easy: "plays any legal move", medium: "takes the best thing in sight" };

function setupOf(extra: Partial<Setup> = {}): Setup {
  return { players: 3, seat: 0, bots: { "1": "medium", "2": "medium" }, variant: "standard", levels: LEVELS, level_notes: NOTES, allow_new_game: true, ...extra };
}

const newGames = (sent: unknown[]): unknown[] => sent.filter((m) => (m as { kind: string }).kind === "new_game");

function choose(el: Element, testid: string, value: string): void {
  const select = q<HTMLSelectElement>(el, `[data-testid="${testid}"]`);
  act(() => {
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });
}

function type(el: Element, testid: string, text: string): void {
  const input = q<HTMLInputElement>(el, `[data-testid="${testid}"]`);
  act(() => {
    input.value = text;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

function submit(el: Element): void {
  click(el, '[data-testid="ng-start"]');
}

describe("the New game choices (pure)", () => {
  it("start from the setup trait: your seat is yours, the others as seated", () => {
    const c = initialChoices(setupOf({ bots: { "1": "hard" } }));
    expect(c).toMatchObject({ players: 3, seat: 0, variant: "standard", seed: "" });
    expect(c.seats.slice(0, 3)).toEqual(["human", "hard", "human"]);
    expect(newGameIntent(c)).toEqual({
      intent: { kind: "new_game", players: 3, seat: 0, bots: { "1": "hard" }, variant: "standard", seed: null },
    });
  });

  it("add seats as medium bots for a seat's board and as people on the open board (as the kernel's default)", () => {
    const mine = withPlayers(initialChoices(setupOf()), 5);
    expect(newGameIntent(mine)).toMatchObject({ intent: { players: 5, bots: { "1": "medium", "2": "medium", "3": "medium", "4": "medium" } } });
    const open = withPlayers(initialChoices(setupOf({ seat: null, bots: {} })), 4);
    expect(newGameIntent(open)).toMatchObject({ intent: { players: 4, seat: null, bots: {} } });
  });

  it("never make your own seat a bot, nor keep a seat the game no longer has", () => {
    const bots = { "0": "easy", "1": "medium", "2": "hard", "3": "expert" };
    let c = initialChoices(setupOf({ players: 5, seat: 4, bots }));
    c = withPlayers(c, 3); // seat 4 is gone: the board falls back to seat 0, which becomes yours
    expect(c.seat).toBe(0);
    expect(newGameIntent(c)).toMatchObject({ intent: { players: 3, seat: 0, bots: { "1": "medium", "2": "hard" } } });
    expect(withPlayer(c, 0, "expert")).toBe(c);
    c = withSeat(c, 2); // the seat you leave is a person's
    expect(newGameIntent(c)).toMatchObject({ intent: { seat: 2, bots: { "1": "medium" } } });
  });

  it("take a whole-number seed or none, and refuse anything else before sending", () => {
    expect(parseSeed("")).toEqual({ seed: null });
    expect(parseSeed(" 42 ")).toEqual({ seed: 42 });
    for (const bad of ["-1", "1.5", "abc", "1e3", "99999999999999999999"]) expect(parseSeed(bad)).toHaveProperty("error");
    expect(newGameIntent({ ...initialChoices(setupOf()), seed: "x" })).toHaveProperty("error");
  });

  it("name seats as the kernel does, and fall back to the view when the kernel sends no setup", () => {
    expect([0, 4].map(seatName)).toEqual(["Pascal (seat 0)", "Bobby (seat 4)"]);
    const s = stateOf(city5(), { bots: { "2": "greedy" } });
    expect(setupOrDefault(s, s.view)).toMatchObject({ players: 5, bots: { "2": "greedy" }, levels: LEVELS, allow_new_game: true });
  });
});

describe("the New game panel", () => {
  it("opens from the toolbar with the current setup, and starts a 4-player game with three bots", () => {
    const { el, model } = mount(stateOf(place2(), { setup: setupOf({ players: 2, bots: { "1": "easy" } }) }));
    expect(el.querySelector('[data-testid="new-game-panel"]')).toBeNull();
    click(el, '[data-testid="new-game"]');
    expect(q(el, '[data-testid="new-game"]').getAttribute("aria-expanded")).toBe("true");
    const panel = q(el, '[data-testid="new-game-panel"]');
    expect(q<HTMLSelectElement>(panel, '[data-testid="ng-players"]').value).toBe("2");
    expect(q<HTMLSelectElement>(panel, '[data-testid="ng-player-1"]').value).toBe("easy");
    expect(q(panel, '[data-testid="ng-player-0"]').textContent).toBe("You");
    choose(el, "ng-players", "4");
    expect(panel.querySelectorAll(".lf-ng-seat").length).toBe(4);
    choose(el, "ng-player-2", "hard");
    choose(el, "ng-player-3", "expert");
    type(el, "ng-seed", "7");
    submit(el);
    expect(newGames(model.sent)).toEqual([
      { kind: "new_game", players: 4, seat: 0, bots: { "1": "easy", "2": "hard", "3": "expert" }, variant: "standard", seed: 7 },
    ]);
    expect(q<HTMLButtonElement>(el, '[data-testid="ng-start"]').disabled).toBe(true); // waiting for the kernel
    model.emit({ kind: "result", ok: true, error: "" });
    expect(el.querySelector('[data-testid="new-game-panel"]')).toBeNull();
    expect(document.activeElement).toBe(q(el, '[data-testid="new-game"]'));
  });

  it("offers the open board, people at the screen and the open-information variant", () => {
    const { el, model } = mount(stateOf(place2(), { setup: setupOf() }));
    click(el, '[data-testid="new-game"]');
    choose(el, "ng-seat", "open");
    choose(el, "ng-player-1", "human");
    click(el, '[data-testid="ng-open-info"]');
    submit(el);
    expect(newGames(model.sent)).toEqual([
      { kind: "new_game", players: 3, seat: null, bots: { "2": "medium" }, variant: "open_info", seed: null },
    ]);
  });

  it("names each level in its option and describes the chosen one, and keeps a bot seated by name", () => {
    const { el } = mount(stateOf(place2(), { setup: setupOf({ bots: { "1": "greedy", "2": "medium" } }) }));
    click(el, '[data-testid="new-game"]');
    const options = [...el.querySelectorAll('[data-testid="ng-player-1"] option')].map((o) => o.textContent);
    expect(options).toEqual(["Person at this screen", "Bot: easy", "Bot: medium", "Bot: hard", "Bot: expert", "Bot: greedy"]);
    expect(q<HTMLSelectElement>(el, '[data-testid="ng-player-1"]').value).toBe("greedy");
    const medium = q(el, '[data-testid="ng-player-2"]');
    const note = el.querySelector(`#${medium.getAttribute("aria-describedby")}`);
    expect(note?.textContent).toBe("takes the best thing in sight");
    choose(el, "ng-player-2", "easy");
    expect(el.querySelector(`#${q(el, '[data-testid="ng-player-2"]').getAttribute("aria-describedby")}`)?.textContent).toBe(
      "plays any legal move",
    );
    // ids stay unique on a page with two boards, each with its panel open
    const second = mountOther(stateOf(place2(), { setup: setupOf() }));
    try {
      click(second.el, '[data-testid="new-game"]');
      const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
      expect(ids.length).toBe(3); // greedy has no note: one on the first board, two on the second
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      second.cleanup();
    }
  });

  it("shows a bad seed and the kernel's refusal in the panel, and sends nothing it cannot", () => {
    const { el, model } = mount(stateOf(place2(), { setup: setupOf() }));
    click(el, '[data-testid="new-game"]');
    type(el, "ng-seed", "-3");
    submit(el);
    expect(newGames(model.sent)).toEqual([]);
    expect(q(el, '[data-testid="ng-error"]').textContent).toContain("whole number");
    type(el, "ng-seed", "");
    submit(el);
    expect(newGames(model.sent).length).toBe(1);
    model.set("error", "R1.1: a game has 2 to 5 players, not 9");
    model.emit({ kind: "result", ok: false, error: "R1.1: a game has 2 to 5 players, not 9" });
    expect(q(el, '[data-testid="ng-error"]').textContent).toBe("R1.1: a game has 2 to 5 players, not 9");
    expect(q(el, '[data-testid="ng-error"]').getAttribute("role")).toBe("alert");
    expect(el.querySelector('[data-testid="error"]')).toBeNull(); // told once, in the panel
    expect(q<HTMLButtonElement>(el, '[data-testid="ng-start"]').disabled).toBe(false);
  });

  // A generous limit: user-event's key presses are slow on a loaded machine (no timing is asserted).
  it("works by keyboard: labelled controls, focus on the first one, Escape closes and gives focus back", { timeout: 30_000 }, async () => {
    const { el, model } = mount(stateOf(place2(), { setup: setupOf() }));
    const user = userEvent.setup();
    q(el, '[data-testid="new-game"]').focus();
    await user.keyboard("{Enter}");
    const panel = q(el, '[data-testid="new-game-panel"]');
    expect(panel.getAttribute("aria-label")).toBe("New game");
    expect(document.activeElement).toBe(q(panel, '[data-testid="ng-players"]'));
    for (const control of panel.querySelectorAll("select, input")) {
      const label = control.closest("label");
      expect(label?.textContent?.trim(), control.outerHTML).toBeTruthy();
    }
    await user.keyboard("{Escape}");
    expect(el.querySelector('[data-testid="new-game-panel"]')).toBeNull();
    expect(document.activeElement).toBe(q(el, '[data-testid="new-game"]'));
    await user.keyboard("{Enter}");
    const order: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      await user.tab();
      order.push(document.activeElement?.getAttribute("data-testid") ?? null);
    }
    expect(order).toEqual(["ng-seat", "ng-player-1", "ng-player-2", "ng-open-info", "ng-seed"]);
    await user.keyboard("12{Enter}"); // Enter in the seed field submits the form
    expect(newGames(model.sent)).toEqual([expect.objectContaining({ seed: 12 })]);
  });

  it("is not offered when the kernel says no new game (a puzzle board)", () => {
    const { el } = mount(stateOf(place2(), { setup: setupOf({ allow_new_game: false }) }));
    expect(el.querySelector('[data-testid="new-game"]')).toBeNull();
  });
});
