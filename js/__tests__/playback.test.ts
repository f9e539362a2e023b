import { describe, expect, it } from "vitest";
import { city5 } from "../__fixtures__/views";
import { newEvents, roundEndWords, sinceLastMove, stepMs, stepsOf } from "../playback";
import type { GameEvent } from "../types";

const view = city5().view; // Pascal, Hans, Tommaso, Yoshiko, Bobby

const place = (seat: number, where: string, square: number): GameEvent => ({ type: "place", seat, place: where as GameEvent["place"], square });
const roundEnd: GameEvent[] = [
  { type: "sell", seat: 3, square: 0, fence: "F01", loot: [{ protection: "pillar", tools: ["map"], kind: "painting", value: 3 }], gained: 5, money: 23 },
  { type: "refill", place: "city", cards: ["map", "map"] },
  { type: "reshuffle", pile: "loot", size: 12 },
  { type: "refill", place: "villa", cards: [{ protection: "safe", tools: ["map"] }] },
  { type: "refill", place: "harbor", cards: [] },
  { type: "start_player", seat: 3, round: 5 },
];

describe("which events are new", () => {
  it("finds the events after the overlap of two windows of the log", () => {
    const log = Array.from({ length: 40 }, (_, i) => place(i % 3, "city", i % 5));
    expect(newEvents(log.slice(0, 30), log.slice(3, 33))).toEqual(log.slice(30, 33));
    expect(newEvents(log.slice(10, 40), log.slice(10, 40))).toEqual([]);
  });

  it("sees no continuation after an undo, a new game, or on the first sight", () => {
    const log = Array.from({ length: 40 }, (_, i) => place(i % 3, "villa", i));
    expect(newEvents(log.slice(5, 35), log.slice(3, 33))).toBeNull(); // went back
    expect(newEvents([], log.slice(0, 3))).toBeNull();
    expect(newEvents(log.slice(0, 5), [place(0, "harbor", 0)])).toBeNull();
  });
});

describe("steps to show", () => {
  it("shows each act of the others where it happens, with what moves where", () => {
    const steps = stepsOf(view, [place(1, "museum", 2), place(0, "city", 1)], (s) => s === 0);
    expect(steps).toHaveLength(1); // the seat's own move needs no showing
    const [step] = steps;
    expect(step?.text).toBe("Hans places a token at the Museum (square 3).");
    expect(step?.flash).toMatchObject({ seat: 1, place: "museum", square: 2 });
    expect(step?.flights).toEqual([{ from: 'article.lf-player[data-seat="1"] .lf-tokens', to: '[data-area="museum"] [data-square="2"]', what: { token: 1 } }]);
  });

  it("joins a chest's cash to its steal, and counts the money gained", () => {
    const steal: GameEvent = { type: "steal", seat: 2, place: "villa", square: 1, slot: 0, loot: { protection: "chest", tools: ["hammer"], kind: "money", value: 2 }, paid: ["hammer"], scoundrel: false };
    const cash: GameEvent = { type: "cash", seat: 2, loot: { protection: "chest", tools: ["hammer"], kind: "money", value: 2 }, gained: 2, money: 5 };
    const [step, ...rest] = stepsOf(view, [steal, cash], () => false);
    expect(rest).toEqual([]);
    expect(step?.text).toContain("Tommaso steals 2 money at the Villa");
    expect(step?.text).toContain("opens the chest at once: +2 money (now 5)");
    expect(step?.gained).toBe(2);
    expect(step?.flights[0]).toMatchObject({ from: '[data-area="villa"] [data-slot="0"]', to: 'article.lf-player[data-seat="2"] .lf-player-loot' });
  });

  it("flies an exchange's blind draw as card backs (R11.2: never the tools)", () => {
    const ex: GameEvent = { type: "exchange", seat: 4, square: 0, rate: "2>3", gave: ["map", "map"], drew: null, count: 3 };
    const [step] = stepsOf(view, [ex], () => false);
    expect(step?.flash).toMatchObject({ place: "ruin", rate: "2>3", seat: 4 });
    expect(step?.flights.map((f) => f.what)).toEqual([{ tools: ["map", "map"] }, { tools: [null, null, null] }]);
  });

  it("makes the end of a round one step with its banner words (R9)", () => {
    const steps = stepsOf(view, roundEnd, () => false);
    expect(steps.map((s) => s.kind)).toEqual(["act", "round"]);
    expect(steps[1]?.round).toBe(5);
    expect(steps[1]?.text).toBe(
      "Round 4 is over. City and Villa are refilled (R9.1). The loot discard is shuffled into a new draw pile (R9.2). Yoshiko is the start player now (R9.3).",
    );
    expect(roundEndWords(view, [])).toBe("The round is over.");
  });

  it("skips the deal before round 1, and tells the Ruin reopening in words only", () => {
    const setup: GameEvent[] = [
      { type: "deal", seat: 0, tools: ["map"], count: 1 },
      { type: "refill", place: "city", cards: ["map"] },
      { type: "ruin_reopens", seats: [1] },
    ];
    const steps = stepsOf(view, setup, () => false);
    expect(steps.map((s) => [s.kind, s.text])).toEqual([["info", "The Ruin's exchange squares reopen."]]);
  });
});

describe("since your last move", () => {
  it("lists the others' acts and the round's end after the seat's own last act", () => {
    const log = [place(0, "city", 0), place(1, "city", 1), place(0, "villa", 0), place(2, "villa", 1), ...roundEnd];
    const recap = sinceLastMove(view, log, (s) => s === 0);
    expect(recap.map((r) => r.seat ?? "round")).toEqual([2, 3, "round"]);
    expect(recap[0]?.text).toBe("Tommaso places a token at the Villa (square 2).");
    expect(sinceLastMove(view, [place(1, "city", 0), place(0, "city", 1)], (s) => s === 0)).toEqual([]);
  });
});

describe("the pace of the steps", () => {
  it("follows the pace, never too fast to see, and catches up on a long queue", () => {
    expect(stepMs(0, 0)).toBe(0);
    expect(stepMs(0.1, 0)).toBe(300);
    expect(stepMs(0.1, 9)).toBe(200);
    expect(stepMs(1.2, 0)).toBe(1200);
    expect(stepMs(1.2, 9)).toBe(600);
    expect(stepMs(10, 0)).toBe(4000);
  });
});
