import { describe, expect, it } from "vitest";
import { actionWords, decisionWords, eventSentence, fenceWords, listWords, moneyTrack } from "../format";
import { city5, over5, villa5 } from "../__fixtures__/views";

const view = city5().view;

describe("log sentences", () => {
  it("reads every event type of view-format.md", () => {
    const s = (ev: Parameters<typeof eventSentence>[1]): string => eventSentence(view, ev);
    expect(s({ type: "deal", seat: 1, tools: null, count: 3 })).toBe("Hans is dealt 3 tools.");
    expect(s({ type: "deal", seat: 0, tools: ["hammer", "map"], count: 2 })).toBe("Pascal is dealt hammer and map.");
    expect(s({ type: "place", seat: 2, place: "ruin", square: 0 })).toBe("Tommaso places a token at the Ruin (square 1).");
    expect(s({ type: "actions_begin", round: 4 })).toContain("round 4");
    expect(s({ type: "take_tools", seat: 3, place: "city", square: 1, tools: ["map", "map"] })).toBe("Yoshiko takes map and map from the City.");
    expect(
      s({ type: "steal", seat: 4, place: "museum", square: 0, slot: 1, loot: { protection: "safe", tools: ["map", "map"] }, paid: ["map"], scoundrel: true }),
    ).toBe("Bobby steals a safe (map, map) at the Museum, paying map and the scoundrel.");
    expect(s({ type: "cash", seat: 0, loot: {}, gained: 3, money: 10 })).toBe("Pascal cashes a chest: +3 (now 10).");
    expect(s({ type: "exchange", seat: 0, square: 1, rate: "1>2", gave: ["welder"], drew: null, count: 2 })).toBe(
      "Pascal exchanges welder at the Ruin (1>2), draws 2 tools.",
    );
    expect(s({ type: "exchange", seat: 0, square: 1, rate: "1>1", gave: ["welder"], drew: ["map"], count: 1 })).toContain("draws map");
    expect(
      s({ type: "sell", seat: 1, square: 0, fence: "F05", loot: [{ protection: "pillar", tools: [], kind: "painting", value: 3 }], gained: 5, money: 17 }),
    ).toBe("Hans sells painting worth 3 to fence F05: +5 (now 17).");
    expect(s({ type: "pass", seat: 1, place: "harbor", square: 2 })).toBe("Hans passes at the Harbor (square 3).");
    expect(s({ type: "ruin_reopens", seats: [0] })).toBe("The Ruin's exchange squares reopen.");
    expect(s({ type: "reshuffle", pile: "tools", size: 22 })).toContain("22 cards");
    expect(s({ type: "refill", place: "villa", cards: [{}, {}] })).toBe("The Villa is refilled with 2 cards.");
    expect(s({ type: "start_player", seat: 3, round: 5 })).toBe("Round 5: Yoshiko is the start player.");
    expect(eventSentence(over5().view, { type: "game_over", money: [], winners: [3, 4] })).toBe("Game over: Yoshiko and Bobby win.");
  });
});

describe("words", () => {
  it("lists", () => {
    expect(listWords([])).toBe("nothing");
    expect(listWords(["a", "b", "c"])).toBe("a, b and c");
  });
  it("describes fences, actions and decisions", () => {
    expect(fenceWords({ id: "F01", buys: { painting: [2, 0], gold: [1, 1] } })).toBe("fence F01 (buys 2× painting and gold +1)");
    const v = villa5().view;
    expect(actionWords(v, { type: "steal", slot: 0, pay: ["hammer"], scoundrel: true })).toBe(
      "steal a pillar (lockpick, hammer) (card 1) paying hammer and the scoundrel",
    );
    expect(decisionWords(v)).toBe("Pascal may steal loot at the Villa (square 2).");
    expect(decisionWords(over5().view)).toBe("The game is over.");
  });
});

describe("money track", () => {
  it("stops at 20 and says when the total is beyond it, never wrapping (R10.1)", () => {
    expect(moneyTrack(0)).toEqual({ pos: 0, beyond: false });
    expect(moneyTrack(20)).toEqual({ pos: 20, beyond: false });
    expect(moneyTrack(21)).toEqual({ pos: 20, beyond: true });
    expect(moneyTrack(43)).toEqual({ pos: 20, beyond: true });
  });
});
