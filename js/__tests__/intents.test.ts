import { describe, expect, it } from "vitest";
import {
  actionEquals,
  actionTargets,
  canPass,
  cityAction,
  citySlotEnabled,
  exchangeAction,
  giveCardEnabled,
  handCards,
  isLegal,
  isSubMultiset,
  openRates,
  placeablePlaces,
  sellAction,
  sellLootEnabled,
  sellableFences,
  stealChoice,
  stealableSlots,
  toolOrder,
  whyExchange,
  whySteal,
} from "../intents";
import type { Action, Tool } from "../types";
import { city5, harbor5, museum5, place2, ruin5, villa5 } from "../__fixtures__/views";

describe("multisets", () => {
  it("counts repeats", () => {
    expect(isSubMultiset(["map", "map"], ["map", "hammer"])).toBe(false);
    expect(isSubMultiset(["map", "map"], ["map", "hammer", "map"])).toBe(true);
    expect(isSubMultiset([], ["map"])).toBe(true);
  });
  it("compares actions as multisets where DESIGN.md says so", () => {
    expect(actionEquals({ type: "take_tools", tools: ["map", "hammer"] }, { type: "take_tools", tools: ["hammer", "map"] })).toBe(true);
    expect(actionEquals({ type: "take_tools", tools: ["map", "map"] }, { type: "take_tools", tools: ["hammer", "map"] })).toBe(false);
    expect(
      actionEquals(
        { type: "steal", slot: 1, pay: ["map"], scoundrel: true },
        { type: "steal", slot: 1, pay: ["map"], scoundrel: false },
      ),
    ).toBe(false);
    expect(actionEquals({ type: "sell", fence: "F01", loot: ["L02", "L06"] }, { type: "sell", fence: "F01", loot: ["L06", "L02"] })).toBe(true);
    expect(actionEquals({ type: "pass" }, { type: "place", place: "city" })).toBe(false);
  });
  it("sorts tools in board order", () => {
    expect(toolOrder(["map", "lockpick", "welder", "hammer"])).toEqual(["lockpick", "hammer", "welder", "map"]);
  });
});

describe("placing", () => {
  it("offers exactly the places of the legal actions", () => {
    const legal: Action[] = [
      { type: "place", place: "villa" },
      { type: "place", place: "harbor" },
    ];
    expect([...placeablePlaces(legal)].sort()).toEqual(["harbor", "villa"]);
    expect(canPass(legal)).toBe(false);
    expect(placeablePlaces(place2().legal).size).toBe(5);
  });
});

describe("City", () => {
  const { view, legal } = city5();
  it("enables a tool only while a legal take still contains the picks", () => {
    // city: lockpick hammer hammer pliers welder map map map
    expect(citySlotEnabled(legal, view.city, [], 0)).toBe(true);
    expect(citySlotEnabled(legal, view.city, [1], 2)).toBe(true); // hammer + hammer
    expect(citySlotEnabled(legal, view.city, [1, 2], 5)).toBe(false); // a third tool
    expect(citySlotEnabled(legal, view.city, [1, 2], 1)).toBe(true); // put back
  });
  it("completes only on a legal multiset", () => {
    expect(cityAction(legal, view.city, [5])).toBeNull();
    expect(cityAction(legal, view.city, [6, 0])).toEqual({ type: "take_tools", tools: ["lockpick", "map"] });
  });
  it("allows a single tool when that is all the kernel offers (R4)", () => {
    const one: Action[] = [{ type: "take_tools", tools: ["welder"] }, { type: "pass" }];
    const city: Tool[] = ["welder"];
    expect(citySlotEnabled(one, city, [], 0)).toBe(true);
    expect(cityAction(one, city, [0])).toEqual({ type: "take_tools", tools: ["welder"] });
  });
});

