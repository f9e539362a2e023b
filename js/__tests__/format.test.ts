import { describe, expect, it } from "vitest";
import { actionWords, countWords, decisionWords, eventSentence, fenceWords, listWords, moneyTrack, rateWords, toolWords, winnersWords } from "../format";
import { city5, over5, villa5 } from "../__fixtures__/views";

const view = city5().view;

describe("log sentences", () => {
  it("reads every event type of view-format.md", () => {
    const s = (ev: Parameters<typeof eventSentence>[1]): string => eventSentence(view, ev);
    expect(s({ type: "deal", seat: 1, tools: null, count: 3 })).toBe("Hans is dealt three tools.");
    expect(s({ type: "deal", seat: 0, tools: ["hammer", "map"], count: 2 })).toBe("Pascal is dealt a hammer and a map.");
    expect(s({ type: "place", seat: 2, place: "ruin", square: 0 })).toBe("Tommaso places a token at the Ruin (square 1).");
    expect(s({ type: "actions_begin", round: 4 })).toContain("round 4");
    expect(s({ type: "take_tools", seat: 3, place: "city", square: 1, tools: ["map", "map"] })).toBe("Yoshiko takes two maps from the City.");
    expect(
      s({ type: "steal", seat: 4, place: "museum", square: 0, slot: 1, loot: { protection: "safe", tools: ["map", "map"] }, paid: ["map"], scoundrel: true }),
    ).toBe("Bobby steals a safe (two maps) at the Museum, paying a map and the scoundrel.");
    expect(s({ type: "cash", seat: 0, loot: {}, gained: 3, money: 10 })).toBe("Pascal opens the chest at once: +3 money (now 10).");
    expect(s({ type: "exchange", seat: 0, square: 1, rate: "1>2", gave: ["welder"], drew: null, count: 2 })).toBe(
      "Pascal exchanges a welder at the Ruin (1 tool for 2) and draws two tools.",
    );
    expect(s({ type: "exchange", seat: 0, square: 1, rate: "1>1", gave: ["welder"], drew: ["map"], count: 1 })).toContain("(1 tool for 1) and draws a map.");
    expect(
      s({ type: "sell", seat: 1, square: 0, fence: "F05", loot: [{ protection: "pillar", tools: [], kind: "painting", value: 3 }], gained: 5, money: 17 }),
    ).toBe("Hans sells a painting worth 3 to fence F05: +5 money (now 17).");
    expect(s({ type: "pass", seat: 1, place: "harbor", square: 2 })).toBe("Hans passes at the Harbor (square 3).");
    expect(s({ type: "ruin_reopens", seats: [0] })).toBe("The Ruin's exchange squares reopen.");
    expect(s({ type: "reshuffle", pile: "tools", size: 22 })).toContain("22 cards");
    expect(s({ type: "refill", place: "villa", cards: [{}, {}] })).toBe("The Villa is refilled with two cards.");
    expect(s({ type: "start_player", seat: 3, round: 5 })).toBe("Round 5: Yoshiko is the start player.");
    expect(eventSentence(over5().view, { type: "game_over", money: [], winners: [3, 4] })).toBe("Game over: Yoshiko and Bobby win.");
  });
});

describe("words", () => {
  it("lists", () => {
    expect(listWords([])).toBe("nothing");
    expect(listWords(["a", "b", "c"])).toBe("a, b and c");
  });
  it("says who won with the verb that agrees, 'You' included", () => {
    expect(winnersWords(["Rose"])).toBe("Rose wins");
    expect(winnersWords(["You"])).toBe("You win");
    expect(winnersWords(["Rose", "You"])).toBe("Rose and You win");
  });
  it("counts tools as the kernel does: plurals, articles, and pliers without an article", () => {
    expect(toolWords(["map", "lockpick", "lockpick"])).toBe("two lockpicks and a map");
    expect(toolWords(["pliers"])).toBe("pliers");
    expect(toolWords(["pliers", "pliers", "welder"])).toBe("two pliers and a welder");
    expect(toolWords(["hammer"])).toBe("a hammer");
    expect(countWords(1, "tool")).toBe("one tool");
    expect(countWords(12, "card")).toBe("12 cards");
    expect(rateWords("1>2")).toBe("1 tool for 2");
    expect(rateWords("3>4")).toBe("3 tools for 4");
  });
  it("describes fences, actions and decisions", () => {
    expect(fenceWords({ id: "F01", buys: { painting: [2, 0], gold: [1, 1] } })).toBe("fence F01 (buys two paintings and gold +1)");
    const v = villa5().view;
    expect(actionWords(v, { type: "steal", slot: 0, pay: ["hammer"], scoundrel: true })).toBe(
      "steal a pillar (a lockpick and a hammer) (card 1) paying a hammer and the scoundrel",
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
