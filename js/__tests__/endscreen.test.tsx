/** Issue 28, item 6: an end screen worth seeing. */
import { describe, expect, it } from "vitest";
import { loot, over5, place2, stateOf } from "../__fixtures__/views";
import { LABEL_GAP } from "../board/gameover";
import type { Figures } from "../types";
import { click, mountPerTest, q } from "./fake-model";

const setup = mountPerTest();

function figures(): Figures[] {
  const row = (seat: number, steals: number, unsold: string[]): Figures => ({
    seat, steals, chests: 1, sales: seat, sold: seat, exchanges: 0, passes: 2, tools_taken: 4,
    tools_spent: 2 * steals, money_from_chests: 2, money_from_sales: 7,
    unsold: unsold.map((id) => {
      const { id: _id, ...front } = loot(id, true);
      return front;
    }),
  });
  return [row(0, 3, ["L08"]), row(1, 1, []), row(2, 0, []), row(3, 5, ["L03", "L20"]), row(4, 4, [])];
}

describe("the end screen", () => {
  it("shows each player's figures and the loot they left unsold, turned up (R10.2)", () => {
    const { el } = setup(stateOf(over5(), { figures: figures() }));
    const yoshiko = q(el, '[data-testid="standings"] tr[data-seat="3"]');
    const cells = [...yoshiko.querySelectorAll("td")].map((td) => td.textContent);
    expect(cells.slice(2, 6)).toEqual(["24", "5", "3", "10"]); // money, steals, sales, tools spent
    const unsold = yoshiko.querySelectorAll(".lf-unsold-cell .lf-chip");
    expect(unsold.length).toBe(2);
    expect(unsold[0]?.getAttribute("data-tip")).toBe("statue worth 4");
    expect(q(el, '[data-testid="standings"] tr[data-seat="0"]').textContent).toContain("Pascal (you)");
    expect(q(el, '[data-testid="standings"] tr[data-seat="1"] .lf-unsold-cell').textContent).toBe("none");
  });

  it("shows money beyond 20 as its total", () => {
    const { el } = setup(stateOf(over5(), { figures: figures() }));
    expect(q(el, '[data-testid="standings"] tr[data-seat="4"] .lf-num').textContent).toBe("24");
    expect(q(el, '[data-testid="game-over"] h3').textContent).toContain("with 24");
  });

  it("keeps the money axis's labels apart when the top is just over 20 (issue 40)", () => {
    for (const top of [21, 22, 24, 30]) {
      const f = over5();
      f.view.money_by_round = [...f.view.money_by_round.slice(0, -1), [9, top, 5, 12, 14]];
      const { el } = setup(stateOf(f, { figures: figures() }));
      const labels = [...el.querySelectorAll('[data-testid="money-chart"] text[text-anchor="end"]')];
      const ys = labels.map((t) => Number(t.getAttribute("y"))).sort((a, b) => a - b);
      for (let i = 1; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).toBeGreaterThanOrEqual(LABEL_GAP);
      expect(labels.map((t) => t.textContent)).toContain("20"); // the goal's line keeps its label
    }
  });

  it("closes Undo once the game is over (R10.1)", () => {
    const { el } = setup(stateOf(over5(), { undo_status: { allowed: false, reason: "R10.1: the game is over; its result stands" } }));
    const undo = q<HTMLButtonElement>(el, '[data-testid="undo"]');
    expect(undo.disabled).toBe(true);
    expect(undo.title).toContain("R10.1");
  });

  it("replays the game on the board itself, and goes back to the end screen", () => {
    const { el, model } = setup(stateOf(over5(), { figures: figures() }));
    click(el, '[data-testid="replay-game"]');
    expect(model.sent).toEqual([{ kind: "replay", analyse: false }]);
    expect(q<HTMLButtonElement>(el, '[data-testid="replay-game"]').disabled).toBe(true);
    // The kernel answers and the board's traits become the replay's.
    const start = stateOf(place2());
    const scrubber = { index: 0, length: 40, rounds: [0, 12], playing: false, pace: 0.8, seat: 0, record_seat: null, label: "the start", next: "", can_continue: true, can_leave: true, levels: [], bots: {}, analysing: null };
    model.emit({ kind: "result", ok: true, error: "" });
    model.set("scrubber", scrubber);
    model.set("view", start.view);
    model.set("figures", []);
    expect(el.querySelector('[data-testid="game-over"]')).toBeNull();
    expect(q(el, '[data-testid="round"]').textContent).toBe("Round 1");
    expect(q(el, '[data-testid="replay"]')).toBeTruthy();
    click(el, '[data-testid="replay-leave"]');
    expect(model.sent.at(-1)).toEqual({ kind: "replay_leave" });
    // Back: the kernel puts the finished game back.
    model.set("scrubber", {});
    model.set("view", over5().view);
    expect(q(el, '[data-testid="game-over"]')).toBeTruthy();
    expect(el.querySelector('[data-testid="replay-leave"]')).toBeNull();
    click(el, '[data-testid="analyse-game"]');
    expect(model.sent.at(-1)).toEqual({ kind: "replay", analyse: true });
  });

  it("shows the kernel's refusal and lets the player ask again", () => {
    const { el, model } = setup(stateOf(over5()));
    click(el, '[data-testid="replay-game"]');
    model.emit({ kind: "result", ok: false, error: "R10.1: a game is replayed from the end screen, once it is over" });
    expect(q(el, '[data-testid="error"]').textContent).toContain("R10.1");
    expect(q<HTMLButtonElement>(el, '[data-testid="replay-game"]').disabled).toBe(false);
  });
});

describe("a replay of a game with bots", () => {
  it("names the player to move; nobody is thinking in a replay", () => {
    const f = place2();
    const scrubber = { index: 3, length: 40, rounds: [0], playing: false, pace: 0.8, seat: 0, record_seat: null, label: "", caption: "", next: "", can_continue: true, can_leave: true, levels: [], bots: {}, analysing: null };
    const { el } = setup(stateOf({ ...f, legal: [] }, { bots: { "1": "medium" }, scrubber, view: { ...f.view, to_move: 1 } }));
    expect(q(el, ".lf-turn").textContent).toBe("Hans to move");
    expect(el.querySelector('[data-testid="thinking"]')).toBeNull();
  });
});
