/**
 * The click logic against what the kernel really sends: positions sampled
 * from random games by js/__fixtures__/make_kernel_positions.py. Every legal
 * action can be composed by clicks, the clicks send exactly it, and the board
 * never carries an id of loot that is not the seat's own.
 */
import { afterEach, describe, expect, it } from "vitest";
import { act } from "preact/test-utils";
import positions from "../__fixtures__/kernel-positions.json";
import { stateOf } from "../__fixtures__/views";
import type { Fixture } from "../__fixtures__/views";
import {
  actionEquals,
  canPass,
  cityAction,
  citySlotEnabled,
  exchangeAction,
  giveCardEnabled,
  handCards,
  openRates,
  placeablePlaces,
  sellAction,
  sellLootEnabled,
  sellableFences,
  stealChoice,
  stealableSlots,
} from "../intents";
import type { Action, Tool, View } from "../types";
import { mount, q } from "./fake-model";

const all = positions as unknown as Fixture[];

/** Indexes into `cards` that pick the multiset `wanted`, first matching cards first. */
function indexesFor(cards: readonly Tool[], wanted: readonly Tool[]): number[] {
  const used = new Set<number>();
  return wanted.map((t) => {
    const i = cards.findIndex((c, j) => c === t && !used.has(j));
    used.add(i);
    return i;
  });
}

/** The clicks a person makes for `action`, as selectors (scoundrel toggle handled apart). */
function clicksFor(view: View, action: Action): string[] {
  const seat = view.seat ?? (view.to_move as number);
  switch (action.type) {
    case "place":
      return [`[data-place="${action.place}"]`];
    case "take_tools":
      return [...indexesFor(view.city, action.tools).map((i) => `[data-area="city"] [data-index="${i}"]`), '[data-testid="confirm"]'];
    case "steal":
      return [`[data-area="${view.decision?.place}"] [data-slot="${action.slot}"]`];
    case "exchange": {
      const hand = handCards(view.players[seat]?.hand ?? null);
      return [
        `[data-rate="${action.rate}"]`,
        ...indexesFor(hand, action.give).map((i) => `[data-area="hand"] [data-index="${i}"]`),
        '[data-testid="confirm"]',
      ];
    }
    case "sell":
      return [`[data-fence="${action.fence}"]`, ...action.loot.map((id) => `[data-loot="${id}"]`), '[data-testid="confirm"]'];
    case "pass":
      return ['[data-testid="pass"]'];
  }
}

/** Can the click logic reach `action`, each pick enabled on the way? (pure: no DOM) */
function composable(f: Fixture, action: Action): boolean {
  const { view, legal } = f;
  const seat = view.seat ?? (view.to_move as number);
  const same = (a: Action | null | undefined): boolean => a !== null && a !== undefined && actionEquals(a, action);
  switch (action.type) {
    case "place":
      return placeablePlaces(legal).has(action.place);
    case "take_tools": {
      const idx = indexesFor(view.city, action.tools);
      return idx.every((i, k) => citySlotEnabled(legal, view.city, idx.slice(0, k), i)) && same(cityAction(legal, view.city, idx));
    }
    case "steal":
      return stealableSlots(legal).has(action.slot) && same(stealChoice(legal, action.slot, action.scoundrel)?.action);
    case "exchange": {
      const hand = handCards(view.players[seat]?.hand ?? null);
      const idx = indexesFor(hand, action.give);
      return (
        openRates(legal).has(action.rate) &&
        idx.every((i, k) => giveCardEnabled(legal, action.rate, hand, idx.slice(0, k), i)) &&
        same(exchangeAction(legal, action.rate, hand, idx))
      );
    }
    case "sell":
      return (
        sellableFences(legal).has(action.fence) &&
        action.loot.every((id, k) => sellLootEnabled(legal, action.fence, action.loot.slice(0, k), id)) &&
        same(sellAction(legal, action.fence, action.loot))
      );
    case "pass":
      return canPass(legal);
  }
}

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function playByClicks(f: Fixture, action: Action): unknown[] {
  const m = mount(stateOf(f));
  cleanup = m.cleanup;
  for (const sel of clicksFor(f.view, action)) {
    const el = q(m.el, sel);
    expect(el.getAttribute("aria-disabled"), `${sel} for ${JSON.stringify(action)}`).toBeNull();
    act(() => el.click());
  }
  if (action.type === "steal") {
    const toggle = m.el.querySelector<HTMLInputElement>('[data-testid="scoundrel"]');
    if (toggle && toggle.checked !== action.scoundrel) act(() => toggle.click());
    act(() => q(m.el, '[data-testid="confirm"]').click());
  }
  const sent = m.model.sent;
  m.cleanup();
  cleanup = null;
  return sent;
}

describe("kernel positions", () => {
  it("cover every decision kind and game over", () => {
    const kinds = new Set(all.map((p) => p.view.decision?.kind ?? "over"));
    expect([...kinds].sort()).toEqual(["city", "harbor", "museum", "over", "place", "ruin", "villa"]);
  });

  it.each(all.map((p, i) => [i, p.view.decision?.kind ?? "over", p.view.players.length, p] as const))(
    "position %i (%s, %i players): every legal action is clickable and sent as is",
    (_i, _kind, _n, f) => {
      expect(f.legal.every((a) => composable(f, a)), "every legal action composes from the intents").toBe(true);
      // Clicking through the DOM is slower: one action from the middle, and the last (often pass).
      const picks = new Set([Math.floor(f.legal.length / 2), f.legal.length - 1]);
      for (const action of f.legal.filter((_, j) => picks.has(j))) {
        const sent = playByClicks(f, action);
        const acts = sent.filter((m) => (m as { kind: string }).kind === "act") as { action: Action }[];
        expect(acts.length, JSON.stringify(action)).toBe(1);
        expect(actionEquals(acts[0]?.action as Action, action), `${JSON.stringify(acts[0]?.action)} vs ${JSON.stringify(action)}`).toBe(true);
        expect(sent.some((m) => (m as { kind: string }).kind === "why")).toBe(false);
      }
      // and the board shows no loot id that is not the seat's own
      const m = mount(stateOf(f));
      cleanup = m.cleanup;
      const own = new Set((f.view.players[f.view.seat ?? -1]?.loot ?? []).map((l) => l.id));
      for (const e of m.el.querySelectorAll("[data-loot]")) expect(own.has(e.getAttribute("data-loot") ?? "")).toBe(true);
    },
  );
});
