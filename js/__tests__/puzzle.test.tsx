import { describe, expect, it } from "vitest";
import { museum5, over5, place2, stateOf } from "../__fixtures__/views";
import { click, mountPerTest, q } from "./fake-model";
import { readPuzzle } from "../model";
import type { PuzzleInfo } from "../types";
import { difficultyDots } from "../board/puzzle";

const setup = mountPerTest();

/** As PuzzleSession.panel() sends it at the start of "Cash on the spot". */
function panel(extra: Partial<PuzzleInfo> = {}): PuzzleInfo {
  return {
    name: "Cash on the spot",
    goal: "reach 20 money this round",
    difficulty: 1,
    rule: "R5.3",
    story: "Hans has 18 money.",
    seat: 0,
    status: "Not yet: reach 20 money this round",
    state: "playing",
    solved: false,
    over: false,
    moves: 0,
    hints: [],
    hints_left: 2,
    ...extra,
  };
}

const text = (el: Element, testid: string): string => q(el, `[data-testid="${testid}"]`).textContent ?? "";

describe("the puzzle panel", () => {
  it("shows name, goal, difficulty, ruling and status; no panel on a normal board", () => {
    const { el } = setup(stateOf(museum5(), { puzzle: panel() }));
    expect(text(el, "puzzle-name")).toBe("Puzzle: Cash on the spot");
    expect(text(el, "puzzle-goal")).toBe("Goal: reach 20 money this round");
    expect(text(el, "puzzle-rule")).toBe("R5.3");
    expect(text(el, "puzzle-difficulty")).toContain("difficulty 1 of 5");
    expect(text(el, "puzzle-status")).toBe("Not yet: reach 20 money this round");
    expect(q(el, '[data-testid="puzzle-status"]').getAttribute("data-state")).toBe("playing");
    expect(el.querySelector('[data-testid="puzzle-hints"]')).toBeNull();
    const plain = setup(stateOf(museum5()));
    expect(plain.el.querySelector('[data-testid="puzzle"]')).toBeNull();
    expect(plain.el.querySelector('[data-testid="hint"]')).not.toBeNull();
  });

  it("lists what the puzzle tells and marks a told front on the board, and nothing else", () => {
    const fx = museum5();
    const first = fx.view.museum[0];
    if (first === undefined) throw new Error("the fixture's Museum is empty");
    fx.view.museum[0] = { ...first, kind: "statue", value: 4, told: true };
    const told = ["The Museum's first card is a statue worth 4."];
    const { el } = setup(stateOf(fx, { puzzle: panel({ told }) }));
    expect(text(el, "puzzle-told")).toBe(told[0]);
    const marked = el.querySelectorAll(".lf-told");
    expect(marked.length).toBe(1);
    expect(marked[0]?.getAttribute("title")).toBe("the puzzle tells you this front");
    const plain = setup(stateOf(museum5(), { puzzle: panel() }));
    expect(plain.el.querySelector('[data-testid="puzzle-told"]')).toBeNull();
    expect(plain.el.querySelector(".lf-told")).toBeNull();
  });

  it("replaces the search hint and New game with Puzzle hint and Try again, which send intents", () => {
    const { el, model } = setup(stateOf(place2(), { puzzle: panel() }));
    expect(el.querySelector('[data-testid="hint"]')).toBeNull();
    expect(el.querySelector('[data-testid="new-game"]')).toBeNull();
    expect(el.querySelector('[data-testid="undo"]')).not.toBeNull();
    click(el, '[data-testid="puzzle-hint"]');
    click(el, '[data-testid="puzzle-reset"]');
    expect(model.sent).toEqual([{ kind: "puzzle_hint" }, { kind: "puzzle_reset" }]);
  });

  it("follows the trait: hints in order, the button spent after the last, the verdict styled", () => {
    const { el, model } = setup(stateOf(place2(), { puzzle: panel() }));
    expect(text(el, "puzzle-hint")).toBe("Puzzle hint (2 left)");
    model.set("puzzle", panel({ hints: ["first"], hints_left: 1 }));
    expect([...el.querySelectorAll('[data-testid="puzzle-hints"] li')].map((li) => li.textContent)).toEqual(["first"]);
    expect(text(el, "puzzle-hint")).toBe("Another hint (1 left)");
    model.set("puzzle", panel({ hints: ["first", "second"], hints_left: 0 }));
    expect([...el.querySelectorAll('[data-testid="puzzle-hints"] li')].map((li) => li.textContent)).toEqual(["first", "second"]);
    const hint = q<HTMLButtonElement>(el, '[data-testid="puzzle-hint"]');
    expect(hint.disabled).toBe(true);
    expect(hint.textContent).toBe("No more hints");

    model.set("puzzle", panel({ status: "Illegal: R5.1: pay exactly lockpick, welder, welder", state: "illegal" }));
    expect(text(el, "puzzle-status")).toContain("Illegal: R5.1");
    expect(q(el, '[data-testid="puzzle"]').classList.contains("lf-puzzle-illegal")).toBe(true);
    model.set("puzzle", panel({ status: "Solved! You reach 20 money this round.", state: "solved", solved: true, over: true }));
    expect(text(el, "puzzle-status")).toBe("Solved! You reach 20 money this round.");
    expect(q(el, '[data-testid="puzzle"]').classList.contains("lf-puzzle-solved")).toBe(true);
    // Leaving puzzle mode ({}) brings the normal toolbar back.
    model.set("puzzle", {});
    expect(el.querySelector('[data-testid="puzzle"]')).toBeNull();
    expect(el.querySelector('[data-testid="new-game"]')).not.toBeNull();
  });

  it("reads a malformed trait safely (as from a hostile or older kernel)", () => {
    expect(readPuzzle({})).toBeNull();
    expect(readPuzzle(null)).toBeNull();
    expect(readPuzzle([1, 2])).toBeNull();
    expect(readPuzzle({ name: "x" })).toBeNull();
    const p = readPuzzle({ name: "x", status: "s", state: "bogus", hints: ["a", 3, null], hints_left: "2" });
    expect(p).toMatchObject({ name: "x", status: "s", state: "playing", hints: ["a"], hints_left: 0, solved: false });
  });

  it("draws difficulty as five dots", () => {
    expect(difficultyDots(1)).toBe("●○○○○");
    expect(difficultyDots(5)).toBe("●●●●●");
    expect(difficultyDots(9)).toBe("●●●●●");
    expect(difficultyDots(-1)).toBe("○○○○○");
  });

  it("ends with the round: no game-over standings on a puzzle board, and the status says so", () => {
    const solved = panel({ status: "Solved! You reach 20 money this round.", state: "solved", solved: true, over: true });
    const { el } = setup(stateOf(over5(), { puzzle: solved, legal: [] }));
    expect(el.querySelector('[data-testid="game-over"]')).toBeNull();
    expect(text(el, "puzzle-status")).toBe("Solved! You reach 20 money this round.");
    const roundEnd = over5();
    roundEnd.view = { ...roundEnd.view, is_over: false, phase: "act", to_move: null, decision: null, winners: [] };
    const ended = setup(stateOf(roundEnd, { puzzle: solved, legal: [] }));
    expect(ended.el.querySelector('[data-testid="game-over"]')).toBeNull();
    expect(ended.el.querySelector(".lf-status")?.textContent).toContain("Round over");
    const game = setup(stateOf(over5()));
    expect(game.el.querySelector('[data-testid="game-over"]')).not.toBeNull();
  });
});
