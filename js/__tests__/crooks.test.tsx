/**
 * The Crooks board (issue 37). The positions in __fixtures__/crooks.json are the kernel's own
 * `view(0)`, `legal_actions()` and `log(0)` from 3-player games (random play), one at each
 * step: the board is checked against what the kernel really sends.
 */
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import FIXTURES from "../__fixtures__/crooks.json";
import { rulingTexts } from "../rulings";
import { describeEvent, isCrooksView, placementWords, placementsAt } from "../crooks/model";
import type { CrooksView } from "../crooks/model";
import type { WidgetState } from "../types";
import { click, mountPerTest, q, recordedState } from "./fake-model";
import type { Recorded } from "./fake-model";

type Key = keyof typeof FIXTURES;
const setup = mountPerTest();

function stateOf(key: Key, extra: Partial<WidgetState> = {}): WidgetState {
  return recordedState("crooks", FIXTURES[key] as unknown as Recorded, extra);
}

function view(key: Key): CrooksView {
  return FIXTURES[key].view as unknown as CrooksView;
}

describe("the Crooks board", () => {
  it("is picked by the view's format, with the eight targets, a row a seat, and the hangouts", () => {
    expect(isCrooksView(view("start"))).toBe(true);
    const { el } = setup(stateOf("start"));
    expect(el.querySelector('[data-testid="crooks-board"]')).not.toBeNull();
    expect(el.querySelectorAll('[data-testid="targets"] thead th').length).toBe(9);
    expect(el.querySelectorAll('[data-testid="targets"] tbody tr').length).toBe(3);
    expect(el.querySelectorAll('[data-testid="hangout"]').length).toBe(7);
    expect(q(el, '[data-testid="hangout"][data-hangout="C"]').textContent).toContain("3 crooks");
    expect(el.querySelectorAll('[data-testid="crooks-player"]').length).toBe(3);
    expect(q(el, '[data-testid="crooks-player"][data-seat="0"]').textContent).toContain("$");
  });

  it("recruits with one click on a lit hangout, and passes with the Pass button", () => {
    const { el, model } = setup(stateOf("start"));
    const lit = el.querySelectorAll('[data-testid="hangout"][data-legal="true"]');
    expect(lit.length).toBe(FIXTURES.start.legal.filter((a) => a.type === "recruit").length);
    click(el, '[data-testid="hangout"][data-hangout="A"]');
    expect(model.sent).toEqual([{ kind: "act", action: { type: "recruit", hangout: "A" }, move: FIXTURES.start.move_number, version: FIXTURES.start.version }]);
  });

  it("shows the pile to the recruiter and keeps the clicked crook", () => {
    const { el, model } = setup(stateOf("keep"));
    const cards = el.querySelectorAll('[data-testid="pile-card"]');
    expect(cards.length).toBe(view("keep").turn?.pile?.length);
    const first = FIXTURES.keep.legal[0] as { type: string; crook: string };
    click(el, `[data-testid="pile-card"][data-crook="${first.crook}"]`);
    expect(model.sent[0]).toMatchObject({ kind: "act", action: { type: "keep", crook: first.crook } });
  });

  it("shows the others only the pile's size, backs for their face-down crooks, and yours face up to you", () => {
    const v = view("watch_keep");
    expect(v.turn?.pile).toBeNull();
    const { el } = setup(stateOf("watch_keep", { legal: [] }));
    expect(el.querySelector('[data-testid="pile"]')).toBeNull();
    const backs = el.querySelectorAll(".lf-crook-back").length;
    const hidden = v.targets.flatMap((t) => t.rows.flat()).filter((s) => s.crook === null).length;
    expect(backs).toBe(hidden);
    expect(backs).toBeGreaterThan(0);
    expect(el.querySelectorAll('tr[data-seat="0"] .lf-crook-known-down').length).toBeGreaterThan(0);
    expect(q(el, '[data-testid="crooks-board"]').getAttribute("data-state")).toBe("waiting");
  });

  it("places over two clicks: a lit cell of your row, then how to lay the crook", () => {
    const { el, model } = setup(stateOf("place"));
    const options = placementsAt(FIXTURES.place.legal, 2);
    expect(options.length).toBeGreaterThan(1);
    click(el, '[data-testid="target-cell"][data-seat="0"][data-target="2"]');
    expect(model.sent).toEqual([]);
    const choices = el.querySelectorAll<HTMLButtonElement>('[data-testid="place-choice"]');
    expect(choices.length).toBe(options.length);
    const hand = view("place").turn?.hand ?? null;
    expect([...choices].map((b) => b.textContent)).toEqual(options.map((a) => placementWords(a, hand)));
    click(el, '[data-testid="place-choice"][data-face="down"]');
    expect(model.sent[0]).toMatchObject({ kind: "act", action: { type: "place", target: 2, face: "down", effect: false } });
    // Other seats' rows are not buttons while placing.
    expect(el.querySelector('[data-testid="target-cell"][data-seat="1"]')).toBeNull();
  });

  it("forgets a picked cell when the game is dealt again, even at the same move and version", () => {
    const { el, model } = setup(stateOf("place"));
    click(el, '[data-testid="target-cell"][data-seat="0"][data-target="2"]');
    expect(el.querySelectorAll('[data-testid="place-choice"]').length).toBeGreaterThan(1);
    // A replaced game (w.game = ..., a lesson dealt again) may meet the old one's numbers.
    act(() => model.set("view", structuredClone(FIXTURES.place.view)));
    expect(el.querySelector('[data-testid="place-choice"]')).toBeNull();
  });

  it("hands the keyboard's focus on to the pile when the hangout pressed stops being a button", () => {
    const { el, model } = setup(stateOf("start"));
    const hangout = q(el, '[data-testid="hangout"][data-hangout="E"]');
    act(() => hangout.focus());
    expect(document.activeElement).toBe(hangout);
    const next = FIXTURES.keep; // the recruit at E played: the pile is shown, the hangouts are not buttons
    act(() => {
      model.set("view", next.view);
      model.set("legal", next.legal);
      model.set("events", next.events);
      model.set("move_number", next.move_number);
      model.set("version", next.version);
    });
    expect(el.querySelector('[data-testid="hangout"]')).toBeNull();
    const focused = document.activeElement as HTMLElement;
    expect(focused.getAttribute("data-testid")).toBe("pile-card");
    expect(focused.getAttribute("data-legal")).toBe("true");
  });

  it("on the open board, places in the row of the seat to move", () => {
    const open = { ...view("place"), seat: null };
    const { el } = setup(stateOf("place", { view: open as unknown as WidgetState["view"], seat: null }));
    expect(el.querySelectorAll(`[data-testid="target-cell"][data-seat="${open.to_move}"]`).length).toBe(8);
  });

  it("asks the kernel why not for an unlit cell, and shows its ruling's words", () => {
    const legalTargets = new Set(FIXTURES.switch.legal.map((a) => (a as { to: number }).to));
    const unlit = view("switch").targets.map((t) => t.target).find((t) => !legalTargets.has(t));
    expect(unlit).toBeDefined();
    const { el, model } = setup(stateOf("switch"));
    click(el, `[data-testid="target-cell"][data-seat="0"][data-target="${unlit}"]`);
    expect(model.sent).toEqual([{ kind: "why", action: { type: "switch", to: unlit } }]);
    model.emit({ kind: "why", action: { type: "switch", to: unlit }, reason: "C4.5: your crooks are already there" });
    expect(q(el, '[data-testid="why-reason"]').textContent).toContain("C4.5");
    click(el, '[data-testid="why-reason"] [data-testid="ruling-link"][data-ruling="C4.5"]');
    expect(q(el, '[data-testid="ruling-text"] [data-ruling="C4.5"]').textContent).toContain("Switch");
  });

  it("takes each special's choice on the board: the Killer's row, the Spy's target or hangout", () => {
    const kill = FIXTURES.kill.legal[0] as { seat: number };
    const target = view("kill").turn?.target;
    let m = setup(stateOf("kill"));
    click(m.el, `[data-testid="target-cell"][data-seat="${kill.seat}"][data-target="${target}"]`);
    expect(m.model.sent[0]).toMatchObject({ action: { type: "kill", seat: kill.seat } });

    m = setup(stateOf("spy"));
    const spyTarget = FIXTURES.spy.legal.find((a) => "target" in a) as { target: number };
    click(m.el, `th [data-target="${spyTarget.target}"]`);
    expect(m.model.sent[0]).toMatchObject({ action: { type: "spy", target: spyTarget.target } });
    click(m.el, '[data-testid="hangout"][data-legal="true"]');
    expect(m.model.sent.length).toBe(1); // one move at a time: the first is still on its way
  });

  it("covers the board for the next person at a hot seat, sending nothing private", () => {
    const state = stateOf("watch_keep", { human_seats: [0, 1], legal: [] });
    const { el, model } = setup(state);
    expect(q(el, '[data-testid="privacy"]').textContent).toContain("Player 2");
    click(el, '[data-testid="reveal"]');
    expect(model.sent).toEqual([{ kind: "reveal", seat: 1 }]);
  });

  it("ends with the scoring target by target and gang by gang, from the kernel's standings", () => {
    const v = view("over");
    const { el } = setup(stateOf("over", { legal: [] }));
    const rows = el.querySelectorAll('[data-testid="standings"] tbody tr');
    expect(rows.length).toBe(3);
    for (const s of v.standings ?? []) {
      const row = q(el, `[data-testid="standings"] tr[data-seat="${s.seat}"]`);
      expect(q(row, '[data-testid="points"]').textContent).toBe(String(s.score));
      expect(q(row, 'td[data-target="9"]').textContent).toBe(String(s.by_target["9"]));
      expect(q(row, 'td[data-gang="outfit"]').textContent).toBe(String(s.by_gang.outfit));
    }
    expect(el.querySelectorAll(".lf-crook-back").length).toBe(0);
    expect(q(el, '[data-testid="game-over"] h3').textContent).toContain("win");
  });

  it("opens the shared New game panel, with a choice of game and each game's player counts", () => {
    const { el, model } = setup(stateOf("start"));
    click(el, '[data-testid="new-game"]');
    const players = q<HTMLSelectElement>(el, '[data-testid="ng-players"]');
    expect([...players.options].map((o) => o.value)).toEqual(["2", "3", "4"]);
    expect(el.querySelector('[data-testid="ng-open-info"]')).toBeNull(); // Langfinger's variant only
    click(el, '[data-testid="ng-start"]');
    expect(model.sent[0]).toEqual({ kind: "new_game", game: "crooks", players: 3, seat: 0, bots: { "1": "greedy", "2": "random" }, seed: null });
    model.emit({ kind: "result", ok: true, error: "" });
    expect(el.querySelector('[data-testid="new-game-panel"]')).toBeNull();

    click(el, '[data-testid="new-game"]');
    const game = q<HTMLSelectElement>(el, '[data-testid="ng-game"]');
    act(() => {
      game.value = "langfinger";
      game.dispatchEvent(new Event("change"));
    });
    expect([...q<HTMLSelectElement>(el, '[data-testid="ng-players"]').options].map((o) => o.value)).toEqual(["2", "3", "4", "5"]);
    click(el, '[data-testid="ng-start"]');
    expect(model.sent[1]).toMatchObject({ kind: "new_game", game: "langfinger", variant: "standard", players: 3 });
  });

  it("asks for a hint and shows the search's move in words, for this move only", () => {
    const { el, model } = setup(stateOf("start"));
    click(el, '[data-testid="hint"]');
    expect(model.sent).toEqual([{ kind: "hint" }]);
    model.set("hint", { seat: 0, action: { type: "recruit", hangout: "B" }, value: 0.41, move: FIXTURES.start.move_number });
    expect(q(el, '[data-testid="hint-text"]').textContent).toContain("recruit at hangout B (estimated win chance 41%)");
    model.set("hint", { seat: 0, action: { type: "recruit", hangout: "B" }, value: 0.41, move: FIXTURES.start.move_number - 1 });
    expect(el.querySelector('[data-testid="hint-text"]')).toBeNull();
  });

  it("explains its pieces in the legend", () => {
    const { el } = setup(stateOf("start"));
    click(el, '[data-testid="legend"]');
    const legend = q(el, '[data-testid="legend-panel"]');
    for (const words of ["Killer", "Spy", "Northside", "face-down"]) expect(legend.textContent).toContain(words);
  });

  it("writes the log in words and knows the Crooks rulings", () => {
    const v = view("over");
    const lines = FIXTURES.over.events.map((e) => describeEvent(v, e as Record<string, unknown>));
    expect(lines.every((l) => l === null || l.length > 0)).toBe(true);
    expect(lines.some((l) => l?.includes("passed"))).toBe(true);
    const kill = (seat: number, victim: number): string | null =>
      describeEvent(v, { type: "kill", seat, target: 6, victim, count: 2, crooks: null });
    expect(kill(0, 0)).toBe("You sent your own crooks (2) at the 6 back to the box.");
    expect(kill(1, 0)).toBe("Player 2 sent your crooks (2) at the 6 back to the box.");
    expect(kill(1, 2)).toBe("Player 2 sent Player 3's crooks (2) at the 6 back to the box.");
    expect(rulingTexts("C3.3")[0]?.text).toContain("Kingpin");
  });
});