describe("Villa and Museum", () => {
  it("pre-fills the payment and offers the scoundrel when both variants are legal", () => {
    const { legal } = villa5();
    expect([...stealableSlots(legal)].sort()).toEqual([0, 2]);
    const plain = stealChoice(legal, 0, null);
    expect(plain).toEqual({ action: { type: "steal", slot: 0, pay: ["lockpick", "hammer"], scoundrel: false }, canToggle: true });
    expect(stealChoice(legal, 0, true)?.action).toEqual({ type: "steal", slot: 0, pay: ["hammer"], scoundrel: true });
    expect(stealChoice(legal, 1, null)).toBeNull();
  });
  it("uses the scoundrel when it is the only way, without a toggle", () => {
    const legal: Action[] = [{ type: "steal", slot: 0, pay: ["map"], scoundrel: true }];
    expect(stealChoice(legal, 0, null)).toEqual({ action: legal[0], canToggle: false });
    expect(stealChoice(legal, 0, false)?.action.scoundrel).toBe(true);
  });
  it("no toggle when no scoundrel variant exists", () => {
    expect(stealChoice(museum5().legal, 1, null)?.canToggle).toBe(false);
  });
  it("asks why with the card's full payment", () => {
    expect(whySteal(1, { protection: "safe", tools: ["welder", "pliers", "hammer"] })).toEqual({
      type: "steal",
      slot: 1,
      pay: ["hammer", "pliers", "welder"],
      scoundrel: false,
    });
  });
});

describe("Ruin", () => {
  const { view, legal } = ruin5();
  const hand = handCards(view.players[0]?.hand ?? null);
  it("lists the hand as single cards in tool order", () => {
    expect(hand).toEqual(["lockpick", "hammer", "hammer", "welder", "map", "map"]);
    expect(handCards(null)).toEqual([]);
  });
  it("offers the free squares only", () => {
    expect(openRates(legal).has("2>3")).toBe(false);
    expect(openRates(legal).has("3>4")).toBe(true);
  });
  it("enables cards up to the square's count and completes on it", () => {
    expect(giveCardEnabled(legal, null, hand, [], 0)).toBe(false);
    expect(giveCardEnabled(legal, "1>1", hand, [], 4)).toBe(true);
    expect(giveCardEnabled(legal, "1>1", hand, [4], 5)).toBe(false);
    expect(exchangeAction(legal, "2>2", hand, [4])).toBeNull();
    expect(exchangeAction(legal, "2>2", hand, [5, 4])).toEqual({ type: "exchange", rate: "2>2", give: ["map", "map"] });
  });
  it("asks why with the first cards of the hand", () => {
    expect(whyExchange("3>4", ["map"], [])).toEqual({ type: "exchange", rate: "3>4", give: ["map"] });
  });
});

describe("Harbor", () => {
  const { legal } = harbor5();
  it("offers fences that buy something of the seat's loot", () => {
    expect([...sellableFences(legal)].sort()).toEqual(["F01", "F02", "F04", "F05"]);
  });
  it("never mixes two kinds in one sale (from legal, R8.2)", () => {
    expect(sellLootEnabled(legal, "F04", [], "L08")).toBe(true);
    expect(sellLootEnabled(legal, "F04", ["L08"], "L14")).toBe(false);
    expect(sellAction(legal, "F04", ["L08"])).toEqual({ type: "sell", fence: "F04", loot: ["L08"] });
    expect(sellAction(legal, "F04", [])).toBeNull();
  });
  it("sells two of a kind to a fence that shows it twice", () => {
    const two: Action[] = [
      { type: "sell", fence: "F01", loot: ["L02"] },
      { type: "sell", fence: "F01", loot: ["L06"] },
      { type: "sell", fence: "F01", loot: ["L02", "L06"] },
    ];
    expect(sellLootEnabled(two, "F01", ["L02"], "L06")).toBe(true);
    expect(sellAction(two, "F01", ["L06", "L02"])).toEqual(two[2]);
    expect(isLegal(two, { type: "sell", fence: "F01", loot: ["L06", "L02"] })).toBe(true);
  });
});

describe("targets of an action", () => {
  it("finds what a hint or a last move touches", () => {
    expect(actionTargets({ type: "place", place: "ruin" }, null)).toEqual({ place: "ruin" });
    expect(actionTargets({ type: "steal", slot: 2, pay: [], scoundrel: false }, "museum")).toEqual({ place: "museum", slot: 2 });
    expect(actionTargets({ type: "sell", fence: "F02", loot: ["L08"] }, "harbor")).toEqual({ place: "harbor", fence: "F02", loot: ["L08"] });
    expect(actionTargets(undefined, null)).toEqual({});
  });
});
