/** Issue 28, items 3 and 5: the others' moves one at a time, and who is to move. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { act } from "preact/test-utils";
import { city5, loot, place2, place2Waiting, stateOf } from "../__fixtures__/views";
import type { GameEvent, PlayerView } from "../types";
import { click, mountPerTest, q } from "./fake-model";

const setup = mountPerTest();
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function later(ms: number): void {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

/** Seat 0 waits while the bots at seats 1-4 act (city5's table, seen from seat 0). */
function watching(pace: number) {
  const f = city5();
  const state = stateOf(f, { pace, bots: { "1": "medium", "2": "medium", "3": "hard", "4": "easy" } });
  return { f, state };
}

const BOT_MOVES: GameEvent[] = [
  { type: "take_tools", seat: 1, place: "city", square: 1, tools: ["map", "map"] },
  { type: "steal", seat: 2, place: "villa", square: 1, slot: 0, loot: { protection: "safe", tools: ["hammer"] }, paid: ["hammer"], scoundrel: false },
  { type: "pass", seat: 3, place: "villa", square: 2 },
];
const ROUND_END: GameEvent[] = [
  { type: "refill", place: "city", cards: ["map"] },
  { type: "start_player", seat: 3, round: 5 },
];

describe("the others' moves, one at a time", () => {
  it("shows each at the pace, where it happens, with a caption and a Skip", () => {
    vi.useFakeTimers();
    const { f, state } = watching(1.0);
    const { el, model } = setup(state);
    model.set("events", [...f.events, ...BOT_MOVES]);
    expect(q(el, '[data-testid="caption"]').textContent).toContain("Hans takes two maps from the City.");
    expect(q(el, '[data-area="city"]').classList.contains("lf-flash")).toBe(true);
    expect(q(el, '.lf-player[data-seat="1"]').classList.contains("lf-flash")).toBe(true);
    expect(q(el, '[data-testid="skip"]').textContent).toBe("Skip 2");
    expect(el.querySelectorAll('[data-testid="flights"] .lf-ghost').length).toBe(1); // the tools fly
    later(1000);
    expect(q(el, '[data-testid="caption"]').textContent).toContain("Tommaso steals a safe (a hammer) at the Villa");
    expect(q(el, '[data-area="villa"]').classList.contains("lf-flash")).toBe(true);
    expect(q(el, '[data-area="city"]').classList.contains("lf-flash")).toBe(false);
    click(el, '[data-testid="skip"]');
    expect(el.querySelector('[data-testid="caption"]')).toBeNull();
  });

  it("never shows the seat's own move back to it", () => {
    vi.useFakeTimers();
    const { f, state } = watching(1.0);
    const { el, model } = setup(state);
    model.set("events", [...f.events, { type: "pass", seat: 0, place: "city", square: 0 }]);
    expect(el.querySelector('[data-testid="caption"]')).toBeNull();
  });

  it("raises a banner when a round ends (R9), which stays a while and can be closed", () => {
    vi.useFakeTimers();
    const { f, state } = watching(0.5);
    const { el, model } = setup(state);
    model.set("events", [...f.events, ...BOT_MOVES, ...ROUND_END]);
    // In its turn: after the round's last moves have been shown.
    expect(el.querySelector('[data-testid="round-banner"]')).toBeNull();
    later(500 * 3);
    const banner = q(el, '[data-testid="round-banner"]');
    expect(el.querySelector('[data-testid="caption"]')).toBeNull(); // one line for the others
    expect(banner.textContent).toContain("Round 4 is over. City is refilled (R9.1). Yoshiko is the start player now (R9.3).");
    later(3000);
    expect(el.querySelector('[data-testid="round-banner"]')).not.toBeNull();
    click(el, '[data-testid="round-banner"] .lf-close');
    expect(el.querySelector('[data-testid="round-banner"]')).toBeNull();
  });

  it("lists what happened since the seat's last move", () => {
    const { f, state } = watching(0.6);
    const { el } = setup({ ...state, events: [...f.events, { type: "pass", seat: 0, place: "city", square: 0 }, ...BOT_MOVES] });
    const items = [...el.querySelectorAll('[data-testid="since-last-move"] li')].map((li) => li.textContent);
    expect(items).toEqual([
      "Hans takes two maps from the City.",
      "Tommaso steals a safe (a hammer) at the Villa, paying a hammer.",
      "Yoshiko passes at the Villa (square 3).",
    ]);
  });

  it("lists the seat's own Ruin draw and the passes the board played for it (issue 40)", () => {
    const { f, state } = watching(0.6);
    const mine: GameEvent[] = [
      { type: "exchange", seat: 0, place: "ruin", square: 0, rate: "1>2", gave: ["map"], drew: ["hammer", "welder"], count: 2 },
      ...BOT_MOVES,
      { type: "pass", seat: 0, place: "museum", square: 0, only: true },
      { type: "pass", seat: 4, place: "museum", square: 1 },
    ];
    const { el } = setup({ ...state, events: [...f.events, ...mine] });
    const items = [...el.querySelectorAll('[data-testid="since-last-move"] li')].map((li) => li.textContent ?? "");
    expect(items[0]).toMatch(/^\S+ exchanges a map at the Ruin .* and draws a hammer and a welder\.$/);
    expect(items.slice(1, 4)).toEqual([
      "Hans takes two maps from the City.",
      "Tommaso steals a safe (a hammer) at the Villa, paying a hammer.",
      "Yoshiko passes at the Villa (square 3).",
    ]);
    expect(items[4]).toMatch(/passes at the Museum \(square 1\): nothing else was possible\.$/);
    expect(items).toHaveLength(6);
  });

  it("only glows when the reader asks for less motion (prefers-reduced-motion)", () => {
    vi.useFakeTimers();
    vi.stubGlobal("matchMedia", (q: string) => ({ matches: q.includes("reduce"), media: q, addEventListener() {}, removeEventListener() {} }));
    const { f, state } = watching(1.0);
    const { el, model } = setup(state);
    model.set("events", [...f.events, ...BOT_MOVES]);
    expect(q(el, '[data-area="city"]').classList.contains("lf-flash")).toBe(true);
    expect(el.querySelector('[data-testid="flights"]')).toBeNull();
  });

  it("sets the pace from the board (the one trait the board may write)", () => {
    const { state } = watching(0.6);
    const { el, model } = setup(state);
    const select = q<HTMLSelectElement>(el, '[data-testid="pace"]');
    expect(select.value).toBe("0.6");
    act(() => {
      select.value = "1.2";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(model.state.pace).toBe(1.2);
    expect(q<HTMLSelectElement>(el, '[data-testid="pace"]').value).toBe("1.2");
    // A pace set in Python that the list lacks is offered as it is.
    model.set("pace", 0.1);
    expect([...q(el, '[data-testid="pace"]').querySelectorAll("option")].map((o) => o.value)).toContain("0.1");
  });

  it("offers no pace where no bot plays", () => {
    const { el } = setup(stateOf(place2(), { human_seats: [0, 1] }));
    expect(el.querySelector('[data-testid="pace"]')).toBeNull();
  });
});

describe("who is to move", () => {
  it("says Your turn only to the seat to move, and names the player otherwise", () => {
    const mine = setup(stateOf(place2()));
    expect(q(mine.el, ".lf-turn").textContent).toBe("Your turn");
    const theirs = setup(stateOf(place2Waiting(), { human_seats: [1] }));
    expect(q(theirs.el, ".lf-turn").textContent).toBe("Pascal to move");
  });

  it("on the open board names whose turn it is, never 'Your turn'", () => {
    const f = place2();
    const { el } = setup(stateOf({ ...f, view: { ...f.view, seat: null } }, { seat: null, human_seats: [0, 1] }));
    expect(q(el, ".lf-turn").textContent).toBe("Pascal's turn");
    expect(el.textContent).not.toContain("Your turn");
  });

  it("behind the hot seat's privacy screen, nobody's card says (you)", () => {
    const f = place2();
    const pascal = { ...(f.view.players[0] as PlayerView), loot: [loot("L06", true)] };
    const view = { ...f.view, players: [pascal, f.view.players[1] as PlayerView], to_move: 1, decision: { seat: 1, kind: "place" as const, place: null, square: null } };
    const { el } = setup(stateOf({ ...f, view }, { human_seats: [0, 1], seat: 0, legal: [] }));
    expect(q(el, ".lf-turn").textContent).toBe("Waiting for Hans");
    for (const card of el.querySelectorAll(".lf-player")) {
      expect(card.getAttribute("aria-label")).not.toContain("(you)");
      expect(card.classList.contains("lf-me")).toBe(false);
    }
  });
});

describe("a replay", () => {
  it("shows a step's moves, but not the moves a jump passes over", () => {
    vi.useFakeTimers();
    const { f, state } = watching(0.8);
    const scrubber = { index: 12, length: 40, rounds: [0], playing: false, pace: 0.8, seat: 0, record_seat: null, label: "", caption: "", next: "", can_continue: true, levels: [], bots: {}, analysing: null };
    const { el, model } = setup({ ...state, scrubber });
    model.set("move_number", 13);
    model.set("events", [...f.events, { type: "pass", seat: 0, place: "city", square: 0 }]);
    expect(q(el, '[data-testid="caption"]').textContent).toContain("Pascal passes"); // everyone's, in a replay
    later(2000);
    const pass = { type: "pass", seat: 0, place: "city", square: 0 };
    model.set("move_number", 20);
    model.set("events", [...f.events, pass, ...BOT_MOVES]); // continues, but 7 decisions on
    expect(el.querySelector('[data-testid="caption"]')).toBeNull();
    model.set("move_number", 21);
    model.set("events", [...f.events, pass, ...BOT_MOVES, { type: "pass", seat: 4, place: "harbor", square: 0 }]);
    expect(q(el, '[data-testid="caption"]').textContent).toContain("Bobby passes");
  });
});

describe("the round's banner", () => {
  it("goes once the person moves", () => {
    vi.useFakeTimers();
    const f = place2();
    const state = stateOf(f, { pace: 0, bots: { "1": "medium" } });
    const { el, model } = setup(state);
    model.set("events", [...f.events, { type: "refill", place: "city", cards: ["map"] }, { type: "start_player", seat: 1, round: 2 }]);
    expect(q(el, '[data-testid="round-banner"]').textContent).toContain("Round 1 is over.");
    click(el, '[data-place="city"]');
    expect(el.querySelector('[data-testid="round-banner"]')).toBeNull();
  });
});