describe("the Crooks board on a narrow screen", () => {
  // jsdom measures nothing: a ResizeObserver stand-in reports the width a phone would give.
  let observed: ((entries: { contentRect: { width: number } }[]) => void)[] = [];
  class FakeResizeObserver {
    constructor(callback: (entries: { contentRect: { width: number } }[]) => void) {
      observed.push(callback);
    }
    observe(): void {}
    disconnect(): void {}
  }
  const resize = (width: number): void => {
    act(() => {
      for (const callback of observed) callback([{ contentRect: { width } }]);
    });
  };
  afterEach(() => {
    vi.unstubAllGlobals();
    observed = [];
  });

  it("turns the targets a quarter below 560 px: a row a target, a column a seat", () => {
    vi.stubGlobal("ResizeObserver", FakeResizeObserver);
    const { el, model } = setup(stateOf("place"));
    expect(el.querySelectorAll('[data-testid="targets"] tbody tr').length).toBe(3);
    resize(360);
    const table = q(el, '[data-testid="targets"]');
    expect(table.classList.contains("lf-targets-narrow")).toBe(true);
    expect(table.querySelectorAll("tbody tr").length).toBe(8);
    expect(table.querySelectorAll("thead th").length).toBe(1 + 3);
    // Each target's row holds one cell a seat, your cell a button as on the wide board.
    const two = q(table, 'tbody tr[data-target="2"]');
    expect(two.querySelectorAll("td").length).toBe(3);
    expect(two.querySelector('[data-testid="target-cell"][data-seat="0"]')).not.toBeNull();
    click(el, '[data-testid="target-cell"][data-seat="0"][data-target="2"]');
    expect(el.querySelectorAll('[data-testid="place-choice"]').length).toBe(placementsAt(FIXTURES.place.legal, 2).length);
    expect(model.sent).toEqual([]);
    resize(900);
    expect(el.querySelectorAll('[data-testid="targets"] tbody tr').length).toBe(3);
  });
});
